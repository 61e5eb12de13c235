"""Kernel PCA, the long page: a lab notebook, one function per section.

The ring of thirty-six, the ideal ring, the arc of twelve and the measured four
are fitted with kreport's PCA and KernelPCA (cached in ``fits``); every relation
the prose states is a claim beside the section that computes it. Sections and
figures are listed once, here, in page order.
"""

from __future__ import annotations

from kreport.report import Figure, Page, Playground

from . import arc, centring, choosing, declared, figures, gram, limits, playground, ring, sweep

page = Page(
    slug="kernel-pca",
    title="Kernel PCA",
    template="kernel_pca.md.j2",
    summary="Why a ring defeats ordinary PCA, what the kernel finds instead, and where "
            "reading only the first direction misleads.",
    sections=[
        ring.ring_problem, arc.arc_under_pca, gram.recipe, gram.gram_route, gram.two_scales,
        gram.uncentred, centring.centring, arc.kernel_table, ring.ring_coefficients,
        ring.orthogonality, ring.ring_shares, sweep.tied_directions, sweep.gamma_sweep,
        sweep.held_out, sweep.band_edges, arc.arc_fold, limits.squared_kernel,
        limits.no_way_back, choosing.median_rule, choosing.how_many, choosing.units,
        declared.declaration, declared.behaviour,
    ],
    figures=[
        Figure("ring", figures.ring,
               alt="The ring of people on the height and weight plane, and each person's first "
                   "coordinate under ordinary PCA, where the groups overlap, and under the RBF "
                   "kernel, where they separate"),
        Figure("arc-table", figures.arc_table,
               alt="A heat map of the arc's RBF kernel values, bright along the diagonal and "
                   "fading away from it"),
        Figure("sweep", figures.sweep_figure,
               alt="Two panels against gamma on a log scale, one per ring: the gap or overlap "
                   "along the first direction, the best gap among the first few directions "
                   "coloured by which direction gives it, and for the ideal ring the radius in "
                   "its tied plane, with the first direction's band and the tied range marked"),
        Figure("spectrum", figures.spectrum,
               alt="The ring's four largest shares and its total lifted variance against gamma "
                   "on log scales, with the direction that splits the groups circled: it climbs "
                   "from third to second to first where the share curves come close"),
        Figure("arc-fold", figures.arc_fold,
               alt="The arc's first and second kernel coordinates against height, the first "
                   "folding back, and the arc drawn again in the plane of the two coordinates"),
        Figure("kept-share", figures.kept_share,
               alt="Kept share of each ring person against their distance from the ring's "
                   "mean, inner and outer groups coloured"),
        Figure("ladder", figures.ladder,
               alt="Cumulative share of the ring's lifted variance against the number of "
                   "directions kept, climbing slowly, with three thresholds marked"),
    ],
    playgrounds=[
        Playground("playground", playground.playground, playground.charts,
                   title="Kernel PCA playground", rtol=2e-3),
    ],
)
