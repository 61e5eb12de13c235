"""Answers to the ridge page's exercises, each worked here by the hand formula or the
closed form the exercise leads to, and checked against ``kreport.Ridge`` and
``kreport.leave_one_out``."""

from __future__ import annotations

import numpy as np

from kreport import Ridge, data, kernels, leave_one_out
from kreport.pages._settings import PENALTY
from kreport.report import claim, exact

from . import fits

#: Below this relative fall of its held-out error, a penalty "buys little" for a model.
LITTLE = 0.01
#: Above this relative fall, a penalty rescues a model.
RESCUE = 0.5

WHOLE = ("the three people's centred heights and weights are small whole numbers, so the "
         "scatter, the cross product and the least-squares slope built from them are exact")


def _three_people() -> tuple[np.ndarray, np.ndarray]:
    fixture = data.three_people()
    return np.array(fixture.rows), np.array(fixture.target)


def _shrink() -> dict:
    """Exercise one: the slope shrunk by λ/(λ + α), and the penalty that halves it."""
    X, y = _three_people()
    xc, yc = X[:, 0] - X[:, 0].mean(), y - y.mean()
    scatter, cross = float(xc @ xc), float(xc @ yc)
    least_squares = cross / scatter
    kept = scatter / (scatter + PENALTY)
    slope = least_squares * kept
    halving = scatter
    claim("the least-squares slope times the fraction kept is kreport's ridge slope",
          abs(slope - Ridge(PENALTY).fit(X, y).coef_[0]) < 1e-12 * slope, id="slope")
    halved = float(Ridge(halving).fit(X, y).coef_[0])
    claim("with the penalty equal to λ, kreport's slope is half the least-squares slope",
          abs(halved - least_squares / 2) < 1e-12 * least_squares, id="half")
    return {"eigenvalue": exact(round(scatter), WHOLE),
            "least_squares": exact(least_squares, WHOLE), "kept": kept, "slope": slope,
            "halving": exact(round(halving), WHOLE), "penalty": PENALTY}


def _intercept() -> dict:
    """Exercise two: the ones column penalised on the centred three people."""
    X, y = _three_people()
    n = len(y)
    xc = X[:, 0] - X[:, 0].mean()
    by_hand = n * y.mean() / (n + PENALTY)
    A = np.column_stack([np.ones(n), xc])
    intercept, slope = np.linalg.solve(A.T @ A + PENALTY * np.eye(2), A.T @ y)
    claim("the penalised intercept is n ȳ/(n + α), the solve of the full system",
          abs(intercept - by_hand) < 1e-12 * by_hand, id="intercept")
    right = Ridge(PENALTY).fit(X, y)
    claim("the penalised intercept leaves the slope as kreport's",
          abs(slope - right.coef_[0]) < 1e-12 * abs(slope), id="slope_unchanged")
    at_mean = float(right.predict(np.array([[X[:, 0].mean()]]))[0])
    claim("kreport's prediction at the mean height is the mean weight",
          abs(at_mean - y.mean()) < 1e-12 * y.mean(), id="at_mean")
    return {"n": n, "mean_weight": float(y.mean()), "penalised_intercept": by_hand,
            "shortfall": float(y.mean() - by_hand), "right_at_mean": at_mean}


def _hat_loo(X: np.ndarray, y: np.ndarray, penalty: float) -> np.ndarray:
    """Leave-one-out residuals of ridge from one fit: e_i = r_i / (1 − H_ii), with
    H = J + X_c (X_cᵀX_c + αI)⁻¹ X_cᵀ (the intercept is not penalised)."""
    n = len(y)
    Xc = X - X.mean(axis=0)
    H = np.full((n, n), 1.0 / n) + Xc @ np.linalg.solve(
        Xc.T @ Xc + penalty * np.eye(X.shape[1]), Xc.T)
    return (y - H @ y) / (1.0 - np.diag(H))


def _quadratic() -> dict:
    """Exercise three (code): does the quadratic need a penalty?"""
    t, y = fits.throws()
    X = fits.powers(t, fits.QUADRATIC)
    residuals = [_hat_loo(X, y, penalty) for penalty in fits.PENALTIES]
    gap = max(float(np.max(np.abs(e - leave_one_out(kernels.linear(), penalty, X, y).residuals)))
              for e, penalty in zip(residuals, fits.PENALTIES, strict=True))
    claim("the one-fit residuals are kreport.leave_one_out's at every penalty", gap < 1e-8,
          id="closed_form")
    rmse = np.array([np.sqrt(e @ e / len(e)) for e in residuals])
    best = int(np.argmin(rmse))
    gain = float(1 - rmse[best] / rmse[0])
    claim("the best penalty lowers the quadratic's held-out error by less than {little} of "
          "its value at the smallest penalty", lambda little: 0 <= gain < little, id="little",
          little=LITTLE)
    flexible = fits.sweep(fits.DEGREE)["loo_rmse"]
    flexible_gain = float(1 - flexible.min() / flexible[0])
    claim("and the degree-{degree} model's by more than {rescue}",
    lambda rescue: flexible_gain > rescue,
          id="rescue", degree=fits.DEGREE, rescue=RESCUE)
    return {"quadratic_best": float(fits.PENALTIES[best]), "quadratic_best_rmse": rmse[best],
            "quadratic_smallest_rmse": rmse[0], "gain": gain, "flexible_gain": flexible_gain,
            "little": LITTLE, "rescue": RESCUE}


def exercises() -> dict:
    """Three exercises: the shrunk slope (pencil), the penalised intercept (pencil), the
    quadratic's penalty (code)."""
    return {**_shrink(), **_intercept(), **_quadratic()}
