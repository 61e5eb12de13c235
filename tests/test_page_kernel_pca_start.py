"""The ten-minute kernel PCA page: its numbers and its exercises' answers, worked
out again with scikit-learn and plain numpy and scipy (no kreport fitting code), from
the CSV fixtures."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.decomposition import KernelPCA as SklearnKernelPCA

from kreport.data import measured_four, ring, three_people
from kreport.pages.kernel_pca.settings import KEPT, RING_GAMMA, ROUND_OUTSIDE
from kreport.pages.kernel_pca_start import page
from kreport.pages.kernel_pca_start.settings import SHARE_LEVEL
from kreport.pages.kernel_pca_start.start import NUMPY_ROUTE
from kreport.pages.kernel_pca_steps.settings import RBF_GAMMA as FOUR_GAMMA


@pytest.fixture(scope="module")
def facts(computed):
    return computed(page).facts


def _ring():
    found = ring()
    return np.asarray(found.rows, dtype=float), np.asarray(found.mask("inner"), dtype=bool)


def _signed(columns):
    """The stated convention: each column's largest-magnitude entry made positive
    (lowest index among entries tied within 1e-9)."""
    columns = np.array(columns, dtype=float)
    for j in range(columns.shape[1]):
        size = np.abs(columns[:, j])
        first = int(np.argmax(size >= size.max() * (1 - 1e-9)))
        if columns[first, j] < 0:
            columns[:, j] *= -1
    return columns


def _sklearn(x, gamma, n_components=None):
    model = SklearnKernelPCA(n_components=n_components, kernel="rbf", gamma=gamma,
                             eigen_solver="dense")
    scores = model.fit_transform(x)
    return model, scores


def _gap(coordinates, mask):
    """The gap between the groups along one axis (negative: minus their overlap)."""
    a, b = coordinates[mask], coordinates[~mask]
    margin = max(b.min() - a.max(), a.min() - b.max())
    return margin if margin > 0 else -(min(a.max(), b.max()) - max(a.min(), b.min()))


def _centred_eigen(table):
    n = len(table)
    centring = np.eye(n) - np.full((n, n), 1.0 / n)
    return np.linalg.eigvalsh(centring @ table @ centring)[::-1]


def test_pca_mixes_the_ring_and_the_rbf_kernel_splits_it(facts):
    x, mask = _ring()
    centred = x - x.mean(axis=0)
    _, singular, vt = np.linalg.svd(centred, full_matrices=False)
    shares = singular**2 / np.sum(singular**2)
    coordinates = centred @ vt.T
    found = facts["the_problem"]
    assert found["pca_shares"] == pytest.approx(shares, rel=1e-10)
    assert found["pca_overlaps"] == pytest.approx(
        [-_gap(coordinates[:, j], mask) for j in range(2)], rel=1e-10)
    _, scores = _sklearn(x, RING_GAMMA, n_components=1)
    assert _gap(scores[:, 0], mask) > 0
    assert found["kernel_gap"] == pytest.approx(_gap(scores[:, 0], mask), rel=1e-9)


def test_the_printed_numpy_lines_give_sklearns_coordinates_under_the_stated_signs(facts):
    x, _ = _ring()
    scope = {"X": x, "gamma": RING_GAMMA, "keep": KEPT,
             "tol": 1e-10}  # the threshold the page states
    exec(NUMPY_ROUTE, scope)
    model, scores = _sklearn(x, RING_GAMMA, n_components=KEPT)
    expected = _signed(scores)
    assert np.abs(scope["Z"] - expected).max() < 1e-12 * np.abs(expected).max()
    found = facts["numpy_route"]
    assert found["eigenvalues"] == pytest.approx(model.eigenvalues_, rel=1e-12)
    assert found["variances"] == pytest.approx(model.eigenvalues_ / (len(x) - 1), rel=1e-12)
    # The lead of each column's largest entry over its next, from sklearn's vectors.
    ordered = np.sort(np.abs(scores), axis=0)[::-1]
    assert found["lead"] == pytest.approx(np.min(1 - ordered[1] / ordered[0]), rel=1e-6)


def test_the_settings_by_sklearn_and_numpy(facts):
    x, mask = _ring()
    found = facts["the_settings"]
    wide, narrow = ROUND_OUTSIDE
    for gamma, key in ((wide, "wide_overlap"), (narrow, "narrow_overlap")):
        _, scores = _sklearn(x, gamma, n_components=1)
        assert _gap(scores[:, 0], mask) < 0
        assert found[key] == pytest.approx(-_gap(scores[:, 0], mask), rel=1e-9)
    assert found["reach"] == pytest.approx(1 / np.sqrt(RING_GAMMA), rel=1e-15)
    values = _centred_eigen(np.exp(-RING_GAMMA * cdist(x, x, "sqeuclidean")))
    kept = values[values > 1e-10 * values[0]]
    assert found["directions"] == len(kept) == len(x) - 1
    shares = kept / values.clip(min=0).sum()
    assert found["shares"] == pytest.approx(shares[:2], rel=1e-10)
    assert found["needed"] == int(np.argmax(np.cumsum(shares) >= SHARE_LEVEL)) + 1
    # Truncation: sklearn's two kept coordinates against its full fit's first two.
    _, few = _sklearn(x, RING_GAMMA, n_components=KEPT)
    _, every = _sklearn(x, RING_GAMMA)
    assert np.abs(_signed(few) - _signed(every[:, :KEPT])).max() < 1e-12
    # Centring skipped: the four's raw linear table.
    four = np.asarray(measured_four().rows, dtype=float)
    raw = four @ four.T
    assert found["raw_share"] == pytest.approx(np.linalg.eigvalsh(raw)[-1] / np.trace(raw),
                                               rel=1e-12)


def test_the_exercises_answers_by_hand(facts):
    answers = facts["exercises"]
    # 1. Three people, linear kernel: deviations on a line, a rank-one table.
    people = np.column_stack([np.asarray(three_people().rows, dtype=float),
                              np.asarray(three_people().target, dtype=float)])
    deviations = people - people.mean(axis=0)
    table = deviations @ deviations.T
    assert answers["deviations"] == deviations.tolist()
    assert answers["centred"] == table.tolist()
    assert answers["eigenvalue"] == pytest.approx(np.trace(table), rel=1e-12)
    assert answers["entry"] == pytest.approx(1 / np.sqrt(2), rel=1e-12)
    # the tie between the outer two goes to the first person: +√37 first
    distance = np.sqrt(deviations[0] @ deviations[0])
    assert answers["scores_outer"] == pytest.approx([distance, -distance], rel=1e-12)
    # 2. Two people, RBF: one eigenvalue 1 − k, coordinates ±√((1 − k)/2).
    two = np.asarray(measured_four().rows, dtype=float)[:2]
    squared = np.sum((two[0] - two[1]) ** 2)
    value = np.exp(-FOUR_GAMMA * squared)
    assert answers["two_squared"] == squared
    assert answers["two_value"] == pytest.approx(value, rel=1e-12)
    assert answers["two_eigenvalue"] == pytest.approx(1 - value, rel=1e-12)
    model, scores = _sklearn(two, FOUR_GAMMA, n_components=1)
    assert model.eigenvalues_[0] == pytest.approx(1 - value, rel=1e-12)
    half = np.sqrt((1 - value) / 2)
    assert answers["two_scores"] == pytest.approx([half, -half], rel=1e-12)
    assert np.abs(scores[:, 0]) == pytest.approx([half, half], rel=1e-12)
    assert answers["two_distance"] == pytest.approx(np.sqrt(2 - 2 * value), rel=1e-12)
    # 3. The ring without centring: eigh of the raw table.
    x, _ = _ring()
    raw = np.exp(-RING_GAMMA * cdist(x, x, "sqeuclidean"))
    values, vectors = np.linalg.eigh(raw)
    first = vectors[:, -1]
    assert np.all(first > 0) or np.all(first < 0)
    assert answers["raw_eigenvalue"] == pytest.approx(values[-1], rel=1e-12)
    assert answers["raw_share"] == pytest.approx(values[-1] / np.trace(raw), rel=1e-12)
    model, scores = _sklearn(x, RING_GAMMA, n_components=1)
    assert answers["centred_eigenvalue"] == pytest.approx(model.eigenvalues_[0], rel=1e-12)
    assert answers["raw_eigenvalue"] > answers["centred_eigenvalue"]
    correlation = abs(np.corrcoef(first, scores[:, 0])[0, 1])
    assert answers["correlation"] == pytest.approx(correlation, rel=1e-9)
