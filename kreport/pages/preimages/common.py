"""Fits the pre-image page's sections and figures share (cached)."""

from __future__ import annotations

import warnings
from functools import cache

import numpy as np

from kreport import PCA, KernelPCA, LearnedPreimage, data, fixed_point_preimage, kernels

from .settings import GAMMA, LEARNED_GAMMA, LEARNED_PENALTY


@cache
def circle() -> tuple[np.ndarray, np.ndarray]:
    """(noisy rows, clean rows) of the noisy circle."""
    found = data.noisy_circle()
    return (np.asarray(found.rows, dtype=float),
            np.asarray(found.extra_rows("clean_x1", "clean_x2"), dtype=float))


def error(rows: np.ndarray) -> float:
    """Mean over the rows of the squared distance to the clean point."""
    _, clean = circle()
    return float(np.mean(np.sum((rows - clean) ** 2, axis=1)))


@cache
def kpca(kept: int, gamma: float = GAMMA) -> KernelPCA:
    noisy, _ = circle()
    return KernelPCA(kernels.rbf(gamma), n_components=kept).fit(noisy)


@cache
def fixed_point(kept: int, gamma: float = GAMMA):
    """Mika et al.'s fixed point for every noisy row, started at the row itself."""
    noisy, _ = circle()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fixed_point_preimage(kpca(kept, gamma), rows=noisy)
    return result, len(caught)


@cache
def learned(kept: int) -> np.ndarray:
    """The learned map (kernel ridge from coordinates to rows) applied to the noisy rows."""
    noisy, _ = circle()
    fit = kpca(kept)
    preimage = LearnedPreimage(kernels.rbf(LEARNED_GAMMA), LEARNED_PENALTY)
    return preimage.fit(fit.scores_, noisy).predict(fit.transform(noisy))


@cache
def pca(kept: int) -> np.ndarray:
    """Ordinary PCA's reconstruction from its first directions."""
    noisy, _ = circle()
    model = PCA(n_components=kept).fit(noisy)
    return model.inverse_transform(model.transform(noisy))


def weights(fit: KernelPCA, coordinates: np.ndarray) -> np.ndarray:
    """ω: the projection of φ(q) onto the kept directions as Σᵢ ωᵢ φ(xᵢ), one row per query.

    v_m = Σᵢ β_im (φ(xᵢ) − φ̄) and φ̄ = (1/n) Σᵢ φ(xᵢ), so
    ωᵢ = 1/n + Σ_m z_qm (β_im − (1/n) Σⱼ β_jm). Each βₘ adds up to zero (its eigenvector
    is at right angles to the ones that centring removes), so the correction is rounding;
    it is kept so that the weights do not rest on that.
    """
    beta = fit.coefficients_[:, : coordinates.shape[1]]
    n = beta.shape[0]
    return 1.0 / n + coordinates @ (beta - beta.mean(axis=0)).T
