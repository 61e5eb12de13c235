"""Ties, the gamma sweep, the held-out check and the band's edges.

The sweep fits the ring and the ideal ring at every gamma of one grid and
reads the first :data:`~.settings.TOP` directions of each fit (see
:func:`.fits.read`): a lone direction along its coordinate, a tied group by
each person's radius in it.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from functools import cache

import numpy as np

from kreport import KernelPCA, kernels, measure
from kreport.report import bound, claim

from . import fits
from .fits import inner, radii, rbf_fit, read, relative_gaps, rows, signed_gap
from .settings import E24, RING_GAMMA, ROUND_OUTSIDE, SWEEP_DECADES, SWEEP_EXTRAS, TIE_RTOL, TOP

#: Below this fraction of the largest eigenvalue a tie is rounding alone.
EXACT_TIE_EXPONENT = -12
#: A turn of the tied plane every this many degrees, to show that no turn splits.
TURN_STEP_DEGREES = 1


@cache
def grid() -> np.ndarray:
    values = [round(m * 10.0**d, 8) for d in SWEEP_DECADES for m in E24] + [0.1]
    return np.array(sorted(set(values) | set(SWEEP_EXTRAS)))


@cache
def sweep(dataset: str) -> dict:
    """Per gamma of the grid: the reading, the total variance, the top four shares."""
    gammas = grid()
    fitted = [rbf_fit(dataset, g) for g in gammas]
    return {
        "gamma": gammas,
        "readings": [read(dataset, g) for g in gammas],
        "total": np.array([f.total_variance_ for f in fitted]),
        "shares": np.array([f.shares_[:4] for f in fitted]),
        "gaps": np.array([relative_gaps(f.eigenvalues_, TOP) for f in fitted]),
    }


def any_direction_splits(dataset: str, gamma: float) -> bool:
    """Whether any lone direction of the whole fit (not only the first few) splits."""
    fitted = rbf_fit(dataset, gamma)
    return fits.reading_of(fitted, inner(dataset), gamma, top=fitted.n_components_).separating > 0


def runs(dataset: str) -> list[dict]:
    """Consecutive grid values with the same separating direction (0: none of the first few)."""
    swept = sweep(dataset)
    gammas, readings = swept["gamma"], swept["readings"]
    out, start = [], 0
    for i in range(1, len(gammas) + 1):
        if i == len(gammas) or readings[i].separating != readings[start].separating:
            block = readings[start:i]
            rank = block[0].separating
            gaps = [r.best[1] for r in block]
            out.append({"rank": rank, "separates": rank > 0, "low": gammas[start],
                        "high": gammas[i - 1], "from": on_grid(gammas[start]),
                        "to": on_grid(gammas[i - 1]), "single": i - start == 1,
                        "points": i - start,
                        "gap_low": min(gaps), "gap_high": max(gaps)})
            start = i
    return out


def on_grid(gamma: float) -> dict:
    """A gamma of the grid as a fact: its value, and whether one significant digit
    writes it (0.003) or two are needed (0.0027), so that it prints as written."""
    digits = Decimal(repr(float(gamma))).normalize().as_tuple().digits
    return {"value": float(gamma), "short": len(digits) == 1}


def _at(gamma: float) -> int:
    return int(np.flatnonzero(np.isclose(grid(), gamma, rtol=1e-9))[0])


# ---------------------------------------------------------------- ties


def tied_directions():
    """The ideal ring's tied pair at the worked gamma, and the tolerance for ties."""
    data, mask = rows("ideal"), inner("ideal")
    fitted = rbf_fit("ideal", RING_GAMMA)
    reading = read("ideal", RING_GAMMA)
    (pair, radius_gap) = reading.top_plane
    group = [rank - 1 for rank in pair]
    values = fitted.eigenvalues_
    # The symmetry, on the data as written (tenths of a centimetre and a kilogram):
    tenths = np.rint(data * 10).astype(int)
    centre = tenths.sum(axis=0) // len(tenths)
    offsets = tenths - centre
    turned = np.column_stack([-offsets[:, 1], offsets[:, 0]])
    mirrored = np.column_stack([offsets[:, 1], offsets[:, 0]])
    as_set = {tuple(p) for p in offsets.tolist()}
    claim("a quarter turn about the ideal ring's centre, or a mirror across its diagonal, "
          "maps its people onto its people",
          np.abs(data * 10 - tenths).max() < 1e-6 and (tenths.sum(axis=0) % len(tenths) == 0).all()
          and {tuple(p) for p in turned.tolist()} == as_set
          and {tuple(p) for p in mirrored.tolist()} == as_set, id="symmetric")
    # Any turn of the pair is as good an answer: the same variance along each, and
    # along none of them do the groups separate; the radius in the plane does.
    angles = np.deg2rad(np.arange(0, 180, TURN_STEP_DEGREES))
    turned_scores = (np.cos(angles)[:, None, None] * fitted.scores_[None, :, group[0], None]
                     + np.sin(angles)[:, None, None] * fitted.scores_[None, :, group[1], None])
    variances = (turned_scores[..., 0] ** 2).sum(axis=1) / (len(data) - 1)
    along = [signed_gap(s[:, 0], mask) for s in turned_scores]
    in_plane = radii(fitted.scores_, group)
    claim("the two eigenvalues agree to below {limit} of the largest",
          (values[group[0]] - values[group[1]]) / values[0] < 10.0**EXACT_TIE_EXPONENT,
          id="tie", limit=10.0**EXACT_TIE_EXPONENT)
    claim("along every turn of the tied pair, in steps of {step} degrees, the groups overlap",
          max(along) < 0, id="no_turn_splits", step=TURN_STEP_DEGREES)
    claim("in the tied plane every inner person is nearer the centre than every outer person",
          radius_gap > 0, id="radius_splits")

    # The tolerance, measured against every pair of neighbouring directions the sweep reads.
    tied_exact, crowded, real_top = [], [], []
    crowded_from = []
    for dataset in ("ring", "ideal"):
        swept = sweep(dataset)
        for gamma, gaps in zip(swept["gamma"], swept["gaps"], strict=True):
            for j, gap in enumerate(gaps):
                if gap < 10.0**EXACT_TIE_EXPONENT:
                    tied_exact.append(gap)
                elif gap <= TIE_RTOL:
                    crowded.append((j + 1, gamma))
                    crowded_from.append(gamma)
                elif j < 3:  # up to the fourth: whether each of the first three stands alone
                    real_top.append(gap)
    claim("every crowded pair lies beyond the third direction", all(j > 3 for j, _ in crowded),
          id="crowded_deep")
    claim("among the first three directions the smallest untied gap is more than a thousand "
          "times the tolerance", min(real_top) > 1000 * TIE_RTOL, id="top_apart")
    return {
        "gamma": RING_GAMMA, "pair": list(pair), "share": fitted.shares_[group[0]],
        "tie_gap": bound((values[group[0]] - values[group[1]]) / values[0], EXACT_TIE_EXPONENT),
        "variance_spread": bound(variances - values[group[0]] / (len(data) - 1), -12),
        "turn_step": TURN_STEP_DEGREES,
        "inner_radius": in_plane[mask].max(), "outer_radius": in_plane[~mask].min(),
        "radius_gap": radius_gap,
        "centre": [int(c) // 10 for c in centre], "n_inner": int(mask.sum()),
        "n_outer": int((~mask).sum()),
        "tolerance": TIE_RTOL, "top": TOP, "top_plus_one": TOP + 1,
        "exact_ties": len(tied_exact),
        "exact_largest": bound(max(tied_exact), EXACT_TIE_EXPONENT),
        "crowded": len(crowded), "crowded_from": on_grid(min(crowded_from)),
        "top_smallest_gap": min(real_top),
    }


# ---------------------------------------------------------------- the sweep


def gamma_sweep():
    """Which direction separates the groups at each gamma of the grid, with what gap."""
    gammas = grid()
    facts = {
        "points": len(gammas), "low": gammas[0], "high": gammas[-1],
        "extras": list(SWEEP_EXTRAS), "series": "E24", "per_decade": len(E24), "top": TOP,
    }
    # ---- the ring
    ring = sweep("ring")["readings"]
    first = np.array([r.first for r in ring])
    splits_first = first > 0
    band = measure.separated_band(gammas, splits_first)
    low, high = _at(band[0]), _at(band[1])
    widest = int(np.argmax(first))
    ring_runs = runs("ring")
    separating = np.array([r.separating for r in ring])
    any_count = int(np.count_nonzero(separating))
    claim("along the first direction the ring splits at every grid value from {low} to {high} "
          "and at no other", np.count_nonzero(splits_first) == high - low + 1,
          id="first_band", low=band[0], high=band[1])
    claim("the first direction's band contains the worked gamma of {gamma}",
          lambda gamma: band[0] <= gamma <= band[1], id="worked_inside", gamma=RING_GAMMA)
    below = [run for run in ring_runs if run["high"] < band[0]]
    claim("below the band the split is carried by the third direction, then by the second",
          [run["rank"] for run in below] == [3, 2], id="below_band")
    lower_widest = max(run["gap_high"] for run in below)
    claim("the widest gap below the band is more than nine tenths of the widest gap along the "
          "first direction", lower_widest > 0.9 * first[widest], id="below_wide")
    nowhere = [g for g, s in zip(gammas, separating, strict=True) if s == 0]
    claim("wherever none of the first {top} directions splits the ring, none of all its "
          "directions does", not any(any_direction_splits("ring", g) for g in nowhere),
          id="nowhere", top=TOP)
    beyond = [run for run in ring_runs if run["low"] > band[1] and run["separates"]]
    beyond_widest = max(run["gap_high"] for run in beyond)
    claim("beyond the band's upper edge, the splits that come back have gaps under a tenth of "
          "the band's widest", beyond_widest < 0.1 * first[widest], id="beyond_narrow")
    # Just above the band no single direction splits, but the split has not gone: it has
    # turned into a plane of two of the first three directions (found with the labels).
    above = next(run for run in ring_runs if run["low"] > band[1])
    above_gammas = [g for g in gammas if above["low"] <= g <= above["high"]]
    turned = [_best_turn(g) for g in above_gammas]
    top_first = first[high]
    claim("at every grid value of the first run above the band, no single direction splits "
          "the ring but a turn of a plane of two of its first three directions does, and at the "
          "run's top that turn's gap is wider than the first direction's at the band's top",
          not above["separates"] and all(gap > 0 for gap, _ in turned)
          and turned[-1][0] > top_first, id="above_plane")
    claim("at every grid value of the first run above the band, the widest splitting turn of "
          "a plane of two of the first three directions is in a plane that takes in the third",
          all(3 in plane for _, plane in turned), id="above_third")
    outside = []
    for gamma in ROUND_OUTSIDE:
        reading = ring[_at(gamma)]
        outside.append({"gamma": gamma, "first_overlap": -reading.first,
                        "rank": reading.separating, "separates": reading.separating > 0,
                        "gap": reading.best[1] if reading.separating else None})
    claim("at the round values just outside the band the first direction does not split the ring",
          all(row["first_overlap"] > 0 for row in outside), id="round_outside")
    facts["ring"] = {
        "band_low": on_grid(band[0]), "band_high": on_grid(band[1]),
        "band_points": high - low + 1,
        "reach_low": 1 / np.sqrt(band[0]), "reach_high": 1 / np.sqrt(band[1]),
        "widest_gap": first[widest], "widest_at": on_grid(gammas[widest]),
        "any_count": any_count, "first_count": int(np.count_nonzero(splits_first)),
        "none_count": len(gammas) - any_count, "runs": ring_runs,
        "below_widest": lower_widest, "beyond_widest": beyond_widest,
        "n": len(rows("ring")), "directions": rbf_fit("ring", RING_GAMMA).n_components_,
        "outside": outside,
        "above_from": above["from"], "above_to": above["to"],
        "above_plane_low": min(gap for gap, _ in turned),
        "above_plane_high": max(gap for gap, _ in turned), "band_top_gap": top_first,
    }
    # ---- the ideal ring
    ideal = sweep("ideal")["readings"]
    tied = np.array([r.first_tied for r in ideal])
    tied_at = np.flatnonzero(tied)
    claim("on the ideal ring the first two directions tie at every grid value from the bottom "
          "of the grid up to a point, and at none above it",
          tied_at.size > 0 and tied_at[0] == 0 and tied_at[-1] == tied_at.size - 1,
          id="ideal_tied_low")
    untied = ideal[tied_at.size:]
    thirds = [r.singles.get(3) for r in ideal[:tied_at.size]]
    planes = [r.top_plane for r in ideal[:tied_at.size]]
    claim("where the first two tie, the third direction splits the ideal ring at every grid "
          "value, and so does the radius in the tied plane",
          all(t is not None and t > 0 for t in thirds)
          and all(p is not None and p[0] == (1, 2) and p[1] > 0 for p in planes),
          id="ideal_tied_split")
    claim("above that, the first direction splits the ideal ring at every grid value to the "
          "top of the grid", all(r.first > 0 for r in untied), id="ideal_first")
    ideal_any = sum(r.separating > 0 for r in ideal)
    claim("some lone direction among the first {top} splits the ideal ring at every grid value",
          ideal_any == len(gammas), id="ideal_every", top=TOP)
    untied_first = np.array([r.first for r in untied])
    ideal_widest = int(np.argmax(untied_first))
    claim("the ideal ring's first-direction band starts below the ring's and, running to the "
          "top of the grid, goes past the ring's upper edge",
          gammas[tied_at.size] < band[0] and all(r.first > 0 for r in untied)
          and gammas[-1] > band[1], id="ideal_wider")
    facts["ideal"] = {
        "tied_high": on_grid(gammas[tied_at.size - 1]), "tied_points": int(tied_at.size),
        "first_low": on_grid(gammas[tied_at.size]), "first_high": gammas[-1],
        "first_points": len(untied),
        "third_low": min(thirds), "third_high": max(thirds),
        "plane_low": min(p[1] for p in planes), "plane_high": max(p[1] for p in planes),
        "widest_gap": untied_first[ideal_widest],
        "widest_at": on_grid(gammas[tied_at.size + ideal_widest]),
        "any_count": int(ideal_any), "n": len(rows("ideal")),
    }
    return facts


def _best_turn(gamma: float) -> tuple[float, tuple[int, int]]:
    """The widest gap between the ring's groups along any turn (in steps of
    TURN_STEP_DEGREES) of a plane of two of the first three directions, and that plane.
    The turn is chosen with the labels: a reading a supervised eye makes, not the fit."""
    fitted, mask = rbf_fit("ring", gamma), inner("ring")
    angles = np.deg2rad(np.arange(0, 180, TURN_STEP_DEGREES))
    best = (-np.inf, (0, 0))
    for i, j in itertools.combinations(range(3), 2):
        turned = (np.cos(angles)[:, None] * fitted.scores_[None, :, i]
                  + np.sin(angles)[:, None] * fitted.scores_[None, :, j])
        gap = max(signed_gap(t, mask) for t in turned)
        best = max(best, (gap, (i + 1, j + 1)))
    return best


# ---------------------------------------------------------------- held out


def _left_out(gamma: float) -> dict:
    """Fit without each ring person in turn; place them with transform."""
    data, mask = rows("ring"), inner("ring")
    failed, wrong, margins = 0, 0, []
    # Of the refits whose first direction does not split: how many left out an inner
    # person, how many split along their second direction instead (the order of two
    # eigenvalues reversed), and how many split along no single direction but along a
    # turn of the plane of the first two (the two directions mixed).
    failed_inner, second_splits, no_direction, plane_splits = 0, 0, 0, 0
    angles = np.deg2rad(np.arange(0, 180, TURN_STEP_DEGREES))
    for i in range(len(data)):
        keep = np.arange(len(data)) != i
        fitted = KernelPCA(kernels.rbf(gamma)).fit(data[keep])
        first = fitted.scores_[:, 0]
        kept_inner = mask[keep]
        result = measure.separation(first[kept_inner], first[~kept_inner])
        if not result.separated:
            failed += 1
            failed_inner += bool(mask[i])
            splits = [measure.separation(column[kept_inner], column[~kept_inner]).separated
                      for column in fitted.scores_.T]
            second_splits += len(splits) > 1 and splits[1]
            if not any(splits):
                no_direction += 1
                turned = (np.cos(angles)[:, None] * fitted.scores_[None, :, 0]
                          + np.sin(angles)[:, None] * fitted.scores_[None, :, 1])
                plane_splits += max(signed_gap(t, kept_inner) for t in turned) > 0
            continue
        # orient so that the inner group lies above the outer one, cut in the gap's middle
        sign = 1.0 if first[kept_inner].min() > first[~kept_inner].max() else -1.0
        oriented = sign * first
        cut = (oriented[kept_inner].min() + oriented[~kept_inner].max()) / 2
        placed = sign * fitted.transform(data[i:i + 1])[0, 0]
        margin = (placed - cut) if mask[i] else (cut - placed)
        margins.append(margin)
        wrong += margin < 0
    return {"gamma": on_grid(gamma), "failed": failed, "wrong": int(wrong),
            "placed": len(margins), "smallest": min(margins), "inner": int(mask.sum()),
            "failed_inner": failed_inner, "second_splits": int(second_splits),
            "no_direction": no_direction, "plane_splits": int(plane_splits)}


def held_out():
    """Leave each ring person out, refit, place them: does the split hang on who was fitted?"""
    ring = gamma_sweep_band()
    cases = [_left_out(gamma) for gamma in (ring[0], RING_GAMMA, ring[1])]
    edge_low, worked, edge_high = cases
    claim("at the worked gamma every refit still splits its people along its first direction, "
          "and every person left out lands on their own group's side",
          worked["failed"] == 0 and worked["wrong"] == 0, id="worked")
    claim("at both edges of the band some refits no longer split along their first direction",
          edge_low["failed"] > 0 and edge_high["failed"] > 0, id="edges_fail")
    claim("whenever a refit still splits, the person left out lands on their own group's side",
          all(case["wrong"] == 0 for case in cases), id="placed_right")
    claim("at the lower edge the refits that no longer split are exactly those that leave out "
          "an inner person, and at the upper edge each of them leaves out an inner person too",
          edge_low["failed_inner"] == edge_low["failed"] == edge_low["inner"]
          and edge_high["failed_inner"] == edge_high["failed"], id="inner_decides")
    claim("at both edges every refit that no longer splits along its first direction splits "
          "along its second instead or, if along no single direction, along a turn of the "
          "plane of its first two",
          all(case["second_splits"] + case["no_direction"] == case["failed"]
              and case["plane_splits"] == case["no_direction"] for case in (edge_low, edge_high)),
          id="mixed")
    return {"n": len(rows("ring")), "low": edge_low, "worked": worked, "high": edge_high}


@cache
def gamma_sweep_band() -> tuple[float, float]:
    """The first direction's band on the ring (low, high)."""
    first = np.array([r.first for r in sweep("ring")["readings"]])
    return measure.separated_band(grid(), first > 0)


# ---------------------------------------------------------------- the band's edges

#: At each edge of the band, the two eigenvalues that meet there are closer than this.
EDGE_CLOSENESS = 0.02
#: Grid steps on each side of the band's lower edge over which the first share's slope is read.
EDGE_STEPS = 3
#: At the longest reach the first two kernel coordinates follow ordinary PCA's this closely.
FOLLOW_PCA = 0.99


def band_edges():
    """The band's edges are where the separating direction changes rank: where the
    eigenvalues it passes come close."""
    swept = sweep("ring")
    gammas, ring_runs = swept["gamma"], runs("ring")
    band_run = next(k for k, run in enumerate(ring_runs) if run["rank"] == 1)
    edges = []
    for before, after in itertools.pairwise(ring_runs[:band_run + 2]):
        upper = min(rank for rank in (before["rank"], after["rank"]) if rank > 0)
        where = (_at(before["high"]), _at(after["low"]))
        closeness = [_closeness("ring", gammas[i], upper) for i in where]
        nearest = int(np.argmin(closeness))
        edges.append({"from_rank": before["rank"], "to_rank": after["rank"],
                      "to_some": after["separates"],
                      "between": [on_grid(gammas[where[0]]), on_grid(gammas[where[1]])],
                      "pair": [upper, upper + 1], "closeness": closeness[nearest],
                      "at": on_grid(gammas[where[nearest]])})
    worked = _closeness("ring", RING_GAMMA, 1)
    longest = rbf_fit("ring", gammas[0])
    follows = [abs(np.corrcoef(longest.scores_[:, j], fits.pca("ring").scores_[:, j])[0, 1])
               for j in range(2)]
    claim("at the longest reach of the grid the first two kernel coordinates follow ordinary "
          "PCA's two coordinates, with correlations above {limit}",
          lambda limit: min(follows) > limit,
          id="long_reach_pca", limit=FOLLOW_PCA)
    claim("at each edge the two eigenvalues meeting there come within {limit} of each other, "
          "as a fraction of the larger", lambda limit: all(e["closeness"] < limit for e in edges),
          id="close", limit=EDGE_CLOSENESS)
    claim("at the worked gamma the first two eigenvalues are more than five times further apart "
          "than at any edge", worked > 5 * max(e["closeness"] for e in edges), id="worked_apart")
    claim("the total lifted variance rises across the whole sweep",
          np.all(np.diff(swept["total"]) > 0), id="total_rises")
    claim("the first share falls across the whole sweep",
          np.all(np.diff(swept["shares"][:, 0]) < 0), id="share_falls")
    # Where the band begins the first direction changes branch (the meeting of the top
    # two eigenvalues), and the share's fall on log scales slows: a kink, not a turn.
    low = _at(gamma_sweep_band()[0])
    # The two windows meet at the edge: the steps that end there and those that start there.
    below = _log_slope(gammas, swept["shares"][:, 0], low - EDGE_STEPS, low)
    inside = _log_slope(gammas, swept["shares"][:, 0], low, low + EDGE_STEPS)
    claim("just below the band's lower edge the first share falls more than twice as steeply "
          "on log scales as just inside it, over {steps} grid steps on each side",
          below < 2 * inside, id="share_kink", steps=EDGE_STEPS)
    return {
        "slope_below": below, "slope_inside": inside, "edge_steps": EDGE_STEPS,
        "edges": edges, "worked_closeness": worked, "worked_gamma": RING_GAMMA,
        "longest": on_grid(gammas[0]), "follows_pca": follows,
        "limit": EDGE_CLOSENESS,
        "total_first": swept["total"][0], "total_last": swept["total"][-1],
        "share_first": swept["shares"][0, 0], "share_last": swept["shares"][-1, 0],
    }


def _log_slope(gammas, values, start: int, stop: int) -> float:
    """The slope of log(value) against log(gamma) from grid value start to stop: the
    chord over those steps, which are not all the same length on a log scale."""
    return float(np.log(values[stop] / values[start]) / np.log(gammas[stop] / gammas[start]))


def _closeness(dataset: str, gamma: float, rank: int) -> float:
    """(λ_r − λ_{r+1}) / λ_r: how close an eigenvalue comes to the next one down."""
    values = rbf_fit(dataset, gamma).eigenvalues_
    return (values[rank - 1] - values[rank]) / values[rank - 1]
