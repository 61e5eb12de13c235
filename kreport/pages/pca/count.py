"""How many directions to keep, and why a share is not usefulness."""

from __future__ import annotations

import itertools

import numpy as np

from kreport import measure
from kreport.pages._settings import RING_GAMMA
from kreport.report import claim

from . import fits

#: The cumulative-share thresholds the usual rules of thumb name: Jolliffe's range
#: runs from the first to the third; the last is a common software default.
THRESHOLDS = (0.7, 0.8, 0.9, 0.95)
#: ``kreport.measure.cumulative_count`` counts a share this close below a threshold
#: as reaching it (its default tolerance).
REACH_TOLERANCE = 1e-12


def _kaiser(variances: np.ndarray) -> int:
    """Directions whose variance is above the average variance."""
    return int(np.count_nonzero(variances > variances.mean()))


def how_many() -> dict:
    """Cumulative-share rules and the above-average rule on the three planar fixtures,
    and on the ring under the RBF kernel, where there are many directions to count."""
    rows = []
    for name, label in (("measured_four", "the measured four"), ("arc", "the arc"),
                        ("ring", "the ring")):
        fit = fits.pca(name)
        rows.append({"name": label, "shares": fit.shares_,
                     "counts": [measure.cumulative_count(fit.shares_, t) for t in THRESHOLDS],
                     "kaiser": _kaiser(fit.variances_)})
    kernel = fits.ring_kernel()
    kernel_counts = [measure.cumulative_count(kernel.shares_, t) for t in THRESHOLDS]
    kernel_kaiser = _kaiser(kernel.variances_)
    four_first = rows[0]["shares"][0]
    claim("the measured four's first share sits on the second threshold, to rounding",
          abs(four_first - THRESHOLDS[1]) < REACH_TOLERANCE, id="on_threshold")
    claim("on the planar fixtures the above-average rule keeps one direction",
          all(row["kaiser"] == 1 for row in rows), id="kaiser_one")
    claim("on the ring every threshold keeps both directions",
          all(c == 2 for c in rows[2]["counts"]), id="ring_both")
    claim("under the RBF kernel the counts climb with the threshold",
          all(a < b for a, b in itertools.pairwise(kernel_counts)), id="kernel_climb")
    few = 5
    claim("even the lowest threshold keeps more than {few} of the kernel's directions",
          kernel_counts[0] > few, id="kernel_many", few=few)
    return {
        "thresholds": list(THRESHOLDS),
        "planar": rows,
        "kernel_directions": int(kernel.n_components_),
        "kernel_gamma": kernel.kernel.gamma,
        "kernel_counts": kernel_counts,
        "kernel_kaiser": kernel_kaiser,
        "tolerance": REACH_TOLERANCE,
        "few": few,
        "four_first": four_first,
    }


def share_not_usefulness() -> dict:
    """On the ring, the directions with the most variance do not separate the groups."""
    inner = fits.ring_inner()
    fit = fits.pca("ring")
    splits = [measure.separation(fit.scores_[inner, m], fit.scores_[~inner, m])
              for m in range(2)]
    X = fits.rows("ring")
    radius = np.linalg.norm(X - X.mean(axis=0), axis=1)
    by_radius = measure.separation(radius[inner], radius[~inner])
    kernel = fits.ring_kernel()
    by_kernel = measure.separation(kernel.scores_[inner, 0], kernel.scores_[~inner, 0])
    claim("along neither PCA direction are the groups apart",
          not splits[0].separated and not splits[1].separated, id="pca_fails")
    claim("the distance from the mean row separates the groups", by_radius.separated,
          id="radius")
    claim("the kernel's first direction separates the groups", by_kernel.separated,
          id="kernel_splits")
    claim("the kernel's first share is the largest of its shares, over {times} times their "
          "average",
          lambda times: kernel.shares_[0] > times / kernel.n_components_, id="kernel_largest",
          times=3)
    return {
        "n": int(X.shape[0]),
        "inner": int(inner.sum()),
        "outer": int((~inner).sum()),
        "shares": fit.shares_,
        "shifts": [s.shift for s in splits],
        "radius_gap": by_radius.gap,
        "kernel_share": float(kernel.shares_[0]),
        "kernel_gap": by_kernel.gap,
        "kernel_gamma": RING_GAMMA,
        "kernel_directions": kernel.n_components_,
    }
