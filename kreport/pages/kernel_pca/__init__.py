"""Kernel PCA, part one: the method built from one change to ordinary PCA.

The ring of thirty-six, the arc of twelve and the measured four are fitted with
kreport's PCA and KernelPCA (cached in ``fits``); every relation the prose
states is a claim beside the section that computes it. Sections and figures are
listed once, here, in page order.

The long page was split by topic (issue 17): the ties and the sweep over gamma
are on ``kreport.pages.kernel_pca_gamma`` (with the playground), and what the
method does not do, with what kreport declares, on
``kreport.pages.kernel_pca_limits``. Both import their sections from the
modules of this package, so each computation stays in one place; old links to
the moved sections are sent on by ``moved_anchors``.
"""

from __future__ import annotations

from kreport.report import Figure, Page

from . import arc, centring, exercises, figures, gram, ring

GAMMA_PAGE, LIMITS_PAGE = "kernel-pca-gamma", "kernel-pca-limits"

#: What moved, by new page: headings (their anchors), figures, and each moved
#: section's claims by id.
_MOVED = {
    GAMMA_PAGE: {
        # the playground's box too: a link to one of its settings
        # (#playground:data=…) is sent on with the setting kept
        "headings": ("when-eigenvalues-tie", "sweeping-gamma", "where-the-band-edges-come-from",
                     "choosing-gamma-by-the-median-rule", "playground"),
        "figures": ("sweep", "spectrum"),
        "claims": {
            "tied_directions": ("symmetric", "tie", "no_turn_splits", "radius_splits",
                                "crowded_deep", "top_apart"),
            "gamma_sweep": ("first_band", "worked_inside", "below_band", "below_wide",
                            "nowhere", "beyond_narrow", "round_outside", "ideal_tied_low",
                            "ideal_tied_split", "ideal_first", "ideal_every", "ideal_wider"),
            "held_out": ("worked", "edges_fail", "placed_right"),
            "band_edges": ("long_reach_pca", "close", "worked_apart", "total_rises",
                           "share_falls", "share_kink"),
            "median_rule": ("ring_first", "third", "ideal_plane", "factor"),
        },
    },
    LIMITS_PAGE: {
        "headings": ("the-arc-does-not-unroll",
                     "the-squared-kernel-has-the-radius-and-does-not-use-it", "no-way-back",
                     "how-many-directions", "units", "what-a-complete-implementation-declares",
                     "behaviour-at-the-edges"),
        "figures": ("arc-fold", "kept-share", "ladder"),
        "claims": {
            "arc_fold": ("turns", "ends_middle", "second", "wider", "never_straight",
                         "first_between", "second_above"),
            "squared_kernel": ("first_overlaps", "last", "radius_direction", "radius_inside",
                               "follows", "lockstep", "centred_still_last"),
            "no_way_back": ("refused", "inner_keeps_more", "why", "sum"),
            "how_many": ("ceiling", "slow"),
            "units": ("larger", "weight_only", "follows_weight", "coincidence", "pca_metres",
                      "comparable"),
            "declaration": ("state", "order", "total", "ceiling", "zeros"),
            "behaviour": ("sigmoid", "quarter", "ridge", "strangers", "duplicates", "constant",
                          "two", "refused"),
        },
    },
}


def _moved_anchors() -> dict[str, str]:
    moved = {}
    for slug, what in _MOVED.items():
        moved.update({heading: slug for heading in what["headings"]})
        moved.update({f"figure-{name}": slug for name in what["figures"]})
        moved.update({f"claim-{section}-{ident}": slug
                      for section, idents in what["claims"].items() for ident in idents})
    return moved


page = Page(
    slug="kernel-pca",
    title="Kernel PCA",
    template="kernel_pca.md.j2",
    summary="Why a ring defeats ordinary PCA, and kernel PCA built from one change: the "
            "table of kernel values, centred, and how to read its directions.",
    sections=[
        ring.ring_problem, arc.arc_under_pca, gram.recipe, gram.gram_route, gram.two_scales,
        gram.uncentred, centring.centring, arc.kernel_table, ring.ring_coefficients,
        ring.orthogonality, ring.ring_shares, exercises.exercises,
    ],
    figures=[
        Figure("ring", figures.ring,
               alt="The ring of people on the height and weight plane, and each person's first "
                   "coordinate under ordinary PCA, where the groups overlap, and under the RBF "
                   "kernel, where they separate"),
        Figure("arc-table", figures.arc_table,
               alt="A heat map of the arc's RBF kernel values, bright along the diagonal and "
                   "fading away from it"),
    ],
    moved_anchors=_moved_anchors(),
)
