"""The Mercer page's figures."""

from __future__ import annotations

import numpy as np

from kreport.report import COLOURS, SEQUENCE, new_figure

from .common import sigmoid_grid, spectrum
from .probes import WORKED
from .settings import SIGMOID_COEF0S, SIGMOID_FIXTURES, SIGMOID_GAMMAS


def _label(kernel) -> str:
    """A legend entry naming the kernel and its settings."""
    params = {key: value for key, value in kernel.params.items() if key != "name"}
    names = {"degree": "d", "gamma": "γ", "coef0": "c₀"}
    settings = ", ".join(f"{names[key]} = {value:g}".replace("-", "\u2212")
                         for key, value in params.items())
    title = "RBF" if kernel.name == "rbf" else kernel.name
    return f"{title}, {settings}" if settings else title

MARKERS = ("o", "s", "D", "^", "v")
TITLES = {"throws": "the fifteen throws", "three_clusters": "the three clusters"}


def spectra():
    """Each table's eigenvalues over its largest in size, largest first."""
    figure, axes = new_figure(width=7.5, height=4.0)
    colours = [COLOURS["pca"], SEQUENCE[4], COLOURS["kernel"], SEQUENCE[2], COLOURS["accent"]]
    for (_, kernel), colour, marker in zip(WORKED, colours, MARKERS, strict=True):
        values = spectrum("throws", kernel)
        scaled = values / np.abs(values).max()
        axes.plot(np.arange(1, len(values) + 1), scaled, marker=marker, color=colour,
                  label=_label(kernel), linewidth=1.2, markersize=5)
    axes.axhline(0.0, color="black", linewidth=0.8)
    axes.set_xlabel("eigenvalue, largest first (m)")
    axes.set_ylabel("eigenvalue / largest in size")
    axes.set_xticks(np.arange(1, len(values) + 1, 2))
    axes.legend(loc="upper right")
    return figure


def sigmoid_map():
    """How negative the sigmoid's tables are over its two settings, on two fixtures."""
    figure, panels = new_figure(columns=2, width=7.5, height=3.6, sharey=True)
    gammas = np.log10(SIGMOID_GAMMAS)
    half_c, half_g = (SIGMOID_COEF0S[1] - SIGMOID_COEF0S[0]) / 2, (gammas[1] - gammas[0]) / 2
    extent = [SIGMOID_COEF0S[0] - half_c, SIGMOID_COEF0S[-1] + half_c,
              gammas[0] - half_g, gammas[-1] + half_g]
    grids = {f: -sigmoid_grid(f, SIGMOID_GAMMAS, SIGMOID_COEF0S) for f in SIGMOID_FIXTURES}
    low = np.floor(min(np.log10(g).min() for g in grids.values()))
    high = np.ceil(max(np.log10(g).max() for g in grids.values()))
    for axes, fixture in zip(panels, SIGMOID_FIXTURES, strict=True):
        image = axes.imshow(np.log10(grids[fixture]), origin="lower", aspect="auto",
                            extent=extent, vmin=low, vmax=high)
        axes.set_title(TITLES[fixture])
        axes.set_xlabel("constant c₀")
    panels[0].set_ylabel("log₁₀ γ")
    bar = figure.colorbar(image, ax=panels, shrink=0.9)
    bar.set_label("log₁₀ (−smallest / largest)")
    return figure
