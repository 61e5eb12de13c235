"""The ridge page's figures."""

from __future__ import annotations

import numpy as np

from kreport import Ridge
from kreport.report import COLOURS, SEQUENCE, new_figure

from . import fits
from .intercept import COMPARED, crowd, penalised_centred, penalised_raw


def held_out():
    """Training and leave-one-out root-mean-square error across the penalty grid."""
    sweep = fits.sweep()
    quadratic = fits.sweep(fits.QUADRATIC)
    best = fits.best_index()
    figure, axes = new_figure(width=7.5, height=3.6)
    axes.plot(fits.PENALTIES, sweep["train_rmse"], color=COLOURS["pca"], linewidth=2,
              marker="o", markersize=4, label=f"training, degree {fits.DEGREE}")
    axes.plot(fits.PENALTIES, sweep["loo_rmse"], color=COLOURS["kernel"], linewidth=2,
              marker="o", markersize=4, label=f"held out, degree {fits.DEGREE}")
    axes.axhline(quadratic["loo_rmse"][0], color=COLOURS["accent"], linestyle="--",
                 linewidth=1.5, label=f"held out, degree {fits.QUADRATIC}")
    axes.axvline(fits.PENALTIES[best], color="black", linestyle=":", linewidth=1)
    axes.set_xscale("log")
    axes.set_xticks([1e-6, 1e-4, 1e-2, 1, 100])
    axes.set_xticks([], minor=True)
    axes.set_yscale("log")
    ticks = [0.3, 0.5, 1.0, 2.0, 5.0]
    axes.set_yticks(ticks, [f"{tick:g}" for tick in ticks])
    axes.set_yticks([], minor=True)
    axes.set_xlabel("penalty α")
    axes.set_ylabel("RMS error (m)")
    figure.legend(loc="outside lower center", ncol=2)
    return figure


def curves():
    """Left: the degree-6 fits at the smallest, best and largest penalties. Right: the
    fits made without the last throw, which is then predicted: the held-out question."""
    t, y = fits.throws()
    X = fits.features()
    best = fits.best_index()
    chosen = [(0, "smallest penalty"), (best, "best held-out penalty"),
              (len(fits.PENALTIES) - 1, "largest penalty")]
    grid = np.linspace(t.min(), t.max(), 161)
    figure, (left, right) = new_figure(columns=2, width=7.5, height=3.8, sharey=True)
    keep = np.arange(len(y)) != len(y) - 1
    for axes in (left, right):
        axes.scatter(t[keep], y[keep], s=30, color="black", zorder=4)
        axes.set_xlabel("time (s)")
    left.scatter(t[~keep], y[~keep], s=30, color="black", zorder=4)
    right.scatter(t[~keep], y[~keep], s=60, marker="X", color=COLOURS["accent"], zorder=5,
                  label="left-out throw")
    for (index, label), colour in zip(chosen, SEQUENCE, strict=False):
        penalty = float(fits.PENALTIES[index])
        whole = Ridge(penalty).fit(X, y)
        left.plot(grid, whole.predict(fits.powers(grid, fits.DEGREE)), color=colour,
                  linewidth=2, label=label)
        if index == len(fits.PENALTIES) - 1:
            continue
        without = Ridge(penalty).fit(X[keep], y[keep])
        right.plot(grid, without.predict(fits.powers(grid, fits.DEGREE)), color=colour,
                   linewidth=2)
    left.set_ylabel("height (m)")
    left.set_title("fitted to every throw")
    right.set_title("fitted without the last throw")
    handles, labels = left.get_legend_handles_labels()
    extra_handles, extra_labels = right.get_legend_handles_labels()
    figure.legend(handles + extra_handles, labels + extra_labels, loc="outside lower center",
                  ncol=2)
    return figure


def intercept():
    """The crowd's lines at the site's penalty, and the prediction at the mean height
    as the penalty grows, with and without the intercept in the penalty."""
    X, y = crowd()
    mean_height = float(X[:, 0].mean())
    penalty = COMPARED[0]
    grid = np.linspace(X[:, 0].min() - 3, X[:, 0].max() + 3, 2)
    figure, (left, right) = new_figure(columns=2, width=7.5, height=3.6)
    left.scatter(X[:, 0], y, s=30, color="black", zorder=4, label="crowd")
    model = Ridge(penalty).fit(X, y)
    raw = penalised_raw(X, y, penalty)
    centred = penalised_centred(X, y, penalty)
    left.plot(grid, model.predict(grid[:, None]), color=COLOURS["kernel"], linewidth=2,
              label="intercept not penalised")
    left.plot(grid, raw[0] + raw[1] * grid, color=COLOURS["accent"], linewidth=2,
              label="penalised, raw rows")
    left.plot(grid, centred[0] + centred[1] * (grid - mean_height), color=COLOURS["second"],
              linewidth=2, linestyle="--", label="penalised, centred rows")
    left.set_xlabel("height (cm)")
    left.set_ylabel("weight (kg)")
    left.set_title("at the site's penalty")
    penalties = 10.0 ** np.linspace(0, 6, 25)
    right_line = [float(Ridge(a).fit(X, y).predict(np.array([[mean_height]]))[0])
                  for a in penalties]
    raw_line = [float(w[0] + w[1] * mean_height)
                for w in (penalised_raw(X, y, a) for a in penalties)]
    centred_line = [float(penalised_centred(X, y, a)[0]) for a in penalties]
    right.plot(penalties, right_line, color=COLOURS["kernel"], linewidth=2)
    right.plot(penalties, raw_line, color=COLOURS["accent"], linewidth=2)
    right.plot(penalties, centred_line, color=COLOURS["second"], linewidth=2, linestyle="--")
    right.set_xscale("log")
    right.set_xticks([1, 100, 1e4, 1e6])
    right.set_xticks([], minor=True)
    right.set_ylim(0, None)
    right.set_xlabel("penalty α")
    right.set_ylabel("prediction at mean height (kg)")
    right.set_title("as the penalty grows")
    figure.legend(*left.get_legend_handles_labels(), loc="outside lower center", ncol=2)
    return figure
