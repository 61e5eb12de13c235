"""The kernel trick and feature maps: what a kernel value stands for, and what it saves."""

from __future__ import annotations

from kreport.report import Figure, Page

from . import cost, exercises, figures, lift, polynomial, random_features, series

page = Page(
    slug="kernel-trick",
    title="The kernel trick and feature maps",
    template="kernel_trick.md.j2",
    summary="A kernel value is a dot product of lifted rows: the degree-two feature map written "
            "out, what the features cost against the table, and the RBF kernel's infinitely "
            "many features, truncated and drawn at random.",
    sections=[lift.ring_lifted, polynomial.explicit_map, cost.counting, series.rbf_series,
              random_features.random_fourier, exercises.exercises],
    figures=[
        Figure("lift", figures.lift,
               alt="Left: the ring centred on its mean, the inner group inside a circle and "
                   "the outer group outside it. Right: the same people plotted by their "
                   "squared deviations, where a straight line separates the two groups"),
        Figure("counts", figures.counts,
               alt="On logarithmic axes, the number of polynomial features per row, one curve "
                   "per degree, rising steeply with the number of input features and "
                   "crossing two flat lines that mark the length of a kernel table's row"),
        Figure("convergence", figures.convergence,
               alt="On logarithmic axes, the error of an approximate RBF table against the "
                   "number of features: random features fall steadily along the theory's "
                   "line; Taylor features of the centred ring stay high and then plunge; "
                   "Taylor features of the raw ring need far more features before they "
                   "plunge"),
    ],
)
