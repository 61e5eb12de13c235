"""Side-by-side fit timings: kreport against scikit-learn and the bare scipy calls.

Usage: python scripts/bench.py [--quick]

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
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np
from scipy.linalg import cho_factor, cho_solve
from scipy.sparse.linalg import eigsh
from scipy.spatial.distance import cdist
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge

from kreport import KernelPCA, KernelRidge, kernels

GAMMA = 0.1
PENALTY = 1.0
FEATURES = 5
REPEATS = 5


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to n = 1000 only")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="fits per cell")
    args = parser.parse_args()
    repeats = args.repeats
    sizes = [500, 1000] if args.quick else [500, 1000, 2000, 4000]

    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {load}")
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
            rng = np.random.default_rng(n)
            X = rng.normal(size=(n, FEATURES))
            y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=n)
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
