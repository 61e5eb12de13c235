"""The figures of the kernel-ridge page, drawn from the same cached fits as its facts.

Every figure is at most the column's width (7.5 in), so its lettering is drawn
at the house sizes (10 pt and up) and shown at that size.
"""

from __future__ import annotations

import matplotlib.ticker
import numpy as np

from kreport import kernels
from kreport.report import COLOURS, HEATMAP, SEQUENCE, new_figure

from . import timing
from .fits import LINEAR, RBF_WORKED, SQUARED, curve, dataset, gram, sample_grid
from .penalty import sweep_rows
from .settings import CURVE_PENALTIES, DEGREES, FIGURE_GAMMAS, PENALTY

TIME_LABEL = "time after release (s)"
HEIGHT_LABEL = "height of the ball (m)"
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def penalty_label(penalty: float) -> str:
    """1e-09 as 10⁻⁹, 1000 as 10³, 1 as 1: the way the page prints penalties."""
    exponent = round(np.log10(penalty))
    if penalty == 10.0**exponent and abs(exponent) > 1:
        return "10" + str(exponent).translate(SUPERSCRIPT)
    return f"{penalty:g}"


def _powers_of_two_axis(axis, values) -> None:
    """Log axis ticked at the measured sizes only, written out in full."""
    axis.set_ticks(values, [str(v) for v in values])
    axis.set_minor_locator(matplotlib.ticker.NullLocator())


def _throws(axes, label: str = "the throws") -> None:
    throws = dataset("throws")
    axes.scatter(throws.rows[:, 0], throws.target, s=22, color="black", zorder=3, label=label)
    axes.set_xlabel(TIME_LABEL)
    axes.set_ylabel(HEIGHT_LABEL)


def tables():
    figure, panels = new_figure(columns=3, width=7.5, height=3.5)
    titles = (("linear", LINEAR), ("squared polynomial", SQUARED), ("RBF, γ = 1 s⁻²", RBF_WORKED))
    count = len(dataset("throws").target)
    ticks = [0, count // 2, count - 1]
    for index, (axes, (title, kernel)) in enumerate(zip(panels, titles, strict=True)):
        image = axes.imshow(gram("throws", kernel), cmap=HEATMAP, interpolation="nearest")
        axes.set_title(title)
        axes.set_xlabel("throw j")
        if index == 0:  # one label serves the row; the panels share their axes' meaning
            axes.set_ylabel("throw i (time order)")
        axes.set_xticks(ticks, [str(t + 1) for t in ticks])
        axes.set_yticks(ticks, [str(t + 1) for t in ticks])
        figure.colorbar(image, ax=axes, shrink=0.8, location="bottom", pad=0.02)
    return figure


def degrees():
    figure, axes = new_figure(width=7.5, height=5.0)
    grid = sample_grid("throws")[:, 0]
    for degree, colour in zip(DEGREES, SEQUENCE, strict=False):
        kernel = LINEAR if degree == 1 else kernels.polynomial(degree)
        style = {"color": COLOURS["pca"], "linestyle": "--"} if degree == 1 else {"color": colour}
        label = "degree 1 (the linear fit)" if degree == 1 else f"degree {degree}"
        axes.plot(grid, curve("throws", kernel, PENALTY), linewidth=1.8, label=label, **style)
    _throws(axes)
    axes.set_title(f"Polynomial kernels on the throws (penalty {penalty_label(PENALTY)})")
    # Below the axes, so that no curve is hidden behind it.
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=3)
    return figure


def gammas():
    figure, axes = new_figure(width=7.5, height=5.0)
    grid = sample_grid("throws")[:, 0]
    for gamma, colour in zip(FIGURE_GAMMAS, SEQUENCE, strict=False):
        axes.plot(grid, curve("throws", kernels.rbf(gamma), PENALTY), color=colour,
                  linewidth=1.8, label=f"γ = {gamma:g} s⁻²")
    _throws(axes)
    axes.set_title(f"RBF kernel on the throws at four reaches (penalty {penalty_label(PENALTY)})")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=3)
    return figure


def penalties():
    """The curves at five penalties above; training and held-out error below."""
    figure, (curves, errors) = new_figure(rows=2, width=7.5, height=8.0)
    grid = sample_grid("throws")[:, 0]
    for penalty, colour in zip(CURVE_PENALTIES, SEQUENCE, strict=False):
        curves.plot(grid, curve("throws", RBF_WORKED, penalty), color=colour, linewidth=1.6,
                    label=f"penalty {penalty_label(penalty)}")
    _throws(curves)
    curves.set_title("RBF (γ = 1 s⁻²) fits at five penalties")
    # Below the axes, so that no curve is hidden behind it.
    curves.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncols=3)
    sweep = sweep_rows()
    penalty_values = [row["penalty"] for row in sweep]
    errors.loglog(penalty_values, [row["training_mse"] for row in sweep], "s--",
                  color=COLOURS["pca"], label="mean over the training throws")
    errors.loglog(penalty_values, [row["loo_mse"] for row in sweep], "o-",
                  color=COLOURS["kernel"], label="mean over each throw left out")
    best = min(sweep, key=lambda row: row["loo_mse"])
    errors.scatter([best["penalty"]], [best["loo_mse"]], s=140, facecolors="none",
                   edgecolors=COLOURS["accent"], linewidths=2.0, zorder=4,
                   label="lowest held-out error")
    errors.set_xlabel("penalty α")
    errors.set_ylabel("squared error (m²)")
    errors.set_title("Training error only falls; held-out error does not")
    errors.legend(loc="lower right")
    return figure


def conditioning():
    """Condition number and largest dual weight across the penalty sweep."""
    figure, axes = new_figure(width=7.5, height=4.0)
    sweep = sweep_rows()
    penalty_values = [row["penalty"] for row in sweep]
    axes.loglog(penalty_values, [row["condition"] for row in sweep], "o-",
                color=COLOURS["kernel"], label="condition number κ of K̃ + αI")
    axes.loglog(penalty_values, [row["largest_weight"] for row in sweep], "s--",
                color=COLOURS["accent"], label="largest |dual weight| (m)")
    axes.set_xlabel("penalty α")
    axes.set_ylabel("value (log scale)")
    axes.set_title("Conditioning across the penalty sweep (RBF, γ = 1 s⁻²)")
    axes.legend(loc="upper right")
    return figure


def timings():
    study = timing.load()
    figure, (by_rows, by_features) = new_figure(columns=2, width=7.5, height=4.0)
    rows = np.array([entry["rows"] for entry in study["by_rows"]], dtype=float)
    fitted_from = rows >= study["exponent_from_rows"]
    for key, colour, name, exponent in (
            ("kernel_fit", COLOURS["kernel"], "kernel ridge", study["kernel_exponent"]),
            ("ridge_fit", COLOURS["pca"], "ridge", study["ridge_exponent"])):
        times = np.array([entry[key] for entry in study["by_rows"]])
        by_rows.loglog(rows, times, "o", color=colour, label=f"{name} (slope {exponent:.2f})")
        slope, intercept = np.polyfit(np.log(rows[fitted_from]), np.log(times[fitted_from]), 1)
        line = rows[fitted_from]
        by_rows.loglog(line, np.exp(intercept) * line**slope, "-", color=colour, linewidth=1.2)
    _powers_of_two_axis(by_rows.xaxis, [int(r) for r in rows])
    by_rows.set_xlabel(f"training rows ({study['row_features']} features)")
    by_rows.set_ylabel("fit time (ms)")
    by_rows.set_title("Rows doubling")
    by_rows.legend(loc="upper left")
    features = [entry["features"] for entry in study["by_features"]]
    by_features.loglog(features, [e["kernel_fit"] for e in study["by_features"]], "o-",
                       color=COLOURS["kernel"], label="kernel ridge")
    by_features.loglog(features, [e["ridge_fit"] for e in study["by_features"]], "o-",
                       color=COLOURS["pca"], label="ridge")
    _powers_of_two_axis(by_features.xaxis, features)
    by_features.set_xlabel(f"features ({study['feature_rows']} rows)")
    by_features.set_ylabel("fit time (ms)")
    by_features.set_title("Features doubling")
    by_features.legend(loc="center right")
    return figure
