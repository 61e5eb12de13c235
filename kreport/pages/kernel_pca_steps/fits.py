"""Shared, cached fits of the measured four, and how their tables become facts.

Entries that are zero in exact arithmetic come out of an eigen-solver as
rounding noise; they are returned as bounds, never as digits. Whole numbers of
the measured four's exact arithmetic are returned as ints.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from kreport import PCA, KernelPCA, kernels
from kreport.data import measured_four
from kreport.report import bound

from .settings import ZERO_ENTRY


def rows() -> np.ndarray:
    return np.array(measured_four().rows, dtype=float)


@cache
def linear_fit() -> KernelPCA:
    return KernelPCA(kernels.linear()).fit(rows())


@cache
def pca() -> PCA:
    return PCA().fit(rows())


@cache
def rbf_fit(gamma: float) -> KernelPCA:
    return KernelPCA(kernels.rbf(gamma)).fit(rows())


def whole(values):
    """Whole numbers of exact arithmetic as ints (a table, a row or one value)."""
    array = np.rint(np.asarray(values, dtype=float)).astype(int)
    return array.tolist() if array.ndim else int(array)


def cell(value: float, exponent: int):
    """A matrix entry: the number, or a bound when it is the rounding noise of a zero."""
    if abs(value) < ZERO_ENTRY:
        return bound(value, exponent)
    return float(value) + 0.0


def matrix(values, exponent: int) -> list:
    array = np.atleast_2d(np.asarray(values, dtype=float))
    return [[cell(value, exponent) for value in row] for row in array]


def vector(values, exponent: int) -> list:
    return [cell(value, exponent) for value in np.asarray(values, dtype=float)]


def columns(values, exponent: int) -> list:
    """Each column of a table as its own vector (u_1, u_2, … or β_1, β_2, …)."""
    return [vector(column, exponent) for column in np.asarray(values, dtype=float).T]


def noise(exponent: int, *arrays):
    """The bound met by every entry shown as noise (zero in exact arithmetic)."""
    entries = np.concatenate([np.ravel(np.asarray(array, dtype=float)) for array in arrays])
    small = entries[np.abs(entries) < ZERO_ENTRY]
    return bound(small if small.size else 0.0, exponent)


def eigenvalues_with_zeros(values: np.ndarray, exponent: int) -> list:
    """Eigenvalues, largest first, with the zeros that centring or rank make shown as bounds."""
    zero = np.abs(values) <= KernelPCA.ZERO_THRESHOLD * values[0]
    return [bound(value, exponent) if is_zero else float(value)
            for value, is_zero in zip(values, zero, strict=True)]


def all_eigenvalues(table: np.ndarray) -> np.ndarray:
    """Every eigenvalue of a symmetric table, largest first (a fit keeps only the non-zero)."""
    return np.linalg.eigvalsh(table)[::-1]
