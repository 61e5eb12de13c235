"""Choosing gamma (the median rule), how many directions, and the units distances are in."""

from __future__ import annotations

import numpy as np

from kreport import PCA, KernelPCA, kernels, measure
from kreport.report import bound, claim

from .fits import pca, rbf_fit, read, rows
from .settings import ARC_GAMMA, RING_GAMMA, STANDARD_GAMMA
from .sweep import gamma_sweep_band, grid, on_grid, sweep

#: Cumulative shares the ladder marks.
LADDER = (0.5, 0.9, 0.95)


def median_rule():
    """gamma = 1 / median squared distance, read over the first few directions."""
    facts = {}
    for name in ("ring", "ideal"):
        median, gamma = measure.median_rule_gamma(rows(name))
        reading = read(name, gamma)
        facts[name] = {"median": median, "gamma": gamma, "first_tied": reading.first_tied,
                       "rank": reading.separating, "gap": reading.best[1]}
    ring, ideal = facts["ring"], facts["ideal"]
    band_low = gamma_sweep_band()[0]
    ring_reading, ideal_reading = read("ring", ring["gamma"]), read("ideal", ideal["gamma"])
    ideal_first_low = grid()[[r.first_tied for r in sweep("ideal")["readings"]].index(False)]
    ring.update(first_overlap=-ring_reading.first, band_low=on_grid(band_low),
                factor=band_low / ring["gamma"])
    plane, plane_gap = ideal_reading.top_plane
    ideal.update(plane=list(plane), plane_gap=plane_gap, first_low=on_grid(ideal_first_low),
                 factor=ideal_first_low / ideal["gamma"])
    claim("on the ring the median rule's gamma lies below the first direction's band, where "
          "the first direction leaves the groups overlapping",
          ring["gamma"] < band_low and ring_reading.first < 0, id="ring_first")
    claim("at the median rule's gamma the third direction splits the ring and the ideal ring",
          ring["rank"] == 3 and ideal["rank"] == 3, id="third")
    claim("on the ideal ring the first two directions tie at the median rule's gamma, and the "
          "radius in their plane splits the groups",
          ideal_reading.first_tied and plane == (1, 2) and plane_gap > 0, id="ideal_plane")
    claim("the ring's first-direction band begins more than three times higher than the rule's "
          "gamma", ring["factor"] > 3, id="factor")
    return facts


def how_many():
    """Cumulative shares on the ring: many directions for most of the spread."""
    fitted = rbf_fit("ring", RING_GAMMA)
    counts = [measure.cumulative_count(fitted.shares_, f) for f in LADDER]
    claim("the ring's RBF fit reaches the ceiling of {ceiling} directions, one fewer than the "
          "people", fitted.n_components_ == len(rows("ring")) - 1, id="ceiling",
          ceiling=len(rows("ring")) - 1)
    claim("holding nine tenths takes more than twice as many directions as holding half",
          counts[1] > 2 * counts[0], id="slow")
    return {"n": len(rows("ring")), "ceiling": len(rows("ring")) - 1,
            "directions": fitted.n_components_, "gamma": RING_GAMMA,
            "to_half": counts[0], "to_ninety": counts[1], "to_ninety_five": counts[2],
            "percent": [round(100 * f) for f in LADDER]}


def units():
    """Distances mix centimetres with kilograms; metres change the answer."""
    data = rows("arc")
    in_metres = data * [0.01, 1.0]
    metres = KernelPCA(kernels.rbf(ARC_GAMMA)).fit(in_metres)
    metres_pca = PCA().fit(in_metres)
    weight_alone = KernelPCA(kernels.rbf(ARC_GAMMA)).fit(data[:, 1:])
    standardised = (data - data.mean(axis=0)) / data.std(axis=0, ddof=1)
    standard = KernelPCA(kernels.rbf(STANDARD_GAMMA)).fit(standardised)
    # What makes standardising the remedy: the same fit whatever unit the heights are in.
    standardised_metres = (in_metres - in_metres.mean(axis=0)) / in_metres.std(axis=0, ddof=1)
    standard_metres = KernelPCA(kernels.rbf(STANDARD_GAMMA)).fit(standardised_metres)
    unit_free = float(np.abs(standard_metres.scores_ - standard.scores_).max()
                      / np.abs(standard.scores_).max())
    claim("standardised, the rows in metres and in centimetres give the same coordinates to "
          "within {limit} of the largest", lambda limit: unit_free < limit, id="unit_free",
          limit=1e-10)
    centimetres, linear = rbf_fit("arc", ARC_GAMMA), pca("arc")
    with_weight = abs(np.corrcoef(metres.scores_[:, 0], data[:, 1])[0, 1])
    with_axis = abs(np.corrcoef(metres.scores_[:, 0], linear.scores_[:, 0])[0, 1])
    metre_spreads = in_metres.std(axis=0, ddof=1)
    claim("in metres the first share is larger than in centimetres",
          metres.shares_[0] > centimetres.shares_[0], id="larger")
    claim("in metres the weight's spread is more than {factor} times the height's",
          lambda factor: metre_spreads[1] > factor * metre_spreads[0], id="weight_only", factor=50)
    claim("in metres the kernel's first coordinate follows weight (a correlation above {high}) "
          "and not ordinary PCA's first axis (below {low})",
          lambda high, low: with_weight > high and with_axis < low, id="follows_weight", high=0.9,
          low=0.1)
    claim("in metres the kernel's first share is within {limit} of ordinary PCA's first share "
          "in centimetres, and of the first share of the kernel on weight alone",
          lambda limit: abs(metres.shares_[0] - linear.shares_[0]) < limit
          and abs(metres.shares_[0] - weight_alone.shares_[0]) < limit, id="coincidence",
          limit=0.01)
    claim("ordinary PCA in metres puts more than {limit} of the variance on its first axis",
          lambda limit: metres_pca.shares_[0] > limit, id="pca_metres", limit=0.999)
    ring_spreads = rows("ring").std(axis=0, ddof=1)
    spreads = data.std(axis=0, ddof=1)
    claim("on the ring and on the arc the two features' standard deviations are within a "
          "factor of one and a half of each other",
          all(s.max() < 1.5 * s.min() for s in (ring_spreads, spreads)), id="comparable")
    return {
        "gamma": ARC_GAMMA, "metres_share": metres.shares_[0], "cm_share": centimetres.shares_[0],
        "pca_share": linear.shares_[0], "pca_metres_share": metres_pca.shares_[0],
        "weight_alone_share": weight_alone.shares_[0],
        "with_weight": with_weight, "with_axis": with_axis,
        "metres_turns": measure.reversals(metres.scores_[:, 0]),
        "metre_spreads": metre_spreads,
        "standard_gamma": STANDARD_GAMMA, "standard_share": standard.shares_[0],
        "unit_free": bound(unit_free, -10),
        "standard_turns": measure.reversals(standard.scores_[:, 0]),
        "spreads": spreads, "ring_spreads": ring_spreads,
    }
