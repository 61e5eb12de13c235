"""One answer, two systems: the per-feature (primal) and per-row (dual) solutions."""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge, Ridge, data, kernels
from kreport.pages._settings import PENALTY, QUESTION_HEIGHT
from kreport.report import bound, claim, exact

from . import fits

#: Times at which the two fitted curves are compared, evenly across the throw.
SAMPLES = 81

WHOLE = ("the three people's heights and weights are whole numbers with whole means, so "
         "their centred values and every product and sum of them are small whole numbers")


def whole(values) -> list:
    array = np.asarray(values, dtype=float)
    return np.vectorize(lambda x: round(float(x)))(array).tolist()


def three_people() -> dict:
    """w = (X_cᵀX_c + αI)⁻¹X_cᵀy_c and a = (X_cX_cᵀ + αI)⁻¹y_c on the three people."""
    fixture = data.three_people()
    X, y = np.array(fixture.rows), np.array(fixture.target)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    primal = Ridge(PENALTY).fit(X, y)
    dual = KernelRidge(kernels.linear(), PENALTY).fit(X, y)
    a = dual.dual_weights_
    w = float(primal.coef_[0])
    from_dual = float(Xc[:, 0] @ a)
    claim("the slope rebuilt from the dual weights is the primal slope",
          abs(from_dual - w) < 1e-12 * abs(w), id="same_slope")
    claim("the middle person, at the mean height and the mean weight, gets a dual weight of zero",
          abs(a[1]) < 1e-10, id="middle_zero")
    claim("the outer two get equal and opposite dual weights", abs(a[0] + a[2]) < 1e-12,
          id="opposite")
    residuals = yc - (Xc @ Xc.T) @ a
    claim("each dual weight is that person's residual over the penalty",
          np.allclose(a, residuals / PENALTY, rtol=0, atol=1e-12), id="residual_over_penalty")
    question = np.array([[QUESTION_HEIGHT]])
    p_primal, p_dual = float(primal.predict(question)[0]), float(dual.predict(question)[0])
    claim("both forms answer the question height with the same weight",
          abs(p_primal - p_dual) < 1e-12 * p_primal, id="same_answer")
    return {
        "penalty": PENALTY,
        "heights": exact(whole(X[:, 0]), WHOLE),
        "weights": exact(whole(y), WHOLE),
        "centred_heights": exact(whole(Xc[:, 0]), WHOLE),
        "centred_weights": exact(whole(yc), WHOLE),
        "scatter": exact(round(float(Xc[:, 0] @ Xc[:, 0])), WHOLE),
        "cross": exact(round(float(Xc[:, 0] @ yc)), WHOLE),
        "table": exact(whole(Xc @ Xc.T), WHOLE),
        "system": exact(whole(Xc @ Xc.T + PENALTY * np.eye(3)), WHOLE),
        "slope": w,
        "dual_weights": [float(a[0]), bound(a[1], -10), float(a[2])],
        "from_dual": from_dual,
        "question": QUESTION_HEIGHT,
        "answer": p_primal,
        "mean_weight": float(y.mean()),
    }


def throws_side_by_side() -> dict:
    """The flexible throws model at its best penalty: a 6 × 6 system against a 15 × 15 one."""
    t, y = fits.throws()
    X = fits.features()
    Xc = X - X.mean(axis=0)
    penalty = float(fits.PENALTIES[fits.best_index()])
    primal = Ridge(penalty).fit(X, y)
    dual = KernelRidge(kernels.linear(), penalty).fit(X, y)
    w, a = primal.coef_, dual.dual_weights_
    gap_w = float(np.max(np.abs(Xc.T @ a - w)) / np.max(np.abs(w)))
    grid = fits.powers(np.linspace(t.min(), t.max(), SAMPLES), fits.DEGREE)
    gap_p = float(np.max(np.abs(primal.predict(grid) - dual.predict(grid))))
    claim("the primal weights equal X_cᵀ a, the centred rows weighted by the dual weights",
          gap_w < 1e-9, id="identity")
    claim("the two fitted curves agree everywhere across the throw", gap_p < 1e-9,
          id="same_curve")
    n, p = Xc.shape
    claim("the dual system is the larger one here", n > p, id="dual_larger")
    times = t - t.mean()
    line_scatter = float(times @ times)
    table_eigenvalues = np.linalg.eigvalsh(np.outer(times, times))
    nonzero = int(np.count_nonzero(table_eigenvalues > 1e-10 * table_eigenvalues.max()))
    claim("with time alone, the n × n table has exactly one non-zero eigenvalue", nonzero == 1,
          id="rank_one")
    claim("and it equals the sum of squared centred times, the one-by-one primal system's "
          "entry before the penalty is added",
          abs(table_eigenvalues.max() - line_scatter) < 1e-12 * line_scatter, id="same_number")
    return {
        "penalty": penalty,
        "n": int(n),
        "p": int(p),
        "primal_entries": int(p * p),
        "dual_entries": int(n * n),
        "weights": w,
        "weight_gap": bound(gap_w, -9),
        "curve_gap": bound(gap_p, -9),
        "samples": SAMPLES,
        "line_scatter": line_scatter,
        "line_nonzero": nonzero,
    }
