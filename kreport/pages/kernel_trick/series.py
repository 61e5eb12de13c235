"""The RBF kernel as infinitely many features: its Taylor series, truncated."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from kreport import kernels
from kreport.pages._settings import RING_GAMMA
from kreport.report import claim

from . import fits
from .cost import features

#: The table error a truncation must get below to count as good enough here.
TARGET = 1e-4
#: Degrees printed for the centred ring.
SHOWN = tuple(range(0, 31, 3))
#: Enough terms for the raw rows' series to converge.
MOST_TERMS = 600


def rms(a: np.ndarray, b: np.ndarray) -> float:
    """Root-mean-square difference over the entries of two tables."""
    return float(np.sqrt(np.mean((a - b) ** 2)))


@cache
def truncation_errors(centre: bool) -> np.ndarray:
    """RMS table error of the series truncated after degree 0, 1, 2, … on the ring.

    k(x, x') = exp(−γ‖x‖²) exp(−γ‖x'‖²) Σ_d (2γ xᵀx')^d / d!, each term a polynomial
    kernel of degree exactly d; truncating after degree d keeps C(p + d, d) features.
    """
    rows = fits.centred("ring") if centre else fits.rows("ring")
    table = kernels.rbf(RING_GAMMA)(rows, rows)
    squared = (rows**2).sum(axis=1)
    outside = np.exp(-RING_GAMMA * (squared[:, None] + squared[None, :]))
    argument = 2 * RING_GAMMA * (rows @ rows.T)
    term, partial, errors = np.ones_like(argument), np.zeros_like(argument), []
    for degree in range(MOST_TERMS):
        if degree:
            term = term * argument / degree
        partial = partial + term
        errors.append(rms(outside * partial, table))
    return np.array(errors)


def first_below(errors: np.ndarray, target: float) -> int:
    return int(np.argmax(errors < target))


def rbf_series() -> dict:
    """How many polynomial features the RBF table needs on the ring, centred and raw."""
    centred, raw = truncation_errors(True), truncation_errors(False)
    p = int(fits.rows("ring").shape[1])
    shown = [{"degree": d, "features": features(p, d), "error": float(centred[d])}
             for d in SHOWN]
    claim("the error falls at every step of the printed degrees",
          all(a["error"] > b["error"] for a, b in itertools.pairwise(shown)), id="falls")
    factors = [b["error"] / a["error"] for a, b in itertools.pairwise(shown)]
    claim("each printed step cuts the error by a larger factor than the step before",
          all(later < earlier for earlier, later in itertools.pairwise(factors)),
          id="speeds_up")
    degree_c, degree_r = first_below(centred, TARGET), first_below(raw, TARGET)
    claim("both series get below the target within the terms computed",
          centred[degree_c] < TARGET and raw[degree_r] < TARGET and degree_r < MOST_TERMS - 1,
          id="converge")
    claim("the raw rows need more than a hundred times the features of the centred ones",
          features(p, degree_r) > 100 * features(p, degree_c), id="raw_costs")
    argument = 2 * RING_GAMMA * fits.rows("ring") @ fits.rows("ring").T
    centred_argument = 2 * RING_GAMMA * fits.centred("ring") @ fits.centred("ring").T
    claim("centring shrinks the largest coupling value more than tenfold",
          np.abs(argument).max() > 10 * np.abs(centred_argument).max(), id="argument")
    ring_table = kernels.rbf(RING_GAMMA)(fits.rows("ring"), fits.rows("ring"))
    smallest = float(np.linalg.eigvalsh(ring_table).min())
    claim("the ring's RBF table has no negative eigenvalue", smallest > 0, id="psd")
    return {
        "smallest": smallest,
        "gamma": RING_GAMMA,
        "rate": 2 * RING_GAMMA,
        "target": TARGET,
        "shown": shown,
        "centred_degree": degree_c,
        "centred_features": features(p, degree_c),
        "centred_error": float(centred[degree_c]),
        "raw_degree": degree_r,
        "raw_features": features(p, degree_r),
        "raw_error": float(raw[degree_r]),
        "raw_argument": float(np.abs(argument).max()),
        "centred_argument": float(np.abs(centred_argument).max()),
        "zero_error": float(centred[0]),
    }
