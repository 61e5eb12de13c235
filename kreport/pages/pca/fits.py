"""The fits the PCA page reads, made once per build (each replica of the
stability check runs in its own process, so the cache never mixes fixtures)."""

from __future__ import annotations

from functools import cache

import numpy as np

from kreport import PCA, KernelPCA, data, kernels
from kreport.pages._settings import RING_GAMMA


@cache
def rows(name: str) -> np.ndarray:
    """A fixture's feature rows (heights in cm, weights in kg)."""
    return np.array(data.load(name).rows)


@cache
def pca(name: str, kept: int | None = None) -> PCA:
    """Ordinary PCA of a fixture, every direction (or ``kept`` of them)."""
    return PCA(kept).fit(rows(name))


@cache
def ring_kernel() -> KernelPCA:
    """The ring under the RBF kernel at the site's worked gamma (the kernel pages' fit)."""
    return KernelPCA(kernels.rbf(RING_GAMMA)).fit(rows("ring"))


def ring_inner() -> np.ndarray:
    return data.ring().mask("inner")
