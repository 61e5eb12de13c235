"""The sign convention for principal directions, shared by PCA and KernelPCA.

An eigenvector is only defined up to sign, so each kept direction is turned
by one stated rule (``SIGN_CONVENTION``) that both PCA classes apply. With the
same rule PCA and KernelPCA(linear) give the same scores, sign included.
"""

from __future__ import annotations

import numpy as np

#: Entries whose magnitude is within this relative distance of a column's
#: largest magnitude count as tied for largest (see ``orientation_signs``).
SIGN_TIE_TOLERANCE = 1e-9

SIGN_CONVENTION = (
    "Each kept direction is oriented by an n-vector over the training rows "
    "(KernelPCA: the eigenvector of the centred table; PCA: the column of scores, "
    "which is proportional to it). Among the entries whose magnitude is within "
    "a relative 1e-9 of the largest magnitude, the one with the lowest row index "
    "is made positive, flipping the whole direction if needed."
)


def orientation_signs(columns: np.ndarray) -> np.ndarray:
    """Return +1/−1 per column so that ``columns * signs`` obeys SIGN_CONVENTION."""
    magnitudes = np.abs(columns)
    largest = magnitudes.max(axis=0)
    # A tolerance, not exact equality, so that two entries equal in exact
    # arithmetic (e.g. ±1/√2) choose the same winner on every machine.
    tied = magnitudes >= largest * (1.0 - SIGN_TIE_TOLERANCE)
    first_tied = np.argmax(tied, axis=0)
    picked = columns[first_tied, np.arange(columns.shape[1])]
    return np.where(picked < 0.0, -1.0, 1.0)


__all__ = ["SIGN_CONVENTION", "SIGN_TIE_TOLERANCE", "orientation_signs"]
