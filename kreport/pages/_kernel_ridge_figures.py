"""The figures of the kernel-ridge page, drawn from the same cached fits as its facts."""

from __future__ import annotations

import matplotlib.ticker
import numpy as np

from kreport import kernels
from kreport.pages import _kernel_ridge_timing as timing
from kreport.pages._kernel_ridge_fits import (
    LINEAR,
    RBF_ONE,
    SQUARED,
    dataset,
    gram,
    kernel_fit,
    sample_grid,
)
from kreport.report import COLOURS, HEATMAP, SEQUENCE, new_figure

TIME_LABEL = "time after release (s)"
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _penalty_label(penalty: float) -> str:
    """1e-09 as 10⁻⁹, 1000 as 10³: the way the page prints penalties."""
    exponent = round(np.log10(penalty))
    if penalty == 10.0**exponent and abs(exponent) > 1:
        return "10" + str(exponent).translate(SUPERSCRIPT)
    return f"{penalty:g}"


def _powers_of_two_axis(axis, values) -> None:
    """Log axis ticked at the measured sizes only, written out in full."""
    axis.set_ticks(values, [str(v) for v in values])
    axis.set_minor_locator(matplotlib.ticker.NullLocator())
HEIGHT_LABEL = "height of the ball (m)"


def _throws(axes, label: str = "the fifteen throws") -> None:
    throws = dataset("throws")
    axes.scatter(throws.rows[:, 0], throws.target, s=22, color="black", zorder=3, label=label)
    axes.set_xlabel(TIME_LABEL)
    axes.set_ylabel(HEIGHT_LABEL)


def tables():
    figure, panels = new_figure(columns=3, width=10.5, height=4.0)
    titles = (("linear", LINEAR), ("squared polynomial", SQUARED), ("RBF, γ = 1", RBF_ONE))
    for index, (axes, (title, kernel)) in enumerate(zip(panels, titles, strict=True)):
        table = gram("throws", kernel)
        image = axes.imshow(table, cmap=HEATMAP, interpolation="nearest")
        axes.set_title(title)
        axes.set_xlabel("throw j")
        if index == 0:  # one label serves the row; the panels share their axes' meaning
            axes.set_ylabel("throw i (time order)")
        ticks = [0, 7, 14]
        axes.set_xticks(ticks, [str(t + 1) for t in ticks])
        axes.set_yticks(ticks, [str(t + 1) for t in ticks])
        figure.colorbar(image, ax=axes, shrink=0.75)
    return figure


def degrees():
    figure, axes = new_figure(width=7.5, height=4.2)
    grid = sample_grid("throws", 241)
    for degree, colour in zip(range(1, 7), SEQUENCE, strict=False):
        kernel = LINEAR if degree == 1 else kernels.polynomial(degree)
        curve = kernel_fit("throws", kernel, 1.0).predict(grid)
        style = {"color": COLOURS["pca"], "linestyle": "--"} if degree == 1 else {"color": colour}
        label = "degree 1 (the linear fit)" if degree == 1 else f"degree {degree}"
        axes.plot(grid[:, 0], curve, linewidth=1.8, label=label, **style)
    _throws(axes)
    axes.set_title("Polynomial kernels on the throws (penalty 1)")
    axes.legend(ncols=2, loc="lower center")
    return figure


def gammas():
    figure, axes = new_figure(width=7.5, height=4.2)
    grid = sample_grid("throws", 801)
    for gamma, colour in zip((0.01, 0.3, 3.0, 100.0), SEQUENCE, strict=False):
        curve = kernel_fit("throws", kernels.rbf(gamma), 1.0).predict(grid)
        axes.plot(grid[:, 0], curve, color=colour, linewidth=1.8, label=f"γ = {gamma:g} s⁻²")
    _throws(axes)
    axes.set_title("RBF kernel on the throws at four reaches (penalty 1)")
    axes.legend(loc="lower center", ncols=2)
    return figure


def penalties(sweep: list[dict]):
    figure, (curves, numbers) = new_figure(columns=2, width=11.0, height=4.8)
    grid = sample_grid("throws", 801)
    for penalty, colour in zip((1e-9, 1e-3, 1.0, 1e3), SEQUENCE, strict=False):
        curve = kernel_fit("throws", RBF_ONE, penalty).predict(grid)
        curves.plot(grid[:, 0], curve, color=colour, linewidth=1.6,
                    label=f"penalty {_penalty_label(penalty)}")
    _throws(curves)
    curves.set_title("RBF (γ = 1) fits at four penalties")
    curves.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=3, fontsize="small",
                  columnspacing=0.8)
    penalty_values = [row["penalty"] for row in sweep]
    numbers.loglog(penalty_values, [row["condition"] for row in sweep], "o-",
                   color=COLOURS["kernel"], label="condition number of K + λI")
    numbers.loglog(penalty_values, [row["largest_weight"] for row in sweep], "s--",
                   color=COLOURS["accent"], label="largest |dual weight| (m)")
    numbers.set_xlabel("penalty λ")
    numbers.set_ylabel("value (log scale)")
    numbers.set_title("Conditioning across the sweep")
    numbers.legend(loc="upper right")
    return figure


def timings():
    study = timing.load()
    figure, (by_rows, by_features) = new_figure(columns=2, width=11.0, height=4.2)
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
    by_rows.set_xlabel(f"training rows (at {study['row_features']} features)")
    by_rows.set_ylabel("fit time (ms)")
    by_rows.set_title("Rows doubling")
    by_rows.legend(loc="upper left")
    features = [entry["features"] for entry in study["by_features"]]
    by_features.loglog(features, [e["kernel_fit"] for e in study["by_features"]], "o-",
                       color=COLOURS["kernel"], label="kernel ridge")
    by_features.loglog(features, [e["ridge_fit"] for e in study["by_features"]], "o-",
                       color=COLOURS["pca"], label="ridge")
    _powers_of_two_axis(by_features.xaxis, features)
    by_features.set_xlabel(f"features (at {study['feature_rows']} rows)")
    by_features.set_ylabel("fit time (ms)")
    by_features.set_title("Features doubling")
    by_features.legend(loc="upper left")
    return figure
