"""The rows, the exact fits and the approximate fits the sections share (cached).

Every fit is made once per process; sections and figures read them from here.
The rows are the committed fixture ``scale_rows``: training rows for fitting,
held-out rows for scoring and for the approximated tables.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from kreport import PCA, KernelPCA, KernelRidge, Ridge, data, kernels
from kreport.approx import Nystroem, NystroemKernelRidge, RandomFourierFeatures

from .settings import COUNTS, DIRECTIONS, GAMMA, LANDMARK_SEED, PENALTY, RANDOM_SEEDS


@cache
def rows() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(training rows, training target, held-out rows, held-out target)."""
    fixture = data.scale_rows()
    train, test = fixture.mask("train"), fixture.mask("test")
    X, y = np.asarray(fixture.rows, dtype=float), np.asarray(fixture.target, dtype=float)
    return X[train], y[train], X[test], y[test]


def rms(values) -> float:
    return float(np.sqrt(np.mean(np.square(values))))


def held_out_floor() -> float:
    """The noise floor of the held-out rows: what predicting the rule's sine itself misses by."""
    _, _, queries, targets = rows()
    return rms(targets - np.sin(queries[:, 0]))


def held_out_error(predicted) -> float:
    """Root mean squared error on the held-out rows."""
    return rms(predicted - rows()[3])


@cache
def exact_ridge() -> KernelRidge:
    X, y, _, _ = rows()
    return KernelRidge(kernels.rbf(GAMMA), PENALTY).fit(X, y)


@cache
def exact_predictions() -> np.ndarray:
    return exact_ridge().predict(rows()[2])


@cache
def exact_pca() -> KernelPCA:
    return KernelPCA(kernels.rbf(GAMMA), DIRECTIONS).fit(rows()[0])


@cache
def nystroem_ridge(count: int) -> NystroemKernelRidge:
    X, y, _, _ = rows()
    return NystroemKernelRidge(kernels.rbf(GAMMA), PENALTY, count, seed=LANDMARK_SEED).fit(X, y)


@cache
def nystroem_map(count: int, gamma: float = GAMMA) -> Nystroem:
    return Nystroem(kernels.rbf(gamma), count, seed=LANDMARK_SEED).fit(rows()[0])


@cache
def nystroem_pca(count: int) -> PCA:
    """PCA of the training rows' Nyström features: kernel PCA from M landmarks."""
    features = nystroem_map(count).transform(rows()[0])
    return PCA(min(DIRECTIONS, count)).fit(features)


@cache
def random_map(count: int, seed: int, gamma: float = GAMMA) -> RandomFourierFeatures:
    return RandomFourierFeatures(kernels.rbf(gamma), count, seed=seed).fit(rows()[0])


def _ridge_error(feature_map) -> float:
    X, y, Xq, _ = rows()
    model = Ridge(PENALTY).fit(feature_map.transform(X), y)
    return held_out_error(model.predict(feature_map.transform(Xq)))


@cache
def feature_ridge_errors() -> dict:
    """Held-out error of ridge on Nyström features and on random features, per count."""
    return {
        "nystroem": [_ridge_error(nystroem_map(count)) for count in COUNTS],
        "random": [[_ridge_error(random_map(count, seed)) for seed in RANDOM_SEEDS]
                   for count in COUNTS],
    }


def table_error(feature_map, table: np.ndarray) -> float:
    """‖K − Φ̂Φ̂ᵀ‖ / ‖K‖ (Frobenius) on the held-out rows."""
    features = feature_map.transform(rows()[2])
    return float(np.linalg.norm(table - features @ features.T) / np.linalg.norm(table))


@cache
def held_out_table(gamma: float) -> np.ndarray:
    held = rows()[2]
    return kernels.rbf(gamma)(held, held)


@cache
def table_errors(gamma: float) -> dict:
    """Relative table error on the held-out rows, Nyström and random features, per count."""
    table = held_out_table(gamma)
    return {
        "nystroem": [table_error(nystroem_map(count, gamma), table) for count in COUNTS],
        "random": [[table_error(random_map(count, seed, gamma), table) for seed in RANDOM_SEEDS]
                   for count in COUNTS],
    }
