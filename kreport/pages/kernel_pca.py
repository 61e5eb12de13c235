"""Kernel PCA, the long page: a lab notebook, one function per section.

The ring of thirty-six, the arc of twelve and the measured four are fitted with
kreport's PCA and KernelPCA; every relation the prose states is a claim here.
Shared fits, the page-wide reaches, the gamma sweep and the behaviour probes
live in ``_kernel_pca_probes``, sections 12 to 20 in ``_kernel_pca_later`` and
the figures in ``_kernel_pca_figures``; each section keeps its claims beside it.
"""

from __future__ import annotations

import numpy as np

from kreport import KernelPCA, kernels, measure
from kreport.report import Page, bound, claim

from . import _kernel_pca_figures as figures
from . import _kernel_pca_later as later
from . import _kernel_pca_probes as lab
from ._kernel_pca_probes import (
    ARC_GAMMA,
    RING_GAMMA,
    arc_by_height,
    fit,
    four,
    pca,
    ring_set,
    split,
)

page = Page(slug="kernel-pca", title="Kernel PCA", template="kernel_pca.md.j2")


def _tidy(table, decimals=9):
    """Exact-in-principle tables (integers here) rounded past their noise, for printing."""
    return np.round(np.asarray(table, dtype=float), decimals) + 0.0


# ------------------------------------------------------------------ 1. the ring


@page.section
def ring_problem():
    """Ordinary PCA cannot split the ring; the RBF kernel's first direction can."""
    rows, inner = ring_set("ring")
    linear = pca("ring")
    linear_split = split(linear.scores_[:, 0], inner)
    kernel_split = split(fit("ring", "rbf", RING_GAMMA).scores_[:, 0], inner)
    from_centre = np.hypot(*(rows - rows[inner].mean(axis=0)).T)
    ideal_rows, ideal_inner = ring_set("ideal")
    ideal_from_centre = np.hypot(*(ideal_rows - ideal_rows[ideal_inner].mean(axis=0)).T)
    claim("ordinary PCA spreads the ring almost evenly: its two shares differ by under 0.1",
          abs(linear.shares_[0] - linear.shares_[1]) < 0.1)
    claim("along ordinary PCA's first axis the inner group overlaps the outer group",
          not linear_split.separated)
    claim("the shared stretch is the inner group's whole width: it lies inside the outer range",
          np.isclose(linear_split.overlap, np.ptp(linear.scores_[inner, 0]), rtol=1e-12))
    claim("along the first RBF direction at gamma 0.005 every inner person lies on one side "
          "of every outer person", kernel_split.separated)
    claim("the ideal ring's inner group is tighter than the ring's and its outer group lies "
          "further out", ideal_from_centre[ideal_inner].max() < from_centre[inner].max()
          and ideal_from_centre[~ideal_inner].min() > from_centre[~inner].min())
    return {
        "n": len(rows), "n_inner": int(inner.sum()), "n_outer": int((~inner).sum()),
        "outer_distance": [from_centre[~inner].min(), from_centre[~inner].max()],
        "pca_shares": linear.shares_, "pca_overlap": linear_split.overlap,
        "pca_shift": linear_split.shift,
        "gamma": RING_GAMMA, "kernel_gap": kernel_split.gap,
        "ideal_inner": int(ideal_inner.sum()), "ideal_outer": int((~ideal_inner).sum()),
        "ideal_inner_reach": ideal_from_centre[ideal_inner].max(),
        "ideal_outer_distance": [ideal_from_centre[~ideal_inner].min(),
                                 ideal_from_centre[~ideal_inner].max()],
    }


# ------------------------------------------------------------------ 2. the arc under PCA


@page.section
def arc_under_pca():
    linear = pca("arc")
    first = linear.scores_[:, 0]
    one_axis = pca("arc", n_components=1)
    claim("read by height, the arc's first PCA coordinates never turn back",
          measure.reversals(first) == 0)
    claim("the error of rebuilding from one coordinate is the dropped eigenvalue",
          abs(one_axis.reconstruction_error_ - linear.eigenvalues_[1])
          < 1e-8 * linear.eigenvalues_[0])
    claim("that error is the variance across the axis times n − 1",
          np.isclose(one_axis.reconstruction_error_, linear.variances_[1] * (len(first) - 1),
                     rtol=1e-10))
    return {
        "n": len(first), "first_share": linear.shares_[0], "second_share": linear.shares_[1],
        "error_one": one_axis.reconstruction_error_,
        "first_coordinates": first, "across": linear.variances_[1],
        "total": linear.total_variance_, "divisor": len(first) - 1,
    }


# ------------------------------------------------------------------ 3. a recipe over people


@page.section
def recipe():
    """A direction as a weighted sum of the centred people, scored by dot products."""
    deviations = four() - four().mean(axis=0)
    direction = pca("four").components_[0]
    weights = fit("four", "linear").coefficients_[:, 0]
    rebuilt = weights @ deviations
    dots = deviations @ deviations.T
    coordinate = dots[0] @ weights
    claim("the weighted sum of the four deviations rebuilds the first direction",
          np.allclose(rebuilt, direction, atol=1e-12))
    claim("a coordinate from dot products alone equals ordinary PCA's score",
          abs(coordinate - pca("four").scores_[0, 0]) < 1e-12)
    return {
        "deviations": deviations, "direction": direction, "weights": _tidy(weights, 12),
        "dots_person_one": _tidy(dots[0]), "coordinate": coordinate,
        "rebuild_error": bound(rebuilt - direction, -12),
    }


# ------------------------------------------------------------------ 4. the Gram matrix route


@page.section
def gram_route():
    four_fit = fit("four", "linear")
    gram_values, gram_vectors = lab.symmetric_eigen(four_fit.centred_table_)
    scatter_values = pca("four").eigenvalues_
    arc_scatter = np.cov(arc_by_height().T, ddof=0) * len(arc_by_height())
    arc_gram = np.linalg.eigvalsh(fit("arc", "linear").centred_table_)[::-1]
    arc_routes = fit("arc", "linear").scores_ - pca("arc").scores_
    claim("the Gram table's two non-zero eigenvalues equal the scatter matrix's",
          np.allclose(gram_values[:2], scatter_values, rtol=1e-12))
    claim("the leading Gram eigenvector weights person 1 and person 2 equally and oppositely, "
          "and the others not at all",
          np.allclose(gram_vectors[:, 0] * np.sqrt(2), [1, -1, 0, 0], atol=1e-12))
    claim("on the arc the Gram table's top two eigenvalues equal the scatter matrix's",
          np.allclose(arc_gram[:2], pca("arc").eigenvalues_, rtol=1e-10))
    claim("with the shared sign rule the two routes' arc coordinates agree without flipping",
          np.abs(arc_routes).max() < 1e-9)
    return {
        "centred_table": _tidy(four_fit.centred_table_), "eigenvalues": _tidy(gram_values[:2]),
        "zeros": bound(gram_values[2:], -10), "leading_vector": _tidy(gram_vectors[:, 0], 6),
        "arc_scatter": arc_scatter, "arc_scatter_values": pca("arc").eigenvalues_,
        "arc_gram_values": arc_gram[:2], "arc_rest": bound(arc_gram[2:], -9),
        "arc_rest_count": len(arc_gram) - 2, "arc_agreement": bound(arc_routes, -10),
    }


# ------------------------------------------------------------------ 5. two scales


@page.section
def two_scales():
    fitted = fit("four", "linear")
    raw, n = fitted.eigenvalues_, len(four())
    lengths = (fitted.coefficients_**2).sum(axis=0)
    claim("the reported variances are the raw eigenvalues over n − 1",
          np.allclose(fitted.variances_, raw / (n - 1), rtol=1e-15))
    claim("each coefficient vector's squared length is one over its raw eigenvalue",
          np.allclose(lengths * raw, 1.0, rtol=1e-12))
    return {
        "n": n, "raw": _tidy(raw), "variances": fitted.variances_,
        "direction_length": np.sqrt(raw[0]), "squared_lengths": lengths,
        "reciprocals": 1 / raw,
    }


# ------------------------------------------------------------------ 6. the uncentred trap


@page.section
def uncentred():
    table = kernels.linear()(four(), four())
    values, vectors = lab.symmetric_eigen(table)
    arc_table = kernels.linear()(arc_by_height(), arc_by_height())
    arc_share = np.linalg.eigvalsh(arc_table)[-1] / np.trace(arc_table)
    leading = vectors[:, 0]
    claim("the uncentred table's first eigenvector weighs all four people nearly alike",
          np.ptp(leading) < 0.1 and np.all(leading > 0))
    claim("the uncentred first direction takes more than 98 percent of the trace on both data sets",
          values[0] / np.trace(table) > 0.98 and arc_share > 0.98)
    return {
        "person_one": four()[0], "table": _tidy(table), "largest": values[0],
        "share": values[0] / np.trace(table),
        "leading_vector": leading, "arc_share": arc_share,
    }


# ------------------------------------------------------------------ 7. centring in feature space


@page.section
def centring():
    fitted = fit("four", "linear")
    table, n = fitted.training_table_, len(four())
    ones = np.full((n, n), 1 / n)
    by_identity = table - ones @ table - table @ ones + ones @ table @ ones
    # Person 1 sent back as a query: their row of kernel values, centred by the
    # query identity with the training averages.
    query = kernels.linear()(four()[:1], four())
    ones_q = np.full((1, n), 1 / n)
    centred_query = query - ones_q @ table - query @ ones + ones_q @ table @ ones
    ring_fit = fit("ring", "rbf", RING_GAMMA)
    ring_again = ring_fit.transform(ring_fit.training_rows_) - ring_fit.scores_
    claim("the matrix identity reproduces the fitted centred table",
          np.abs(by_identity - fitted.centred_table_).max() < 1e-9)
    claim("person 1 sent back as a query reproduces their centred row",
          np.abs(centred_query[0] - fitted.centred_table_[0]).max() < 1e-9)
    claim("every ring person sent back through transform lands on their own coordinates",
          np.abs(ring_again).max() < 1e-10)
    return {
        "identity_error": bound(by_identity - fitted.centred_table_, -9),
        "query_row": _tidy(centred_query[0]),
        "ring_resend": bound(ring_again, -10),
    }


# ------------------------------------------------------------------ 8. kernels in the table


@page.section
def kernel_table():
    for dataset in ("four", "arc"):
        linear_kernel, ordinary = fit(dataset, "linear"), pca(dataset)
        claim(f"the linear kernel reproduces ordinary PCA's variances and scores on the {dataset}",
              np.allclose(linear_kernel.variances_, ordinary.variances_, rtol=1e-10)
              and np.abs(linear_kernel.scores_ - ordinary.scores_).max() < 1e-9)
    rows = arc_by_height()
    table = kernels.rbf(ARC_GAMMA)(rows, rows)
    end = table[0]
    # The bottom of the dip: the lightest person, ties going to the one nearest
    # the arc's middle height (the arc has two people at the lowest weight).
    lightest = np.flatnonzero(rows[:, 1] == rows[:, 1].min())
    dip = int(lightest[np.argmin(np.abs(rows[lightest, 0] - rows[:, 0].mean()))])
    # by height: the near twin just below, then the next person on either side of the pair
    close, before, after = dip - 1, dip - 2, dip + 1
    side_distances = np.hypot(*(rows[[before, after]] - rows[dip]).T)
    claim("the shortest person's similarity falls with every step along the arc",
          np.all(np.diff(end) < 0))
    claim("the people just beyond the dip's pair on either side are the same distance from "
          "the dip's lowest person, and score the same with them",
          side_distances[0] == side_distances[1] and table[dip, before] == table[dip, after])
    claim("the dip's lowest person scores highest with their near twin, who is closer than "
          "either of those two", table[dip, close] > table[dip, after]
          and np.hypot(*(rows[dip] - rows[close])) < side_distances.min())
    return {
        "gamma": ARC_GAMMA, "end_person": rows[0], "end_row": end,
        "end_far": end[5:].max(), "dip_person": rows[dip],
        "twin": rows[close], "twin_similarity": table[dip, close],
        "twin_distance": np.hypot(*(rows[dip] - rows[close])),
        "sides": [rows[before], rows[after]], "side_similarity": table[dip, after],
        "side_distance": side_distances[0],
    }


# ------------------------------------------------------------------ 9. coefficients on the ring


@page.section
def ring_coefficients():
    rows, inner = ring_set("ring")
    fitted = fit("ring", "rbf", RING_GAMMA)
    first = fitted.coefficients_[:, 0]
    raw_row = kernels.rbf(RING_GAMMA)(rows[:1], rows)[0]
    coordinate = fitted.centred_table_[0] @ first
    claim("every inner coefficient is positive and every outer coefficient negative",
          np.all(first[inner] > 0) and np.all(first[~inner] < 0))
    claim("the squared coefficient length is one over the raw eigenvalue",
          abs((first**2).sum() * fitted.eigenvalues_[0] - 1) < 1e-10)
    claim("person 1's coordinate is their centred kernel row summed against the coefficients",
          abs(coordinate - fitted.scores_[0, 0]) < 1e-12)
    return {
        "inner_range": [first[inner].min(), first[inner].max()],
        "outer_range": [first[~inner].min(), first[~inner].max()],
        "raw": fitted.eigenvalues_[0], "divisor": len(rows) - 1,
        "variance": fitted.variances_[0], "squared_length": (first**2).sum(),
        "person": rows[0], "row_start": raw_row[:3], "row_smallest": raw_row.min(),
        "coordinate": coordinate,
    }


# ------------------------------------------------------------------ 10. what is orthogonal


def _orthogonality(fitted: KernelPCA):
    gram = fitted.coefficients_.T @ fitted.coefficients_
    off_diagonal = gram - np.diag(np.diag(gram))
    unit = fitted.coefficients_.T @ fitted.centred_table_ @ fitted.coefficients_
    return off_diagonal, unit - np.eye(len(unit))


@page.section
def orthogonality():
    ring_off, ring_unit = _orthogonality(fit("ring", "rbf", RING_GAMMA, n_components=2))
    arc_off, _ = _orthogonality(fit("arc", "rbf", ARC_GAMMA, n_components=2))
    four_lengths = (fit("four", "linear").coefficients_**2).sum(axis=0)
    claim("coefficient vectors of different directions are orthogonal in the ordinary sense "
          "(so the often-repeated claim that they are not is false)",
          np.abs(ring_off).max() < 1e-14 and np.abs(arc_off).max() < 1e-14)
    claim("coefficient vectors are not of unit length", np.all(np.abs(four_lengths - 1) > 0.5))
    return {
        "ring_dot": bound(ring_off, -14), "arc_dot": bound(arc_off, -14),
        "ring_identity": bound(ring_unit, -12), "four_lengths": four_lengths,
    }


# ------------------------------------------------------------------ 11. shares on the ring


@page.section
def ring_shares():
    rows, inner = ring_set("ring")
    fitted = fit("ring", "rbf", RING_GAMMA)
    table = fitted.training_table_
    others = ~np.eye(len(rows), dtype=bool)  # pairs of two different people
    within_inner = table[np.outer(inner, inner) & others].mean()
    within_outer = table[np.outer(~inner, ~inner) & others].mean()
    claim("the kernel's first share is far below ordinary PCA's",
          fitted.shares_[0] < pca("ring").shares_[0] / 2)
    claim("the kernel spreads the ring along n − 1 directions",
          fitted.n_components_ == len(rows) - 1)
    claim("inner people resemble one another more than outer people do",
          within_inner > 2 * within_outer)
    return {
        "shares": fitted.shares_[:2], "total": fitted.total_variance_,
        "pca_shares": pca("ring").shares_, "directions": fitted.n_components_,
        "within_inner": within_inner, "within_outer": within_outer,
    }


# ------------------------------------------------------------------ 12 to 20

for _section in later.SECTIONS:
    page.section(_section)


# ------------------------------------------------------------------ figures

page.figure("ring", alt="The ring of thirty-six people, and their first coordinates under "
            "ordinary PCA and under the RBF kernel")(figures.ring)
page.figure("arc-table", alt="The arc's RBF kernel table at gamma 0.002 as a heat "
            "map")(figures.arc_table)
page.figure("sweep", alt="Gap or overlap of the ring's groups, total lifted variance and first "
            "share against gamma, with the separating band shaded")(figures.sweep)
page.figure("arc-fold", alt="The arc's first and second kernel coordinates against height, "
            "and the arc in the kernel plane")(figures.arc_fold)
page.figure("kept-share", alt="Kept share of each ring person's lifted deviation with two "
            "directions, inner and outer groups coloured")(figures.kept_share)
page.figure("ladder", alt="Cumulative share of the ring's lifted variance against the number "
            "of directions kept")(figures.ladder)
