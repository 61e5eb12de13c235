"""Kernel PCA, part two: ties, and the split of the ring as gamma moves.

The sections are computed by the modules of ``kreport.pages.kernel_pca`` (the
sweep, its readings and the median rule live there, beside the fits they share
with part one); this package lists them in page order and holds the playground,
whose presets are the settings this page discusses.
"""

from __future__ import annotations

from kreport.pages.kernel_pca import choosing, figures, sweep
from kreport.report import Figure, Page, Playground

from . import exercises, playground

page = Page(
    slug="kernel-pca-gamma",
    title="Kernel PCA across gamma",
    template="kernel_pca_gamma.md.j2",
    summary="Tied eigenvalues, and which direction splits the ring as gamma moves: the "
            "first direction's band, where its edges come from, and the median rule.",
    sections=[
        sweep.tied_directions, sweep.gamma_sweep, sweep.held_out, sweep.band_edges,
        choosing.median_rule, exercises.exercises,
    ],
    figures=[
        Figure("sweep", figures.sweep_figure,
               alt="Two panels against gamma on a log scale, one per ring: the gap or overlap "
                   "along the first direction, the best gap among the first few directions "
                   "coloured by which direction gives it, and for the ideal ring the radius in "
                   "its tied plane, with the first direction's band and the tied range marked"),
        Figure("spectrum", figures.spectrum,
               alt="The ring's four largest shares and its total lifted variance against gamma "
                   "on log scales, with the direction that splits the groups circled: it climbs "
                   "from third to second to first where the share curves come close"),
    ],
    playgrounds=[
        Playground("playground", playground.playground, playground.charts,
                   title="Kernel PCA playground", rtol=2e-3),
    ],
)
