"""Answers to the pre-images page's exercises, each worked by the route the exercise asks
for and checked against the page's own fits.

1. The lifted mean of two people's images, and the fixed point that looks for its row.
2. Ordinary PCA's one-direction error on the noisy circle, predicted by hand.
3. The pairs of eigenvalues of the clean points' table against the noisy rows'.
"""

from __future__ import annotations

import numpy as np

from kreport import data
from kreport.report import bound, claim

from .common import circle, error, pca
from .settings import EXERCISE_GAMMA, GAMMA, PAIRS, PREDICTION_TOLERANCE, STEEP_GAMMA

#: The fixed point is iterated until its step is below this (in cm), or this many steps.
STEP = 1e-13
MOST_STEPS = 10_000


def _settle(heights: np.ndarray, gamma: float, start: float) -> float:
    """Mika's fixed point for the lifted mean (equal weights) of rows of one feature."""
    x = start
    for _ in range(MOST_STEPS):
        weights = np.exp(-gamma * (x - heights) ** 2)
        step = float(weights @ heights / weights.sum()) - x
        x += step
        if abs(step) < STEP:
            return x
    raise RuntimeError("the fixed point did not settle")


def _distance(heights: np.ndarray, gamma: float, x: float) -> float:
    """‖φ(x) − φ̄‖² for the RBF kernel: one, plus ‖φ̄‖², less twice the mean kernel value."""
    table = np.exp(-gamma * (heights[:, None] - heights[None, :]) ** 2)
    return float(1.0 + table.mean() - 2.0 * np.exp(-gamma * (x - heights) ** 2).mean())


def _two_people() -> dict:
    """Exercise one: the lifted mean of A's and B's images, by height alone."""
    heights = np.asarray(data.three_people().rows, dtype=float)[:2, 0]
    a, b = heights
    squared_length = float(np.exp(-EXERCISE_GAMMA * (heights[:, None] - heights) ** 2).mean())
    kernel_ab = float(np.exp(-EXERCISE_GAMMA * (a - b) ** 2))
    first_step = float((a + kernel_ab * b) / (1.0 + kernel_ab))
    settled = _settle(heights, EXERCISE_GAMMA, a)
    midpoint = float(heights.mean())
    claim("started at A, the fixed point settles at the midpoint (to {tol} cm)",
          lambda tol: abs(settled - midpoint) < tol, id="midpoint", tol=1e-9)
    distance = _distance(heights, EXERCISE_GAMMA, midpoint)
    claim("the midpoint's image is a positive squared distance from the lifted mean",
          distance > 0.1, id="off_sheet")
    steep = _settle(heights, STEEP_GAMMA, a)
    steep_distance = _distance(heights, STEEP_GAMMA, steep)
    claim("at the steeper γ the fixed point from A stays nearer A than the midpoint",
          abs(steep - a) < abs(steep - midpoint), id="steep_near_a")
    claim("and there the midpoint is further from the lifted mean than the settled row",
          _distance(heights, STEEP_GAMMA, midpoint) > steep_distance, id="steep_better")
    return {"gamma": EXERCISE_GAMMA, "a": a, "b": b, "squared_length": squared_length,
            "kernel_ab": kernel_ab, "first_step": first_step, "settled": settled,
            "midpoint": midpoint, "distance": distance, "steep_gamma": STEEP_GAMMA,
            "steep": steep, "steep_distance": steep_distance,
            "steep_midpoint_distance": _distance(heights, STEEP_GAMMA, midpoint)}


def _pca_one() -> dict:
    """Exercise two: ordinary PCA with one direction on the circle, predicted by hand."""
    noisy, clean = circle()
    noise = float(np.std(noisy - clean, ddof=1))
    predicted = 0.5 + noise**2
    measured = error(pca(1))
    claim("the prediction is within {tol} of the measured error",
          lambda tol: abs(predicted - measured) < tol, id="predicted",
          tol=PREDICTION_TOLERANCE)
    return {"noise": noise, "predicted": predicted, "measured": measured,
            "tolerance": PREDICTION_TOLERANCE}


def _centred_eigenvalues(rows: np.ndarray, count: int) -> np.ndarray:
    squared = ((rows[:, None, :] - rows[None, :, :]) ** 2).sum(axis=-1)
    table = np.exp(-GAMMA * squared)
    centred = table - table.mean(axis=0) - table.mean(axis=1)[:, None] + table.mean()
    return np.linalg.eigvalsh(centred)[::-1][:count]


def _gaps(values: np.ndarray) -> np.ndarray:
    """Relative gap within each pair: (first − second) / first."""
    return (values[0::2] - values[1::2]) / values[0::2]


def _ties() -> dict:
    """Exercise three (code): the pairs of eigenvalues, clean points against noisy rows."""
    noisy, clean = circle()
    n = len(noisy)
    angles = 2.0 * np.pi * np.arange(n) / n
    even = np.column_stack([np.cos(angles), np.sin(angles)])
    count = 2 * PAIRS
    clean_gaps = _gaps(_centred_eigenvalues(clean, count))
    noisy_values = _centred_eigenvalues(noisy, count)
    noisy_gaps = _gaps(noisy_values)
    even_gaps = _gaps(_centred_eigenvalues(even, count))
    claim("every noisy pair is split by more than {factor} times the largest clean split",
          lambda factor: np.min(noisy_gaps) > factor * np.max(np.abs(clean_gaps)),
          id="noisy_split", factor=10)
    return {"pairs": PAIRS, "n": n, "gamma": GAMMA, "clean_gap": bound(clean_gaps, -3),
            "even_gap": bound(even_gaps, -12), "noisy_gaps": noisy_gaps.tolist(),
            "noisy_values": noisy_values.tolist()}


def exercises() -> dict:
    """Three exercises: the lifted mean of two people (pencil), ordinary PCA's error on the
    circle (pencil), the tied pairs (code)."""
    return {**_two_people(), **_pca_one(), **_ties()}
