"""Kernel ridge regression, part two: swapping the kernel, the penalty, and
choosing the two together on held-out rows.

The sections are computed in :mod:`kreport.pages.kernel_ridge` (one place per
concept, with that package's cached fits and settings) and placed here; the
playground, whose presets these sections link to, is this page's.
"""

from __future__ import annotations

from kreport.pages.kernel_ridge import figures, heldout, kernels, penalty
from kreport.report import Figure, Page, Playground

from . import exercises, playground

page = Page(
    slug="kernel-ridge-penalty",
    title="Kernel ridge regression: kernels and the penalty",
    template="kernel_ridge_penalty.md.j2",
    summary="Part two: polynomial and RBF kernels, gamma's units, the penalty's two jobs, "
            "and both settings chosen by held-out error.",
    sections=[
        kernels.polynomial_degrees,
        kernels.rbf_on_throws,
        kernels.units,
        penalty.penalty_as_conditioning,
        heldout.choosing_together,
        exercises.exercises,
    ],
    figures=[
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
    ],
    playgrounds=[
        Playground("playground", playground.playground, playground.charts,
                   title="Kernel ridge playground", rtol=2e-3),
    ],
)
