"""The figures of the at-scale page.

``wall`` and ``million`` draw the timing study and carry the names of the
machine-specific sections they illustrate, so the regression lock leaves them
out as it leaves out those sections' facts. The others draw the fits made in
the build from the same cached fits as the facts. Lines are labelled by one
legend per figure, so the narrow (phone) variant has little to rearrange.
"""

from __future__ import annotations

import matplotlib.ticker
import numpy as np

from kreport.report import COLOURS, new_figure

from . import compare as comparison
from . import cost, fits, measured
from .settings import BYTES_PER_NUMBER, COUNTS, DIRECTIONS, GAMMA, MEBIBYTE, ROUGH_GAMMA

RIDGE_COLOUR = COLOURS["kernel"]
PCA_COLOUR = COLOURS["accent"]
NYSTROEM_COLOUR = COLOURS["second"]
DASK_COLOUR = COLOURS["third"]
RANDOM_COLOUR = COLOURS["outer"]


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _power_of_ten(value, _position=None) -> str:
    """A tick label in plain text (no mathtext to parse): 10ᵏ for powers of ten beyond
    a hundredth or a hundred, the number itself otherwise."""
    exponent = round(np.log10(value))
    if abs(exponent) >= 2 and np.isclose(value, 10.0**exponent):
        return "10" + str(exponent).translate(SUPERSCRIPT)
    return f"{value:g}"


def _log_axis(axis, subs=(1.0,)) -> None:
    """Major ticks at powers of ten (times ``subs``), labelled in plain text; no minor ticks."""
    axis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=subs, numticks=8))
    axis.set_major_formatter(matplotlib.ticker.FuncFormatter(_power_of_ten))
    axis.set_minor_locator(matplotlib.ticker.NullLocator())


def _ticks(axis, values) -> None:
    """Log axis ticked at the given values only, written out in full."""
    axis.set_ticks(values, [f"{v:,}" for v in values])
    axis.set_minor_locator(matplotlib.ticker.NullLocator())


def _fitted_line(axes, sizes, values, start, colour, label=None) -> None:
    sizes, values = np.asarray(sizes, dtype=float), np.asarray(values, dtype=float)
    used = sizes >= start
    slope, intercept = np.polyfit(np.log(sizes[used]), np.log(values[used]), 1)
    axes.loglog(sizes[used], np.exp(intercept) * sizes[used] ** slope, "-", color=colour,
                linewidth=1.2, label=label)


def wall():
    found = cost.study()
    nystroem = measured.raw()["nystroem"]
    streamed = measured.raw()["dask"]["fits"]
    exact_rows = [row["rows"] for row in found["rows"]]
    large_rows = [entry["rows"] for entry in nystroem["by_rows"]]
    dask_rows = [fit["rows"] for fit in streamed]
    figure, (times, memory) = new_figure(columns=2, width=7.5, height=4.4)
    for key, colour, name in (("ridge_seconds", RIDGE_COLOUR, "exact kernel ridge"),
                              ("pca_seconds", PCA_COLOUR, "exact kernel PCA")):
        values = [row[key] for row in found["rows"]]
        times.loglog(exact_rows, values, "o", color=colour, label=name)
        _fitted_line(times, exact_rows, values, found["fit_from"], colour)
    seconds = [entry["seconds"] for entry in nystroem["by_rows"]]
    times.loglog(large_rows, seconds, "s", color=NYSTROEM_COLOUR,
                 label=f"Nyström kernel ridge, M = {nystroem['centres']:,}")
    _fitted_line(times, large_rows, seconds, large_rows[0], NYSTROEM_COLOUR)
    times.loglog(dask_rows, [fit["seconds"] for fit in streamed], "*", markersize=11,
                 color=DASK_COLOUR, label="the same on Dask")
    times.set_xlabel("training rows n")
    times.set_ylabel("fit time (s)")
    times.set_title("Time")
    figure.legend(loc="outside lower center", ncols=2)
    for key, colour in (("ridge_mib", RIDGE_COLOUR), ("pca_mib", PCA_COLOUR)):
        memory.loglog(exact_rows, [row[key] for row in found["rows"]], "o", color=colour)
    reach = np.geomspace(exact_rows[0], found["wall_rows"], 40)
    memory.loglog(reach, found["copies"] * BYTES_PER_NUMBER * reach**2 / MEBIBYTE,
                  "--", color="black", linewidth=1.0)
    memory.loglog(large_rows, [entry["added_mib"] for entry in nystroem["by_rows"]], "s",
                  color=NYSTROEM_COLOUR)
    memory.loglog(dask_rows, [fit["client_added_mib"] for fit in streamed], "*",
                  markersize=11, color=DASK_COLOUR)
    machine = found["memory_gib"] * 1024
    memory.axhline(machine, color=COLOURS["pca"], linewidth=1.0)
    memory.text(dask_rows[-1], machine * 0.8, "this machine's\nmemory", color=COLOURS["pca"],
                ha="right", va="top")
    memory.axvline(found["wall_rows"], color="black", linestyle=":", linewidth=1.0)
    memory.text(found["wall_rows"] * 1.15, 0.03, "wall", ha="left", va="bottom",
                transform=memory.get_xaxis_transform())
    memory.set_xlabel("training rows n")
    memory.set_ylabel("memory added by the fit (MiB)")
    memory.set_title("Memory")
    for axes in (times, memory):
        _log_axis(axes.xaxis)
        _log_axis(axes.yaxis)
    return figure


def accuracy():
    exact = fits.exact_pca()
    exact_variances = exact.variances_[:DIRECTIONS]
    shortfall, total = [], []
    for count in COUNTS:
        approximate = fits.nystroem_pca(count)
        variances = approximate.variances_[:DIRECTIONS]
        shortfall.append(np.max((exact_variances - variances) / exact_variances))
        total.append(1 - approximate.total_variance_ / exact.total_variance_)
    errors = [fits.held_out_error(fits.nystroem_ridge(count).predict(fits.rows()[2]))
              for count in COUNTS]
    _, _, Xq, yq = fits.rows()
    figure, (short, error) = new_figure(columns=2, width=7.5, height=3.6)
    short.loglog(COUNTS, shortfall, "o-", color=COLOURS["kernel"],
                 label=f"first {DIRECTIONS} variances (worst)")
    short.loglog(COUNTS, total, "s-", color=COLOURS["accent"], label="total variance")
    _ticks(short.xaxis, list(COUNTS))
    _log_axis(short.yaxis)
    short.set_xlabel("landmarks M")
    short.set_ylabel("shortfall against exact (fraction)")
    short.set_title("Kernel PCA")
    short.legend(loc="lower left")
    error.semilogx(COUNTS, errors, "o-", color=COLOURS["kernel"])
    error.axhline(fits.held_out_error(fits.exact_predictions()), color="black", linestyle="--",
                  linewidth=1.0)
    error.axhline(fits.rms(yq - np.sin(Xq[:, 0])), color=COLOURS["pca"], linestyle=":",
                  linewidth=1.2)
    error.text(COUNTS[0], fits.held_out_error(fits.exact_predictions()), "exact fit",
               ha="left", va="bottom")
    error.text(COUNTS[0], fits.rms(yq - np.sin(Xq[:, 0])), "noise floor", ha="left",
               va="bottom", color=COLOURS["pca"])
    _ticks(error.xaxis, list(COUNTS))
    error.set_xlabel("landmarks M")
    error.set_ylabel("held-out RMS error")
    error.set_title("Kernel ridge")
    return figure


def compare():
    figure, panels = new_figure(columns=2, width=7.5, height=3.6)
    for axes, gamma in zip(panels, (GAMMA, ROUGH_GAMMA), strict=True):
        found = comparison.errors_at(gamma)
        axes.fill_between(COUNTS, found["low"], found["high"], color=COLOURS["band"],
                          linewidth=0)
        axes.loglog(COUNTS, found["mean"], "s-", color=RANDOM_COLOUR, label="random features")
        axes.loglog(COUNTS, found["nystroem"], "o-", color=COLOURS["kernel"], label="Nyström")
        _ticks(axes.xaxis, list(COUNTS))
        _log_axis(axes.yaxis, subs=(1.0, 2.0, 5.0) if gamma == ROUGH_GAMMA else (1.0,))
        axes.set_xlabel("features M = D")
        axes.set_title(f"γ = {gamma:g}")
    panels[0].set_ylabel("relative error of the table")
    panels[0].legend(loc="lower left")
    return figure


def million():
    found = measured.raw()["nystroem"]
    figure, axes = new_figure(width=5.0, height=3.4)
    centres = [entry["centres"] for entry in found["by_centres"]]
    seconds = [entry["seconds"] for entry in found["by_centres"]]
    slope = measured.growth_exponent(centres, seconds)
    axes.loglog(centres, seconds, "o", color=NYSTROEM_COLOUR)
    _fitted_line(axes, centres, seconds, centres[0], NYSTROEM_COLOUR,
                 label=f"least squares, slope {slope:.2f}")
    _ticks(axes.xaxis, centres)
    _log_axis(axes.yaxis)
    axes.set_xlabel(f"centres M (n = {found['by_centres'][0]['rows']:,} rows)")
    axes.set_ylabel("fit time (s)")
    axes.legend(loc="upper left")
    return figure
