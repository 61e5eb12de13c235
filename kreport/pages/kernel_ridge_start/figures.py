"""The entry page's figure: the throws, the line and the curve."""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge, kernels
from kreport.pages._settings import PENALTY
from kreport.report import COLOURS, new_figure

from . import start
from .settings import CURVE_POINTS


def throws():
    rows, target = start.throws()
    best = start.search().best_held_out
    grid = np.linspace(rows.min(), rows.max(), CURVE_POINTS)[:, None]
    line = KernelRidge(kernels.linear(), PENALTY).fit(rows, target).predict(grid)
    curve = KernelRidge(best.kernel, best.penalty).fit(rows, target).predict(grid)
    figure, axes = new_figure(width=6.5, height=3.6)
    axes.scatter(rows[:, 0], target, color="black", zorder=3, label="the throws")
    axes.plot(grid[:, 0], line, color=COLOURS["pca"], linewidth=2, linestyle="--",
              label="kernel ridge, linear kernel (a straight line)")
    axes.plot(grid[:, 0], curve, color=COLOURS["kernel"], linewidth=2,
              label="kernel ridge, RBF kernel (chosen by leave-one-out)")
    axes.set_xlabel("time (s)")
    axes.set_ylabel("height (m)")
    figure.legend(loc="outside lower center", ncol=1)
    return figure
