"""Kernel methods at scale: where the exact methods stop, and what replaces them.

A lab notebook in page order. The sections computed in the build (``accuracy``,
``compare``, ``beyond``) run on the committed fixture ``scale_rows`` and pass the
stability check. The sections that report timings and the large-n runs
(``cost.wall``, ``large.million``, ``large.streamed``) read
``timings/at-scale.json``, which only ``make timings`` writes: they are the
page's ``machine_specific`` sections, and the figures drawn from them carry
their names, so both stay out of the stability check and the regression lock.
"""

from __future__ import annotations

from kreport.report import Figure, Page

from . import accuracy, beyond, compare, cost, figures, large, measured

page = Page(
    slug="at-scale",
    title="Kernel methods at scale",
    template="at_scale.md.j2",
    summary="Where the n × n table stops the exact methods on one machine, how Nyström "
            "landmarks and random features replace it, and a fit on ten million rows.",
    extra_inputs=(measured.TIMINGS,),
    machine_specific=("wall", "million", "streamed"),
    sections=[
        cost.wall,
        accuracy.problem,
        accuracy.landmarks,
        accuracy.kernel_pca,
        accuracy.kernel_ridge,
        compare.compare,
        large.million,
        large.streamed,
        beyond.beyond,
    ],
    figures=[
        Figure("wall", figures.wall,
               alt="Fit time and added memory against the number of rows on log-log axes: "
                   "exact kernel ridge and kernel PCA rise steeply and their memory line, "
                   "extended, meets the machine's memory, while Nyström kernel ridge and its "
                   "Dask run go on to ten million rows with time rising in step with the rows "
                   "and memory flat"),
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
        Figure("million", figures.million,
               alt="Fit time of Nyström kernel ridge against the number of centres on log-log "
                   "axes, with a least-squares line steeper than one"),
    ],
)
