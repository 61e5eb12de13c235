"""Leave-one-out in closed form, checked against refitting and against the textbook shortcut."""

from __future__ import annotations

import numpy as np
from scipy.linalg import cho_factor, cho_solve

from kreport import KernelRidge, hat_matrix_residuals, kernels, leave_one_out
from kreport.pages._settings import PENALTY, THROWS_GAMMA
from kreport.report import bound, claim

from .common import problem

#: The closed form against n refits, relative to the largest residual: checked and printed
#: as one bound.
REFIT_EXPONENT = -11


def _refit(kernel, penalty, rows, target) -> np.ndarray:
    """Leave-one-out residuals the slow way: n fits, each without one row."""
    n = len(target)
    residuals = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        model = KernelRidge(kernel, penalty).fit(rows[keep], target[keep])
        residuals[i] = target[i] - model.predict(rows[i : i + 1])[0]
    return residuals


def _by_formula(kernel, penalty, rows, target):
    """The closed form written out with G = K̃ + αI: (exact, shortcut)."""
    n = len(target)
    centred = rows - rows.mean(axis=0)
    G = kernel(centred, centred) + penalty * np.eye(n)
    factor = cho_factor(G)
    inverse = cho_solve(factor, np.eye(n))
    diagonal = np.diag(inverse)
    means_without = (n * target.mean() - target) / (n - 1)
    exact = (inverse @ target - means_without * inverse.sum(axis=1)) / diagonal
    # The whole hat matrix H = J + K̃ G⁻¹ (I − J): (I − H)_ii = α (G⁻¹_ii − (G⁻¹ 1)_i / n).
    shortcut = inverse @ (target - target.mean()) / (diagonal - inverse.sum(axis=1) / n)
    return exact, shortcut


def exact_leave_one_out():
    """The closed form, the refit, the textbook shortcut and why they differ."""
    rows, target = problem("throws")
    n = len(target)
    kernel = kernels.rbf(THROWS_GAMMA)
    result = leave_one_out(kernel, PENALTY, rows, target)
    refit = _refit(kernel, PENALTY, rows, target)
    exact, shortcut = _by_formula(kernel, PENALTY, rows, target)
    textbook = hat_matrix_residuals(kernel, PENALTY, rows, target)
    scale = float(np.abs(result.residuals).max())
    textbook_mse = float(textbook @ textbook) / n
    claim("the closed form agrees with refitting n times to within {limit} of the largest "
          "residual", lambda limit: np.abs(result.residuals - refit).max() < limit * scale,
          id="refit", limit=10.0**REFIT_EXPONENT)
    claim("the library's residuals agree with the formula written out to within {limit} of the "
          "largest", lambda limit: np.abs(result.residuals - exact).max() < limit * scale,
          id="formula", limit=1e-12)
    claim("the library's shortcut residuals are the formula's shortcut to within {limit} of the "
          "largest", lambda limit: np.abs(textbook - shortcut).max() < limit * scale,
          id="shortcut_formula", limit=1e-12)
    claim("the shortcut's mean squared residual is smaller than the exact one", textbook_mse
          < result.mse, id="optimistic")
    linear = leave_one_out(kernels.linear(), PENALTY, rows, target)
    linear_shortcut = hat_matrix_residuals(kernels.linear(), PENALTY, rows, target)
    linear_scale = float(np.abs(linear.residuals).max())
    linear_gap = float(np.abs(linear_shortcut - linear.residuals).max()) / linear_scale
    claim("for the linear kernel the shortcut equals the refitted leave-one-out residuals to "
          "within {limit} of the largest", lambda limit: linear_gap < limit, id="linear_exact",
          limit=1e-12)
    # Generalised cross-validation: the training residuals over the average of (I - H)_ii.
    # Each shortcut residual is a training residual over its own (I - H)_ii, so the
    # diagonal is their ratio.
    training = target - KernelRidge(kernel, PENALTY).fit(rows, target).predict(rows)
    gcv_mse = float(np.mean(training**2) / np.mean(training / textbook) ** 2)
    claim("generalised cross-validation lies further from the exact leave-one-out error than "
          "the shortcut does", abs(gcv_mse - result.mse) > abs(textbook_mse - result.mse),
          id="gcv_further")
    largest_gap = float(np.abs(textbook - result.residuals).max())
    claim("for the RBF kernel the shortcut misses a residual by more than {limit} m",
          lambda limit: largest_gap > limit, id="rbf_not_exact", limit=0.01)
    return {
        "gamma": THROWS_GAMMA,
        "penalty": PENALTY,
        "n": n,
        "n_less_one": n - 1,
        "method": result.method,
        "linear_method": linear.method,
        "mse": result.mse,
        "r2": result.r2,
        "refit_difference": bound(np.abs(result.residuals - refit) / scale, REFIT_EXPONENT),
        "textbook_mse": textbook_mse, "gcv_mse": gcv_mse,
        "largest_gap": largest_gap,
        "linear_gap": bound(linear_gap, -12),
    }
