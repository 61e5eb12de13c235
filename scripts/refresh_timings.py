#!/usr/bin/env python3
"""Time ridge against kernel ridge and write kreport/pages/kernel_ridge/timings/kernel-ridge.json.

Usage: python scripts/refresh_timings.py [--repeats N]   (``make timings`` runs it)

Timings depend on the machine, so they are not computed during the site build:
this script measures them once, writes them with a description of the machine
they came from, and the kernel-ridge page (``kreport.pages.kernel_ridge.timing``)
only reads the file. Nothing else writes it: this script is the only way the
timings change. The page prints them as machine-specific facts, outside the
stability check and the regression lock; tests/test_timings.py locks the
*shape* of the result (how fit time grows with the rows), not its values.

What is timed, each cell the median of ``--repeats`` runs after one warm-up:

* fit, rows doubling (50 → 1600) at two features;
* fit, features doubling (2 → 64) at two hundred rows;
* prediction of one hundred query rows, for each row count of the first study.

Every fit is the whole public call, input checks included:
``Ridge(1.0).fit(X, y)`` and ``KernelRidge(kernels.rbf(0.5), 1.0).fit(X, y)``.
The rows are drawn once from a seeded generator (standard normal features,
a smooth target plus noise), so every run times the same arithmetic.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np
import scipy
from threadpoolctl import threadpool_limits

from kreport import KernelRidge, Ridge, kernels

REPOSITORY = Path(__file__).resolve().parent.parent
OUTPUT = REPOSITORY / "kreport" / "pages" / "kernel_ridge" / "timings" / "kernel-ridge.json"
# One BLAS thread: on a shared machine a multi-threaded solve spends much of its
# time waiting for busy cores, and the page is about how the arithmetic grows.
BLAS_THREADS = 1
ROW_COUNTS = (50, 100, 200, 400, 800, 1600)
FEATURES_FOR_ROW_STUDY = 2
FEATURE_COUNTS = (2, 4, 8, 16, 32, 64)
ROWS_FOR_FEATURE_STUDY = 200
QUERY_ROWS = 100
GAMMA = 0.5
PENALTY = 1.0
SEED = 20240601


def drawn_data(rows: int, features: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """Standard normal rows and a smooth target with a little noise."""
    generator = np.random.default_rng([seed, rows, features])
    table = generator.standard_normal((rows, features))
    target = np.sin(table[:, 0]) + 0.5 * table[:, -1] + 0.1 * generator.standard_normal(rows)
    return table, target


def median_seconds(run, repeats: int) -> float:
    run()  # warm-up: first-call costs (imports, allocator) are not the fit's
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def new_ridge() -> Ridge:
    return Ridge(PENALTY)


def new_kernel_ridge() -> KernelRidge:
    return KernelRidge(kernels.rbf(GAMMA), PENALTY)


def fit_times(rows: int, features: int, repeats: int) -> dict:
    table, target = drawn_data(rows, features)
    return {
        "ridge": median_seconds(lambda: new_ridge().fit(table, target), repeats),
        "kernel_ridge": median_seconds(lambda: new_kernel_ridge().fit(table, target), repeats),
    }


def predict_times(rows: int, features: int, repeats: int) -> dict:
    table, target = drawn_data(rows, features)
    queries, _ = drawn_data(QUERY_ROWS, features, seed=SEED + 1)
    ridge = new_ridge().fit(table, target)
    kernel_ridge = new_kernel_ridge().fit(table, target)
    return {
        "ridge": median_seconds(lambda: ridge.predict(queries), repeats),
        "kernel_ridge": median_seconds(lambda: kernel_ridge.predict(queries), repeats),
    }


def processor_name() -> str:
    # platform.processor() is empty on many Linux systems; /proc/cpuinfo names the chip.
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict:
    return {
        "platform": platform.platform(),
        "processor": processor_name(),
        "cores": os.cpu_count() or 0,
        "blas_threads": BLAS_THREADS,
        "load_average": round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else None,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "measured_on": datetime.datetime.now(datetime.UTC).date().isoformat(),
    }


def measure(repeats: int) -> dict:
    by_rows = []
    for rows in ROW_COUNTS:
        by_rows.append({"rows": rows, "features": FEATURES_FOR_ROW_STUDY,
                        "fit_seconds": fit_times(rows, FEATURES_FOR_ROW_STUDY, repeats),
                        "predict_seconds": predict_times(rows, FEATURES_FOR_ROW_STUDY, repeats)})
        print(f"  rows {rows:5d}: {by_rows[-1]['fit_seconds']}")
    by_features = []
    for features in FEATURE_COUNTS:
        by_features.append({"rows": ROWS_FOR_FEATURE_STUDY, "features": features,
                            "fit_seconds": fit_times(ROWS_FOR_FEATURE_STUDY, features, repeats)})
        print(f"  features {features:3d}: {by_features[-1]['fit_seconds']}")
    return {
        "what": "median wall-clock seconds of whole public calls (input checks included)",
        "machine": machine(),
        "repeats": repeats,
        "models": {"ridge": f"Ridge(penalty={PENALTY})",
                   "kernel_ridge": f"KernelRidge(rbf(gamma={GAMMA}), penalty={PENALTY})"},
        "query_rows": QUERY_ROWS,
        "rows_study": by_rows,
        "features_study": by_features,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9, help="runs per cell (median taken)")
    arguments = parser.parse_args()
    if arguments.repeats < 5:
        parser.error("use at least five repeats: the page reports a median of five or more")
    started = time.perf_counter()
    with threadpool_limits(limits=BLAS_THREADS):
        result = measure(arguments.repeats)
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {OUTPUT} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
