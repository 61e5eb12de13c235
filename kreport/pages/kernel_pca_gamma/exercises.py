"""Answers to the exercises of Kernel PCA across gamma, each worked here by the route
the exercise asks for and checked against ``kreport.KernelPCA``: a tie made by an
equilateral triangle (pencil), the median rule on the measured four (pencil), and the
closest approach of the ring's top two eigenvalues at the band's lower edge (code).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar

from kreport import KernelPCA, kernels
from kreport.pages.kernel_pca.fits import inner, read, reading_of, rows, whole
from kreport.pages.kernel_pca.settings import RING_GAMMA
from kreport.report import bound, claim

#: The side of the triangle of three people, in units (cm and kg mixed).
SIDE = 10.0
#: Turns of the tied plane tried, in degrees, to show every turn is as good.
TURNS = np.arange(0.0, 180.0, 15.0)
#: The stretch of gamma in which the ring's split passes from direction two to one:
#: the neighbouring grid values around the band's lower edge.
EDGE = (0.0027, 0.003)


def _triangle() -> dict:
    """Exercise one: three people pairwise SIDE apart, a tie by symmetry."""
    corners = np.array([[0.0, 0.0], [SIDE, 0.0], [SIDE / 2, SIDE * np.sqrt(3) / 2]])
    fitted = KernelPCA(kernels.rbf(RING_GAMMA)).fit(corners)
    table = fitted.training_table_
    off = table[0, 1]
    n = len(corners)
    values = fitted.eigenvalues_
    radius = np.sqrt((fitted.scores_**2).sum(axis=1))
    by_hand = np.sqrt((1 - off) * (n - 1) / n)
    claim("every entry off the diagonal is the same", np.ptp(table[~np.eye(n, dtype=bool)])
          < 1e-12, id="equal_off")
    claim("the two eigenvalues are tied, each one less the off-diagonal entry",
          np.allclose(values, 1 - off, rtol=1e-12), id="tied")
    # Every turn of the plane gives the same variance: (cos t, sin t) in the solver's basis
    variances = []
    for turn in np.radians(TURNS):
        z = fitted.scores_ @ np.array([np.cos(turn), np.sin(turn)])
        variances.append((z**2).sum())
    claim("every turn of the plane carries the same variance",
          np.ptp(variances) < 1e-12 * values[0], id="any_turn")
    claim("every person's radius in the plane is the root of their centred diagonal entry, "
          "the same for all three", np.allclose(radius, by_hand, rtol=1e-12), id="radius")
    lifted_side = np.sqrt(2 * (1 - off))
    claim("the three sit at the corners of an equilateral triangle of side the lifted "
          "distance", np.allclose([np.linalg.norm(fitted.scores_[i] - fitted.scores_[j])
                                   for i, j in ((0, 1), (0, 2), (1, 2))], lifted_side,
                                  rtol=1e-12), id="lifted_triangle")
    return {"side": SIDE, "off": off, "tied_value": values[0], "tied_shares": fitted.shares_,
            "radius": by_hand, "lifted_side": lifted_side,
            "turn_spread": bound(np.ptp(variances) / values[0], -12)}


def _median_four() -> dict:
    """Exercise two: the median rule by hand on the measured four."""
    people = rows("four")
    i, j = np.triu_indices(len(people), k=1)
    squared = ((people[i] - people[j]) ** 2).sum(axis=1)
    # The four are whole numbers, so the squared distances and their medians are whole
    # too; gamma is taken from the whole median, as a reader working by hand would.
    median = whole(float(np.median(squared)))
    gamma = 1 / median
    table = kernels.rbf(gamma)(people, people)
    wide = people.mean(axis=0) + 2 * (people - people.mean(axis=0))
    wide_squared = ((wide[i] - wide[j]) ** 2).sum(axis=1)
    wide_gamma = 1 / whole(float(np.median(wide_squared)))
    wide_table = kernels.rbf(wide_gamma)(wide, wide)
    at_reach = np.isclose(squared, median, rtol=1e-9)
    claim("the median pairs sit exactly at the reach, with kernel value one over e",
          np.allclose(table[i[at_reach], j[at_reach]], np.exp(-1), rtol=1e-12), id="at_reach")
    claim("spreading the four twice as wide quarters the rule's gamma and leaves the table as "
          "it was", np.isclose(wide_gamma, gamma / 4, rtol=1e-12)
          and np.allclose(wide_table, table, rtol=1e-12), id="scale_free")
    pairs = {"ab": (0, 1), "cd": (2, 3)}
    return {"four": whole(people), "squared": whole(np.sort(squared)), "median": median,
            "median_gamma": gamma, "reach": np.sqrt(median),
            "at_reach_value": np.exp(-1), "at_reach_count": int(at_reach.sum()),
            "ab_value": table[pairs["ab"]], "cd_value": table[pairs["cd"]],
            "wide_gamma": wide_gamma}


def _relative_gap(log_gamma: float) -> float:
    values = KernelPCA(kernels.rbf(float(np.exp(log_gamma)))).fit(rows("ring")).eigenvalues_
    return float((values[0] - values[1]) / values[0])


def _closest_approach() -> dict:
    """Exercise three (code): λ₁ and λ₂ of the ring come close at the band's lower edge."""
    low, high = EDGE
    found = minimize_scalar(_relative_gap, bounds=(np.log(low), np.log(high)),
                            method="bounded", options={"xatol": 1e-10})
    at, smallest = float(np.exp(found.x)), float(found.fun)
    ends = [_relative_gap(np.log(low)), _relative_gap(np.log(high))]
    below, above = read("ring", low), read("ring", high)
    claim("the closest approach lies strictly inside the stretch, and is closer than either "
          "end", low * 1.001 < at < high / 1.001 and smallest < min(ends), id="inside")
    claim("the two eigenvalues never meet: their closest relative difference is above zero",
          smallest > 1e-3, id="no_crossing")
    claim("the ring's split is on direction two at the lower end and on direction one at "
          "the upper", below.separating == 2 and above.separating == 1, id="trade")
    fitted = KernelPCA(kernels.rbf(at)).fit(rows("ring"))
    closest = reading_of(fitted, inner("ring"), at)
    claim("at the closest approach neither the first nor the second direction alone splits the "
          "ring", closest.singles.get(1, 0.0) <= 0 and closest.singles.get(2, 0.0) <= 0,
          id="neither_alone")
    return {"edge": list(EDGE), "closest_at": at, "closest": smallest, "edge_gaps": ends,
            "closest_shares": fitted.shares_[:2]}


def exercises() -> dict:
    """Three exercises: the triangle's tie (pencil), the median rule on the four (pencil),
    the closest approach at the band's lower edge (code)."""
    return {**_triangle(), **_median_four(), **_closest_approach()}
