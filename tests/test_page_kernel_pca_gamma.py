"""Kernel PCA across gamma: the exercises' answers, recomputed with numpy, scipy and
scikit-learn from the CSV files, without kreport's models (the rest of the page is
checked, with the other two parts, in test_page_kernel_pca.py)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.spatial.distance import pdist

DATA = Path(__file__).resolve().parents[1] / "kreport" / "data"
RING_GAMMA = 0.005


def load(name: str):
    with open(DATA / f"{name}.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    people = np.array([[float(r["height_cm"]), float(r["weight_kg"])] for r in rows])
    inner = np.array([r.get("group") == "inner" for r in rows])
    return people, inner


def rbf(rows, gamma):
    squared = ((rows[:, None, :] - rows[None, :, :]) ** 2).sum(axis=-1)
    return np.exp(-gamma * squared)


def centre(table):
    return table - table.mean(axis=0) - table.mean(axis=1)[:, None] + table.mean()


@pytest.fixture(scope="module")
def exercises(computed):
    from kreport.pages.kernel_pca_gamma import page

    return computed(page).facts["exercises"]


def test_exercise_the_triangle_ties(exercises):
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    side = exercises["side"]
    # another placement and orientation of the same triangle: the answers must not care
    turn = 0.3
    corners = side / np.sqrt(3) * np.array(
        [[np.cos(turn + k * 2 * np.pi / 3), np.sin(turn + k * 2 * np.pi / 3)] for k in range(3)])
    corners += [170.0, 68.0]
    table = rbf(corners, RING_GAMMA)
    assert exercises["off"] == pytest.approx(np.exp(-RING_GAMMA * side**2), rel=1e-12)
    values = np.linalg.eigvalsh(centre(table))[::-1]
    assert values[:2] == pytest.approx([1 - exercises["off"]] * 2, rel=1e-10)
    assert exercises["tied_value"] == pytest.approx(values[0], rel=1e-10)
    assert exercises["tied_shares"] == pytest.approx([0.5, 0.5], rel=1e-10)
    scores = SklearnKernelPCA(kernel="rbf", gamma=RING_GAMMA, n_components=2).fit_transform(
        corners)
    radius = np.hypot(scores[:, 0], scores[:, 1])
    assert radius == pytest.approx([exercises["radius"]] * 3, rel=1e-8)
    assert pdist(scores) == pytest.approx([exercises["lifted_side"]] * 3, rel=1e-8)
    assert exercises["lifted_side"] == pytest.approx(np.sqrt(2 - 2 * exercises["off"]),
                                                     rel=1e-12)


def test_exercise_median_rule_on_the_four(exercises):
    four, _ = load("measured_four")
    squared = pdist(four, "sqeuclidean")
    assert exercises["four"] == four.astype(int).tolist()
    assert exercises["squared"] == sorted(squared.astype(int).tolist())
    assert exercises["median"] == np.median(squared) == 250
    gamma = 1 / np.median(squared)
    assert exercises["median_gamma"] == pytest.approx(gamma, rel=1e-15)
    assert exercises["reach"] == pytest.approx(1 / np.sqrt(gamma), rel=1e-12)
    table = rbf(four, gamma)
    assert exercises["ab_value"] == pytest.approx(table[0, 1], rel=1e-12)
    assert exercises["cd_value"] == pytest.approx(table[2, 3], rel=1e-12)
    assert np.isclose(table, np.exp(-1)).sum() == 2 * exercises["at_reach_count"] == 8
    wide = four.mean(axis=0) + 2 * (four - four.mean(axis=0))
    wide_gamma = 1 / np.median(pdist(wide, "sqeuclidean"))
    assert exercises["wide_gamma"] == pytest.approx(wide_gamma, rel=1e-15)
    assert rbf(wide, wide_gamma) == pytest.approx(table, rel=1e-12)


def test_exercise_closest_approach_at_the_band_edge(exercises):
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    ring, inner = load("ring")

    def relative(log_gamma):
        values = np.linalg.eigvalsh(centre(rbf(ring, np.exp(log_gamma))))[::-1]
        return (values[0] - values[1]) / values[0]

    low, high = exercises["edge"]
    assert (low, high) == (0.0027, 0.003)
    found = minimize_scalar(relative, bounds=(np.log(low), np.log(high)), method="bounded",
                            options={"xatol": 1e-12})
    assert exercises["closest"] == pytest.approx(found.fun, rel=1e-6)
    assert exercises["closest_at"] == pytest.approx(np.exp(found.x), rel=1e-4)
    assert exercises["edge_gaps"] == pytest.approx([relative(np.log(low)),
                                                    relative(np.log(high))], rel=1e-9)
    assert 0 < found.fun < min(exercises["edge_gaps"])
    # a dense scan agrees: no crossing anywhere in the stretch
    scan = [relative(g) for g in np.linspace(np.log(low), np.log(high), 301)]
    assert min(scan) >= found.fun * (1 - 1e-6) and min(scan) > 0
    # scikit-learn's shares there, and which direction splits at the two ends
    fitted = SklearnKernelPCA(kernel="rbf", gamma=np.exp(found.x)).fit(ring)
    shares = fitted.eigenvalues_ / np.trace(centre(rbf(ring, np.exp(found.x))))
    assert exercises["closest_shares"] == pytest.approx(shares[:2], rel=1e-4)

    def splitting(gamma):
        z = SklearnKernelPCA(kernel="rbf", gamma=gamma, n_components=3).fit_transform(ring)
        return [j + 1 for j in range(3)
                if z[inner, j].max() < z[~inner, j].min() or z[inner, j].min() > z[~inner, j].max()]

    assert splitting(low) == [2] and splitting(high) == [1]
