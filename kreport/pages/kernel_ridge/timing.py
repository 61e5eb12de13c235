"""The timing study: read, never measured, during the build.

``scripts/refresh_timings.py`` (``make timings``) measures on the machine it runs
on and writes ``timings/kernel-ridge.json`` beside this module; nothing else
writes it. Here the file is read, the times are turned into milliseconds, and
the growth exponent in the number of rows is fitted: the least-squares slope of
log time against log rows over the larger sizes. The section is the page's
``machine_specific`` one: left out of the stability check and the regression
lock, whose tests (tests/test_timings.py) lock the shape instead.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from kreport import KernelRidge, Ridge, kernels
from kreport.report import claim
from kreport.report.timings import read_timings

TIMINGS = Path(__file__).with_name("timings") / "kernel-ridge.json"
# Below a couple of hundred rows a fit takes tenths of a millisecond and the
# fixed cost of a call (checking the input, allocating) dominates; the exponent
# is fitted from here up.
EXPONENT_FROM_ROWS = 200


@cache
def raw() -> dict:
    return read_timings(TIMINGS)


def growth_exponent(sizes, seconds) -> float:
    """Least-squares slope of log(seconds) against log(size)."""
    slope, _ = np.polyfit(np.log(sizes), np.log(seconds), 1)
    return float(slope)


def exponents() -> dict:
    rows = [entry for entry in raw()["rows_study"] if entry["rows"] >= EXPONENT_FROM_ROWS]
    sizes = [entry["rows"] for entry in rows]
    return {model: growth_exponent(sizes, [entry["fit_seconds"][model] for entry in rows])
            for model in ("ridge", "kernel_ridge")}


def load() -> dict:
    """The study in milliseconds, with the fitted exponents."""
    study = raw()
    milliseconds = 1e3
    by_rows = [{"rows": e["rows"],
                "ridge_fit": e["fit_seconds"]["ridge"] * milliseconds,
                "kernel_fit": e["fit_seconds"]["kernel_ridge"] * milliseconds,
                "ridge_predict": e["predict_seconds"]["ridge"] * milliseconds,
                "kernel_predict": e["predict_seconds"]["kernel_ridge"] * milliseconds}
               for e in study["rows_study"]]
    by_features = [{"features": e["features"],
                    "ridge_fit": e["fit_seconds"]["ridge"] * milliseconds,
                    "kernel_fit": e["fit_seconds"]["kernel_ridge"] * milliseconds}
                   for e in study["features_study"]]
    slopes = exponents()
    return {
        "machine": {key: str(value) for key, value in study["machine"].items()},
        "repeats": study["repeats"], "query_rows": study["query_rows"],
        "row_features": study["rows_study"][0]["features"],
        "feature_rows": study["features_study"][0]["rows"],
        "ridge_model": study["models"]["ridge"], "kernel_model": study["models"]["kernel_ridge"],
        "by_rows": by_rows, "by_features": by_features,
        "exponent_from_rows": EXPONENT_FROM_ROWS,
        "kernel_exponent": slopes["kernel_ridge"], "ridge_exponent": slopes["ridge"],
    }


def stored_numbers() -> list[dict]:
    """How many numbers each fitted model keeps to answer a query, counted off real fits.

    Counted, not timed, so they are the same on every machine: the kernel model
    keeps its rows, one weight per row, the feature means and the target mean;
    ridge keeps one weight per feature and an intercept.
    """
    study = raw()
    features = study["rows_study"][0]["features"]
    generator = np.random.default_rng(0)
    counts = []
    for rows in (study["rows_study"][0]["rows"], study["rows_study"][-1]["rows"]):
        table = generator.standard_normal((rows, features))
        target = table[:, 0] + generator.standard_normal(rows)
        dual = KernelRidge(kernels.linear(), 1.0).fit(table, target)
        ridge = Ridge(1.0).fit(table, target)
        counts.append({
            "rows": rows,
            "kernel": dual.training_rows_.size + dual.dual_weights_.size
            + dual.feature_means_.size + 1,
            "ridge": ridge.coef_.size + 1,
        })
    return counts


def timings():
    """Ridge against kernel ridge as rows and features grow (measured elsewhere, read here)."""
    study = load()
    most, fewest = study["by_rows"][-1], study["by_rows"][0]
    claim("at the most rows the kernel fit is slower than ridge",
          most["kernel_fit"] > most["ridge_fit"], id="kernel_slower")
    claim("the kernel fit grows faster than the rows to the power {low}, and ridge's fit "
          "slower than the rows themselves",
          lambda low: study["kernel_exponent"] > low and study["ridge_exponent"] < 1,
          id="exponents", low=1.5)
    ridge_growth = most["ridge_fit"] / study["by_rows"][2]["ridge_fit"]
    study.update({
        "stored": stored_numbers(),
        "ridge_from": study["by_rows"][2]["ridge_fit"], "ridge_to": most["ridge_fit"],
        "ridge_growth": ridge_growth,
        "slower_ratio": most["kernel_fit"] / most["ridge_fit"],
        "rows_growth": most["rows"] // study["by_rows"][2]["rows"],
        # A yes/no the template may branch on: whether this machine's smallest
        # size shows the per-call overhead as an out-of-order time.
        "small_sizes_noisy": bool(fewest["ridge_fit"] > study["by_rows"][1]["ridge_fit"]),
    })
    return study
