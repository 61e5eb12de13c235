"""The pre-image page's figures."""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FormatStrFormatter, NullFormatter

from kreport.report import COLOURS, new_figure

from .common import circle, error, fixed_point, learned, pca
from .settings import DIRECTIONS, KEPT


def _circle(axes) -> None:
    angles = np.linspace(0.0, 2.0 * np.pi, 241)
    axes.plot(np.cos(angles), np.sin(angles), color="black", linewidth=0.8,
              label="the circle the clean points lie on")


def denoised():
    """The noisy rows and three ways back: PCA with one direction, the fixed point, the map."""
    noisy, clean = circle()
    figure, panels = new_figure(columns=2, rows=2, width=7.5, height=7.4)
    shown = [
        (noisy, "the noisy rows", COLOURS["pca"]),
        (pca(1), "ordinary PCA, one direction", COLOURS["pca"]),
        (fixed_point(KEPT)[0].preimages, f"fixed point, {KEPT} directions", COLOURS["kernel"]),
        (learned(KEPT), f"learned map, {KEPT} directions", COLOURS["second"]),
    ]
    for axes, (rows, title, colour) in zip(panels.flat, shown, strict=True):
        _circle(axes)
        for start, end in zip(clean, rows, strict=True):
            axes.plot(*np.c_[start, end], color=COLOURS["accent"], linewidth=0.6, alpha=0.7)
        axes.scatter(rows[:, 0], rows[:, 1], s=14, color=colour, zorder=3)
        axes.set_title(title)
        axes.set_aspect("equal")
        axes.set_xlim(-1.6, 1.6)
        axes.set_ylim(-1.6, 1.6)
        axes.set_xlabel("first feature, x₁")
        axes.set_ylabel("second feature, x₂")
    return figure


def errors():
    """Error to the clean points against the number of kept directions."""
    noisy, _ = circle()
    figure, axes = new_figure(width=7.5, height=4.0)
    kept = np.array(DIRECTIONS)
    axes.plot(kept, [error(fixed_point(k)[0].preimages) for k in DIRECTIONS], marker="o",
              color=COLOURS["kernel"], label="kernel PCA, fixed point")
    axes.plot(kept, [error(learned(k)) for k in DIRECTIONS], marker="s",
              color=COLOURS["second"], label="kernel PCA, learned map")
    axes.plot([1, 2], [error(pca(1)), error(pca(2))], marker="D", linestyle="none",
              color=COLOURS["pca"], label="ordinary PCA")
    axes.axhline(error(noisy), color=COLOURS["accent"], linestyle="--",
                 label="the noisy rows themselves")
    axes.set_yscale("log")
    axes.set_yticks([0.03, 0.05, 0.1, 0.2, 0.5])
    axes.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    axes.yaxis.set_minor_formatter(NullFormatter())
    axes.set_xticks(kept)
    axes.set_xlabel("directions kept (ℓ)")
    axes.set_ylabel("mean squared error")
    axes.legend(loc="upper right")
    return figure
