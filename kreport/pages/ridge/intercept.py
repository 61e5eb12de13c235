"""The intercept stays out of the penalty: what goes wrong on the crowd when it does not."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from kreport import Ridge, data
from kreport.pages._settings import PENALTY
from kreport.report import bound, claim

#: Penalties at which the three fits are compared (the site's worked penalty first).
COMPARED = (PENALTY, 1e2, 1e4, 1e6)


@cache
def crowd() -> tuple[np.ndarray, np.ndarray]:
    fixture = data.crowd()
    return np.array(fixture.rows), np.array(fixture.target)


def penalised_raw(X: np.ndarray, y: np.ndarray, penalty: float) -> np.ndarray:
    """(intercept, slope…) when a column of ones is appended to the raw rows and every
    weight, the intercept's included, is penalised: (AᵀA + αI) w = Aᵀy."""
    A = np.column_stack([np.ones(len(y)), X])
    return np.linalg.solve(A.T @ A + penalty * np.eye(A.shape[1]), A.T @ y)


def penalised_centred(X: np.ndarray, y: np.ndarray, penalty: float) -> np.ndarray:
    """The same with centred rows: the ones column is then perpendicular to the features,
    so the intercept decouples and comes out as n ȳ/(n + α)."""
    Xc = X - X.mean(axis=0)
    A = np.column_stack([np.ones(len(y)), Xc])
    return np.linalg.solve(A.T @ A + penalty * np.eye(A.shape[1]), A.T @ y)


def intercept() -> dict:
    """kreport leaves the intercept out; penalising it pulls predictions towards zero."""
    X, y = crowd()
    n, mean_height, mean_weight = len(y), float(X[:, 0].mean()), float(y.mean())
    at_mean = np.array([[mean_height]])
    rows = []
    for penalty in COMPARED:
        right = Ridge(penalty).fit(X, y)
        raw = penalised_raw(X, y, penalty)
        centred = penalised_centred(X, y, penalty)
        rows.append({
            "penalty": penalty,
            "right": float(right.predict(at_mean)[0]),
            "raw": float(raw[0] + raw[1] * mean_height),
            "centred": float(centred[0]),
            "right_slope": float(right.coef_[0]),
            "raw_slope": float(raw[1]),
        })
    claim("kreport's prediction at the mean height is the mean weight at every penalty",
          all(abs(row["right"] - mean_weight) < 1e-10 * mean_weight for row in rows),
          id="right_at_mean")
    claim("penalised with centred rows, the intercept is n ȳ/(n + α) at every penalty",
          all(abs(row["centred"] - n * mean_weight / (n + row["penalty"]))
              < 1e-10 * mean_weight for row in rows), id="shrunk_intercept")
    claim("both penalised intercepts pull the prediction at the mean height down at the "
          "largest penalty to under a third of the mean weight",
          rows[-1]["raw"] < mean_weight / 3 and rows[-1]["centred"] < mean_weight / 3,
          id="towards_zero")
    claim("with centred rows, the penalised-intercept prediction falls at every step up the "
          "penalties", all(a["centred"] > b["centred"] for a, b in itertools.pairwise(rows)),
          id="falling")
    right = Ridge(PENALTY).fit(X, y)
    raw = penalised_raw(X, y, PENALTY)
    raw_r2 = 1 - float(((y - raw[0] - X @ raw[1:]) ** 2).sum()) / float(
        ((y - mean_weight) ** 2).sum())
    right_r2 = right.score(X, y)
    claim("at the site's penalty the raw penalised-intercept line is flatter than kreport's",
          raw[1] < right.coef_[0], id="flatter")
    claim("and it fits the crowd worse", raw_r2 < right_r2, id="worse")
    through_origin = mean_weight / mean_height
    claim("its slope lies between kreport's and the slope of the line through the origin "
          "and the mean point", through_origin < raw[1] < right.coef_[0], id="between")
    return {
        "n": int(n),
        "penalty": PENALTY,
        "mean_height": mean_height,
        "mean_weight": mean_weight,
        "right_slope": float(right.coef_[0]),
        "right_intercept": float(right.intercept_),
        "right_r2": float(right_r2),
        "right_gap": bound(max(abs(row["right"] - mean_weight) for row in rows) / mean_weight,
                           -10),
        "centred_intercept": float(rows[0]["centred"]),
        "centred_shift": float(mean_weight - rows[0]["centred"]),
        "raw_intercept": float(raw[0]),
        "raw_slope": float(raw[1]),
        "raw_r2": float(raw_r2),
        "origin_slope": float(through_origin),
        "rows": rows,
    }
