"""The throws with polynomial features of time, and the fits the ridge page shares.

Time is rescaled to run from −1 at the first throw to 1 at the last before its
powers are taken, so that every power lies between −1 and 1 and one penalty
means the same thing for each of them.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from kreport import Ridge, data

#: The degree of the flexible model: time and its powers up to this one.
DEGREE = 6
#: The degree of the model the physics suggests (a ball under gravity).
QUADRATIC = 2
#: The penalties swept, a quarter of a decade apart.
PENALTIES = 10.0 ** (np.arange(-24, 9) / 4)


@cache
def throws() -> tuple[np.ndarray, np.ndarray]:
    """(time in s, height in m) of the fifteen throws."""
    fixture = data.throws()
    return np.array(fixture.rows[:, 0]), np.array(fixture.target)


def time_scale() -> tuple[float, float]:
    """(middle, half-width) of the measured times, in seconds."""
    t, _ = throws()
    return float((t.min() + t.max()) / 2), float((t.max() - t.min()) / 2)


def powers(times: np.ndarray, degree: int) -> np.ndarray:
    """Rescaled time and its powers up to ``degree``, one column each."""
    middle, half = time_scale()
    s = (np.asarray(times, dtype=float) - middle) / half
    return np.column_stack([s**k for k in range(1, degree + 1)])


@cache
def features(degree: int = DEGREE) -> np.ndarray:
    t, _ = throws()
    return powers(t, degree)


def loo_residuals(X: np.ndarray, y: np.ndarray, penalty: float) -> np.ndarray:
    """Leave-one-out residuals by refitting kreport's Ridge without each row in turn."""
    n = len(y)
    residuals = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        model = Ridge(penalty).fit(X[keep], y[keep])
        residuals[i] = y[i] - model.predict(X[i:i + 1])[0]
    return residuals


@cache
def sweep(degree: int = DEGREE) -> dict:
    """Training R² and leave-one-out root-mean-square error at every penalty."""
    _, y = throws()
    X = features(degree)
    train, train_rmse, held_out, residuals = [], [], [], []
    for penalty in PENALTIES:
        model = Ridge(penalty).fit(X, y)
        train.append(model.score(X, y))
        fitted = y - model.predict(X)
        train_rmse.append(float(np.sqrt(fitted @ fitted / len(y))))
        e = loo_residuals(X, y, penalty)
        residuals.append(e)
        held_out.append(float(np.sqrt(e @ e / len(e))))
    total = float(((y - y.mean()) ** 2).sum())
    loo_r2 = [1 - len(y) * h**2 / total for h in held_out]
    return {"train": np.array(train), "train_rmse": np.array(train_rmse),
            "loo_rmse": np.array(held_out),
            "loo_r2": np.array(loo_r2), "residuals": np.array(residuals)}


def best_index(degree: int = DEGREE) -> int:
    return int(np.argmin(sweep(degree)["loo_rmse"]))
