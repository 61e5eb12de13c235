"""The median rule as a starting point for gamma."""

from __future__ import annotations

import numpy as np

from kreport import kernels, leave_one_out
from kreport.report import claim, within

from .common import UNITS, median_gamma, problem, search
from .settings import PENALTIES


def _at_median(fixture: str) -> dict:
    rows, target = problem(fixture)
    rule = median_gamma(fixture)
    scores = [leave_one_out(kernels.rbf(rule.gamma), p, rows, target).mse for p in PENALTIES]
    pick = int(np.argmin(scores))
    best = search(fixture).best_held_out
    unit, _ = UNITS[fixture]
    return {
        "median": rule.median,
        "gamma": rule.gamma,
        "reach": 1.0 / np.sqrt(rule.gamma),
        "unit": unit,
        "penalty": within(PENALTIES[pick], 1e-6),
        "mse": within(scores[pick], 1e-6),
        "best_gamma": best.gamma,
        "best_mse": within(best.held_out, 1e-6),
        "ratio": within(scores[pick] / best.held_out, 1e-6),
        "gamma_ratio": within(rule.gamma / best.gamma, 1e-6),
    }


def median_rule():
    """One over the median squared distance between rows: a scale, not a choice."""
    throws, crowd = _at_median("throws"), _at_median("crowd")
    claim("on both data sets the held-out choice of γ is smaller than the median rule's",
          all(f["best_gamma"] < f["gamma"] for f in (throws, crowd)), id="smaller")
    claim("on both data sets the median rule's γ, with its penalty searched, scores within a "
          "factor of {factor} of the best setting",
          lambda factor: all(f["ratio"].value < factor for f in (throws, crowd)),
          id="within_factor", factor=4)
    return {"throws": throws, "crowd": crowd, "factor": 4}
