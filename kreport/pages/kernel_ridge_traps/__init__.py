"""Kernel ridge regression, part three: the traps (a penalised intercept, the
half-centred bug, extrapolation, kernels that break Mercer's condition, a zero
penalty), what the fit costs, and what a complete implementation declares.

The sections are computed in :mod:`kreport.pages.kernel_ridge` (one place per
concept, with that package's cached fits and settings) and placed here.
"""

from __future__ import annotations

from kreport.pages.kernel_ridge import declared, figures, penalty, pitfalls, timing
from kreport.report import Figure, Page

from . import exercises

page = Page(
    slug="kernel-ridge-traps",
    title="Kernel ridge regression: traps, and what an implementation declares",
    template="kernel_ridge_traps.md.j2",
    summary="Part three: the mistakes that still draw a curve, what the fit costs, and "
            "what a complete implementation has to say.",
    extra_inputs=(timing.TIMINGS,),
    machine_specific=("timings",),
    sections=[
        pitfalls.no_intercept_exemption,
        pitfalls.half_centred_bug,
        timing.timings,
        pitfalls.extrapolation,
        declared.what_ridge_reports,
        declared.mercer,
        penalty.zero_penalty,
        declared.declarations,
        declared.behaviour,
        exercises.exercises,
    ],
    figures=[
        Figure("timings", figures.timings,
               alt="Fit time of ridge and kernel ridge against the number of rows and against "
                   "the number of features, on log-log axes: kernel ridge rises steeply with "
                   "the rows while ridge stays nearly flat"),
    ],
)
