"""The limits of kernel PCA: the exercises' answers, recomputed with numpy and
scikit-learn from the CSV files, without kreport's models (the rest of the page is
checked, with the other two parts, in test_page_kernel_pca.py)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

DATA = Path(__file__).resolve().parents[1] / "kreport" / "data"
RING_GAMMA, ARC_GAMMA = 0.005, 0.002


def load(name: str) -> np.ndarray:
    with open(DATA / f"{name}.csv", newline="") as handle:
        return np.array([[float(r["height_cm"]), float(r["weight_kg"])]
                         for r in csv.DictReader(handle)])


def rbf(a, b, gamma):
    return np.exp(-gamma * ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=-1))


def centre(table):
    return table - table.mean(axis=0) - table.mean(axis=1)[:, None] + table.mean()


@pytest.fixture(scope="module")
def exercises(computed):
    from kreport.pages.kernel_pca_limits import page

    return computed(page).facts["exercises"]


def test_exercise_two_people_and_two_newcomers(exercises):
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    two = load("measured_four")[:2]
    assert exercises["two"] == two.astype(int).tolist()
    table = rbf(two, two, RING_GAMMA)
    assert exercises["off"] == pytest.approx(np.exp(-RING_GAMMA * 800), rel=1e-12)
    value = np.linalg.eigvalsh(centre(table))[-1]
    assert exercises["two_value"] == pytest.approx(value, rel=1e-12)
    fitted = SklearnKernelPCA(kernel="rbf", gamma=RING_GAMMA, n_components=1).fit(two)
    scores = fitted.transform(two)[:, 0]
    scores = scores * np.sign(scores[0])
    assert exercises["two_score"] == pytest.approx(scores[0], rel=1e-9)
    assert scores[1] == pytest.approx(-scores[0], rel=1e-9)
    midpoint, stranger = two.mean(axis=0), np.array([1000.0, -200.0])
    assert exercises["midpoint"] == midpoint.astype(int).tolist()
    assert exercises["stranger"] == stranger.astype(int).tolist()
    assert np.abs(fitted.transform(np.vstack([midpoint, stranger]))).max() < 1e-12
    distances = []
    for q in (midpoint, stranger):
        k_q = rbf(q[None, :], two, RING_GAMMA)[0]
        distances.append(1 - 2 * k_q.mean() + table.mean())
    assert exercises["k_mid"] == pytest.approx(np.exp(-1), rel=1e-12)
    assert exercises["lifted_distances"] == pytest.approx(distances, rel=1e-12)


def test_exercise_the_four_entered_twice(exercises):
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    four = load("measured_four")
    eight = np.vstack([four, four])
    once = np.linalg.eigvalsh(centre(four @ four.T))[::-1][:2]
    twice = np.linalg.eigvalsh(centre(eight @ eight.T))[::-1][:2]
    assert exercises["once_values"] == [400, 100] == np.rint(once).astype(int).tolist()
    assert exercises["twice_values"] == [800, 200] == np.rint(twice).astype(int).tolist()
    assert exercises["twice_divisor"] == len(eight) - 1
    assert exercises["twice_variances"] == pytest.approx(twice / (len(eight) - 1), rel=1e-12)
    assert exercises["once_variances"] == pytest.approx(once / (len(four) - 1), rel=1e-12)
    assert exercises["shrink"] == pytest.approx(6 / 7, rel=1e-15)
    assert exercises["twice_shares"] == pytest.approx(twice / twice.sum(), rel=1e-12)
    z_once = SklearnKernelPCA(kernel="linear", n_components=2).fit_transform(four)
    z_twice = SklearnKernelPCA(kernel="linear", n_components=2).fit_transform(eight)
    signs = np.sign((z_once * z_twice[:4]).sum(axis=0))
    assert z_twice[:4] * signs == pytest.approx(z_once, abs=1e-9)
    assert z_twice[4:] * signs == pytest.approx(z_once, abs=1e-9)


def test_exercise_the_arc_goes_round(exercises):
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    arc = load("arc")
    arc = arc[np.argsort(arc[:, 0], kind="stable")]
    z = SklearnKernelPCA(kernel="rbf", gamma=ARC_GAMMA, n_components=2).fit_transform(arc)
    for flip in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        turned = z * flip
        angle = np.unwrap(np.arctan2(turned[:, 1], turned[:, 0]))
        steps = np.degrees(np.diff(angle))
        assert np.all(steps > 0) or np.all(steps < 0)
        assert exercises["swept"] == pytest.approx(abs(np.degrees(angle[-1] - angle[0])),
                                                   rel=1e-8)
        assert exercises["smallest_step"] == pytest.approx(np.abs(steps).min(), rel=1e-7)
        assert exercises["largest_step"] == pytest.approx(np.abs(steps).max(), rel=1e-7)
    radius = np.hypot(z[:, 0], z[:, 1])
    assert exercises["radius_range"] == pytest.approx([radius.min(), radius.max()], rel=1e-8)
    first = np.sign(np.diff(z[:, 0]))
    assert int(np.count_nonzero(first[1:] != first[:-1])) == exercises["first_turns"] == 2
