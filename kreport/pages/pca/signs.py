"""The sign of a direction: arbitrary in the mathematics, fixed by a stated rule in kreport."""

from __future__ import annotations

import numpy as np

from kreport import SIGN_CONVENTION, KernelPCA, kernels
from kreport.report import bound, claim

from . import fits


def sign_convention() -> dict:
    """Flipping a direction changes no eigenvalue and no rebuilt row; kreport's rule picks one."""
    fit = fits.pca("measured_four")
    v, z = fit.components_[0], fit.scores_[:, 0]
    rebuilt = np.outer(z, v)
    flipped = np.outer(-z, -v)
    claim("the rows rebuilt with the flipped direction are the same bit for bit",
          np.array_equal(rebuilt, flipped), id="flip_rebuild")
    tied = abs(abs(z[0]) - abs(z[1])) <= 1e-9 * np.max(np.abs(z))
    claim("persons A and B tie for the largest first coordinate", tied, id="tie")
    claim("so the first of them, A, is made positive", z[0] > 0, id="a_positive")
    z2 = fit.scores_[:, 1]
    claim("on the second direction C and D tie, and C is made positive",
          abs(abs(z2[2]) - abs(z2[3])) <= 1e-9 * np.max(np.abs(z2)) and z2[2] > 0,
          id="c_positive")
    ring = fits.rows("ring")
    linear = KernelPCA(kernels.linear(), 2).fit(ring)
    plain = fits.pca("ring")
    difference = np.max(np.abs(linear.scores_ - plain.scores_)) / np.max(np.abs(plain.scores_))
    claim("on the ring, PCA and kernel PCA with the linear kernel give the same coordinates, "
          "sign included", difference < 1e-9, id="same_signs")
    return {
        "rule": SIGN_CONVENTION,
        "first_a": float(z[0]),
        "second_c": float(z2[2]),
        "ring_difference": bound(difference, -9),
    }
