"""What the pages measure: small pure functions over plain numbers.

Nothing here fits a model.  Each function takes arrays the library (or a
page) has already produced and returns a number or a small named result, and
each refuses empty, mismatched or non-finite input with a ``ValueError`` that
says what was wrong.

* :func:`separation` -- do two groups' scores along one axis overlap, and by how much?
* :func:`reversals` -- how often a sequence turns back.
* :func:`r_squared` -- the share of the target's spread a prediction explains
  (the one R² of kreport, also behind the models' ``score``), and
  :func:`r_squared_from_residuals` from residuals.
* :func:`condition_number` -- of a symmetric table plus a penalty on its diagonal.
* :func:`median_rule_gamma` -- the radial kernel's rule-of-thumb gamma.
* :func:`shares` and :func:`cumulative_count` -- eigenvalue shares and how many
  directions it takes to reach a fraction of the total.
* :func:`separated_band` -- the run of settings over which a split holds.
* :func:`max_abs_difference` -- how far apart two computations of one thing are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .errors import InvalidInputError

__all__ = [
    "MedianRule",
    "Separation",
    "condition_number",
    "cumulative_count",
    "max_abs_difference",
    "median_rule_gamma",
    "r_squared",
    "r_squared_from_residuals",
    "reversals",
    "separated_band",
    "separation",
    "shares",
]


def _vector(values: ArrayLike, name: str, *, min_len: int = 1) -> np.ndarray:
    """A finite 1-D float array with at least ``min_len`` entries, or a ValueError."""
    try:
        a = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numbers: {exc}") from None
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {a.shape}")
    if a.size < min_len:
        raise ValueError(f"{name} needs at least {min_len} value(s), got {a.size}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return a


# ---------------------------------------------------------------------------
# separation of two groups along one axis
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Separation:
    """How two groups sit along one axis.

    Take the intervals ``[min a, max a]`` and ``[min b, max b]``.

    Attributes:
        separated: True when the intervals are disjoint, i.e. every score of
            one group lies strictly on one side of every score of the other.
        gap: when separated, the distance between the intervals (the nearest
            pair across the groups); otherwise 0.
        overlap: when not separated, the length of the intervals'
            intersection; otherwise 0.
        shift: when not separated, how far one group would have to slide along
            the axis (the shorter way) to clear the other, which is
            ``min(max a - min b, max b - min a)``; otherwise 0.  It equals
            ``overlap`` whenever neither interval contains the other, and is
            larger when one does (a ring's inner group sits inside the outer
            group's interval along any straight axis).
        margin: ``gap`` if separated, else ``-shift``; one signed number,
            positive exactly when the groups are separated.

    At most one of ``gap`` and ``overlap`` is positive.  Both are 0 only in the
    degenerate cases: the intervals touch at a point, or the intersection is a
    single point because one group's scores are all equal and lie inside the
    other's interval.
    """

    separated: bool
    gap: float
    overlap: float
    shift: float
    margin: float


def separation(scores_a: ArrayLike, scores_b: ArrayLike) -> Separation:
    """Gap or overlap between two groups' scores along one axis.

    The sign of the axis does not matter: swapping the groups or negating
    every score gives the same result.

    >>> separation([0.0, 1.0], [3.0, 5.0]).gap
    2.0
    >>> s = separation([-1.0, 1.0], [-3.0, 3.0])  # a inside b
    >>> s.overlap, s.shift
    (2.0, 4.0)
    """
    a = _vector(scores_a, "scores_a")
    b = _vector(scores_b, "scores_b")
    margin = float(max(b.min() - a.max(), a.min() - b.max()))
    if margin > 0:
        return Separation(separated=True, gap=margin, overlap=0.0, shift=0.0, margin=margin)
    overlap = float(min(a.max(), b.max()) - max(a.min(), b.min()))
    return Separation(
        separated=False, gap=0.0, overlap=max(overlap, 0.0), shift=-margin, margin=margin
    )


def separated_band(settings: ArrayLike, separated: Sequence[bool]) -> tuple[float, float] | None:
    """The smallest and largest setting of the longest unbroken run where ``separated``.

    ``settings`` must be strictly increasing (e.g. a sweep of gamma); the run is
    counted in that order, ties in length going to the earlier run.  Returns
    ``None`` when no setting separates.

    >>> separated_band([1, 2, 3, 4, 5], [False, True, True, False, True])
    (2.0, 3.0)
    """
    s = _vector(settings, "settings")
    flags = np.asarray(separated, dtype=bool)
    if flags.shape != s.shape:
        raise ValueError(f"settings has {s.size} values but separated has {flags.size}")
    if s.size > 1 and not np.all(np.diff(s) > 0):
        raise ValueError("settings must be strictly increasing")
    best: tuple[int, int] | None = None
    start = None
    for i, flag in enumerate([*flags.tolist(), False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            if best is None or (i - start) > (best[1] - best[0] + 1):
                best = (start, i - 1)
            start = None
    return None if best is None else (float(s[best[0]]), float(s[best[1]]))


# ---------------------------------------------------------------------------
# sequences, fits, tables
# ---------------------------------------------------------------------------


def reversals(values: ArrayLike) -> int:
    """How many times a sequence changes direction.

    Counts sign changes between successive non-zero differences; a step of
    exactly zero neither continues nor breaks a direction and is skipped.
    Fewer than three values cannot turn, so give 0.

    >>> reversals([1, 3, 2, 2, 5, 4])
    3
    """
    v = _vector(values, "values")
    d = np.diff(v)
    signs = np.sign(d[d != 0])
    return int(np.count_nonzero(signs[1:] != signs[:-1]))


def r_squared(y: ArrayLike, prediction: ArrayLike) -> float:
    """``1 - sum((y - prediction)^2) / sum((y - mean y)^2)``.

    1 is a perfect fit, 0 is no better than answering the mean, and a fit
    worse than the mean is negative.  Needs at least two values of ``y`` that
    differ; a constant ``y`` is refused with ``InvalidInputError`` (a
    ``ValueError``).

    This is the one R² of kreport: ``Ridge.score`` and ``KernelRidge.score``
    call it, and :func:`r_squared_from_residuals` is the same formula given the
    residuals.  Both sums are dot products of contiguous float64 vectors.

    >>> r_squared([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    1.0
    """
    t = _vector(y, "y")
    p = _vector(prediction, "prediction")
    if t.shape != p.shape:
        raise ValueError(f"y has {t.size} values but prediction has {p.size}")
    return _share_explained(t, t - p)


def r_squared_from_residuals(y: ArrayLike, residuals: ArrayLike) -> float:
    """``1 - sum(residuals^2) / sum((y - mean y)^2)``: R² when the residuals
    ``y - prediction`` are what was computed (held-out residuals, say).

    ``r_squared_from_residuals(y, y - p)`` is ``r_squared(y, p)`` bit for bit.
    A constant ``y`` is refused as in :func:`r_squared`.

    >>> r_squared_from_residuals([1.0, 2.0, 3.0], [0.0, 0.0, 1.0])
    0.5
    """
    t = _vector(y, "y")
    e = _vector(residuals, "residuals")
    if t.shape != e.shape:
        raise ValueError(f"y has {t.size} values but residuals has {e.size}")
    return _share_explained(t, np.ascontiguousarray(e))


def _share_explained(target: np.ndarray, residual: np.ndarray) -> float:
    """1 − (residual·residual) / (spread·spread), spread = target − mean(target)."""
    spread = target - target.mean()
    total = float(spread @ spread)
    if total == 0.0:
        raise InvalidInputError(
            "R² is undefined because y is constant (its total sum of squares is 0); "
            "score on targets that vary."
        )
    return 1.0 - float(residual @ residual) / total


def condition_number(eigenvalues: ArrayLike, penalty: float = 0.0) -> float:
    """``(largest eigenvalue + penalty) / (smallest eigenvalue + penalty)``.

    The condition number of ``K + penalty * I`` for a symmetric ``K`` with the
    given eigenvalues.  The denominator must be positive, i.e. the penalised
    table must be positive definite.

    >>> condition_number([5.65, 8.1e-9], 1.0)  # doctest: +ELLIPSIS
    6.649999...
    """
    ev = _vector(eigenvalues, "eigenvalues")
    pen = float(penalty)
    if not np.isfinite(pen):
        raise ValueError("penalty must be finite")
    low = float(ev.min()) + pen
    if low <= 0:
        raise ValueError(
            f"smallest eigenvalue + penalty is {low:.3g}; the penalised table is not "
            "positive definite, so it has no finite condition number"
        )
    return (float(ev.max()) + pen) / low


class MedianRule(NamedTuple):
    """The median squared distance between distinct pairs of rows, and 1/median."""

    median: float
    gamma: float


def median_rule_gamma(x: ArrayLike) -> MedianRule:
    """The radial kernel's rule of thumb: gamma = 1 / median squared pairwise distance.

    The median is over pairs ``i < j`` (each pair once, no row with itself).
    ``x`` is ``n x p``; a 1-D ``x`` is read as one feature.  Needs two rows and
    a positive median.

    >>> median_rule_gamma([[0.0], [1.0], [3.0]])
    MedianRule(median=4.0, gamma=0.25)
    """
    a = np.asarray(x, dtype=float)
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2:
        raise ValueError(f"x must be n x p, got shape {a.shape}")
    if a.shape[0] < 2 or a.shape[1] < 1:
        raise ValueError(f"x needs at least two rows and one column, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError("x contains NaN or infinite values")
    i, j = np.triu_indices(a.shape[0], k=1)
    diff = a[i] - a[j]
    median = float(np.median(np.einsum("ij,ij->i", diff, diff)))
    if median <= 0:
        raise ValueError("the median squared distance is 0 (most rows coincide)")
    return MedianRule(median=median, gamma=1.0 / median)


# ---------------------------------------------------------------------------
# shares of spread
# ---------------------------------------------------------------------------


def shares(eigenvalues: ArrayLike) -> np.ndarray:
    """Each eigenvalue's share of their total, in the order given.

    Negative eigenvalues (rounding noise, or a table that is not a kernel) are
    counted as 0 before dividing.  The total must be positive.

    >>> shares([3.0, 1.0, 0.0]).tolist()
    [0.75, 0.25, 0.0]
    """
    return _normalised(eigenvalues, "eigenvalues")


def _normalised(values: ArrayLike, name: str) -> np.ndarray:
    ev = np.clip(_vector(values, name), 0.0, None)
    total = float(ev.sum())
    if total <= 0:
        raise ValueError(f"{name} have no positive total")
    return ev / total


def cumulative_count(shares: ArrayLike, fraction: float, *, tolerance: float = 1e-12) -> int:
    """How many leading directions it takes for the cumulative share to reach ``fraction``.

    ``shares`` are shares or eigenvalues in the order the directions are kept
    (largest first); they are normalised by their total, negatives counted as
    0.  "Reach" means the cumulative share is ``>= fraction - tolerance``, the
    tolerance only absorbing rounding so that ``fraction=1`` is reached by
    the last direction with any spread.  ``fraction`` must lie in (0, 1].

    >>> cumulative_count([0.5, 0.3, 0.2], 0.8)
    2
    """
    frac = float(fraction)
    if not 0.0 < frac <= 1.0:
        raise ValueError(f"fraction must be in (0, 1], got {fraction!r}")
    cum = np.cumsum(_normalised(shares, "shares"))
    hits = np.nonzero(cum >= frac - tolerance)[0]
    return int(hits[0]) + 1


def max_abs_difference(a: ArrayLike, b: ArrayLike) -> float:
    """The largest absolute entrywise difference between two same-shaped arrays.

    For comparing two routes to one result (primal against dual, a fit against
    a reference); signs are not dropped, so align column signs first if they
    are arbitrary.
    """
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"shapes differ: {x.shape} and {y.shape}")
    if x.size == 0:
        raise ValueError("nothing to compare: the arrays are empty")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ValueError("the arrays contain NaN or infinite values")
    return float(np.max(np.abs(x - y)))
