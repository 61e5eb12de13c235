"""Answers to the PCA page's exercises, each worked here by the route the exercise asks
for (a hand formula, a plain numpy call) and checked against ``kreport.PCA``."""

from __future__ import annotations

import numpy as np

from kreport import PCA
from kreport.report import claim, exact

from . import fits
from .scatter import WHOLE, whole
from .units import standardise

#: Kilograms to grams, for the exercise that rewrites the four's weights.
GRAMS_PER_KG = 1000.0
#: The raw first direction in grams lies within this many degrees of the weight axis.
WEIGHT_AXIS_LIMIT = 0.1
#: On the arc, the uncentred first direction lies within this many degrees of the mean row,
UNCENTRED_LIMIT = 1.0
#: and the centred one more than this many degrees from it.
CENTRED_FAR = 10.0


def _degrees(u: np.ndarray, v: np.ndarray) -> float:
    """Angle between two lines through the origin (sign ignored), in degrees."""
    cosine = abs(u @ v) / (np.linalg.norm(u) * np.linalg.norm(v))
    return float(np.degrees(np.arccos(min(1.0, cosine))))


def _rebuild_four() -> dict:
    """Exercise one: the four rebuilt from the first direction, v₁ = (1, 1)/√2, by hand."""
    X = fits.rows("measured_four")
    mean = X.mean(axis=0)
    v1 = np.array([1.0, 1.0]) / np.sqrt(2.0)
    z = (X - mean) @ v1
    rebuilt = mean + np.outer(z, v1)
    residuals = ((X - rebuilt) ** 2).sum(axis=1)
    total = float(residuals.sum())
    one, both = PCA(1).fit(X), PCA().fit(X)
    dropped = float(both.eigenvalues_[1])
    claim("C and D are rebuilt at the mean row", np.max(np.abs(rebuilt[2:] - mean)) < 1e-12
          * np.max(np.abs(mean)), id="at_mean")
    claim("the hand total of the squared residuals is the dropped eigenvalue λ₂ and kreport's "
          "reconstruction error", abs(total - dropped) < 1e-10 * dropped
          and abs(one.reconstruction_error_ - total) < 1e-10 * dropped, id="total")
    claim("each of C's and D's squared residuals is half of λ₂",
          np.allclose(residuals[2:], dropped / 2, rtol=1e-10, atol=0), id="half_each")
    return {"c_row": X[2], "rebuilt_c": rebuilt[2], "residual_c": float(residuals[2]),
            "residual_d": float(residuals[3]), "total": total, "dropped": dropped}


def _grams() -> dict:
    """Exercise two: the four's weights in grams, raw and standardised."""
    X = fits.rows("measured_four")
    grams = X * np.array([1.0, GRAMS_PER_KG])
    centred = grams - grams.mean(axis=0)
    S = centred.T @ centred
    correlation = float(S[0, 1] / np.sqrt(S[0, 0] * S[1, 1]))
    by_hand = np.array([(1 + abs(correlation)) / 2, (1 - abs(correlation)) / 2])
    raw, standardised = PCA().fit(grams), PCA().fit(standardise(grams))
    kilograms = fits.pca("measured_four")
    claim("standardised, the shares in grams are one half plus and minus half the correlation",
          np.allclose(standardised.shares_, by_hand, rtol=0, atol=1e-12), id="by_hand")
    claim("and they are the raw shares in kilograms",
          np.allclose(by_hand, kilograms.shares_, rtol=0, atol=1e-12), id="same_as_kg")
    centred_kilograms = X - X.mean(axis=0)
    spread = (centred_kilograms**2).sum(axis=0)
    claim("in kilograms the four's two columns have the same spread", spread[0] == spread[1],
          id="equal_spread", exact=WHOLE)
    angle = _degrees(raw.components_[0], np.array([0.0, 1.0]))
    claim("in grams the raw first direction lies within {limit} degree of the weight axis",
          lambda limit: angle < limit, id="weight_axis", limit=WEIGHT_AXIS_LIMIT)
    return {"factor": GRAMS_PER_KG, "grams_scatter": exact(whole(S), WHOLE),
            "correlation": correlation, "std_shares": by_hand,
            "raw_shares": raw.shares_, "weight_angle": angle}


def _arc_uncentred() -> dict:
    """Exercise three (code): the arc decomposed without centring, by the SVD of X."""
    X = fits.rows("arc")
    mean = X.mean(axis=0)
    _, singular, right = np.linalg.svd(X, full_matrices=False)
    top = right[0]
    share = float(singular[0] ** 2 / (singular**2).sum())
    uncentred_angle = _degrees(top, mean)
    centred = X - mean
    _, vectors = np.linalg.eigh(centred.T @ centred)
    first = vectors[:, -1]
    claim("the first eigenvector of the hand scatter matrix is kreport's first direction, "
          "up to sign", abs(abs(first @ fits.pca("arc").components_[0]) - 1) < 1e-12,
          id="same_direction")
    centred_angle = _degrees(first, mean)
    claim("uncentred, the arc's first direction is within {limit} degree of the mean row",
          lambda limit: uncentred_angle < limit, id="uncentred_near", limit=UNCENTRED_LIMIT)
    claim("centred, it is more than {far} degrees from the mean row",
          lambda far: centred_angle > far, id="centred_far", far=CENTRED_FAR)
    return {"arc_mean": mean, "uncentred_share": share, "uncentred_angle": uncentred_angle,
            "centred_angle": centred_angle, "centred_first": first * np.sign(first[0]),
            "uncentred_limit": UNCENTRED_LIMIT, "centred_far": CENTRED_FAR}


def exercises() -> dict:
    """Three exercises: rebuild the four (pencil), the four in grams (pencil), the arc
    without centring (code)."""
    return {**_rebuild_four(), **_grams(), **_arc_uncentred()}
