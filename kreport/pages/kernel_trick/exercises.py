"""Answers to the kernel-trick page's exercises: each worked by the route the exercise
asks for (six features by hand, monomials listed, a series summed term by term) and
checked against ``kreport.kernels``."""

from __future__ import annotations

import itertools
import math

import numpy as np

from kreport import kernels
from kreport.pages._settings import ARC_GAMMA
from kreport.report import claim

from . import fits
from .polynomial import COEF0, DEGREE, GAMMA
from .series import TARGET

#: A fifth person (height in cm, weight in kg), centred with the four's mean.
NEWCOMER = (172.0, 69.0)
#: The counting exercise: input features and degree.
COUNT_P, COUNT_D = 3, 3
#: Enough terms for the raw arc's series to converge.
MOST_TERMS = 600
#: How many times the raw arc's features outnumber the centred arc's, at least.
RAW_FACTOR = 100


def _six(x: np.ndarray) -> np.ndarray:
    """The six features of one row, written out term by term."""
    h, w = float(x[0]), float(x[1])
    root = math.sqrt(2.0)
    return np.array([GAMMA * h * h, GAMMA * w * w, root * GAMMA * h * w,
                     root * math.sqrt(GAMMA * COEF0) * h, root * math.sqrt(GAMMA * COEF0) * w,
                     COEF0])


def _newcomer() -> dict:
    """Exercise one: the newcomer's six features, dotted with A's."""
    four = fits.rows("measured_four")
    mean = four.mean(axis=0)
    q = np.array(NEWCOMER) - mean
    a = four[0] - mean
    phi_q, phi_a = _six(q), _six(a)
    by_features = float(phi_q @ phi_a)
    by_formula = (GAMMA * float(q @ a) + COEF0) ** DEGREE
    library = float(kernels.polynomial(DEGREE, gamma=GAMMA, coef0=COEF0)(
        q[None, :], a[None, :])[0, 0])
    claim("the dot product of the six features is (γ qᵀx + c₀)², kreport's kernel value",
          abs(by_features - by_formula) < 1e-13 * by_formula
          and abs(library - by_formula) < 1e-13 * by_formula, id="newcomer")
    return {"newcomer": list(NEWCOMER), "newcomer_centred": q, "a_centred": a,
            "newcomer_features": phi_q, "newcomer_dot": float(q @ a),
            "newcomer_kernel": by_features, "gamma": GAMMA, "coef0": COEF0}


def _count() -> dict:
    """Exercise two: features and costs for three input features at degree three."""
    p, d = COUNT_P, COUNT_D
    listed = sum(1 for k in range(d + 1)
                 for _ in itertools.combinations_with_replacement(range(p), k))
    exactly = sum(1 for _ in itertools.combinations_with_replacement(range(p), d))
    claim("listing the monomials gives the formula's counts, with and without c₀",
          listed == math.comb(p + d, d) and exactly == math.comb(p + d - 1, d), id="listed")
    n = int(fits.rows("measured_four").shape[0])
    claim("for four rows the kernel table is smaller than the feature table",
          n * n < n * listed, id="table_smaller")
    return {"p": p, "d": d, "features": listed, "exactly": exactly, "entry_cost": p + d,
            "four_n": n, "table_entries": n * n, "feature_entries": n * listed}


def _series(rows: np.ndarray) -> np.ndarray:
    """RMS error of the RBF table after each degree of its series, against kreport's table."""
    table = kernels.rbf(ARC_GAMMA)(rows, rows)
    squared = np.einsum("ij,ij->i", rows, rows)
    outside = np.exp(-ARC_GAMMA * np.add.outer(squared, squared))
    coupling = 2.0 * ARC_GAMMA * rows @ rows.T
    term, partial, errors = np.ones_like(coupling), np.zeros_like(coupling), []
    for degree in range(MOST_TERMS):
        if degree:
            term = term * coupling / degree
        partial += term
        errors.append(float(np.sqrt(np.mean(np.square(outside * partial - table)))))
    return np.array(errors)


def _arc_series() -> dict:
    """Exercise three (code): how many Taylor features the arc's RBF table needs."""
    raw = fits.rows("arc")
    centred = fits.centred("arc")
    found = {}
    for name, rows in (("centred", centred), ("raw", raw)):
        errors = _series(rows)
        below = np.flatnonzero(errors < TARGET)
        claim(f"the {name} arc's series gets below the target within the terms computed",
              below.size > 0 and below[0] < MOST_TERMS - 1, id=f"{name}_converges")
        degree = int(below[0])
        found[name] = {"degree": degree, "features": math.comb(rows.shape[1] + degree, degree),
                       "coupling": float(np.abs(2.0 * ARC_GAMMA * rows @ rows.T).max())}
    claim("the raw arc needs more than {factor} times the features of the centred arc",
          lambda factor: found["raw"]["features"] > factor * found["centred"]["features"],
          id="raw_costs", factor=RAW_FACTOR)
    return {"arc_gamma": ARC_GAMMA, "target": TARGET, "arc": found, "raw_factor": RAW_FACTOR}


def exercises() -> dict:
    """Three exercises: a newcomer's features (pencil), counting (pencil), the arc's series
    (code)."""
    return {**_newcomer(), **_count(), **_arc_series()}
