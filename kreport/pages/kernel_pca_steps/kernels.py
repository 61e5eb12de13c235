"""Choosing a kernel: what the polynomial kernel can reach, and the RBF kernel on the four.

On the four the three RBF directions are fixed by symmetry: A against B, C
against D, and the pair A, B against the pair C, D. Their eigenvalues are the
centred table's Rayleigh quotients along those fixed vectors, which are well
posed at every gamma; the directions' ranks swap where two eigenvalues cross,
and the crossings are found as roots of the difference.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.optimize import brentq

from kreport import KernelPCA, data, kernels, measure
from kreport.report import claim, exact

from . import fits
from .settings import (
    NARROW_GAMMA,
    RBF_GAMMA,
    RBF_NOISE,
    ROUNDING,
    SCALE_AGREEMENT,
    SHARE_TOLERANCE,
    SQUARED_COEF0,
    SQUARED_DEGREE,
    SQUARED_GAMMA,
    SQUARED_NO_COEF0,
    SWEEP,
    WIDE_CORRELATION,
    WIDE_GAMMA,
)

WHOLE = "squared distances between whole numbers are whole numbers, computed exactly"

#: The three directions the four's symmetry fixes, as unit vectors over A, B, C, D.
NAMED_DIRECTIONS = {
    "A against B": np.array([1.0, -1.0, 0.0, 0.0]) / np.sqrt(2.0),
    "C against D": np.array([0.0, 0.0, 1.0, -1.0]) / np.sqrt(2.0),
    "pair A, B against pair C, D": np.array([1.0, 1.0, -1.0, -1.0]) / 2.0,
}


def named_shares(gamma: float) -> np.ndarray:
    """The share of each named direction at ``gamma``: its Rayleigh quotient over the trace."""
    centred = fits.rbf_fit(float(gamma)).centred_table_
    quotients = np.array([vector @ centred @ vector for vector in NAMED_DIRECTIONS.values()])
    return quotients / np.trace(centred)


@cache
def sweep_shares() -> np.ndarray:
    """Shares of the three named directions across the sweep, one row per gamma."""
    return np.array([named_shares(gamma) for gamma in SWEEP])


@cache
def crossings() -> tuple[float, float]:
    """The gammas where the pair-against-pair direction overtakes C–D, then A–B."""

    def gap(log_gamma: float, other: int) -> float:
        shares = named_shares(10.0**log_gamma)
        return shares[2] - shares[other]

    low, high = np.log10(SWEEP[0]), np.log10(0.1)
    return (10.0 ** brentq(gap, low, high, args=(1,), xtol=1e-13),
            10.0 ** brentq(gap, low, high, args=(0,), xtol=1e-13))


def _squared(coef0: float, centre_rows: bool = False) -> KernelPCA:
    """The squared kernel on the ring, its rows as measured or (``centre_rows``) moved to
    their mean first; kernel PCA itself centres only the lifted rows."""
    rows = np.asarray(data.ring().rows, dtype=float)
    if centre_rows:
        rows = rows - rows.mean(axis=0)
    kernel = kernels.polynomial(SQUARED_DEGREE, gamma=SQUARED_GAMMA, coef0=coef0)
    return KernelPCA(kernel).fit(rows)


def choosing():
    """The kernels in brief: the reach's kernel value, and the squared kernel on the ring."""
    ring = data.ring()
    inner = ring.mask("inner")
    with_constant, without = _squared(SQUARED_COEF0), _squared(SQUARED_NO_COEF0)

    def separating(fit: KernelPCA) -> list[int]:
        return [j for j in range(fit.n_components_)
                if measure.separation(fit.scores_[inner, j], fit.scores_[~inner, j]).separated]

    found = separating(with_constant)
    claim("with the added constant at {coef0} the squared kernel has {count} directions on the "
          "ring, and only the last puts every inner person on one side of every outer person",
          found == [with_constant.n_components_ - 1], id="last", coef0=SQUARED_COEF0,
          count=with_constant.n_components_)
    claim("with the added constant at {coef0} the squared kernel has only {count} directions "
          "on the ring, and none of them separates the groups", not separating(without), id="none",
          coef0=SQUARED_NO_COEF0, count=without.n_components_)
    claim("the separating direction has the smallest share of all",
          with_constant.shares_[-1] == with_constant.shares_.min(), id="smallest")
    # Both findings depend on the ring sitting far from the origin: on rows centred first,
    # the slices of the c₀ = 0 kernel are centred on the ring.
    centred_with, centred_without = (_squared(SQUARED_COEF0, centre_rows=True),
                                     _squared(SQUARED_NO_COEF0, centre_rows=True))
    centred_found, centred_found_without = separating(centred_with), separating(centred_without)
    claim("on rows centred first, with the constant at {coef0} the last direction still "
          "separates the groups, with a share over {times} times the uncentred one's",
          lambda times: centred_found == [centred_with.n_components_ - 1]
          and centred_with.shares_[-1] > times * with_constant.shares_[-1],
          id="centred_last", coef0=SQUARED_COEF0, times=1000)
    claim("on rows centred first, with the constant at {coef0} exactly one direction "
          "separates the groups", len(centred_found_without) == 1, id="centred_without",
          coef0=SQUARED_NO_COEF0)
    return {
        "degree": SQUARED_DEGREE,
        "gamma": SQUARED_GAMMA,
        "coef0": SQUARED_COEF0,
        "no_coef0": SQUARED_NO_COEF0,
        "directions": with_constant.n_components_,
        "directions_without": without.n_components_,
        "last_share": with_constant.shares_[-1],
        "first_share": with_constant.shares_[0],
        "ring_size": ring.n,
        "ring_centre": [float(v) for v in np.asarray(ring.rows, dtype=float).mean(axis=0)],
        "centred_last_share": centred_with.shares_[-1],
        "centred_directions_without": centred_without.n_components_,
        "centred_separating_without": centred_found_without[0] + 1,
        "at_reach": np.exp(-1.0),
    }


def rbf_run():
    """The same five steps with the RBF kernel on the four."""
    fit = fits.rbf_fit(RBF_GAMMA)
    rows = fits.rows()
    n, p = rows.shape
    table = fit.training_table_
    centred = fit.centred_table_
    values = fits.all_eigenvalues(centred)
    squared = ((rows[:, None, :] - rows[None, :, :]) ** 2).sum(axis=2)
    claim("each entry of the RBF table is exp(−γ × squared distance)",
          np.allclose(table, np.exp(-RBF_GAMMA * squared), rtol=1e-14, atol=0))
    claim("every person scores exactly one with themselves", np.all(np.diag(table) == 1.0))
    claim("rows and columns of the centred RBF table sum to zero",
          np.allclose(centred.sum(axis=0), 0, rtol=0, atol=1e-12))
    claim("the RBF run keeps {kept} directions, one fewer than the number of people and one "
          "more than the number of features", fit.n_components_ == n - 1 == p + 1,
          id="kept", kept=fit.n_components_)
    claim("each RBF coefficient vector has squared length one over its raw eigenvalue",
          np.allclose((fit.coefficients_**2).sum(axis=0), 1 / fit.eigenvalues_,
                      rtol=1e-10, atol=0))
    claim("the RBF shares add up to one", abs(fit.shares_.sum() - 1) < 1e-12)
    claim("the RBF total variance is the trace of the centred table over one fewer than the "
          "number of people", abs(fit.total_variance_ - np.trace(centred) / (n - 1)) < 1e-12)
    scores = fit.scores_
    claim("the first RBF direction sets A against B, the farthest-apart pair",
          scores[0, 0] > 0 > scores[1, 0] and np.allclose(scores[2:, 0], 0, rtol=0, atol=1e-12),
          id="first")
    claim("the second RBF direction sets C against D",
          scores[2, 1] > 0 > scores[3, 1] and np.allclose(scores[:2, 1], 0, rtol=0, atol=1e-12),
          id="second")
    claim("the third RBF direction sets the pair A, B against the pair C, D, each pair "
          "at one value", np.all(scores[:2, 2] > 0) and np.all(scores[2:, 2] < 0)
          and abs(scores[0, 2] - scores[1, 2]) < 1e-12 and abs(scores[2, 2] - scores[3, 2]) < 1e-12,
          id="third")
    claim("A and B score lower with each other than any pair across the two pairs does, and C "
          "and D higher", table[0, 1] < table[0, 2] < table[2, 3], id="scores")
    claim("A and B are the farthest-apart pair", squared[0, 1] == squared.max())
    off_diagonal = squared[~np.eye(n, dtype=bool)]
    claim("C and D are the closest pair", squared[2, 3] == off_diagonal.min())
    claim("every pair other than A, B and C, D is as far apart as A and C",
          np.allclose(squared[:2, 2:], squared[0, 2], rtol=0, atol=ROUNDING), id="distances")
    claim("as measured, the pair A, B and the pair C, D have the same mean",
          np.allclose(rows[:2].mean(axis=0), rows[2:].mean(axis=0), rtol=0, atol=ROUNDING),
          id="same_mean")
    # Squared distance between the two pairs' midpoints in the feature space.
    midpoints = (table[:2, :2].sum() + table[2:, 2:].sum()) / 4 - 2 * table[:2, 2:].mean()
    claim("in the feature space the midpoint of A, B is not the midpoint of C, D",
          midpoints > 1e-3, id="midpoints")
    return {
        "midpoint_distance": float(midpoints),
        "gamma": RBF_GAMMA,
        "reach": 1 / np.sqrt(RBF_GAMMA),
        "squared_12": exact(fits.whole(squared[0, 1]), WHOLE),
        "squared_13": exact(fits.whole(squared[0, 2]), WHOLE),
        "squared_34": exact(fits.whole(squared[2, 3]), WHOLE),
        "table": table,
        "column_means": fit.table_column_means_,
        "grand_mean": fit.table_grand_mean_,
        "centred": fits.matrix(centred, RBF_NOISE),
        "eigenvalues": fits.eigenvalues_with_zeros(values, RBF_NOISE),
        "noise": fits.noise(RBF_NOISE, centred, fit.coefficients_, fit.scores_),
        "kept": fit.n_components_,
        "features": p,
        "coefficients": fits.columns(fit.coefficients_, RBF_NOISE),
        "coordinates": fits.columns(fit.scores_, RBF_NOISE),
        "variances": fit.variances_,
        "total_variance": fit.total_variance_,
        "shares": fit.shares_,
        "closest_distance": np.sqrt(off_diagonal.min()),
    }


def _scales_against(fit, pca) -> np.ndarray:
    """Each of the first two coordinate columns over ordinary PCA's (least squares)."""
    kernel, linear = fit.scores_[:, :2], pca.scores_[:, :2]
    return (kernel * linear).sum(axis=0) / (linear * linear).sum(axis=0)


def reach():
    """Gamma as reach: a wide reach gives ordinary PCA, a narrow one leaves everyone alone."""
    pca = fits.pca()
    wide = fits.rbf_fit(WIDE_GAMMA)
    narrow = fits.rbf_fit(NARROW_GAMMA)
    rows = fits.rows()
    n = len(rows)
    squared = ((rows[:, None, :] - rows[None, :, :]) ** 2).sum(axis=2)
    closest = np.sqrt(squared[~np.eye(n, dtype=bool)].min())
    correlations = [np.corrcoef(wide.scores_[:, j], pca.scores_[:, j])[0, 1] for j in range(2)]
    wide_scales = _scales_against(wide, pca)
    worked_scales = _scales_against(fits.rbf_fit(RBF_GAMMA), pca)
    claim("at the wide reach the first two RBF shares are within {tolerance} of ordinary PCA's",
          lambda tolerance: np.allclose(wide.shares_[:2], pca.shares_, rtol=0, atol=tolerance),
          id="wide_shares", tolerance=SHARE_TOLERANCE)
    claim("at the wide reach each of the first two RBF coordinate columns is ordinary PCA's "
          "times a positive scale (correlation above {limit}), and the two scales agree to "
          "within {agreement} of each other",
          lambda limit, agreement: (min(correlations) > limit and min(wide_scales) > 0
                                    and abs(wide_scales[0] / wide_scales[1] - 1) < agreement),
          id="wide_scale", limit=WIDE_CORRELATION, agreement=SCALE_AGREEMENT)
    claim("at the worked gamma the two scales differ by more than {times} times that",
          lambda times: abs(worked_scales[0] / worked_scales[1] - 1) > times * SCALE_AGREEMENT,
          id="worked_scales", times=10)
    off_identity = narrow.training_table_ - np.eye(n)
    claim("at the narrow reach the three shares are equal",
          np.allclose(narrow.shares_, 1 / (n - 1), rtol=1e-12, atol=0), id="equal")
    claim("the narrow reach is shorter than the distance between the closest pair",
          1 / np.sqrt(NARROW_GAMMA) < closest, id="narrow_shorter")
    first_shares = [fits.rbf_fit(float(gamma)).shares_[0] for gamma in SWEEP]
    claim("the largest share never rises as the reach narrows",
          np.all(np.diff(first_shares) <= 1e-12), id="never_rises")
    shares = sweep_shares()
    claim("each named direction's share is an eigenvalue's share at every gamma of the sweep",
          all(np.allclose(np.sort(row), np.sort(fits.rbf_fit(float(g)).shares_), rtol=1e-8,
                          atol=1e-12) for row, g in zip(shares, SWEEP, strict=True)))
    first, second = crossings()
    claim("at each crossing the two directions' shares are equal",
          abs(np.subtract(*named_shares(first)[[2, 1]])) < 1e-9
          and abs(np.subtract(*named_shares(second)[[2, 0]])) < 1e-9, id="crossings")
    left = named_shares(first / 2)
    right = named_shares(second * 2)
    claim("below the first crossing the order is A against B, C against D, then the pairs; "
          "above the second it is the pairs, A against B, then C against D",
          left[0] > left[1] > left[2] and right[2] > right[0] > right[1], id="order")
    claim("the worked gamma lies below the first crossing", RBF_GAMMA < first, id="worked_below")
    return {
        "wide_gamma": WIDE_GAMMA,
        "wide_reach": 1 / np.sqrt(WIDE_GAMMA),
        "wide_shares": wide.shares_[:2],
        "wide_scales": wide_scales, "worked_scales": worked_scales,
        "scale_agreement": SCALE_AGREEMENT,
        "pca_shares": pca.shares_,
        "narrow_gamma": NARROW_GAMMA,
        "narrow_reach": 1 / np.sqrt(NARROW_GAMMA),
        "narrow_shares": narrow.shares_,
        "narrow_off_identity": fits.noise(RBF_NOISE, off_identity),
        "closest_distance": closest,
        "share_tolerance": SHARE_TOLERANCE,
        "sweep_low": SWEEP[0],
        "sweep_high": SWEEP[-1],
        "first_crossing": first,
        "second_crossing": second,
    }
