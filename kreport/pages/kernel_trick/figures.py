"""The kernel-trick page's figures."""

from __future__ import annotations

import numpy as np

from kreport.report import COLOURS, SEQUENCE, new_figure

from . import fits
from .cost import DEGREES, LARGE_N, features
from .lift import squared_features
from .random_features import COUNTS, errors
from .series import truncation_errors

#: Half the width of the lift figure's left frame (cm and kg): fixed, so the frame and
#: its ticks do not depend on the last bit of the data.
LIFT_LIMIT = 45.0
#: The same for the lifted panel (cm² and kg²).
LIFTED_LIMIT = 1500.0


def lift():
    """The centred ring in the plane, and in the two squared features."""
    inner = fits.ring_inner()
    centred = fits.centred("ring")
    lifted = squared_features(centred)
    total = lifted.sum(axis=1)
    threshold = (total[inner].max() + total[~inner].min()) / 2
    figure, (left, right) = new_figure(columns=2, width=7.5, height=3.8)
    angle = np.linspace(0, 2 * np.pi, 181)
    left.plot(np.sqrt(threshold) * np.cos(angle), np.sqrt(threshold) * np.sin(angle),
              color=COLOURS["accent"], linewidth=1.5, label="boundary")
    edge = np.array([0.0, threshold])
    right.plot(edge, threshold - edge, color=COLOURS["accent"], linewidth=1.5)
    for axes, points in ((left, centred), (right, lifted)):
        axes.scatter(points[~inner, 0], points[~inner, 1], s=30, color=COLOURS["outer"],
                     zorder=3, label="outer group")
        axes.scatter(points[inner, 0], points[inner, 1], s=30, marker="D",
                     color=COLOURS["inner"], zorder=3, label="inner group")
    left.set_xlabel("height − mean (cm)")
    left.set_ylabel("weight − mean (kg)")
    reach = LIFT_LIMIT
    if np.abs(centred).max() > 0.95 * reach:
        raise ValueError("the ring no longer fits the lift figure's fixed frame; widen it")
    left.set_xlim(-reach, reach)
    left.set_ylim(-reach, reach)
    left.set_xticks([-40, -20, 0, 20, 40])
    left.set_yticks([-40, -20, 0, 20, 40])
    left.set_aspect("equal", adjustable="box")
    if lifted.max() > 0.95 * LIFTED_LIMIT:
        raise ValueError("the lifted ring no longer fits the lift figure's fixed frame")
    right.set_xlim(0, LIFTED_LIMIT)
    right.set_ylim(0, LIFTED_LIMIT)
    right.set_xticks([0, 500, 1000])
    right.set_yticks([0, 500, 1000])
    right.set_aspect("equal", adjustable="box")
    left.set_title("measured: a circle")
    right.set_xlabel("(height − mean)² (cm²)")
    right.set_ylabel("(weight − mean)² (kg²)")
    right.set_title("lifted: a straight line")
    figure.legend(*left.get_legend_handles_labels(), loc="outside lower center",
                  ncol=3 if figure.get_figwidth() > 5 else 2)
    return figure


def counts():
    """Features per row of the degree-d polynomial map against the input dimension."""
    dimensions = np.unique(np.round(np.logspace(0, 3, 31)).astype(int))
    figure, axes = new_figure(width=7.5, height=3.6)
    for colour, d in zip(SEQUENCE, DEGREES, strict=False):
        axes.plot(dimensions, [features(int(p), d) for p in dimensions], color=colour,
                  linewidth=2, label=f"degree {d}")
    n = fits.rows("ring").shape[0]
    for value, style, label in ((n, ":", f"table row, n = {n} (the ring)"),
                                (LARGE_N, "--", f"table row, n = {LARGE_N:,}")):
        axes.axhline(value, color=COLOURS["pca"], linestyle=style, linewidth=1.5, label=label)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xticks([1, 10, 100, 1000], ["1", "10", "100", "1000"])
    axes.set_xticks([], minor=True)
    axes.set_ylim(1, 1e13)
    axes.set_yticks([1, 1e3, 1e6, 1e9, 1e12])
    axes.set_yticks([], minor=True)
    axes.set_xlabel("input features p")
    axes.set_ylabel("numbers per row")
    figure.legend(loc="outside lower center", ncol=2)
    return figure


def convergence():
    """RMS table error on the ring against the number of features: Taylor features of the
    centred and raw rows, and random Fourier features (mean over seeds, range of seeds)."""
    measured = errors()
    squared, constant = measured["squared"], measured["constant"]
    counts_ = np.array(COUNTS, dtype=float)
    seed_rms = np.sqrt(squared)
    figure, axes = new_figure(width=7.5, height=3.8)
    axes.fill_between(counts_, seed_rms.min(axis=1), seed_rms.max(axis=1),
                      color=COLOURS["band"], label="random features, range over seeds")
    axes.plot(counts_, np.sqrt(squared.mean(axis=1)), color=COLOURS["kernel"], marker="o",
              linewidth=2, label="random features, mean")
    axes.plot(counts_, np.sqrt(constant / counts_), color="black", linestyle="--",
              linewidth=1, label="theory, one over √D")
    p = fits.rows("ring").shape[1]
    for centre, colour, label in ((True, COLOURS["accent"], "Taylor, centred rows"),
                                  (False, COLOURS["second"], "Taylor, raw rows")):
        errors_ = truncation_errors(centre)
        keep = errors_ > 1e-9
        degrees = np.arange(len(errors_))[keep]
        axes.plot([features(p, int(d)) for d in degrees], errors_[keep], color=colour,
                  linewidth=2, label=label)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("features per row")
    axes.set_ylabel("RMS table error")
    axes.set_ylim(1e-9, 1)
    wide = figure.get_figwidth() > 5
    axes.set_yticks([1e-9, 1e-6, 1e-3, 1.0])
    axes.set_yticks([], minor=True)
    axes.set_xticks([1, 10, 100, 1e3, 1e4, 1e5])
    axes.set_xticks([], minor=True)
    figure.legend(loc="outside lower center", ncol=2 if wide else 1)
    return figure
