"""The dual form: two forms of one answer, three people solved by hand, the
derivation checked on the throws, weights read as residuals, what is kept."""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge
from kreport.report import bound, claim, exact

from .fits import (
    LINEAR,
    RBF_WORKED,
    centred_rows,
    centred_target,
    dataset,
    gram,
    kernel_fit,
    r_squared,
    relative_gap,
    ridge_fit,
    sample_grid,
    slope_from_dual,
)
from .settings import (
    DERIVATION_PENALTIES,
    PENALTY,
    QUESTION_HEIGHT,
    SAMPLES,
    SHRINKING_PENALTIES,
)

#: Why the three people's arithmetic is exact on every machine.
WHOLE_PEOPLE = ("the three people's heights and weights are whole numbers, so their means, "
                "centred values, products and sums, and the slope twelve over three, come out "
                "without rounding")
#: Whole-number facts are exact on the committed data; on data perturbed by a few
#: units in the last place they stay within this of the whole numbers.
WHOLE_WITHIN = 1e-9
#: How close to whole numbers the three people's dual quantities come out of
#: the Cholesky solve (which takes square roots, so it rounds).
NEAR_WHOLE = 1e-11


def whole(values):
    """Exact whole-number facts of the three people, printed as ints (the section
    claims once, on the committed data, that they are whole)."""
    ints = np.rint(np.asarray(values, dtype=float)).astype(int)
    return exact(ints.tolist() if ints.ndim else int(ints), WHOLE_PEOPLE)


def _all_whole(*values) -> bool:
    return all(np.max(np.abs(np.asarray(v, dtype=float) - np.rint(v))) < WHOLE_WITHIN
               for v in values)


def two_forms():
    """The primal system is p × p, the dual n × n; the dual reads the rows only through K̃."""
    sizes = centred_rows("throws").shape
    crowd = dataset("crowd")
    mirrored = KernelRidge(LINEAR, PENALTY).fit(-crowd.rows, crowd.target)
    original = kernel_fit("crowd", LINEAR, PENALTY)
    # Negating a number is exact in floating point, and so is every mean, difference
    # and product of negated numbers: the mirrored table is the same table to the
    # last bit on any data, so the same deterministic solve returns the same weights.
    mirrored_rows = -crowd.rows - (-crowd.rows).mean(axis=0)
    claim("mirroring the heights leaves the table unchanged to the last bit",
          np.array_equal(LINEAR(mirrored_rows, mirrored_rows), gram("crowd", LINEAR)),
          id="same_table")
    claim("mirroring the heights leaves every dual weight unchanged to the last bit",
          np.array_equal(mirrored.dual_weights_, original.dual_weights_), id="same_weights")
    return {
        "features": sizes[1],
        "rows": sizes[0],
        "primal_size": sizes[1] ** 2,
        "dual_size": sizes[0] ** 2,
    }


def three_people():
    """Three people: the linear and RBF tables, the primal slope, the dual system solved."""
    people = dataset("three_people")
    heights, weights = people.rows[:, 0], people.target
    x, y = centred_rows("three_people")[:, 0], centred_target("three_people")
    linear_table = gram("three_people", LINEAR)
    rbf_table = gram("three_people", RBF_WORKED)
    sxy, sxx = float(x @ y), float(x @ x)
    primal_slope = sxy / (sxx + PENALTY)
    model = kernel_fit("three_people", LINEAR, PENALTY)
    dual = model.dual_weights_
    rounded = np.rint(dual)
    dual_slope = float(slope_from_dual(model)[0])
    answer = float(model.predict([[QUESTION_HEIGHT]])[0])
    system = linear_table + PENALTY * np.eye(3)
    # The arithmetic of whole numbers is exact, so on the committed data these hold
    # to the last bit; the claims allow rounding (WHOLE_WITHIN) so that they also hold,
    # as they should, on data a few units in the last place away.
    claim("the heights, weights, their means, centred values, the linear table, the system, "
          "both sums and the primal slope are whole numbers (to {tol})",
          _all_whole(heights, weights, heights.mean(), weights.mean(), x, y, linear_table,
                     system, sxy, sxx, primal_slope), id="whole", tol=WHOLE_WITHIN)
    claim("the two entries linking the outer two people are {entry} (to {tol})",
          lambda tol: abs(linear_table[0, 2] + 1) < tol and abs(linear_table[2, 0] + 1) < tol,
          id="outer_entries", entry=-1, tol=WHOLE_WITHIN)
    claim("the middle row and column of the linear table are zero (to {tol})",
          lambda tol: np.max(np.abs(linear_table[1])) < tol
          and np.max(np.abs(linear_table[:, 1])) < tol, id="middle_zero",
          tol=WHOLE_WITHIN)
    claim("the middle person's weight is the mean weight (to {tol} kg)",
          lambda tol: abs(y[1]) < tol, id="middle_at_mean", tol=WHOLE_WITHIN)
    claim("the dual weights come out within {tol} of {first}, {second} and {third}",
          lambda tol, first, second, third: np.max(np.abs(dual - [first, second, third])) < tol,
          id="weights", tol=NEAR_WHOLE,
          first=-2, second=0, third=2)
    claim("the dual weights summed through the centred heights give the primal slope "
          "(to {tol})", lambda tol: abs(dual_slope - primal_slope) < tol, id="slope", tol=1e-12)
    by_hand = weights.mean() + primal_slope * (QUESTION_HEIGHT - heights.mean())
    claim("the answer at the question height is the mean weight plus slope times centred "
          "height (to {tol} kg)", lambda tol: abs(answer - by_hand) < tol, id="answer", tol=1e-10)
    claim("ridge's own slope is the same number (to {tol})",
          lambda tol: abs(ridge_fit("three_people", PENALTY).coef_[0] - primal_slope) < tol,
          id="ridge_slope", tol=1e-12)
    return {
        "heights": whole(heights), "weights": whole(weights),
        "mean_height": whole(heights.mean()), "mean_weight": whole(weights.mean()),
        "centred_heights": whole(x), "centred_weights": whole(y),
        "linear_table": whole(linear_table),
        "system": whole(system),
        "rbf_gamma": RBF_WORKED.gamma, "rbf_table": rbf_table,
        "rbf_one_apart": rbf_table[0, 1], "rbf_two_apart": rbf_table[0, 2],
        "sxy": whole(sxy), "sxx": whole(sxx), "penalty": PENALTY,
        "primal_slope": whole(primal_slope),
        "dual_weights": rounded.astype(int),
        "dual_weights_rounding": bound(dual - rounded, -11),
        "dual_slope": dual_slope,
        "question": QUESTION_HEIGHT,
        "question_centred": exact(QUESTION_HEIGHT - float(heights.mean()), WHOLE_PEOPLE),
        "answer": answer,
    }


def derivation_checked():
    """Primal (Ridge) against dual (KernelRidge, linear kernel) on the throws."""
    grid = sample_grid("throws", SAMPLES)
    primal, dual = ridge_fit("throws", PENALTY), kernel_fit("throws", LINEAR, PENALTY)
    primal_r2, dual_r2 = r_squared("throws", primal), r_squared("throws", dual)
    mean_time = float(dataset("throws").rows.mean())
    at_mean = float(dual.predict([[mean_time]])[0])
    gap = np.max(np.abs(primal.predict(grid) - dual.predict(grid)))
    claim("the two slopes agree to within {tol} relative",
          lambda tol: relative_gap(slope_from_dual(dual), primal.coef_) < tol, id="slopes",
          tol=1e-12)
    claim("the two R² agree to within {tol}", lambda tol: abs(primal_r2 - dual_r2) < tol, id="r2",
          tol=1e-12)
    claim("both lines answer the mean height at the mean time (to {tol} m)",
          lambda tol: abs(at_mean - dual.target_mean_) < tol
          and abs(primal.predict([[mean_time]])[0] - primal.target_mean_) < tol,
          id="mean_point", tol=1e-12)
    sweep = []
    for penalty in DERIVATION_PENALTIES:
        ridge, kernel_ridge = ridge_fit("throws", penalty), kernel_fit("throws", LINEAR, penalty)
        sweep.append({"penalty": penalty, "ridge_slope": ridge.coef_[0],
                      "dual_slope": slope_from_dual(kernel_ridge)[0],
                      "r2": r_squared("throws", kernel_ridge)})
    # Small penalties make large dual weights whose sum through the centred times
    # cancels, so agreement loosens from 1e-14 towards 1e-10 at the small end.
    claim("across the sweep the two slopes agree to within {tol} relative",
          lambda tol: all(abs(row["dual_slope"] / row["ridge_slope"] - 1) < tol for row in sweep),
          id="sweep", tol=1e-8)
    return {
        "penalty": PENALTY, "samples": len(grid),
        "primal_slope": primal.coef_[0], "dual_slope": slope_from_dual(dual)[0],
        "largest_gap": bound(gap, -12), "r2": primal_r2,
        "mean_time": mean_time, "answer_at_mean": at_mean,
        "sweep": sweep,
        "orders": round(np.log10(DERIVATION_PENALTIES[-1] / DERIVATION_PENALTIES[0])),
    }


def _ledger(name: str, kernel, penalty: float) -> tuple[list[dict], float]:
    """Row by row: feature, target, fitted value, residual, residual / penalty, dual weight."""
    model = kernel_fit(name, kernel, penalty)
    table = dataset(name)
    fitted = model.predict(table.rows)
    residuals = table.target - fitted
    weights = model.dual_weights_
    rows = [{"x": x, "y": y, "fitted": f, "residual": r, "ratio": r / penalty, "weight": a}
            for x, y, f, r, a in zip(table.rows[:, 0], table.target, fitted, residuals, weights,
                                     strict=True)]
    return rows, float(np.max(np.abs(residuals / penalty - weights)))


def _people_ledger() -> tuple[list[dict], float]:
    """The three people's ledger in whole numbers, and how far the solve is from them."""
    rows, _ = _ledger("three_people", LINEAR, PENALTY)
    gaps, whole_rows = [], []
    for row in rows:
        whole_row = {}
        for key in ("x", "y", "fitted", "residual", "ratio", "weight"):
            whole_row[key] = int(np.rint(row[key]))
            gaps.append(abs(row[key] - whole_row[key]))
        whole_rows.append(whole_row)
    return whole_rows, max(gaps)


def weights_are_residuals():
    """On the training rows, each dual weight is that row's residual divided by the penalty."""
    people, people_gap = _people_ledger()
    _, people_identity = _ledger("three_people", LINEAR, PENALTY)
    linear, linear_gap = _ledger("throws", LINEAR, PENALTY)
    rbf, rbf_gap = _ledger("throws", RBF_WORKED, PENALTY)
    shrinking = []
    for penalty in SHRINKING_PENALTIES:
        model = kernel_fit("throws", LINEAR, penalty)
        table = dataset("throws")
        largest = float(np.max(np.abs(model.dual_weights_)))
        misses = table.target - model.predict(table.rows)
        shrinking.append({"penalty": penalty, "r2": r_squared("throws", model),
                          "slope": float(slope_from_dual(model)[0]),
                          "largest_residual": float(np.max(np.abs(misses))),
                          "largest_weight": largest, "times_penalty": largest * penalty})
    first, last = shrinking[0], shrinking[-1]
    growth = last["largest_weight"] / first["largest_weight"]
    fall = first["penalty"] / last["penalty"]
    residual_change = abs(last["largest_residual"] / first["largest_residual"] - 1)
    slope_change = abs(last["slope"] / first["slope"] - 1)
    claim("for the three people the fitted weights are {first}, {second} and {third} "
          "kilograms (to {tol})",
          lambda first, second, third, tol: np.allclose([row["fitted"] for row in people], [first,
          second, third], rtol=0, atol=tol),
          id="people_fitted", first=66, second=70, third=74, tol=NEAR_WHOLE)
    claim("the largest dual weight grows by between {low} and {high} times as the penalty "
          "falls {fall} times", 0.99 * fall < growth < 1.01 * fall, id="growth",
          low=0.99 * fall, high=1.01 * fall, fall=fall)
    claim("the largest residual changes by less than {limit} of itself over the sweep",
          lambda limit: residual_change < limit, id="residuals_stay", limit=0.01)
    claim("the line's slope changes by less than {limit} of itself over the sweep",
          lambda limit: slope_change < limit, id="slope_moves", limit=0.05)
    return {
        "penalty": PENALTY,
        "people": people, "people_gap": bound(people_gap, -11),
        "people_identity": bound(people_identity, -11),
        "linear": linear, "linear_gap": bound(linear_gap, -12),
        "rbf": rbf, "rbf_gap": bound(rbf_gap, -12), "rbf_gamma": RBF_WORKED.gamma,
        "shrinking": shrinking, "growth": growth, "fall": fall,
        "slope_change": slope_change, "residual_change": residual_change,
    }


def what_is_kept():
    """The dual model keeps its training rows; ridge keeps one number per feature."""
    dual, primal = kernel_fit("crowd", LINEAR, PENALTY), ridge_fit("crowd", PENALTY)
    rows, weights = dual.training_rows_, dual.dual_weights_
    kept_dual = rows.size + weights.size + dual.feature_means_.size + 1
    kept_ridge = primal.coef_.size + 1
    slope_gap = relative_gap(slope_from_dual(dual), primal.coef_)
    claim("the kernel model keeps its rows, one weight per row, the feature means and the "
          "target mean, and nothing else a prediction reads",
          kept_dual == rows.shape[0] * rows.shape[1] + weights.size + rows.shape[1] + 1,
          id="count")
    claim("the kernel model has no coef_ attribute", not hasattr(dual, "coef_"), id="no_coef")
    return {"rows": rows.shape[0], "weights": weights.size, "features": rows.shape[1],
            "kept_dual": kept_dual, "kept_ridge": kept_ridge, "slope": primal.coef_[0],
            "slope_gap": bound(slope_gap, -12)}
