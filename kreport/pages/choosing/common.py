"""Grid searches and fits the choosing page's sections and figures share (cached)."""

from __future__ import annotations

from functools import cache

import numpy as np

from kreport import data, grid_search
from kreport.measure import median_rule_gamma

from .settings import CROWD_GAMMAS, PENALTIES, THROWS_GAMMAS

GAMMAS = {"throws": THROWS_GAMMAS, "crowd": CROWD_GAMMAS}
UNITS = {"throws": ("s", "m"), "crowd": ("cm", "kg")}


def problem(fixture: str) -> tuple[np.ndarray, np.ndarray]:
    """(rows, target) of a regression fixture."""
    found = data.load(fixture)
    return np.asarray(found.rows, dtype=float), np.asarray(found.target, dtype=float)


@cache
def search(fixture: str, scoring: str = "mse"):
    """Leave-one-out over every gamma × penalty of the page's grid."""
    rows, target = problem(fixture)
    return grid_search(list(GAMMAS[fixture]), list(PENALTIES), rows, target, scoring=scoring)


@cache
def median_gamma(fixture: str):
    """The median rule on a fixture's rows: (median squared distance, gamma)."""
    rows, _ = problem(fixture)
    return median_rule_gamma(rows)


def interleaved(n: int, k: int) -> np.ndarray:
    """An order of the rows in which contiguous folds take every k-th row:
    fold j holds rows j, j + k, j + 2k, …"""
    return np.concatenate([np.arange(j, n, k) for j in range(k)])
