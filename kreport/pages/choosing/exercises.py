"""Answers to the choosing page's exercises, each worked by the route the exercise asks
for and checked against ``kreport``.

1. The mean as a model, scored by leave-one-out on the three people and the throws.
2. The textbook shortcut for the line on the three people, against a refit.
3. The median rule with the crowd's heights in metres.
"""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge, kernels, leave_one_out
from kreport.measure import median_rule_gamma
from kreport.pages._settings import PENALTY
from kreport.report import claim, exact

from .common import median_gamma, problem
from .settings import CM_PER_M, EXERCISE_PENALTY

#: Why the three people's numbers print whole.
WHOLE = ("the three people's weights are whole numbers whose mean, and whose means without "
         "one person, are whole too")


def _whole(values):
    ints = np.rint(np.asarray(values, dtype=float)).astype(int)
    return exact(ints.tolist() if ints.ndim else int(ints), WHOLE)


def _mean_model() -> dict:
    """Exercise one: the model that answers the training mean, scored by leave-one-out."""
    _, y = problem("three_people")
    n = len(y)
    without = (n * y.mean() - y) / (n - 1)
    training = y - y.mean()
    held_out = y - without
    r2 = 1.0 - float(np.sum(held_out**2) / np.sum(training**2))
    claim("each leave-one-out residual of the mean is n over n minus one times its training "
          "residual",
          np.array_equal(held_out, training * n / (n - 1)), id="scaled", exact=WHOLE)
    claim("so the mean's leave-one-out R² is one minus the square of n over n minus one",
          r2 == 1.0 - (n / (n - 1)) ** 2, id="r2_formula", exact=WHOLE)
    _, t = problem("throws")
    m = len(t)
    throws_residuals = t - (m * t.mean() - t) / (m - 1)
    throws_r2 = 1.0 - float(np.sum(throws_residuals**2) / np.sum((t - t.mean()) ** 2))
    claim("on the throws too the mean's leave-one-out R² is one minus the square of n over n "
          "minus one (to {tol})", lambda tol: abs(throws_r2 - (1.0 - (m / (m - 1)) ** 2)) < tol,
          id="throws_r2", tol=1e-12)
    claim("the mean's leave-one-out R² is below zero on both", r2 < 0 and throws_r2 < 0,
          id="below_zero")
    return {"weights": _whole(y), "mean": _whole(y.mean()), "without": _whole(without),
            "training": _whole(training), "held_out": _whole(held_out),
            "mean_r2": exact(r2, WHOLE),
            "n_people": n, "n_throws": m, "throws_r2": throws_r2}


def _line_shortcut() -> dict:
    """Exercise two: the hat-matrix shortcut for the line on the three people, by hand."""
    rows, y = problem("three_people")
    x = rows[:, 0]
    n = len(x)
    centred = x - x.mean()
    slope = float(centred @ (y - y.mean()) / (centred @ centred + EXERCISE_PENALTY))
    fitted = y.mean() + slope * centred
    leverage = 1.0 / n + centred**2 / (centred @ centred + EXERCISE_PENALTY)
    shortcut = (y - fitted) / (1.0 - leverage)
    linear = kernels.linear()
    keep = np.arange(n) != 0
    refit = KernelRidge(linear, EXERCISE_PENALTY).fit(rows[keep], y[keep])
    refit_prediction = float(refit.predict(rows[:1])[0])
    refit_slope = float(refit.dual_weights_ @ (x[keep] - x[keep].mean()))
    library = leave_one_out(linear, EXERCISE_PENALTY, rows, y)
    claim("the shortcut's first residual is the refit's (to {tol})",
          lambda tol: abs(shortcut[0] - (y[0] - refit_prediction)) < tol, id="shortcut_exact",
          tol=1e-9)
    claim("and every shortcut residual is kreport's leave-one-out residual (to {tol})",
          lambda tol: np.max(np.abs(shortcut - library.residuals)) < tol, id="all_exact", tol=1e-9)
    claim("the refit without A has a smaller slope than the fit on all three",
          0 < refit_slope < slope, id="flatter")
    return {"line_penalty": EXERCISE_PENALTY, "heights": rows[:, 0].tolist(), "slope": slope,
            "fitted": fitted.tolist(), "residual_a": float(y[0] - fitted[0]),
            "leverage_a": float(leverage[0]), "shortcut_a": float(shortcut[0]),
            "refit_slope": refit_slope, "refit_prediction": refit_prediction}


def _median_in_metres() -> dict:
    """Exercise three (code): the median rule on the crowd, heights in centimetres and metres."""
    rows, y = problem("crowd")
    centimetres = median_gamma("crowd")
    metres = median_rule_gamma(rows / CM_PER_M)
    ratio = metres.gamma / centimetres.gamma
    claim("in metres the median rule's γ is the square of {factor} times the γ in centimetres "
          "(to {tol} relative)", lambda factor, tol: abs(ratio / factor**2 - 1) < tol,
          id="gamma_scales", factor=CM_PER_M, tol=1e-12)
    reach_cm = 1.0 / np.sqrt(centimetres.gamma)
    reach_m = 1.0 / np.sqrt(metres.gamma)
    claim("the reach is the same length in either unit (to {tol} relative)",
          lambda tol: abs(reach_m * CM_PER_M / reach_cm - 1) < tol, id="same_reach", tol=1e-12)
    penalty = PENALTY
    mse_cm = leave_one_out(kernels.rbf(centimetres.gamma), penalty, rows, y).mse
    mse_m = leave_one_out(kernels.rbf(metres.gamma), penalty, rows / CM_PER_M, y).mse
    claim("the leave-one-out error at the median rule's γ is the same in either unit (to {tol} "
          "relative)", lambda tol: abs(mse_m / mse_cm - 1) < tol, id="same_error", tol=1e-9)
    fixed_cm = leave_one_out(kernels.rbf(metres.gamma), penalty, rows, y).mse
    claim("a γ carried over from metres to centimetres unchanged scores worse",
          fixed_cm > mse_cm, id="carried_worse")
    return {"factor": CM_PER_M, "median_cm": centimetres.median, "median_m": metres.median,
            "gamma_cm": centimetres.gamma, "gamma_m": metres.gamma, "reach_cm": reach_cm,
            "reach_m": reach_m, "penalty": penalty, "mse_cm": mse_cm, "mse_m": mse_m,
            "carried_mse": fixed_cm}


def exercises() -> dict:
    """Three exercises: the mean held out (pencil), the shortcut for the line (pencil), the
    median rule in metres (code)."""
    return {**_mean_model(), **_line_shortcut(), **_median_in_metres()}
