"""The rows, the exact fits, the Nyström idea, and how close the approximations come.

Everything here runs in the build on the committed fixture ``scale_rows`` and
passes the stability check: the landmark choice depends only on the seed and the
number of rows, never on the values, so perturbed rows keep the same landmarks.
"""

from __future__ import annotations

import numpy as np

from kreport import kernels
from kreport.approx import NystroemKernelRidge
from kreport.report import bound, claim

from . import fits
from .settings import (
    BYTES_PER_NUMBER,
    COUNTS,
    DIRECTIONS,
    GAMMA,
    LANDMARK_SEED,
    MEBIBYTE,
    NOISE,
    PENALTY,
)

#: "Within a hundredth": how close a held-out error must come to the exact fit's.
CLOSE = 0.01
#: A shortfall of kernel PCA's variances below this fraction counts as matched.
MATCHED = 0.01
#: The round cloud's first p kernel PCA variances: how close, and how far the next drops.
SPREAD_LIMIT = 1.2
DROP_LIMIT = 0.6


def problem():
    """The rows of the page and the exact fits the approximations are measured against."""
    X, y, Xq, yq = fits.rows()
    n, p = X.shape
    exact = fits.held_out_error(fits.exact_predictions())
    floor = fits.held_out_floor()
    mean_only = fits.rms(yq - y.mean())
    claim("the exact fit's held-out error lies between the noise floor and the error of "
          "answering the training mean", floor < exact < mean_only, id="between")
    return {
        "n": n, "p": p, "held_out": len(Xq), "gamma": GAMMA, "penalty": PENALTY,
        "noise": NOISE, "exact_error": exact, "bytes": BYTES_PER_NUMBER,
        "directions_kept": DIRECTIONS, "floor": floor, "mean_error": mean_only,
        "table_entries": n * n, "table_mib": BYTES_PER_NUMBER * n * n / MEBIBYTE,
    }


def landmarks():
    """Nyström's landmarks: nested by construction, exact on themselves, never above K."""
    X, y, Xq, _ = fits.rows()
    n = len(X)
    middle = COUNTS[2]
    small, large = fits.nystroem_map(COUNTS[0]), fits.nystroem_map(COUNTS[-1])
    nested = all(
        np.array_equal(fits.nystroem_map(count).landmark_indices_,
                       large.landmark_indices_[:count]) for count in COUNTS)
    claim("the landmarks for each smaller M are the first M of the largest set", nested,
          id="nested")
    kernel = kernels.rbf(GAMMA)
    model = fits.nystroem_map(middle)
    marks = model.landmarks_
    features = model.transform(marks)
    reproduced = np.abs(kernel(marks, marks) - features @ features.T)
    held = model.transform(Xq)
    difference = fits.held_out_table(GAMMA) - held @ held.T
    smallest = float(np.linalg.eigvalsh(difference)[0])
    claim("on the held-out rows the table minus its Nyström approximation has no eigenvalue "
          "below {limit}", lambda limit: smallest > limit, id="below_table", limit=-1e-12)
    # Every training row a landmark: the approximation is the exact method.
    everything = NystroemKernelRidge(kernels.rbf(GAMMA), PENALTY, n, seed=LANDMARK_SEED)
    everything.fit(X, y)
    agreement = np.abs(everything.predict(Xq) - fits.exact_predictions())
    return {
        "middle": middle, "smallest_count": COUNTS[0], "largest_count": COUNTS[-1],
        "seed": LANDMARK_SEED, "first_indices": [int(i) for i in small.landmark_indices_[:3]],
        "reproduced": bound(reproduced, -12),
        "all_rows_rank": everything.rank_, "all_rows": n,
        "all_rows_agreement": bound(agreement, -9),
        "limit": -1e-12,
    }


def kernel_pca():
    """PCA of Nyström features against exact kernel PCA: variances, totals and shares."""
    exact = fits.exact_pca()
    exact_variances = exact.variances_[:DIRECTIONS]
    table, shortfalls, totals, captured = [], [], [], []
    for count in COUNTS:
        approximate = fits.nystroem_pca(count)
        variances = approximate.variances_[:DIRECTIONS]
        shortfall = float(np.max((exact_variances - variances) / exact_variances))
        shortfalls.append(shortfall)
        totals.append(approximate.total_variance_)
        captured.append(approximate.total_variance_ / exact.total_variance_)
        table.append({"count": count, "variances": variances.tolist(),
                      "total": approximate.total_variance_, "first_share": approximate.shares_[0],
                      "captured": captured[-1]})
    variances = np.array([row["variances"] for row in table])
    slack = 1e-9 * exact_variances
    claim("at every M every Nyström variance is at most the exact one",
          bool(np.all(variances <= exact_variances + slack)), id="never_above")
    claim("each variance, and the total, rises as M grows",
          bool(np.all(np.diff(variances, axis=0) >= -slack)) and bool(np.all(np.diff(totals) > 0)),
          id="rises")
    # Relative shortfall of each direction's variance at the fewest landmarks.
    by_direction = 1 - variances[0] / exact_variances
    claim("at the fewest landmarks the first variance is closer to the exact one, relatively, "
          "than the total is", by_direction[0] < 1 - captured[0], id="first_soonest")
    claim("at the fewest landmarks the directions' relative shortfalls do not grow in order",
          bool(np.any(np.diff(by_direction) < 0)), id="not_in_order")
    matched_at = next(count for count, gap in zip(COUNTS, shortfalls, strict=True)
                      if gap < MATCHED)
    claim("from M = {matched_at} on, every one of the first {directions} variances is short of "
          "the exact one by less than {matched} of it",
          lambda matched: all(gap < matched for count, gap in zip(COUNTS, shortfalls, strict=True)
              if count >= matched_at),
          id="matched", matched_at=matched_at, directions=DIRECTIONS, matched=MATCHED)
    p = fits.rows()[0].shape[1]
    spread = float(exact_variances[0] / exact_variances[p - 1])
    drop = float(exact_variances[p] / exact_variances[p - 1])
    claim("the first {p} exact variances lie within a factor of {spread_limit} of one another, "
          "and the next is less than {drop_limit} of the last of them",
          lambda spread_limit, drop_limit: spread < spread_limit and drop < drop_limit,
          id="near_equal", p=p,
          spread_limit=SPREAD_LIMIT, drop_limit=DROP_LIMIT)
    first = table[0]
    claim("at the smallest M the first share computed from the Nyström features exceeds the "
          "exact first share", first["first_share"] > exact.shares_[0], id="share_inflated")
    claim("at the smallest M the Nyström total is below {half} of the exact total",
          lambda half: captured[0] < half, id="total_short", half=0.6)
    return {
        "directions": DIRECTIONS, "exact_variances": exact_variances.tolist(),
        "exact_total": exact.total_variance_, "exact_first_share": exact.shares_[0],
        "rows": table, "matched": MATCHED, "matched_at": matched_at,
        "matched_percent": round(100 * MATCHED),
        "total_limit": 0.6, "near_equal": p, "spread": spread, "drop": drop,
        "spread_limit": SPREAD_LIMIT, "drop_limit": DROP_LIMIT,
    }


def kernel_ridge():
    """Nyström kernel ridge against the exact fit: held-out error and prediction gaps."""
    X, _, _, _ = fits.rows()
    n = len(X)
    exact_error = fits.held_out_error(fits.exact_predictions())
    table = []
    for count in COUNTS:
        predicted = fits.nystroem_ridge(count).predict(fits.rows()[2])
        table.append({"count": count, "error": fits.held_out_error(predicted),
                      "gap": float(np.max(np.abs(predicted - fits.exact_predictions()))),
                      "fraction": count / n})
    errors = [row["error"] for row in table]
    gaps = [row["gap"] for row in table]
    claim("the largest gap between Nyström and exact predictions shrinks at every step of M",
          bool(np.all(np.diff(gaps) < 0)), id="gaps_shrink")
    close_at = next(row["count"] for row in table if row["error"] < (1 + CLOSE) * exact_error)
    claim("from M = {close_at} on, the held-out error is within {close} of the exact fit's, "
          "relatively",
          lambda close: all(row["error"] < (1 + close) * exact_error for row in table
              if row["count"] >= close_at), id="close", close_at=close_at, close=CLOSE)
    claim("at the smallest M the held-out error is more than twice the exact fit's",
          errors[0] > 2 * exact_error, id="smallest_poor")
    close_row = next(row for row in table if row["count"] == close_at)
    claim("there the largest gap is below the noise's standard deviation {noise}",
          lambda noise: close_row["gap"] < noise, id="gap_below_noise", noise=NOISE)
    return {
        "rows": table, "exact_error": exact_error, "close": CLOSE, "close_at": close_at,
        "close_percent": round(100 * CLOSE),
        "close_fraction": close_row["fraction"], "close_gap": close_row["gap"],
        "n": n, "noise": NOISE,
    }
