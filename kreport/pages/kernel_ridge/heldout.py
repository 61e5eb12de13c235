"""Training score against held-out error: leave-one-out defined and checked,
and gamma and the penalty chosen together by it."""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge, grid_search, hat_matrix_residuals, kernels
from kreport.report import bound, claim, within

from .fits import (
    LINEAR,
    RBF_WORKED,
    dataset,
    held_out,
    kernel_fit,
    mean_of_others_r2,
    r_squared,
    ridge_fit,
)
from .settings import CONDITIONING_PENALTIES, PENALTY, RBF_GAMMAS

#: Fits near the smallest penalties of the grid are ill-conditioned (κ up to
#: about 10¹⁰); their held-out errors are locked and printed to this tolerance.
GRID_RTOL = 1e-4
#: A training R² within this of one is a perfect fit up to rounding.
PERFECT_WITHIN = 1e-9
#: How far above the throws' noise floor the held-out pick may score, as a share of
#: the floor, for the page to call it close to the floor.
FLOOR_SHARE = 0.1
#: The share above the floor is the pick's error (known to GRID_RTOL) less the floor,
#: over the floor: a difference of about 0.03, so its tolerance is correspondingly wider.
EXCESS_RTOL = 1e-2


def _refit_residuals(name: str, kernel, penalty: float) -> np.ndarray:
    """Leave-one-out by brute force: n fits of KernelRidge on n − 1 rows each."""
    table = dataset(name)
    n = len(table.target)
    residuals = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        model = KernelRidge(kernel, penalty).fit(table.rows[keep], table.target[keep])
        residuals[i] = table.target[i] - model.predict(table.rows[i:i + 1])[0]
    return residuals


def held_out_error():
    """R² on the fitted rows against leave-one-out R², for the two lines; the
    closed form checked against refits; the textbook shortcut measured."""
    crowd_line, throws_line = ridge_fit("crowd", PENALTY), ridge_fit("throws", PENALTY)
    crowd_loo, throws_loo = held_out("crowd", LINEAR, PENALTY), held_out("throws", LINEAR, PENALTY)
    crowd_r2, throws_r2 = r_squared("crowd", crowd_line), r_squared("throws", throws_line)
    rbf_loo = held_out("throws", RBF_WORKED, PENALTY)
    refit = _refit_residuals("throws", RBF_WORKED, PENALTY)
    closed_gap = float(np.max(np.abs(refit - rbf_loo.residuals)))
    throws = dataset("throws")
    shortcut = hat_matrix_residuals(RBF_WORKED, PENALTY, throws.rows, throws.target)
    shortcut_gap = float(np.max(np.abs(shortcut - rbf_loo.residuals)))
    claim("the linear kernel's leave-one-out is ridge refitted without each row",
          crowd_loo.method == "refit", id="refit")
    claim("on the crowd the held-out R² is below the training R²", crowd_loo.r2 < crowd_r2,
          id="crowd_lower")
    mean_of_others = mean_of_others_r2("throws")
    claim("on the throws the line's held-out R² is below zero, and below the held-out score "
          "of answering the mean of the other throws",
          throws_loo.r2 < mean_of_others < 0, id="throws_negative")
    claim("for the RBF kernel the closed form agrees with fitting fifteen times to within "
          "{tol} m", lambda tol: closed_gap < tol, id="closed_form", tol=1e-10)
    claim("the textbook shortcut differs from the exact held-out residual by more than {limit} m",
          lambda limit: shortcut_gap > limit, id="shortcut", limit=0.1)
    return {
        "penalty": PENALTY,
        "crowd_r2": crowd_r2, "crowd_loo_r2": crowd_loo.r2, "crowd_loo_mse": crowd_loo.mse,
        "throws_r2": throws_r2, "throws_loo_r2": throws_loo.r2,
        "throws_loo_mse": throws_loo.mse, "mean_of_others_r2": mean_of_others,
        "rows": len(throws.target), "gamma": RBF_WORKED.gamma,
        "rbf_method": rbf_loo.method, "closed_gap": bound(closed_gap, -10),
        "shortcut_gap": shortcut_gap,
    }


def choosing_together():
    """Every gamma of the RBF sweep with every penalty of the conditioning sweep on
    the throws: how many settings the training score cannot tell apart, and what
    leave-one-out picks."""
    throws = dataset("throws")
    grid = grid_search(list(RBF_GAMMAS), list(CONDITIONING_PENALTIES), throws.rows,
                       throws.target)
    pick = grid.best_held_out
    # Settings that fit the training throws perfectly up to rounding: among them
    # the training score has nothing to choose by (their R² differ in the last bits).
    perfect = [cell for cell in grid.cells() if 1 - cell.training_r2 < PERFECT_WITHIN]
    perfect_losses = [cell.held_out for cell in perfect]
    coefficients = np.polyfit(throws.rows[:, 0], throws.target, 2)
    parabola_misses = throws.target - np.polyval(coefficients, throws.rows[:, 0])
    # The spread of the throws about a smooth parabola (three numbers fitted):
    # no curve can predict a new throw much better than this on average.
    noise = float(parabola_misses @ parabola_misses) / (len(throws.target) - len(coefficients))
    claim("{count} settings fit the training throws to within {tol} of a perfect R²",
          len(perfect) >= 2, id="perfect", count=len(perfect), tol=PERFECT_WITHIN)
    claim("every one of them has a held-out error more than {times} times the held-out pick's",
          lambda times: min(perfect_losses) > times * pick.held_out, id="perfect_worse", times=5)
    claim("the held-out pick is not one of them", pick not in perfect, id="not_perfect")
    excess = pick.held_out / noise - 1
    claim("the held-out pick's error is above the throws' scatter about a parabola by less "
          "than {share} of that scatter", lambda share: 0 <= excess < share, id="floor",
          share=FLOOR_SHARE)
    claim("the held-out pick is the smallest gamma of the sweep with a small penalty",
          pick.gamma == min(RBF_GAMMAS) and pick.penalty < 1e-3, id="small")
    return {
        "settings": len(RBF_GAMMAS) * len(CONDITIONING_PENALTIES),
        "gammas": len(RBF_GAMMAS), "penalties": len(CONDITIONING_PENALTIES),
        "perfect_within": PERFECT_WITHIN, "perfect_count": len(perfect),
        "perfect_loo_low": min(perfect_losses), "perfect_loo_high": max(perfect_losses),
        "held_out_gamma": pick.gamma, "held_out_penalty": pick.penalty,
        "held_out_mse": within(pick.held_out, GRID_RTOL),
        "held_out_r2": within(held_out("throws", kernels.rbf(pick.gamma), pick.penalty).r2,
                              GRID_RTOL),
        "held_out_training_r2": within(pick.training_r2, GRID_RTOL),
        "noise": noise, "noise_sd": float(np.sqrt(noise)),
        "floor_excess": within(excess, EXCESS_RTOL), "floor_share": FLOOR_SHARE,
        "parabola_coefficients": len(coefficients),
        "flat_r2": r_squared("throws", kernel_fit("throws", kernels.rbf(pick.gamma), PENALTY)),
    }
