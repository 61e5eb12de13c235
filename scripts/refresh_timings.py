#!/usr/bin/env python3
"""Measure the timing studies and write kreport/pages/*/timings/*.json.

Usage: python scripts/refresh_timings.py [--repeats N] [--scale-repeats N]
                                         [--study {all,kernel-ridge,at-scale}]
       (``make timings`` runs it with the defaults: both studies)

Two studies, each written to the timing file of the page that prints it:
the kernel-ridge page's (ridge against kernel ridge, below) and the at-scale
page's (the exact methods' cost wall, Nyström kernel ridge at a million rows,
the ten-million-row streamed fit on Dask; see ``scale_study``).

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

(That is the kernel-ridge study; the at-scale study is described at ``scale_study``.)

Every fit is the whole public call, input checks included:
``Ridge(1.0).fit(X, y)`` and ``KernelRidge(kernels.rbf(0.5), 1.0).fit(X, y)``.
The rows are drawn once from a seeded generator (standard normal features,
a smooth target plus noise), so every run times the same arithmetic.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import os
import platform
import resource
import statistics
import time
from pathlib import Path

import numpy as np
import scipy
from threadpoolctl import threadpool_limits

from kreport import KernelRidge, Ridge, kernels
from kreport.report.timings import sealed

REPOSITORY = Path(__file__).resolve().parent.parent
OUTPUT = REPOSITORY / "kreport" / "pages" / "kernel_ridge" / "timings" / "kernel-ridge.json"
SCALE_OUTPUT = REPOSITORY / "kreport" / "pages" / "at_scale" / "timings" / "at-scale.json"
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


# ======================================================================
# The at-scale study: kreport/pages/at_scale/timings/at-scale.json
# ======================================================================
#
# What is measured (sizes and settings from kreport/pages/at_scale/settings.py,
# so the page and this script cannot disagree), with every BLAS thread the
# machine has (the question is what this machine can do), each fit in a fresh
# child process ("spawn") so that memory left behind by one fit cannot count
# against the next:
#
# * the wall: exact KernelRidge(rbf(GAMMA), PENALTY).fit and
#   KernelPCA(rbf(GAMMA), DIRECTIONS).fit as the rows double (WALL_SIZES);
# * Nyström kernel ridge, NystroemKernelRidge(rbf(GAMMA), PENALTY, M).fit, as the
#   rows grow at M = LARGE_CENTRES (ROW_COUNTS, up to a million rows) and as the
#   centres grow at CENTRE_STUDY_ROWS rows (CENTRE_COUNTS); the million-row fit
#   also reports its error on HELD_OUT_ROWS rows of a block no fit uses;
# * scikit-learn's make_pipeline(Nystroem(rbf, GAMMA, M, random_state=0),
#   Ridge(PENALTY)).fit at SKLEARN_ROWS rows, beside ours (same landmark rows);
# * Nyström kernel PCA at a million rows: PCA(DIRECTIONS) of the features of
#   Nystroem(rbf(GAMMA), PCA_CENTRES);
# * the streamed fit: kreport.approx.distributed.fit_distributed on a
#   distributed.LocalCluster on 127.0.0.1 (one single-threaded worker process
#   per core), started and stopped here, on random_rows(n, 5) for a million and
#   ten million rows, generated block by block by the workers; once each.
#
# Rows: kreport.approx.distributed.random_block(ROWS_SEED, i, BLOCK_ROWS, 5) for
# block i = 0, 1, …, so every fit's rows are the first n of one sequence (the
# fixture scale_rows is its first 2,000, rounded) and the Dask fits see exactly
# the rows of the in-memory ones.
#
# Time: the median of --scale-repeats fits (the Dask fits: one). Memory: before
# the first timed fit the child resets the kernel's peak-RSS mark (writes 5 to
# /proc/self/clear_refs) and reads its resident set (VmRSS); after it, the peak
# (VmHWM). "peak_mib" is that peak, "added_mib" the peak minus the resident set
# before the fit: what the fit itself needed at its worst. Where clear_refs
# cannot be written, the high-water mark since the child started stands in.

SCALE_REPEATS = 3
SCALE_FEATURES = 5
# A trial run (--scale-shrink k) divides the row counts by k; never below this.
SMALLEST_TRIAL_ROWS = 50


def memory_bytes() -> int:
    """The machine's memory (MemTotal), in bytes."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _status_mib(field: str) -> float:
    """A /proc/self/status field, which the kernel reports in KiB, in MiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise KeyError(field)


def _reset_peak() -> bool:
    """Reset this process's peak-RSS mark (Linux ≥ 4.0); False where that is impossible."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def _resident_mib(reset: bool) -> float:
    return _status_mib("VmRSS") if reset else resource.getrusage(
        resource.RUSAGE_SELF).ru_maxrss / 1024


def _peak_mib(reset: bool) -> float:
    return _status_mib("VmHWM") if reset else resource.getrusage(
        resource.RUSAGE_SELF).ru_maxrss / 1024


def scale_data(n_rows: int, first_block: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The first n_rows rows (and targets) of the blocks from first_block on."""
    from kreport.approx.distributed import random_block
    from kreport.pages.at_scale import settings

    parts, targets, index, left = [], [], first_block, n_rows
    while left > 0:
        rows, target = random_block(settings.ROWS_SEED, index, settings.BLOCK_ROWS,
                                    SCALE_FEATURES)
        parts.append(rows[:left])
        targets.append(target[:left])
        left -= len(parts[-1])
        index += 1
    return np.concatenate(parts), np.concatenate(targets)


def held_out_data(shrink: int = 1) -> tuple[np.ndarray, np.ndarray]:
    from kreport.pages.at_scale import settings

    rows, target = scale_data(settings.HELD_OUT_ROWS // shrink, settings.HELD_OUT_BLOCK)
    return rows, target


def _scale_task(task: str, options: dict):
    """(run, report) for one measured fit, its data built first (not measured)."""
    from sklearn.kernel_approximation import Nystroem as SkNystroem
    from sklearn.linear_model import Ridge as SkRidge
    from sklearn.pipeline import make_pipeline

    from kreport import PCA, KernelPCA
    from kreport.approx import Nystroem, NystroemKernelRidge
    from kreport.pages.at_scale import settings

    kernel, penalty = kernels.rbf(settings.GAMMA), settings.PENALTY
    X, y = scale_data(options["rows"])
    centres = options.get("centres", 0)
    warm_X, warm_y = scale_data(max(2 * centres, 200))
    if task == "kernel_ridge":
        def run():
            return KernelRidge(kernel, penalty).fit(X, y)
        KernelRidge(kernel, penalty).fit(warm_X, warm_y)  # warm-up: imports, BLAS threads
        return run, None
    if task == "kernel_pca":
        def run():
            return KernelPCA(kernel, settings.DIRECTIONS).fit(X)
        KernelPCA(kernel, settings.DIRECTIONS).fit(warm_X)
        return run, None
    if task == "nystroem_ridge":
        def run(rows=X, target=y):
            return NystroemKernelRidge(kernel, penalty, centres,
                                       seed=settings.LANDMARK_SEED).fit(rows, target)
        run(warm_X, warm_y)

        def report(model):
            if not options.get("held_out"):
                return {}
            query, truth = held_out_data(options.get("shrink", 1))
            predicted = model.predict(query)
            return {"held_out_rows": len(query),
                    "held_out_error": float(np.sqrt(np.mean((predicted - truth) ** 2))),
                    "held_out_floor": float(np.sqrt(np.mean((truth - np.sin(query[:, 0]))
                                                            ** 2))),
                    "predictions": predicted.tolist()}
        return run, report
    if task == "sklearn":
        def run(rows=X, target=y):
            return make_pipeline(
                SkNystroem(kernel="rbf", gamma=settings.GAMMA, n_components=centres,
                           random_state=settings.LANDMARK_SEED),
                SkRidge(alpha=penalty)).fit(rows, target)
        run(warm_X, warm_y)
        return run, None
    if task == "nystroem_pca":
        def run(rows=X):
            features = Nystroem(kernel, centres, seed=settings.LANDMARK_SEED).fit(rows)
            return PCA(settings.DIRECTIONS).fit(features.transform(rows))
        run(warm_X)
        return run, lambda model: {"variances": model.variances_.tolist(),
                                   "total_variance": float(model.total_variance_)}
    raise ValueError(f"unknown task {task!r}")


def _scale_child(task: str, options: dict, repeats: int, results) -> None:
    """In a fresh process: build the data, then time the fit; memory of the first."""
    run, report = _scale_task(task, options)
    reset = _reset_peak()
    before = _resident_mib(reset)
    started = time.perf_counter()
    fitted = run()
    times = [time.perf_counter() - started]
    peak = _peak_mib(reset)
    extra = report(fitted) if report else {}
    del fitted
    for _ in range(repeats - 1):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    results.put({"seconds": statistics.median(times), "all_seconds": times,
                 "peak_mib": peak, "added_mib": peak - before, **extra})


def _in_child(target, *arguments):
    """Run target(*arguments, queue) in a spawned process and return what it put."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    child = context.Process(target=target, args=(*arguments, results))
    child.start()
    while True:
        try:
            found = results.get(timeout=5)
            break
        except Exception:  # queue.Empty: still working, unless the child died
            if not child.is_alive():
                raise RuntimeError(f"{target.__name__}{arguments} exited with "
                                   f"{child.exitcode} before reporting") from None
    child.join()
    return found


def _dask_child(row_counts, shrink: int, results) -> None:
    """In a fresh process: a LocalCluster on 127.0.0.1, the streamed fits, then stop it."""
    import dask
    import distributed

    from kreport.approx import NystroemKernelRidge
    from kreport.approx.distributed import fit_distributed, random_rows
    from kreport.pages.at_scale import settings

    # What the workers run is defined here, self-contained, so that it travels to
    # them by value (a function of this script could not be imported there).
    def reset_worker_peak() -> bool:
        try:
            with open("/proc/self/clear_refs", "w") as refs:
                refs.write("5")
            return True
        except OSError:
            return False

    def worker_peak_mib() -> float:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    kernel, penalty = kernels.rbf(settings.GAMMA), settings.PENALTY
    block_rows = settings.BLOCK_ROWS
    workers = os.cpu_count() or 1
    query, truth = held_out_data(shrink)
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", scheduler_port=0,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    fits = []
    try:
        warm = random_rows(4 * settings.LARGE_CENTRES, SCALE_FEATURES, block_rows=1000,
                           seed=settings.ROWS_SEED)
        fit_distributed(NystroemKernelRidge(kernel, penalty, settings.LARGE_CENTRES), *warm)
        for n_rows in row_counts:
            X, y = random_rows(n_rows, SCALE_FEATURES, block_rows=block_rows,
                               seed=settings.ROWS_SEED)
            model = NystroemKernelRidge(kernel, penalty, settings.LARGE_CENTRES,
                                        seed=settings.LANDMARK_SEED)
            client.run(reset_worker_peak)
            reset = _reset_peak()
            before = _resident_mib(reset)
            started = time.perf_counter()
            fit_distributed(model, X, y)
            seconds = time.perf_counter() - started
            peak = _peak_mib(reset)
            worker_peaks = sorted(client.run(worker_peak_mib).values())
            predicted = model.predict(query)
            fits.append({"rows": n_rows, "block_rows": block_rows, "chunks": len(X.chunks[0]),
                         "seconds": seconds, "client_peak_mib": peak,
                         "client_added_mib": peak - before, "worker_peak_mib": worker_peaks,
                         "held_out_error": float(np.sqrt(np.mean((predicted - truth) ** 2))),
                         "predictions": predicted.tolist()})
            print(f"    dask, {n_rows:,} rows: {seconds:.1f} s, client peak {peak:.0f} MiB, "
                  f"workers {[round(w) for w in worker_peaks]} MiB", flush=True)
    finally:
        client.close()
        cluster.close()
    results.put({"workers": workers, "threads_per_worker": 1, "fits": fits,
                 "dask": dask.__version__, "distributed": distributed.__version__})


def _blas_threads() -> int:
    from threadpoolctl import threadpool_info

    return max((pool["num_threads"] for pool in threadpool_info()
                if pool.get("user_api") == "blas"), default=1)


def scale_study(repeats: int, shrink: int = 1) -> dict:
    """The at-scale page's measurements (see the comment above), as one dict."""
    import sklearn

    from kreport.pages.at_scale import settings

    def rows(n: int) -> int:
        return max(n // shrink, SMALLEST_TRIAL_ROWS)

    about = machine()
    about.update({"memory_bytes": memory_bytes(), "blas_threads": _blas_threads(),
                  "scikit_learn": sklearn.__version__})

    def measured(task, **options):
        found = _in_child(_scale_child, task, options, repeats)
        shown = {key: round(value, 2) for key, value in found.items()
                 if key in ("seconds", "peak_mib", "added_mib")}
        print(f"  {task} {options}: {shown}", flush=True)
        return found

    print("at-scale study: the wall (exact fits)")
    wall = [{"rows": rows(n),
             "kernel_ridge": measured("kernel_ridge", rows=rows(n)),
             "kernel_pca": measured("kernel_pca", rows=rows(n))} for n in settings.WALL_SIZES]
    print("at-scale study: Nyström kernel ridge")
    by_rows = [{"rows": rows(n), "centres": settings.LARGE_CENTRES,
                **measured("nystroem_ridge", rows=rows(n), centres=settings.LARGE_CENTRES,
                           held_out=n == settings.MILLION, shrink=shrink)}
               for n in settings.ROW_COUNTS]
    by_centres = [{"rows": rows(settings.CENTRE_STUDY_ROWS), "centres": m,
                   **measured("nystroem_ridge", rows=rows(settings.CENTRE_STUDY_ROWS),
                              centres=m)}
                  for m in settings.CENTRE_COUNTS]
    sklearn_fit = {"rows": rows(settings.SKLEARN_ROWS), "centres": settings.LARGE_CENTRES,
                   **measured("sklearn", rows=rows(settings.SKLEARN_ROWS),
                              centres=settings.LARGE_CENTRES)}
    pca_fit = {"rows": rows(settings.MILLION), "centres": settings.PCA_CENTRES,
               **measured("nystroem_pca", rows=rows(settings.MILLION),
                          centres=settings.PCA_CENTRES)}
    print("at-scale study: streamed fits on Dask")
    streamed = _in_child(_dask_child, [rows(settings.MILLION), rows(settings.STREAMED_ROWS)],
                         shrink)
    in_memory = next(entry for entry in by_rows if "predictions" in entry)
    on_dask = next(fit for fit in streamed["fits"] if fit["rows"] == in_memory["rows"])
    ours, theirs = np.array(on_dask.pop("predictions")), np.array(in_memory.pop("predictions"))
    for fit in streamed["fits"]:
        fit.pop("predictions", None)
    streamed["agreement"] = {
        "rows": in_memory["rows"],
        "relative_difference": float(np.abs(ours - theirs).max() / np.abs(theirs).max()),
    }
    about["load_average_after"] = (round(os.getloadavg()[0], 1)
                                   if hasattr(os, "getloadavg") else None)
    result = {
        "what": "median wall-clock seconds of whole public fits (the Dask fits: one run each) "
                "and resident memory of the process that fitted, in MiB",
        "machine": about,
        "repeats": repeats,
        "settings": {"gamma": settings.GAMMA, "penalty": settings.PENALTY,
                     "features": SCALE_FEATURES, "rows_seed": settings.ROWS_SEED,
                     "block_rows": settings.BLOCK_ROWS,
                     "landmark_seed": settings.LANDMARK_SEED,
                     "directions": settings.DIRECTIONS},
        "wall": {"fit_from": rows(settings.WALL_FIT_FROM), "sizes": wall},
        "nystroem": {"centres": settings.LARGE_CENTRES, "by_rows": by_rows,
                     "by_centres": by_centres},
        "sklearn": sklearn_fit,
        "nystroem_pca": pca_fit,
        "dask": streamed,
    }
    if shrink != 1:
        result["trial_shrink"] = shrink
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9,
                        help="runs per cell of the kernel-ridge study (median taken)")
    parser.add_argument("--scale-repeats", type=int, default=SCALE_REPEATS,
                        help="runs per fit of the at-scale study (median taken)")
    parser.add_argument("--study", choices=("all", "kernel-ridge", "at-scale"), default="all")
    parser.add_argument("--scale-shrink", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--scale-output", type=Path, default=SCALE_OUTPUT, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.repeats < 5:
        parser.error("use at least five repeats: the page reports a median of five or more")
    if arguments.scale_repeats < 3:
        parser.error("use at least three repeats: the at-scale page reports a median of three")
    if arguments.scale_shrink != 1 and arguments.scale_output.resolve() == SCALE_OUTPUT.resolve():
        parser.error("a shrunken study (a trial run) must not overwrite the page's timing file")
    if arguments.study in ("all", "kernel-ridge"):
        started = time.perf_counter()
        with threadpool_limits(limits=BLAS_THREADS):
            result = measure(arguments.repeats)
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_text(json.dumps(sealed(result), indent=1) + "\n")
        print(f"wrote {OUTPUT} in {time.perf_counter() - started:.0f} s")
    if arguments.study in ("all", "at-scale"):
        started = time.perf_counter()
        result = scale_study(arguments.scale_repeats, arguments.scale_shrink)
        arguments.scale_output.parent.mkdir(parents=True, exist_ok=True)
        arguments.scale_output.write_text(json.dumps(sealed(result), indent=1) + "\n")
        print(f"wrote {arguments.scale_output} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
