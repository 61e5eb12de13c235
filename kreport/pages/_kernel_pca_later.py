"""Kernel PCA, sections 12 to 20: the gamma sweep to the behaviour table.

The second half of the long page's lab notebook, one function per section,
registered by ``kernel_pca`` in page order (the first half is there). Shared
fits, the sweep and the probes come from ``_kernel_pca_probes``.
"""

from __future__ import annotations

import numpy as np

from kreport import KernelPCA, kernels, measure
from kreport.report import claim

from . import _kernel_pca_probes as lab
from ._kernel_pca_probes import (
    ARC_GAMMA,
    KEPT,
    RING_GAMMA,
    arc_by_height,
    fit,
    pca,
    ring_set,
    split,
)

WIDE_ARC_GAMMAS = (0.0003, 0.0005)  # wider reaches on the arc
POLY = (2, 0.005, 1.0)  # the squared kernel: degree, gamma, coef0
STANDARD_GAMMA = 0.5  # for the standardised arc: distances in standard deviations
ROUND_OUTSIDE = (0.002, 0.02)  # round gammas just outside the ring's band

# ------------------------------------------------------------------ 12. the gamma sweep


def gamma_sweep():
    ring_band, ideal_band = lab.band("ring"), lab.band("ideal")
    swept = lab.sweep("ring")
    grid = swept["gamma"]
    claim("the split holds at every grid value between the band's ends",
          ring_band["contiguous"] and ideal_band["contiguous"])
    claim("the band contains the page's worked gamma of 0.005",
          ring_band["low"] <= RING_GAMMA <= ring_band["high"])
    claim("the total lifted variance rises across the whole sweep",
          np.all(np.diff(swept["total"]) > 0))
    claim("the first share falls across the whole sweep", np.all(np.diff(swept["first_share"]) < 0))
    claim("the round values on either side of the band do not split the ring",
          not any(_at(grid, swept["separated"], g) for g in ROUND_OUTSIDE))
    claim("the ideal ring's band is wider than the ring's",
          ideal_band["low"] <= ring_band["low"] and ideal_band["high"] >= ring_band["high"])
    claim("the ideal ring's band runs to the top of the grid", ideal_band["high"] == grid[-1])
    return {
        "grid_points": len(grid), "grid_low": grid[0], "grid_high": grid[-1],
        "grid_extras": list(lab.SWEEP_EXTRAS), "series": "E24", "per_decade": len(lab.E24),
        "ring": ring_band, "ideal": ideal_band,
        "ring_low_reach": 1 / np.sqrt(ring_band["low"]),
        "ring_high_reach": 1 / np.sqrt(ring_band["high"]),
        "total_first": swept["total"][0], "total_last": swept["total"][-1],
        "share_first": swept["first_share"][0], "share_last": swept["first_share"][-1],
        "round_outside": [_at(grid, swept["overlap"], g) for g in ROUND_OUTSIDE],
        "round_gammas": list(ROUND_OUTSIDE),
    }


def _at(grid, values, gamma):
    """The value of a sweep quantity at one grid value."""
    return values[int(np.flatnonzero(np.isclose(grid, gamma, rtol=1e-9))[0])]


# ------------------------------------------------------------------ 13. the arc does not unroll


def arc_fold():
    fitted = fit("arc", "rbf", ARC_GAMMA)
    first, second = fitted.scores_[:, 0], fitted.scores_[:, 1]
    turns = measure.reversals(first)
    wider = {gamma: fit("arc", "rbf", gamma) for gamma in WIDE_ARC_GAMMAS}
    wider_turns = [measure.reversals(w.scores_[:, 0]) for w in wider.values()]
    middle = len(first) // 2
    claim("read by height, the first kernel coordinate turns back at least once", turns > 0)
    claim("the short end and the tall end share a sign on the first kernel axis, and the middle "
          "has the other", np.sign(first[0]) == np.sign(first[-1]) != np.sign(first[middle]))
    claim("the second kernel coordinate falls steadily from the third person to the tenth and "
          "turns only at those two", np.all(np.diff(second[2:10]) < 0)
          and measure.reversals(second) == 2)
    claim("at the middle wide reach the first coordinate turns back as often as at the worked "
          "reach, and only at the widest does it turn back less",
          wider_turns[1] == turns and wider_turns[0] < turns)
    claim("no reach tried straightens the arc: each leaves at least one turning point",
          min(wider_turns) > 0)
    claim("the first share at the widest reach lies between the worked reach's and ordinary "
          "PCA's", fitted.shares_[0] < wider[WIDE_ARC_GAMMAS[0]].shares_[0] < pca("arc").shares_[0])
    return {
        "gamma": ARC_GAMMA, "first": first, "second": second, "turns": turns,
        "wide_gammas": list(WIDE_ARC_GAMMAS), "wide_turns": wider_turns,
        "wide_shares": wider[WIDE_ARC_GAMMAS[0]].shares_[:2], "shares": fitted.shares_[:2],
        "pca_shares": pca("arc").shares_,
    }


# ------------------------------------------------------------------ 14. the squared kernel


def squared_kernel():
    _, inner = ring_set("ring")
    fitted = fit("ring", "polynomial", *POLY)
    splits = [split(fitted.scores_[:, j], inner) for j in range(fitted.n_components_)]
    separating = [j for j, s in enumerate(splits) if s.separated]
    claim("along the squared kernel's first direction the groups overlap", not splits[0].separated)
    claim("exactly one direction of the squared kernel separates the groups, and it is the last",
          separating == [fitted.n_components_ - 1])
    position = separating[0]
    rows, _ = ring_set("ring")
    height, weight = rows.T
    features = np.column_stack([np.ones(len(rows)), height, weight, height**2, weight**2])
    radius = ((rows - rows[inner].mean(axis=0)) ** 2).sum(axis=1)
    _, residual, *_ = np.linalg.lstsq(features, radius, rcond=None)
    claim("the squared distance from the inner group's centre is a weighted sum of height, "
          "weight and their squares", np.sqrt(residual[0]) < 1e-9 * np.linalg.norm(radius))
    return {
        "degree": POLY[0], "gamma": POLY[1], "coef0": POLY[2],
        "shares": fitted.shares_[:2], "overlap": splits[0].overlap,
        "directions": fitted.n_components_, "position": position + 1,
        "position_share": fitted.shares_[position], "position_gap": splits[position].gap,
    }


# ------------------------------------------------------------------ 15. no way back


def no_way_back():
    _, inner = ring_set("ring")
    fitted = fit("ring", "rbf", RING_GAMMA, n_components=KEPT)
    kept = fitted.kept_share_
    refused_rbf, refused_linear = lab.probe_inverse("rbf", RING_GAMMA), lab.probe_inverse("linear")
    claim("inverse_transform is refused for the RBF and for the linear kernel",
          refused_rbf["refused"] and refused_linear["refused"])
    claim("the inner group keeps more of its lifted deviation than the outer group, on average",
          kept[inner].mean() > kept[~inner].mean())
    claim("the share of the whole held by the kept directions is the sum of their shares",
          abs(fitted.shares_.sum() - (fitted.scores_**2).sum() / np.trace(fitted.centred_table_))
          < 1e-12)
    return {
        "error": refused_rbf["error"], "message": refused_rbf["message"], "kept": KEPT,
        "total": fitted.shares_.sum(), "lowest": kept.min(), "highest": kept.max(),
        "inner_mean": kept[inner].mean(), "outer_mean": kept[~inner].mean(),
        "every_inner_above_outer": bool(kept[inner].min() > kept[~inner].max()),
    }


# ------------------------------------------------------------------ 16. choosing gamma


def median_rule():
    facts = {}
    for name in ("ring", "ideal"):
        rows, inner = ring_set(name)
        median, gamma = measure.median_rule_gamma(rows)
        result = split(KernelPCA(kernels.rbf(gamma)).fit(rows).scores_[:, 0], inner)
        low = lab.band(name)["low"]
        claim(f"on the {name} the median rule's gamma lies below the separating band", gamma < low)
        claim(f"on the {name} the groups overlap at the median rule's gamma", not result.separated)
        facts[name] = {"median": median, "gamma": gamma, "overlap": result.overlap,
                       "band_low": low, "factor": low / gamma}
    return facts


# ------------------------------------------------------------------ 17. how many directions


def how_many():
    rows, _ = ring_set("ring")
    fitted = fit("ring", "rbf", RING_GAMMA)
    counts = {f"to_{int(100 * f)}": measure.cumulative_count(fitted.shares_, f)
              for f in (0.5, 0.9, 0.95)}
    claim("the ring's RBF fit reaches the ceiling of n − 1 directions",
          fitted.n_components_ == len(rows) - 1)
    claim("holding nine tenths takes more than twice as many directions as holding half",
          counts["to_90"] > 2 * counts["to_50"])
    return {"n": len(rows), "ceiling": len(rows) - 1, "directions": fitted.n_components_,
            "gamma": RING_GAMMA, "percent_95": 95, **counts}


# ------------------------------------------------------------------ 18. units


def units():
    rows = arc_by_height()
    in_metres = rows * [0.01, 1.0]
    metres = KernelPCA(kernels.rbf(ARC_GAMMA)).fit(in_metres)
    standardised = (rows - rows.mean(axis=0)) / rows.std(axis=0, ddof=1)
    standard = KernelPCA(kernels.rbf(STANDARD_GAMMA)).fit(standardised)
    centimetres = fit("arc", "rbf", ARC_GAMMA)
    claim("in metres the kernel's first share is back at ordinary PCA's",
          abs(metres.shares_[0] - pca("arc").shares_[0]) < 0.01)
    claim("in metres the first share is larger than in centimetres",
          metres.shares_[0] > centimetres.shares_[0])
    ring_spreads = ring_set("ring")[0].std(axis=0, ddof=1)
    spreads = rows.std(axis=0, ddof=1)
    claim("on the ring and on the arc the two features' standard deviations are within a "
          "factor of one and a half of each other",
          all(s.max() < 1.5 * s.min() for s in (ring_spreads, spreads)))
    return {
        "gamma": ARC_GAMMA, "metres_share": metres.shares_[0], "cm_share": centimetres.shares_[0],
        "pca_share": pca("arc").shares_[0], "standard_gamma": STANDARD_GAMMA,
        "standard_share": standard.shares_[0],
        "standard_turns": measure.reversals(standard.scores_[:, 0]),
        "spreads": spreads, "ring_spreads": ring_spreads,
    }


# ------------------------------------------------------------------ 19. what is declared


def declaration():
    """Each point a complete implementation declares, read off kreport itself."""
    return lab.declaration_facts(RING_GAMMA)


# ------------------------------------------------------------------ 20. the behaviour table


def behaviour():
    """Edge cases run through the public API; see the probes for what each does."""
    return lab.behaviour_facts(RING_GAMMA)


#: In page order; kernel_pca registers them after its own sections.
SECTIONS = [gamma_sweep, arc_fold, squared_kernel, no_way_back, median_rule, how_many, units,
            declaration, behaviour]
