"""Tables and spectra the Mercer page's sections and figures share (cached)."""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.linalg import eigvalsh

from kreport import data, kernels
from kreport.measure import median_rule_gamma


@cache
def centred_rows(fixture: str) -> np.ndarray:
    """A fixture's rows with their mean row taken away, as kernel ridge centres them."""
    rows = np.asarray(data.load(fixture).rows, dtype=float)
    return rows - rows.mean(axis=0)


def table(fixture: str, kernel) -> np.ndarray:
    """The kernel table of a fixture's centred rows (kernel ridge's table)."""
    rows = centred_rows(fixture)
    return kernel(rows, rows)


@cache
def spectrum(fixture: str, kernel) -> np.ndarray:
    """Eigenvalues of the table of the centred rows, largest first."""
    return eigvalsh(table(fixture, kernel), check_finite=False)[::-1].copy()


def rounding_floor(values: np.ndarray) -> float:
    """A table's rounding floor n ε λ₁ (λ₁ its largest eigenvalue in size): an eigenvalue
    solver is exact only to about this, so an eigenvalue smaller in size is rounding."""
    return len(values) * float(np.finfo(float).eps) * float(np.abs(values).max())


def relative_smallest(values: np.ndarray) -> float:
    """The smallest eigenvalue over the largest eigenvalue in size (in [−1, 1])."""
    return float(values.min() / np.abs(values).max())


@cache
def median_gamma(fixture: str) -> float:
    """The median rule's gamma for a fixture (one over the median squared distance)."""
    return median_rule_gamma(centred_rows(fixture)).gamma


def sigmoid_grid(fixture: str, gammas, coef0s) -> np.ndarray:
    """Smallest over largest-in-size eigenvalue of the sigmoid table on a grid
    (gammas down the rows, constants across the columns)."""
    return np.array([[relative_smallest(spectrum(fixture, kernels.sigmoid(g, c)))
                      for c in coef0s] for g in gammas])
