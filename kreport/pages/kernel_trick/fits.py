"""The rows the kernel-trick page works on, loaded once per build."""

from __future__ import annotations

from functools import cache

import numpy as np

from kreport import data


@cache
def rows(name: str) -> np.ndarray:
    """A fixture's feature rows as measured (heights in cm, weights in kg)."""
    return np.array(data.load(name).rows)


def centred(name: str) -> np.ndarray:
    """The rows with the mean row taken away."""
    X = rows(name)
    return X - X.mean(axis=0)


def ring_inner() -> np.ndarray:
    return data.ring().mask("inner")
