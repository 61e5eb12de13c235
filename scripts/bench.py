"""Side-by-side fit timings: kreport against scikit-learn and the bare scipy calls.

Usage: python scripts/bench.py [--quick]
       python scripts/bench.py --approx [--approx-sizes N ...] [--repeats R]
                               [--memory-budget-gb G]

Data: seeded standard-normal rows, d = 5 features, RBF kernel gamma = 0.1.
Each cell is the median of 5 fits measured in this one run, the three
contenders taking turns fit by fit. One untimed warm-up fit of each comes first.

What each baseline includes:
  KernelPCA(n_components=2)
    kreport  KernelPCA(rbf(0.1), n_components=2).fit(X), input checks included
    sklearn  sklearn.decomposition.KernelPCA(2, kernel="rbf", gamma=0.1).fit(X)
             (eigen_solver="auto", which picks ARPACK here)
    bare     the same numerical work with no checks or bookkeeping: RBF table
             by cdist, centring by means, scipy.sparse.linalg.eigsh top 2
             with the same start vector and 25-vector subspace (the solver
             kreport uses for n ≥ 200 and few components)
  KernelRidge(penalty=1)
    kreport  KernelRidge(rbf(0.1), 1.0).fit(X, y)
    sklearn  sklearn.kernel_ridge.KernelRidge(alpha=1.0, kernel="rbf", gamma=0.1).fit(X, y)
    bare     RBF table by cdist + penalty on the diagonal + cho_factor + cho_solve

--approx: kernel ridge at scale, m = 1000 centres, n = 10⁵ and 10⁶ rows, d = 5
(the same seeded rows and target as above), fits taking turns, median and best
of --repeats fits (default 3 here), one untimed warm-up fit of each at n = 10⁴.
    kreport  kreport.approx.NystroemKernelRidge(rbf(0.1), 1.0, n_components=1000,
             seed=0).fit(X, y): block sums, never an n × n or n × m table
    sklearn  make_pipeline(Nystroem(kernel="rbf", gamma=0.1, n_components=1000,
             random_state=0), Ridge(alpha=1.0)).fit(X, y): the same 1000 landmark
             rows (same seed, same rule), then an (n, 1000) feature table
Peak memory: each contender fits once more in a fresh child process (multiprocessing,
"spawn"). With the data built, the child resets the kernel's peak-RSS mark (writes 5
to /proc/self/clear_refs) and reads its resident set (VmRSS); after the fit it reads
the peak (VmHWM). "peak" is that peak, "fit" the peak minus the resident set before
the fit: the memory the fit itself needed at its worst. Where clear_refs cannot be
written, resource.getrusage(RUSAGE_SELF).ru_maxrss (high-water since the child
started) stands in. The child also reports R² on 20,000 held-out rows, to show that
both contenders fit the same kind of model. A contender whose fit would add more
than --memory-budget-gb (default 8) GiB is not run at that n, and the line says
so: the estimate is linear in n, from the fit measured at the smallest n, or
before that from the (n, m) tables the fit holds.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import resource
import statistics
import time

import numpy as np
from scipy.linalg import cho_factor, cho_solve
from scipy.sparse.linalg import eigsh
from scipy.spatial.distance import cdist
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.kernel_approximation import Nystroem as SkNystroem
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge
from sklearn.linear_model import Ridge as SkRidge
from sklearn.pipeline import make_pipeline

from kreport import KernelPCA, KernelRidge, kernels
from kreport.approx import NystroemKernelRidge

GAMMA = 0.1
PENALTY = 1.0
FEATURES = 5
REPEATS = 5
APPROX_CENTRES = 1000
APPROX_SIZES = (100_000, 1_000_000)
APPROX_REPEATS = 3
HELD_OUT = 20_000
# Before any measurement: scikit-learn's pipeline holds the (n, m) feature table and
# Ridge's centred copy of it (2 · 8 bytes · m per row); kreport's fit adds nothing per row.
A_PRIORI_GIB_PER_ROW = {"kreport": 0.0, "sklearn": 2 * 8 * APPROX_CENTRES / 2**30}


def median_seconds(*runs, repeats: int = REPEATS) -> tuple[list[float], list[float]]:
    """Median and best wall time of each callable, the callables taking turns.

    Taking turns means a burst of load from other processes on the machine
    hits all contenders alike instead of one of them, which keeps the ratios
    honest on a shared machine.
    """
    times = [[] for _ in runs]
    for _ in range(repeats):
        for slot, run in enumerate(runs):
            start = time.perf_counter()
            run()
            times[slot].append(time.perf_counter() - start)
    return [statistics.median(slot) for slot in times], [min(slot) for slot in times]


def bare_kpca(X):
    table = cdist(X, X, "sqeuclidean")
    table *= -GAMMA
    np.exp(table, out=table)
    means = table.mean(axis=0)
    table -= means[np.newaxis, :]
    table -= means[:, np.newaxis]
    table += means.mean()
    start = np.random.default_rng(0).uniform(-1.0, 1.0, len(X))
    return eigsh(table, k=2, which="LA", tol=0.0, v0=start, ncv=25)


def bare_krr(X, y):
    centred = X - X.mean(axis=0)
    table = cdist(centred, centred, "sqeuclidean")
    table *= -GAMMA
    np.exp(table, out=table)
    table[np.diag_indices_from(table)] += PENALTY
    factor = cho_factor(table, lower=True, overwrite_a=True, check_finite=False)
    return cho_solve(factor, y - y.mean(), check_finite=False)


def time_model(model: str, X: np.ndarray, y: np.ndarray, repeats: int = REPEATS):
    """(medians, bests) of fit seconds for (kreport, sklearn, bare) on one data set."""
    if model == "KernelPCA":
        return median_seconds(
            lambda: KernelPCA(kernels.rbf(GAMMA), 2).fit(X),
            lambda: SkKernelPCA(2, kernel="rbf", gamma=GAMMA, random_state=0).fit(X),
            lambda: bare_kpca(X),
            repeats=repeats,
        )
    return median_seconds(
        lambda: KernelRidge(kernels.rbf(GAMMA), PENALTY).fit(X, y),
        lambda: SkKernelRidge(alpha=PENALTY, kernel="rbf", gamma=GAMMA).fit(X, y),
        lambda: bare_krr(X, y),
        repeats=repeats,
    )


def sine_rows(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Seeded standard-normal rows and y = sin(x₀) + 0.1·noise, as in every section."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, FEATURES))
    return X, np.sin(X[:, 0]) + 0.1 * rng.normal(size=n)


def approx_fit(contender: str, X: np.ndarray, y: np.ndarray):
    if contender == "kreport":
        return NystroemKernelRidge(kernels.rbf(GAMMA), PENALTY, APPROX_CENTRES, seed=0).fit(X, y)
    return make_pipeline(
        SkNystroem(kernel="rbf", gamma=GAMMA, n_components=APPROX_CENTRES, random_state=0),
        SkRidge(alpha=PENALTY),
    ).fit(X, y)


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def _max_rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _peak_memory_child(contender: str, n: int, results) -> None:
    """Runs in a fresh process: one fit; resident memory before, peak during; held-out R²."""
    X, y = sine_rows(n, n)
    query, truth = sine_rows(HELD_OUT, n + 1)
    try:  # Linux ≥ 4.0: writing 5 to clear_refs resets the peak-RSS mark (VmHWM)
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
        reset = True
    except OSError:  # otherwise the high-water mark since the process started
        reset = False
    before = _status_kib("VmRSS") if reset else _max_rss_kib()
    model = approx_fit(contender, X, y)
    peak = _status_kib("VmHWM") if reset else _max_rss_kib()
    predicted = model.predict(query)
    r2 = 1.0 - np.sum((truth - predicted) ** 2) / np.sum((truth - truth.mean()) ** 2)
    results.put((before, peak, float(r2)))


def peak_memory(contender: str, n: int) -> tuple[float, float, float]:
    """(peak MiB, MiB the fit added above what was resident before it, held-out R²)."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    child = context.Process(target=_peak_memory_child, args=(contender, n, results))
    child.start()
    before, peak, r2 = results.get()
    child.join()
    return peak / 1024, (peak - before) / 1024, r2


def approx_section(sizes, repeats: int, budget_gb: float) -> None:
    print(f"NystroemKernelRidge, m = {APPROX_CENTRES} centres, d = {FEATURES}, rbf gamma = "
          f"{GAMMA}, penalty = {PENALTY}")
    print(f"median and best of {repeats} fits, contenders taking turns; memory from one more "
          "fit each in a fresh child process\n(peak RSS during the fit; 'fit' = peak minus "
          "the resident set before it)\n")
    header = (f"{'n':>9}  {'contender':<9}{'median s':>10}{'best s':>9}{'peak MiB':>10}"
              f"{'fit MiB':>9}{'R² held-out':>13}")
    print(header)
    print("-" * len(header))
    warm_X, warm_y = sine_rows(10_000, 10_000)
    for contender in ("kreport", "sklearn"):
        approx_fit(contender, warm_X, warm_y)  # warm-up: imports, BLAS threads
    # GiB a fit adds per row: a priori until measured at the smallest n, then measured.
    gib_per_row = dict(A_PRIORI_GIB_PER_ROW)
    basis = dict.fromkeys(gib_per_row, "a priori")
    medians_at: dict[int, dict[str, float]] = {}
    for n in sorted(sizes):
        running = []
        for contender in ("kreport", "sklearn"):
            estimate = gib_per_row[contender] * n
            if estimate > budget_gb:
                print(f"{n:>9}  {contender:<9}  not run: its fit would add about {estimate:.1f} "
                      f"GiB ({basis[contender]}) > budget {budget_gb:g} GiB")
                continue
            peak, added, r2 = peak_memory(contender, n)
            if basis[contender] == "a priori":
                gib_per_row[contender] = added / 1024 / n
                basis[contender] = f"scaled from n = {n:,}"
            running.append((contender, peak, added, r2))
        X, y = sine_rows(n, n)
        runs = [lambda c=c, X=X, y=y: approx_fit(c, X, y) for c, *_ in running]
        medians, bests = median_seconds(*runs, repeats=repeats)
        medians_at[n] = {}
        for (contender, peak, added, r2), median, best in zip(running, medians, bests,
                                                             strict=True):
            medians_at[n][contender] = median
            print(f"{n:>9}  {contender:<9}{median:>10.2f}{best:>9.2f}{peak:>10.0f}{added:>9.0f}"
                  f"{r2:>13.6f}")
        if len(running) == 2:
            print(f"{'':>9}  kreport/sklearn: median {medians[0] / medians[1]:.2f}, "
                  f"best {bests[0] / bests[1]:.2f}")
        del X, y
    largest = max(sizes)
    if "kreport" in medians_at.get(largest, {}):
        seconds = medians_at[largest]["kreport"]
        print(f"\ndone-when: m = {APPROX_CENTRES}, n = {largest:,}, d = {FEATURES}: median fit "
              f"{seconds:.1f} s ({'under' if seconds < 60 else 'NOT under'} 60 s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to n = 1000 only")
    parser.add_argument("--repeats", type=int, default=None,
                        help=f"fits per cell (default {REPEATS}; {APPROX_REPEATS} with --approx)")
    parser.add_argument("--approx", action="store_true",
                        help="time NystroemKernelRidge against scikit-learn's Nystroem + Ridge")
    parser.add_argument("--approx-sizes", type=int, nargs="+", default=list(APPROX_SIZES),
                        help="row counts for --approx (default 100000 1000000)")
    parser.add_argument("--memory-budget-gb", type=float, default=8.0,
                        help="skip an --approx fit expected to add more than this (GiB)")
    args = parser.parse_args()

    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {load}")
    if args.approx:
        approx_section(args.approx_sizes, args.repeats or APPROX_REPEATS, args.memory_budget_gb)
        return
    repeats = args.repeats or REPEATS
    sizes = [500, 1000] if args.quick else [500, 1000, 2000, 4000]
    print(f"median of {repeats} fits, d = {FEATURES}, rbf gamma = {GAMMA}, times in ms")
    print("ratios from medians; the 'best' ratios use each contender's fastest fit,")
    print("which is steadier when other processes share the machine\n")
    header = (
        f"{'model':<12}{'n':>6}{'kreport':>10}{'sklearn':>10}{'bare':>10}"
        f"{'kr/sk':>8}{'kr/bare':>9}{'best kr/sk':>12}{'best kr/bare':>14}"
    )
    print(header)
    print("-" * len(header))
    for model in ("KernelPCA", "KernelRidge"):
        for n in sizes:
            X, y = sine_rows(n, n)
            if n == sizes[0]:
                time_model(model, X[:100], y[:100], 1)  # warm-up: imports, BLAS threads
            medians, bests = time_model(model, X, y, repeats)
            (ours, theirs, bare), (ours_best, theirs_best, bare_best) = medians, bests
            print(
                f"{model:<12}{n:>6}{ours * 1e3:>10.1f}{theirs * 1e3:>10.1f}{bare * 1e3:>10.1f}"
                f"{ours / theirs:>8.2f}{ours / bare:>9.2f}"
                f"{ours_best / theirs_best:>12.2f}{ours_best / bare_best:>14.2f}"
            )


if __name__ == "__main__":
    main()
