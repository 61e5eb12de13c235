"""Pieces shared by the approximate kernel methods: seeds, the landmark draw,
row blocks, the refusal of a kernel that breaks Mercer's condition, and the
error for a missing optional dependency."""

from __future__ import annotations

import numbers

import numpy as np
from scipy.linalg import eigvalsh

from .._validation import check_positive_int
from ..errors import (
    InvalidInputError,
    InvalidParameterError,
    MercerConditionError,
)
from ..kernels import Kernel

#: Rows per block when a table against the m landmarks is computed.
DEFAULT_BLOCK_SIZE = 4096

#: Largest seed ``numpy.random.RandomState`` accepts.
MAX_SEED = 2**32 - 1

LANDMARK_RULE = (
    "Landmarks are the rows numpy.random.RandomState(seed).permutation(n)[:m], in "
    "that order: the call scikit-learn's Nystroem makes through "
    "check_random_state(seed), so for the same integer seed both choose the same "
    "rows in the same order."
)

RANK_TOLERANCE_RULE = (
    "A direction of the landmarks' kernel table K_mm whose eigenvalue (Nystroem) or "
    "remaining Cholesky pivot (NystroemKernelRidge) is at most m × ε × the largest "
    "(ε = 2.2 × 10⁻¹⁶, m the number of landmarks) counts as zero: it is never divided "
    "by, and it gets weight 0."
)


def check_seed(seed) -> int:
    """The seed as an int in [0, 2³² − 1], the range RandomState accepts."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise InvalidParameterError(
            f"seed must be a whole number between 0 and {MAX_SEED}, such as 0; got {seed!r} "
            f"({type(seed).__name__}). A fixed seed is what makes the draw reproducible."
        )
    if not 0 <= seed <= MAX_SEED:
        raise InvalidParameterError(f"seed must be between 0 and {MAX_SEED}; got {seed}.")
    return int(seed)


def check_landmark_rule(landmarks) -> str:
    if landmarks != "uniform":
        raise InvalidParameterError(
            f"landmarks must be 'uniform' (rows drawn uniformly without replacement); "
            f"got {landmarks!r}."
        )
    return landmarks


def check_block_size(block_size) -> int:
    return check_positive_int(block_size, "block_size")


def check_component_count(n_components) -> int:
    return check_positive_int(n_components, "n_components")


def draw_landmarks(n_rows: int, n_components: int, seed: int) -> np.ndarray:
    """Row indices of the landmarks, by :data:`LANDMARK_RULE`; refuses m > n."""
    if n_components > n_rows:
        raise InvalidInputError(
            f"n_components={n_components} landmarks cannot be drawn from {n_rows} rows "
            f"without replacement; ask for at most {n_rows}, or fit on more rows."
        )
    return np.random.RandomState(seed).permutation(n_rows)[:n_components]


def row_blocks(n_rows: int, block_size: int):
    """Consecutive slices of at most block_size rows covering range(n_rows)."""
    for start in range(0, n_rows, block_size):
        yield slice(start, min(start + block_size, n_rows))


def _two_sum(a, b):
    """fl(a + b) and its exact rounding error (Knuth's TwoSum), elementwise.

    Infinite or NaN input gives NaN errors, silently: callers count bad
    entries separately and refuse them.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        total = a + b
        b_part = total - a
        return total, (a - (total - b_part)) + (b - b_part)


def compensated_sums(values: np.ndarray, block_size: int = 65536):
    """Sums over the first axis as double-double pairs (hi, lo), hi + lo ≈ the exact sum.

    Pairwise TwoSum within blocks of rows, then block after block. The error
    of hi + lo is of order n·ε² relative to the sum of magnitudes, so the
    rounded result rarely depends on the order in which rows were added:
    sums computed in different blocks or chunks and joined by
    :func:`merge_sums` round to the same double.
    """
    total = (np.zeros(values.shape[1:]), np.zeros(values.shape[1:]))
    for block in row_blocks(values.shape[0], block_size):
        hi = values[block]
        lo = np.zeros_like(hi)
        while hi.shape[0] > 1:
            half = hi.shape[0] // 2
            pair_hi, error = _two_sum(hi[:half], hi[half : 2 * half])
            with np.errstate(invalid="ignore"):
                pair_lo = lo[:half] + lo[half : 2 * half] + error
            if hi.shape[0] % 2:
                pair_hi = np.concatenate([pair_hi, hi[-1:]])
                pair_lo = np.concatenate([pair_lo, lo[-1:]])
            hi, lo = pair_hi, pair_lo
        total = merge_sums(total, (hi[0], lo[0]))
    return total


def merge_sums(first, second):
    """Join two (hi, lo) sums from :func:`compensated_sums`."""
    hi, error = _two_sum(first[0], second[0])
    with np.errstate(invalid="ignore"):
        return hi, first[1] + second[1] + error


def mean_from_sums(sums, n_rows: int):
    """(hi + lo) / n, refusing a sum that overflowed."""
    with np.errstate(over="ignore", invalid="ignore"):
        mean = (sums[0] + sums[1]) / n_rows
    if not np.isfinite(mean).all():
        raise InvalidInputError(
            "a column sum overflowed float64 (entries too large to add up); rescale the data."
        )
    return mean


def rank_tolerance(size: int, largest: float) -> float:
    """The threshold of :data:`RANK_TOLERANCE_RULE` for an size × size table."""
    return size * np.finfo(np.float64).eps * largest


def refuse_zero_table(largest: float, kernel: Kernel) -> None:
    if not largest > 0.0:
        raise InvalidInputError(
            f"every entry of the landmarks' kernel table under {kernel!r} is zero or "
            "negative on the diagonal, so the approximation would map every row to 0. "
            "Check the features (constant columns centre to 0) or choose another kernel."
        )


def check_mercer(kernel: Kernel, table: np.ndarray, penalty: float = 0.0) -> None:
    """Refuse a landmark table with a clearly negative eigenvalue.

    Only kernels that do not declare themselves positive semidefinite are
    checked; for the others a negative eigenvalue can only be rounding, which
    the rank tolerance treats as zero.
    """
    if kernel.positive_semidefinite:
        return
    eigenvalues = eigvalsh(table, check_finite=False)
    largest = float(np.abs(eigenvalues).max())
    smallest = float(eigenvalues[0])
    if smallest < -rank_tolerance(len(table), largest):
        raise MercerConditionError(
            f"{kernel!r} breaks Mercer's condition on these landmarks: their kernel table "
            f"has smallest eigenvalue {smallest:.6g}, and a Nyström map needs its inverse "
            "square root, which exists only for a table with no negative eigenvalue. Use a "
            "kernel that satisfies Mercer's condition (linear, polynomial with coef0 ≥ 0, rbf).",
            smallest_eigenvalue=smallest,
            penalty=penalty,
        )
