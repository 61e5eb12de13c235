"""The degree-2 polynomial kernel's feature map, written out and checked entry by entry."""

from __future__ import annotations

import itertools
import math

import numpy as np

from kreport import kernels
from kreport.report import bound, claim

from . import fits

#: The worked polynomial kernel (γ xᵀx' + c₀)^d on the centred measured four:
#: γ small enough that γ xᵀx' is of order one for these rows.
GAMMA = 0.01
COEF0 = 1.0
DEGREE = 2


def feature_map(rows: np.ndarray, gamma: float = GAMMA, coef0: float = COEF0) -> np.ndarray:
    """φ(x) for two features, so that φ(x)ᵀφ(x') = (γ xᵀx' + c₀)²:
    (γx₁², γx₂², √2·γx₁x₂, √(2γc₀)·x₁, √(2γc₀)·x₂, c₀)."""
    x1, x2 = rows[:, 0], rows[:, 1]
    linear = math.sqrt(2 * gamma * coef0)
    return np.column_stack([gamma * x1**2, gamma * x2**2, math.sqrt(2) * gamma * x1 * x2,
                            linear * x1, linear * x2, np.full(len(rows), coef0)])


def monomials(p: int, d: int) -> int:
    """Count the monomials of degree at most d in p variables by listing them."""
    return sum(1 for degree in range(d + 1)
               for _ in itertools.combinations_with_replacement(range(p), degree))


def explicit_map() -> dict:
    """Φ of the centred measured four; ΦΦᵀ against the kernel's table."""
    centred = fits.centred("measured_four")
    kernel = kernels.polynomial(DEGREE, gamma=GAMMA, coef0=COEF0)
    table = kernel(centred, centred)
    Phi = feature_map(centred)
    difference = float(np.max(np.abs(Phi @ Phi.T - table)) / np.max(np.abs(table)))
    claim("ΦΦᵀ equals the kernel table entry by entry, to rounding", difference < 1e-13,
          id="equal")
    raw = fits.rows("measured_four")
    raw_table = kernel(raw, raw)
    raw_difference = float(np.max(np.abs(feature_map(raw) @ feature_map(raw).T - raw_table))
                           / np.max(np.abs(raw_table)))
    claim("the same holds for the rows as measured", raw_difference < 1e-13, id="raw_equal")
    count = Phi.shape[1]
    claim("the six features are all the monomials of degree at most two in two variables",
          count == monomials(2, DEGREE) == math.comb(2 + DEGREE, DEGREE), id="count")
    dots = centred @ centred.T
    claim("each entry is (γ xᵀx' + c₀) squared", np.allclose(
        table, (GAMMA * dots + COEF0) ** 2, rtol=1e-14, atol=0), id="formula")
    smallest = float(np.linalg.eigvalsh(table).min())
    claim("the polynomial table has no negative eigenvalue", smallest > 0, id="psd")
    return {
        "smallest": smallest,
        "gamma": GAMMA,
        "coef0": COEF0,
        "degree": DEGREE,
        "rows": centred,
        "features": Phi,
        "table": table,
        "dot_aa": float(dots[0, 0]),
        "dot_ab": float(dots[0, 1]),
        "count": int(count),
        "difference": bound(difference, -13),
        "raw_difference": bound(raw_difference, -13),
        "raw_largest": float(np.max(raw_table)),
    }
