"""Kernel PCA, part three: what the method does not do, and what kreport declares.

The sections are computed by the modules of ``kreport.pages.kernel_pca`` (the
arc's fold, the squared kernel, the missing way back, the count of directions,
units, the declaration and the probes at the edges), beside the fits they share
with the other two parts; this package lists them in page order.
"""

from __future__ import annotations

from kreport.pages.kernel_pca import arc, choosing, declared, figures, limits
from kreport.report import Figure, Page

from . import exercises

page = Page(
    slug="kernel-pca-limits",
    title="The limits of kernel PCA",
    template="kernel_pca_limits.md.j2",
    summary="What kernel PCA does not do (unroll a curve, rank the useful direction first, "
            "come back to the input, choose the count or the units) and what kreport declares.",
    sections=[
        arc.arc_fold, limits.squared_kernel, limits.no_way_back, choosing.how_many,
        choosing.units, declared.declaration, declared.behaviour, exercises.exercises,
    ],
    figures=[
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
)
