"""Kernel methods at scale, part one: what replaces the n × n table, and how close it comes.

A lab notebook in page order. Every section runs in the build on the committed
fixture ``scale_rows`` and passes the stability check.

The page was split by topic (issue 17): the timing study (where the exact fits
stop on one machine, the fits on a million and ten million rows, FALKON, which
method when) is on ``kreport.pages.at_scale_large``, whose sections are the
modules ``cost``, ``large`` and ``beyond`` of this package, beside the timing
file they read (``measured``); old links to the moved sections are sent on by
``moved_anchors``.
"""

from __future__ import annotations

from kreport.report import Figure, Page

from . import accuracy, compare, exercises, figures

LARGE_PAGE = "at-scale-large"

#: What moved to the second part: headings (their anchors), figures, and each moved
#: section's claims by id.
_MOVED_HEADINGS = ("the-wall-on-one-machine", "a-million-rows",
                   "ten-million-rows-streamed-through-dask",
                   "past-this-falkon-and-what-kreport-does-not-do", "which-method-when")
_MOVED_FIGURES = ("wall", "million")
_MOVED_CLAIMS = {
    "wall": ("ridge_exponent", "memory_exponent", "copies", "iterative", "pca_below_square",
             "ridge_slower",
             "memory_first"),
    "million": ("rows_exponent", "centres_exponent", "last_doubling", "minute", "flat_memory",
                "versus_sklearn", "sklearn_million", "pca_holds_features", "near_floor",
                "smaller_excess", "per_row"),
    "streamed": ("agrees", "table_too_big", "client_small", "client_flat"),
}

page = Page(
    slug="at-scale",
    title="Kernel methods at scale",
    template="at_scale.md.j2",
    summary="What replaces the n × n table when the rows grow: Nyström landmarks and random "
            "features, measured against the exact fits.",
    sections=[
        accuracy.problem,
        accuracy.landmarks,
        accuracy.kernel_pca,
        accuracy.kernel_ridge,
        compare.compare,
        exercises.exercises,
    ],
    figures=[
        Figure("accuracy", figures.accuracy,
               alt="Against the number of landmarks: how far the Nyström kernel PCA variances "
                   "and total variance are short of the exact ones, the gaps shrinking steadily "
                   "on log axes, and the held-out error of Nyström kernel ridge falling onto the "
                   "exact fit's"),
        Figure("compare", figures.compare,
               alt="Relative error of the approximate kernel table against the number of "
                   "features for Nyström and for random features, at the page's gamma and at "
                   "a rougher one, on log-log axes: the Nyström line runs under the band of the "
                   "random features in both panels, far under it for the smooth kernel"),
    ],
    moved_anchors={
        **{heading: LARGE_PAGE for heading in _MOVED_HEADINGS},
        **{f"figure-{name}": LARGE_PAGE for name in _MOVED_FIGURES},
        **{f"claim-{section}-{ident}": LARGE_PAGE
           for section, idents in _MOVED_CLAIMS.items() for ident in idents},
    },
)
