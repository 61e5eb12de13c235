"""Positive semidefinite kernels and Mercer's condition: a background page.

What makes a kernel table positive semidefinite, which kernels are always so
(found by probing tables on the fixtures), how rounding differs from a real
negative eigenvalue, and what the penalty, kernel ridge and kernel PCA do with
a table that breaks the condition.
"""

from __future__ import annotations

from kreport.report import Figure, Page

from . import exercises, figures, penalty, probes, tables

page = Page(
    slug="mercer",
    title="Positive semidefinite kernels and Mercer's condition",
    template="mercer.md.j2",
    summary="Which kernels give tables with no negative eigenvalue, how to tell rounding "
            "from a real failure, and what the models do when the condition breaks.",
    sections=[tables.table_eigenvalues, probes.worked_kernels, probes.mercer_kernels,
              probes.sigmoid_sweep, penalty.penalty_shift, penalty.refusal, penalty.clamping,
              exercises.exercises],
    figures=[
        Figure("spectra", figures.spectra,
               alt="The eigenvalues of five kernel tables on the throws, each divided by its "
                   "largest: the linear, polynomial and RBF tables stay at or above zero, the "
                   "polynomial with a negative constant and the sigmoid dip below it."),
        Figure("sigmoid-map", figures.sigmoid_map,
               alt="Two colour maps over the sigmoid's gamma and constant, for the throws and "
                   "the three clusters, showing how negative the smallest eigenvalue is "
                   "relative to the largest; no cell is free of a negative eigenvalue."),
    ],
)
