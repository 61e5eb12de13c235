"""Shared work for the kernel-ridge page: the fixtures, cached fits, tables, spectra.

Everything here goes through the public ``kreport`` API except where the point
is to look inside the solve (the kernel table and its eigenvalues), which is
recomputed here with plain numpy from the kernel's own public call.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from kreport import KernelRidge, Ridge, kernels
from kreport import data as fixtures

# An eigenvalue below this fraction of the largest is counted as zero: the
# tables here are exact rank-deficient products whose "zero" eigenvalues come
# out as rounding noise around 1e-15 of the largest, far under this line, while
# every genuine eigenvalue on the page sits far above it.
ZERO_EIGENVALUE_FRACTION = 1e-10

LINEAR = kernels.linear()
SQUARED = kernels.polynomial(2)
RBF_ONE = kernels.rbf(1.0)


@cache
def dataset(name: str):
    """One of the committed fixtures: "three_people", "throws" or "crowd"."""
    return getattr(fixtures, name)()


@cache
def ridge_fit(name: str, penalty: float) -> Ridge:
    table = dataset(name)
    return Ridge(penalty).fit(table.rows, table.target)


@cache
def kernel_fit(name: str, kernel, penalty: float) -> KernelRidge:
    """Kernels are frozen dataclasses, so they can key the cache directly."""
    table = dataset(name)
    return KernelRidge(kernel, penalty).fit(table.rows, table.target)


def centred_rows(name: str) -> np.ndarray:
    rows = dataset(name).rows
    return rows - rows.mean(axis=0)


def centred_target(name: str) -> np.ndarray:
    target = dataset(name).target
    return target - target.mean()


@cache
def gram(name: str, kernel) -> np.ndarray:
    """The kernel table the solve reads: the kernel on the centred rows."""
    rows = centred_rows(name)
    table = kernel(rows, rows)
    table.setflags(write=False)
    return table


@cache
def spectrum(name: str, kernel) -> np.ndarray:
    """Eigenvalues of the kernel table, largest first."""
    values = np.linalg.eigvalsh(gram(name, kernel))[::-1]
    values.setflags(write=False)
    return values


def nonzero_count(eigenvalues: np.ndarray) -> int:
    return int(np.sum(np.abs(eigenvalues) > ZERO_EIGENVALUE_FRACTION * np.max(eigenvalues)))


def condition_number(name: str, kernel, penalty: float) -> float:
    """(λmax + penalty) / (λmin + penalty): the condition number of K + penalty·I."""
    values = spectrum(name, kernel)
    return float((values[0] + penalty) / (values[-1] + penalty))


def slope_from_dual(model: KernelRidge) -> np.ndarray:
    """Under the linear kernel w = X_cᵀ a: the dual weights summed through the rows."""
    rows = model.training_rows_
    return (rows - model.feature_means_).T @ model.dual_weights_


def sample_grid(name: str, count: int, margin: float = 0.0) -> np.ndarray:
    """``count`` evenly spaced values across the fixture's one feature, as a column."""
    column = dataset(name).rows[:, 0]
    return np.linspace(column.min() - margin, column.max() + margin, count)[:, None]


def largest_swing_between_rows(model: KernelRidge, name: str, count: int = 801) -> float:
    """The farthest the curve strays from the target mean across the data's range."""
    return float(np.max(np.abs(model.predict(sample_grid(name, count)) - model.target_mean_)))


def r_squared(name: str, model) -> float:
    table = dataset(name)
    return float(model.score(table.rows, table.target))


def relative_gap(first, second) -> float:
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    return float(np.max(np.abs(first - second)) / np.max(np.abs(second)))


def _half_centred_fit_for_demonstration(rows: np.ndarray, target: np.ndarray,
                                        penalty: float) -> tuple[np.ndarray, float]:
    """THE BUG, kept only to show it: the target is centred but the rows are not.

    Returns (slope, answer at the mean row). The linear table is built from the
    raw rows, so every entry carries the rows' distance from the origin, and the
    solve fits a line forced through the origin of the raw features instead of
    through the mean point. Never use this for anything but the demonstration.
    """
    target_mean = float(target.mean())
    raw_table = rows @ rows.T
    weights = np.linalg.solve(raw_table + penalty * np.eye(len(rows)), target - target_mean)
    slope = rows.T @ weights
    answer_at_mean_row = float(rows.mean(axis=0) @ slope + target_mean)
    return slope, answer_at_mean_row
