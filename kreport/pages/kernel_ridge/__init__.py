"""Kernel ridge regression: ridge rewritten with one weight per training row.

A lab notebook in page order. Each section fits what it talks about through the
public kreport API, checks every relation its prose states with ``claim``, and
returns the numbers the template prints. Shared fits are cached in ``fits``;
the page's own settings are in ``settings``.
"""

from __future__ import annotations

from kreport.report import Figure, Page, Playground

from . import (
    declared,
    dual,
    figures,
    heldout,
    kernels,
    lines,
    penalty,
    pitfalls,
    playground,
    timing,
)

page = Page(
    slug="kernel-ridge",
    title="Kernel ridge regression",
    template="kernel_ridge.md.j2",
    summary="Ridge regression with one weight per training row: any kernel, and the penalty "
            "chosen by held-out error rather than by the training score.",
    extra_inputs=(timing.TIMINGS,),
    machine_specific=("timings",),
    sections=[
        lines.lines,
        dual.two_forms,
        dual.three_people,
        kernels.throw_tables,
        dual.derivation_checked,
        dual.weights_are_residuals,
        dual.what_is_kept,
        heldout.held_out_error,
        kernels.polynomial_degrees,
        kernels.rbf_on_throws,
        kernels.units,
        kernels.three_people_each_kernel,
        pitfalls.no_intercept_exemption,
        penalty.penalty_as_conditioning,
        heldout.choosing_together,
        pitfalls.half_centred_bug,
        timing.timings,
        pitfalls.extrapolation,
        declared.what_ridge_reports,
        declared.mercer,
        penalty.zero_penalty,
        declared.declarations,
        declared.behaviour,
    ],
    figures=[
        Figure("tables", figures.tables,
               alt="Three heat maps of the throws' kernel tables: the linear table bright in "
                   "the same-side corners and dark in the opposite ones, the squared "
                   "polynomial table never negative, and the RBF table a bright band along "
                   "the diagonal"),
        Figure("degrees", figures.degrees,
               alt="Polynomial kernel fits through the throws: the linear fit is a nearly "
                   "flat line, and every degree from the square up follows the arc"),
        Figure("gammas", figures.gammas,
               alt="RBF kernel fits through the throws at four values of gamma: the smallest "
                   "nearly flat, the middle two following the arc, the largest flat at the "
                   "mean with a spike at each throw"),
        Figure("penalties", figures.penalties,
               alt="Above, RBF curves through the throws at five penalties, from one that "
                   "passes through every throw to one flat at the mean. Below, mean squared "
                   "error against the penalty on log axes: the training error falls steadily "
                   "as the penalty shrinks, while the held-out error falls to a lowest point "
                   "and then rises again"),
        Figure("conditioning", figures.conditioning, rtol=1e-5,
               alt="Condition number and largest dual weight against the penalty on log axes, "
                   "both falling steadily as the penalty grows"),
        Figure("timings", figures.timings,
               alt="Fit time of ridge and kernel ridge against the number of rows and against "
                   "the number of features, on log-log axes: kernel ridge rises steeply with "
                   "the rows while ridge stays nearly flat"),
    ],
    playgrounds=[
        Playground("playground", playground.playground, playground.charts,
                   title="Kernel ridge playground", rtol=2e-3),
    ],
)
