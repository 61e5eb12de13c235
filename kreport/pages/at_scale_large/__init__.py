"""Kernel methods at scale, part two: where the exact fits stop, and a fit on ten million rows.

The sections are computed by the modules of ``kreport.pages.at_scale`` (the timing
study is read there, from ``at_scale/timings/at-scale.json``, which only
``make timings`` writes); this package lists them in page order. The sections
that report timings (``cost.wall``, ``large.million``, ``large.streamed``) are
this page's ``machine_specific`` ones, and the figures drawn from them carry
their names, so both stay out of the stability check and the regression lock.
"""

from __future__ import annotations

from kreport.pages.at_scale import beyond, cost, figures, large, measured
from kreport.report import Figure, Page

from . import exercises

page = Page(
    slug="at-scale-large",
    title="Kernel methods past the memory wall",
    template="at_scale_large.md.j2",
    summary="Where the n × n table stops the exact methods on one machine, a Nyström fit on a "
            "million rows and on ten million through Dask, and which method to use when.",
    extra_inputs=(measured.TIMINGS,),
    machine_specific=("wall", "million", "streamed"),
    sections=[cost.wall, large.million, large.streamed, beyond.beyond, exercises.exercises],
    figures=[
        Figure("wall", figures.wall,
               alt="Fit time and added memory against the number of rows on log-log axes: "
                   "exact kernel ridge and kernel PCA rise steeply and their memory line, "
                   "extended, meets the machine's memory, while Nyström kernel ridge and its "
                   "Dask run go on to ten million rows with time rising in step with the rows "
                   "and the memory of the process that holds the model (for Dask, the client) "
                   "nearly flat"),
        Figure("million", figures.million,
               alt="Fit time of Nyström kernel ridge against the number of centres on log-log "
                   "axes, with a least-squares line steeper than one"),
    ],
)
