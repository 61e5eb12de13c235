"""Shared, cached work for the kernel-ridge page: the fixtures, fits, held-out
errors, the table the solve reads, and its eigenvalues.

Fits are cached by data set, kernel and penalty (kernels are frozen dataclasses,
so they key the cache directly), so every section and figure that asks for the
same fit gets the same object, and a later playground can reuse them. Fits and
held-out errors go through the public ``kreport`` API. Where the point is to
look inside the solve (the table, its eigenvalues, an exact rational solve, the
deliberately wrong half-centred fit), the work is done here with plain numpy
from the kernel's own public call.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np

from kreport import KernelRidge, Ridge, kernels, leave_one_out, measure
from kreport import data as fixtures

from .settings import CURVE_SAMPLES, THROWS_GAMMA, ZERO_EIGENVALUE_FRACTION

LINEAR = kernels.linear()
SQUARED = kernels.polynomial(2)
RBF_WORKED = kernels.rbf(THROWS_GAMMA)


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
    table = dataset(name)
    return KernelRidge(kernel, penalty).fit(table.rows, table.target)


@cache
def held_out(name: str, kernel, penalty: float):
    """Exact leave-one-out of ``KernelRidge(kernel, penalty)`` on a fixture
    (``kreport.leave_one_out``: each row predicted by the fit made without it)."""
    table = dataset(name)
    return leave_one_out(kernel, penalty, table.rows, table.target)


def r_squared(name: str, model) -> float:
    """The training R² of ``model``: scored on the rows it was fitted to."""
    table = dataset(name)
    return float(model.score(table.rows, table.target))


def mean_of_others_r2(name: str) -> float:
    """Held-out R² of answering, for each row left out, the mean of the other n − 1.

    That mean misses row i by n/(n − 1) times its distance from the full mean, so
    held out "the mean" scores 1 − (n/(n − 1))², not zero: the yardstick a held-out
    R² below zero has to be read against.
    """
    n = len(dataset(name).target)
    return 1 - (n / (n - 1)) ** 2


def training_mse(name: str, model) -> float:
    """Mean squared miss of ``model`` on the rows it was fitted to."""
    table = dataset(name)
    misses = table.target - model.predict(table.rows)
    return float(misses @ misses) / len(misses)


def centred_rows(name: str) -> np.ndarray:
    rows = dataset(name).rows
    return rows - rows.mean(axis=0)


def centred_target(name: str) -> np.ndarray:
    target = dataset(name).target
    return target - target.mean()


@cache
def gram(name: str, kernel) -> np.ndarray:
    """The table the solve reads, K̃: the kernel of the centred rows."""
    rows = centred_rows(name)
    table = kernel(rows, rows)
    table.setflags(write=False)
    return table


@cache
def eigen(name: str, kernel) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues of K̃, largest first, and the unit eigenvectors as columns."""
    values, vectors = np.linalg.eigh(gram(name, kernel))
    values, vectors = values[::-1].copy(), vectors[:, ::-1].copy()
    values.setflags(write=False)
    vectors.setflags(write=False)
    return values, vectors


def spectrum(name: str, kernel) -> np.ndarray:
    """Eigenvalues of K̃, largest first."""
    return eigen(name, kernel)[0]


def nonzero_count(eigenvalues: np.ndarray) -> int:
    return int(np.sum(np.abs(eigenvalues) > ZERO_EIGENVALUE_FRACTION * np.max(eigenvalues)))


def condition_number(name: str, kernel, penalty: float) -> float:
    """κ(K̃ + αI) = (λ_max + α) / (λ_min + α)."""
    return measure.condition_number(spectrum(name, kernel), penalty)


def slope_from_dual(model: KernelRidge) -> np.ndarray:
    """Under the linear kernel w = X_cᵀ a: the dual weights summed through the rows."""
    rows = model.training_rows_
    return (rows - model.feature_means_).T @ model.dual_weights_


def sample_grid(name: str, count: int = CURVE_SAMPLES) -> np.ndarray:
    """``count`` evenly spaced values across the fixture's one feature, as a column."""
    column = dataset(name).rows[:, 0]
    return np.linspace(column.min(), column.max(), count)[:, None]


@cache
def curve(name: str, kernel, penalty: float, count: int = CURVE_SAMPLES) -> np.ndarray:
    """The fitted curve on ``sample_grid(name, count)``."""
    values = kernel_fit(name, kernel, penalty).predict(sample_grid(name, count))
    values.setflags(write=False)
    return values


def relative_gap(first, second) -> float:
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    return float(np.max(np.abs(first - second)) / np.max(np.abs(second)))


@cache
def throws_parabola() -> np.ndarray:
    """Least-squares parabola through the throws (plain numpy), on the curve grid."""
    throws = dataset("throws")
    coefficients = np.polyfit(throws.rows[:, 0], throws.target, 2)
    values = np.polyval(coefficients, sample_grid("throws")[:, 0])
    values.setflags(write=False)
    return values


def exact_dual_weights(name: str, kernel, penalty: float) -> np.ndarray:
    """(K̃ + αI) a = y_c solved in exact rational arithmetic, taking the float
    table, penalty and centred target as exact: the reference the page measures
    kreport's Cholesky solve against. Gaussian elimination with Fractions is
    quick for the fifteen throws."""
    system = gram(name, kernel) + penalty * np.eye(len(gram(name, kernel)))
    target = centred_target(name)
    size = len(target)
    rows = [[Fraction(float(value)) for value in row] + [Fraction(float(right))]
            for row, right in zip(system, target, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for below in range(column + 1, size):
            factor = rows[below][column] / rows[column][column]
            if factor:
                rows[below] = [u - factor * v for u, v in zip(rows[below], rows[column],
                                                               strict=True)]
    solution = [Fraction(0)] * size
    for row in range(size - 1, -1, -1):
        known = sum(rows[row][k] * solution[k] for k in range(row + 1, size))
        solution[row] = (rows[row][size] - known) / rows[row][row]
    return np.array([float(value) for value in solution])


def half_centred_fit_for_demonstration(rows: np.ndarray, target: np.ndarray,
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
