"""Why lift at all: on the ring, a straight line in the squared features separates the
groups that no straight line in the plane can."""

from __future__ import annotations

import numpy as np
from scipy.spatial import Delaunay

from kreport import PCA, measure
from kreport.report import claim

from . import fits


def squared_features(centred: np.ndarray) -> np.ndarray:
    """(x̃₁², x̃₂²) for each centred row: two of the degree-2 features."""
    return centred**2


def ring_lifted() -> dict:
    """The ring in the plane and in two lifted features."""
    inner = fits.ring_inner()
    centred = fits.centred("ring")
    lifted = squared_features(centred)
    along_sum = lifted.sum(axis=1)  # the straight direction (1, 1) in the lifted plane
    split = measure.separation(along_sum[inner], along_sum[~inner])
    plane = PCA().fit(fits.rows("ring"))
    plane_splits = [measure.separation(plane.scores_[inner, m], plane.scores_[~inner, m])
                    for m in range(2)]
    claim("in the lifted plane, the straight line x̃₁² + x̃₂² = constant separates the groups",
          split.separated, id="lifted_splits")
    claim("in the measured plane, neither PCA direction separates them",
          not any(s.separated for s in plane_splits), id="plane_fails")
    # No line at all: a line with every inner person on one side would leave the outer
    # group's convex hull, which holds every inner person, on that side too.
    rows = fits.rows("ring")
    outline = Delaunay(rows[~inner])
    claim("every inner person lies inside the convex hull of the outer group",
          bool(np.all(outline.find_simplex(rows[inner]) >= 0)), id="surrounded")
    threshold = float((along_sum[inner].max() + along_sum[~inner].min()) / 2)
    claim("the inner group lies wholly below the line and the outer wholly above it",
          bool(np.all(along_sum[inner] < threshold) and np.all(along_sum[~inner] > threshold)),
          id="sides")
    return {
        "n": len(centred),
        "inner": int(inner.sum()),
        "outer": int((~inner).sum()),
        "gap": split.gap,
        "inner_largest": float(along_sum[inner].max()),
        "outer_smallest": float(along_sum[~inner].min()),
        "threshold": threshold,
        "radius": float(np.sqrt(threshold)),
        "plane_shift": plane_splits[0].shift,
    }
