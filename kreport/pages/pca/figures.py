"""The PCA page's figures: each draws exactly what its section measured."""

from __future__ import annotations

import numpy as np

from kreport import PCA
from kreport.report import COLOURS, new_figure

from . import fits
from .units import CM_TO_M, standardise


def rebuilt():
    """The arc, its first direction, each person rebuilt on it and the residual lost."""
    X = fits.rows("arc")
    one = fits.pca("arc", 1)
    rebuilt_rows = one.inverse_transform(one.scores_)
    mean, v = one.mean_, one.components_[0]
    figure, axes = new_figure(width=7.5, height=3.9)
    reach = np.array([-48.0, 48.0])
    axes.plot(mean[0] + reach * v[0], mean[1] + reach * v[1], color=COLOURS["pca"],
              linewidth=1.5, label="first direction")
    for row, back in zip(X, rebuilt_rows, strict=True):
        axes.plot([row[0], back[0]], [row[1], back[1]], color=COLOURS["accent"],
                  linewidth=1.2)
    axes.plot([], [], color=COLOURS["accent"], linewidth=1.2, label="residual (lost)")
    axes.scatter(X[:, 0], X[:, 1], s=40, color=COLOURS["kernel"], zorder=3,
                 label="person as measured")
    axes.scatter(rebuilt_rows[:, 0], rebuilt_rows[:, 1], s=40, facecolor="white",
                 edgecolor=COLOURS["pca"], linewidth=1.5, zorder=3,
                 label="rebuilt")
    axes.scatter(*mean, marker="+", s=90, color="black", zorder=4, label="mean row")
    axes.set_xlabel("height (cm)")
    axes.set_ylabel("weight (kg)")
    axes.set_aspect("equal", adjustable="datalim")
    figure.legend(loc="outside lower center", ncol=3 if figure.get_figwidth() > 5 else 2)
    return figure


def units():
    """The arc's first direction with heights in cm, in m, and standardised."""
    cm = fits.rows("arc")
    metres = cm * np.array([CM_TO_M, 1.0])
    panels = [(cm, "height (cm)", "weight (kg)", "centimetres"),
              (metres, "height (m)", "weight (kg)", "metres"),
              (standardise(cm), "height (sd)", "weight (sd)", "standardised")]
    figure, axes = new_figure(columns=3, width=7.5, height=3.2)
    for ax, (rows, xlabel, ylabel, title) in zip(axes, panels, strict=True):
        fit = PCA().fit(rows)
        mean, v = fit.mean_, fit.components_[0]
        spread = np.sqrt(fit.variances_[0])
        reach = np.array([-2.2, 2.2]) * spread
        ax.scatter(rows[:, 0], rows[:, 1], s=22, color=COLOURS["kernel"], zorder=3)
        ax.plot(mean[0] + reach * v[0], mean[1] + reach * v[1], color=COLOURS["accent"],
                linewidth=2)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
    axes[0].plot([], [], color=COLOURS["accent"], linewidth=2, label="first direction")
    figure.legend(loc="outside lower center")
    return figure


def usefulness():
    """The ring's inner and outer groups along PCA's two directions and the kernel's first."""
    inner = fits.ring_inner()
    fit = fits.pca("ring")
    kernel = fits.ring_kernel()
    strips = [(fit.scores_[:, 0], "PCA first direction (cm and kg)"),
              (fit.scores_[:, 1], "PCA second direction (cm and kg)"),
              (kernel.scores_[:, 0], "RBF kernel first direction (no unit)")]
    figure, axes = new_figure(rows=3, width=7.5, height=4.2)
    for ax, (scores, label) in zip(axes, strips, strict=True):
        ax.scatter(scores[~inner], np.zeros((~inner).sum()), s=30, color=COLOURS["outer"],
                   zorder=3)
        ax.scatter(scores[inner], np.ones(inner.sum()), s=30, marker="D",
                   color=COLOURS["inner"], zorder=3)
        ax.set_yticks([0, 1], ["outer", "inner"])
        ax.set_ylim(-0.6, 1.6)
        ax.set_xlabel(label)
    return figure
