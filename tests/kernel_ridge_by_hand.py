"""Kernel ridge regression worked out with plain numpy and scipy, never kreport's
models: the independent side of the three kernel-ridge pages' tests."""

from __future__ import annotations

import numpy as np
from scipy.spatial.distance import cdist


def linear(a, b):
    return a @ b.T


def rbf(gamma):
    return lambda a, b: np.exp(-gamma * cdist(a, b, "sqeuclidean"))


def fit(rows, target, penalty, kernel):
    """Dual weights, feature means and target mean, by numpy's dense solver."""
    means, mean = rows.mean(axis=0), target.mean()
    centred = rows - means
    table = kernel(centred, centred)
    weights = np.linalg.solve(table + penalty * np.eye(len(rows)), target - mean)
    return weights, means, mean, centred


def predict(model, kernel, queries):
    weights, means, mean, centred = model
    return kernel(np.asarray(queries, dtype=float) - means, centred) @ weights + mean


def loo(rows, target, penalty, kernel):
    """Leave-one-out by brute force: each row predicted by the fit on the others,
    which centres by its own means. Returns (mean squared error, R²)."""
    n = len(target)
    misses = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        model = fit(rows[keep], target[keep], penalty, kernel)
        misses[i] = target[i] - predict(model, kernel, rows[i:i + 1])[0]
    spread = target - target.mean()
    return float(misses @ misses) / n, 1 - float(misses @ misses) / float(spread @ spread)


def training_r2(rows, target, penalty, kernel):
    fitted = predict(fit(rows, target, penalty, kernel), kernel, rows)
    spread = target - target.mean()
    return 1 - float((target - fitted) @ (target - fitted)) / float(spread @ spread)
