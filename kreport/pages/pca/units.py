"""Units: the arc with heights in centimetres and in metres, raw and standardised."""

from __future__ import annotations

import numpy as np

from kreport import PCA
from kreport.report import bound, claim

from . import fits

#: Centimetres to metres.
CM_TO_M = 0.01


def standardise(X: np.ndarray) -> np.ndarray:
    """Centre each column and divide it by its standard deviation (over n − 1)."""
    return (X - X.mean(axis=0)) / X.std(axis=0, ddof=1)


def angle_from(direction: np.ndarray, axis: int) -> float:
    """Degrees between a unit direction and a coordinate axis (sign ignored)."""
    return float(np.degrees(np.arccos(min(1.0, abs(direction[axis])))))


def standardising() -> dict:
    """Raw PCA answers the unit; standardised PCA answers the correlation."""
    cm = fits.rows("arc")
    metres = cm * np.array([CM_TO_M, 1.0])
    raw_cm, raw_m = PCA().fit(cm), PCA().fit(metres)
    std_cm, std_m = PCA().fit(standardise(cm)), PCA().fit(standardise(metres))
    correlation = float(np.corrcoef(cm.T)[0, 1])
    claim("in centimetres the first direction runs along height",
          angle_from(raw_cm.components_[0], 0) < 2, id="cm_height")
    claim("in metres the first direction runs along weight",
          angle_from(raw_m.components_[0], 1) < 0.1, id="m_weight")
    claim("standardised, the shares are the same in centimetres and in metres",
          np.max(np.abs(std_cm.shares_ - std_m.shares_)) < 1e-12, id="unit_free")
    claim("standardised, the two shares are one half plus and minus half the correlation",
          np.allclose(std_cm.shares_, [(1 + abs(correlation)) / 2, (1 - abs(correlation)) / 2],
                      rtol=0, atol=1e-12), id="half_correlation")
    claim("standardised, the first direction is a diagonal of the plane",
          abs(abs(std_cm.components_[0, 0]) - abs(std_cm.components_[0, 1])) < 1e-12,
          id="diagonal")
    claim("in metres the heights' standard deviation is a hundredth of that in centimetres",
          abs(metres.std(axis=0, ddof=1)[0] - CM_TO_M * cm.std(axis=0, ddof=1)[0])
          < 1e-12 * metres.std(axis=0, ddof=1)[0], id="hundredth")
    claim("the raw first share in metres is larger than in centimetres",
          raw_m.shares_[0] > raw_cm.shares_[0], id="m_larger")
    four = fits.rows("measured_four")
    raw_four, std_four = fits.pca("measured_four"), PCA().fit(standardise(four))
    sd_four = four.std(axis=0, ddof=1)
    claim("the measured four's two columns have the same standard deviation",
          abs(sd_four[0] - sd_four[1]) < 1e-12 * sd_four[0], id="four_equal_sd")
    claim("so standardising leaves the measured four's shares as they were",
          np.max(np.abs(std_four.shares_ - raw_four.shares_)) < 1e-12, id="four_unchanged")
    return {
        "sd_cm": cm.std(axis=0, ddof=1),
        "sd_m": metres.std(axis=0, ddof=1),
        "raw_cm_shares": raw_cm.shares_,
        "raw_m_shares": raw_m.shares_,
        "raw_cm_first": raw_cm.components_[0],
        "raw_m_first": raw_m.components_[0],
        "cm_angle": angle_from(raw_cm.components_[0], 0),
        "m_angle": angle_from(raw_m.components_[0], 1),
        "std_shares": std_cm.shares_,
        "std_gap": bound(np.max(np.abs(std_cm.shares_ - std_m.shares_)), -12),
        "correlation": correlation,
        "four_sd": sd_four,
        "four_shares": std_four.shares_,
    }
