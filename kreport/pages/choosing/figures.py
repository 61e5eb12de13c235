"""The choosing page's figures."""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge, kernels, kfold_indices
from kreport.pages._settings import PENALTY, THROWS_GAMMA
from kreport.report import COLOURS, new_figure

from .common import GAMMAS, interleaved, median_gamma, problem, search
from .scores import _index
from .settings import FOLDS, PENALTIES, THROWS_GAMMAS

TRAINING = {"color": COLOURS["pca"], "marker": "o", "label": "training R²"}
HELD_OUT = {"color": COLOURS["kernel"], "marker": "s", "label": "leave-one-out R²"}


def scores():
    """Training and leave-one-out R² on the throws, across gamma and across the penalty."""
    r2 = search("throws", "r2")
    figure, (left, right) = new_figure(columns=2, width=7.5, height=3.6, sharey=True)
    column = _index(PENALTIES, PENALTY)
    left.plot(THROWS_GAMMAS, r2.training_r2[:, column], **TRAINING)
    left.plot(THROWS_GAMMAS, r2.held_out[:, column], **HELD_OUT)
    left.set_xscale("log")
    left.set_xlabel(f"γ (1/s²), penalty α = {PENALTY:g}")
    left.set_ylabel("R² on the throws")
    row = _index(THROWS_GAMMAS, THROWS_GAMMA)
    right.plot(PENALTIES, r2.training_r2[row], **TRAINING)
    right.plot(PENALTIES, r2.held_out[row], **HELD_OUT)
    right.set_xscale("log")
    right.set_xlabel(f"penalty α, γ = {THROWS_GAMMA:g}/s²")
    for axes in (left, right):
        axes.axhline(0.0, color="black", linewidth=0.8)
        axes.set_ylim(-0.3, 1.05)
    left.legend(loc="lower center")
    return figure


def folds():
    """Fits that hold out a fold of throws: the last three in time, or every fifth throw."""
    rows, target = problem("throws")
    n = len(target)
    kernel = kernels.rbf(THROWS_GAMMA)
    grid = np.linspace(rows[:, 0].min(), rows[:, 0].max(), 161)[:, None]
    figure, panels = new_figure(columns=2, width=7.5, height=3.6, sharey=True)
    held = {"contiguous": kfold_indices(n, FOLDS)[-1].test,
            "interleaved": interleaved(n, FOLDS)[-(n // FOLDS):]}
    titles = {"contiguous": "contiguous fold (the last in time)",
              "interleaved": f"interleaved fold (one in every {FOLDS})"}
    for axes, (name, test) in zip(panels, held.items(), strict=True):
        keep = np.setdiff1d(np.arange(n), test)
        model = KernelRidge(kernel, PENALTY).fit(rows[keep], target[keep])
        axes.plot(grid[:, 0], model.predict(grid), color=COLOURS["kernel"],
                  label="fit without the fold")
        axes.scatter(rows[keep, 0], target[keep], color=COLOURS["pca"], s=22,
                     label="throws fitted on", zorder=3)
        axes.scatter(rows[test, 0], target[test], color=COLOURS["accent"], marker="D", s=30,
                     label="throws held out", zorder=4)
        axes.axhline(float(target[keep].mean()), color=COLOURS["pca"], linestyle=":",
                     linewidth=1.0, label="mean of the fitted throws")
        axes.set_title(titles[name])
        axes.set_xlabel("time (s)")
    panels[0].set_ylabel("height (m)")
    handles, labels = panels[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=2)
    return figure


def surface():
    """Leave-one-out error over gamma and the penalty, throws and crowd."""
    figure, panels = new_figure(columns=2, width=7.5, height=3.8)
    names = {"throws": ("the throws", "γ (1/s²)", "m²"), "crowd": ("the crowd", "γ (1/cm²)",
                                                                   "kg²")}
    for axes, fixture in zip(panels, ("throws", "crowd"), strict=True):
        grid = search(fixture)
        gammas = np.log10(GAMMAS[fixture])
        penalties = np.log10(PENALTIES)
        half_g, half_p = (gammas[1] - gammas[0]) / 2, (penalties[1] - penalties[0]) / 2
        image = axes.imshow(np.log10(grid.held_out), origin="lower", aspect="auto",
                            extent=[penalties[0] - half_p, penalties[-1] + half_p,
                                    gammas[0] - half_g, gammas[-1] + half_g])
        best = grid.best_held_out
        axes.plot([np.log10(best.penalty)], [np.log10(best.gamma)], marker="*", markersize=14,
                  color="white", markeredgecolor="black", linestyle="none",
                  label="held-out choice")
        axes.axhline(np.log10(median_gamma(fixture).gamma), color=COLOURS["accent"],
                     linestyle="--", linewidth=1.5, label="median rule")
        title, ylabel, unit = names[fixture]
        axes.set_title(title)
        axes.set_xlabel("log₁₀ penalty α")
        axes.set_ylabel("log₁₀ " + ylabel)
        bar = figure.colorbar(image, ax=axes, shrink=0.9)
        bar.set_label(f"log₁₀ leave-one-out MSE ({unit})")
    # Below the panels, not over the image: in the dark scheme the legend's text
    # turns light, and the surface's bright corner would swallow it.
    handles, labels = panels[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=2)
    return figure
