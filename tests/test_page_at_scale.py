"""The at-scale page: its key numbers agree with the same quantities worked out
independently in plain numpy and scipy (no kreport model involved), and its rows
are the first rows of the sequence its timing study generates."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import eigh, eigvalsh
from scipy.spatial.distance import cdist

from kreport import data
from kreport.approx.distributed import random_block
from kreport.pages import at_scale_large
from kreport.pages.at_scale import measured, page
from kreport.pages.at_scale.settings import (
    BLOCK_ROWS,
    COUNTS,
    DIRECTIONS,
    GAMMA,
    LANDMARK_SEED,
    PENALTY,
    RANDOM_SEEDS,
    ROUGH_GAMMA,
    ROWS_SEED,
)


@pytest.fixture(scope="module")
def result(computed):
    return computed(page)


@pytest.fixture(scope="module")
def large_result(computed):
    """The page's second part (split by topic, issue 17): the timing study's sections."""
    return computed(at_scale_large.page)


@pytest.fixture(scope="module")
def facts(result, large_result):
    # Each part has its own exercises; every other section belongs to one part only.
    shared = set(result.facts) & set(large_result.facts) - {"exercises"}
    assert not shared, "two parts compute one section"
    return {**result.facts, **large_result.facts, "exercises": result.facts["exercises"],
            "large_exercises": large_result.facts.get("exercises")}


@pytest.fixture(scope="module")
def rows():
    fixture = data.scale_rows()
    X, y = np.asarray(fixture.rows), np.asarray(fixture.target)
    train, test = fixture.mask("train"), fixture.mask("test")
    return X[train], y[train], X[test], y[test]


def rbf(A, B, gamma=GAMMA):
    return np.exp(-gamma * cdist(A, B, "sqeuclidean"))


def landmarks(n, count):
    return np.random.RandomState(LANDMARK_SEED).permutation(n)[:count]


def nystroem_features(X, marks, gamma=GAMMA):
    values, vectors = eigh(rbf(marks, marks, gamma))
    return rbf(X, marks, gamma) @ (vectors / np.sqrt(values)) @ vectors.T


def random_features(X, count, seed, gamma=GAMMA):
    state = np.random.RandomState(seed)
    W = np.sqrt(2 * gamma) * state.normal(size=(X.shape[1], count))
    b = state.uniform(0, 2 * np.pi, size=count)
    return np.sqrt(2.0 / count) * np.cos(X @ W + b)


def rms(values):
    return float(np.sqrt(np.mean(np.square(values))))


def test_the_page_computes_with_enough_claims_and_figures(result, large_result):
    assert len(result.claims) >= 15
    names = {name.replace("-narrow", "") for name in result.figures}
    assert names == {f"at-scale-{name}.svg" for name in ("accuracy", "compare")}
    names = {name.replace("-narrow", "") for name in large_result.figures}
    assert names == {f"at-scale-large-{name}.svg" for name in ("wall", "million")}


def test_timing_sections_and_their_figures_are_machine_specific():
    large = at_scale_large.page
    assert large.machine_specific == ("wall", "million", "streamed")
    assert measured.TIMINGS in large.extra_inputs
    drawn_from_timings = {"wall", "million"}
    assert drawn_from_timings <= set(large.machine_specific)
    assert drawn_from_timings <= {figure.name for figure in large.figures}
    # the first part reads no timing: all of it is computed in the build and locked
    assert not page.machine_specific and measured.TIMINGS not in page.extra_inputs


def test_the_rows_are_the_first_of_the_timing_studys_sequence():
    fixture = data.scale_rows()
    block, target = random_block(ROWS_SEED, 0, BLOCK_ROWS, 5)
    np.testing.assert_allclose(fixture.rows, block[:fixture.n], rtol=0, atol=5.0001e-5)
    np.testing.assert_allclose(fixture.target, target[:fixture.n], rtol=0, atol=5.0001e-5)


def test_exact_kernel_ridge(facts, rows):
    X, y, Xq, yq = rows
    means = X.mean(axis=0)
    weights = np.linalg.solve(rbf(X - means, X - means) + PENALTY * np.eye(len(X)), y - y.mean())
    predicted = rbf(Xq - means, X - means) @ weights + y.mean()
    assert facts["problem"]["exact_error"] == pytest.approx(rms(predicted - yq), rel=1e-9)
    assert facts["problem"]["floor"] == pytest.approx(rms(yq - np.sin(Xq[:, 0])), rel=1e-12)
    assert facts["problem"]["table_entries"] == len(X) ** 2


def test_exact_kernel_pca(facts, rows):
    X = rows[0]
    n = len(X)
    table = rbf(X, X)
    centring = np.eye(n) - np.full((n, n), 1.0 / n)
    values = eigvalsh(centring @ table @ centring)[::-1] / (n - 1)
    section = facts["kernel_pca"]
    np.testing.assert_allclose(section["exact_variances"], values[:DIRECTIONS], rtol=1e-8)
    assert section["exact_total"] == pytest.approx(values.sum(), rel=1e-9)


def test_nystroem_kernel_pca_from_numpy_features(facts, rows):
    X = rows[0]
    for row in facts["kernel_pca"]["rows"]:
        count = row["count"]
        features = nystroem_features(X, X[landmarks(len(X), count)])
        centred = features - features.mean(axis=0)
        values = eigvalsh(centred.T @ centred)[::-1] / (len(X) - 1)
        np.testing.assert_allclose(row["variances"], values[:DIRECTIONS], rtol=1e-6)
        assert row["total"] == pytest.approx(values.sum(), rel=1e-6)


def test_nystroem_kernel_ridge_solves_the_landmark_system(facts, rows):
    """β minimises ‖y_c − K_nM β‖² + α βᵀ K_MM β; checked where K_MM is well conditioned."""
    X, y, Xq, yq = rows
    means = X.mean(axis=0)
    for row in facts["kernel_ridge"]["rows"][:3]:
        marks = (X - means)[landmarks(len(X), row["count"])]
        K_nm, K_mm = rbf(X - means, marks), rbf(marks, marks)
        beta = np.linalg.solve(K_nm.T @ K_nm + PENALTY * K_mm, K_nm.T @ (y - y.mean()))
        predicted = rbf(Xq - means, marks) @ beta + y.mean()
        assert row["error"] == pytest.approx(rms(predicted - yq), rel=1e-6)


def test_table_errors_of_both_maps(facts, rows):
    X, _, Xq, _ = rows
    for gamma, table_rows in ((GAMMA, facts["compare"]["smooth"]),
                              (ROUGH_GAMMA, facts["compare"]["rough"])):
        exact = rbf(Xq, Xq, gamma)
        for row in table_rows:
            count = row["count"]
            features = nystroem_features(Xq, X[landmarks(len(X), count)], gamma)
            error = np.linalg.norm(exact - features @ features.T) / np.linalg.norm(exact)
            assert row["nystroem"] == pytest.approx(error, rel=1e-6)
            drawn = [np.linalg.norm(exact - (f := random_features(Xq, count, seed, gamma))
                                    @ f.T) / np.linalg.norm(exact) for seed in RANDOM_SEEDS]
            assert row["mean"] == pytest.approx(np.mean(drawn), rel=1e-9)
            assert row["low"] == pytest.approx(min(drawn), rel=1e-9)


def test_random_features_converge_like_one_over_root_d(facts):
    assert -0.6 < facts["compare"]["smooth_random_slope"] < -0.4
    assert [row["count"] for row in facts["compare"]["smooth"]] == list(COUNTS)


def test_every_row_a_landmark_is_the_exact_fit(facts):
    section = facts["landmarks"]
    assert section["all_rows"] == section["all_rows_rank"] == 1500
    assert section["all_rows_agreement"].exponent == -9


def test_part_one_exercises_agree_with_scikit_learn_and_numpy(facts, rows):
    from sklearn.kernel_approximation import Nystroem as SklearnNystroem

    answers = facts["exercises"]
    # What the table costs, counted in plain integers.
    n, m = len(rows[0]), COUNTS[3]
    assert (answers["n"], answers["m"]) == (n, m)
    assert answers["table_bytes"] == np.zeros((n, n)).nbytes
    assert answers["feature_bytes"] == np.zeros((n, m)).nbytes
    assert answers["landmark_bytes"] == np.zeros((m, m)).nbytes
    assert answers["work_ratio"] * answers["nystroem_work"] == answers["exact_work"] == n**3
    assert answers["doubled_table_bytes"] == 4 * answers["table_bytes"]
    assert answers["doubled_exact_work"] == 8 * answers["exact_work"]
    assert answers["doubled_feature_bytes"] == 2 * answers["feature_bytes"]
    # One landmark on the three people's heights: K_nM K_MM⁻¹ K_Mn with B as the landmark.
    heights = np.asarray(data.three_people().rows, dtype=float)[:, :1]
    gamma = answers["people_gamma"]
    table = rbf(heights, heights, gamma)
    column = rbf(heights, heights[1:2], gamma)
    approximate = column @ column.T / rbf(heights[1:2], heights[1:2], gamma)[0, 0]
    np.testing.assert_allclose(answers["exact_table"], table, rtol=1e-14)
    np.testing.assert_allclose(answers["approximate_table"], approximate, rtol=1e-14)
    assert np.linalg.matrix_rank(approximate) == 1
    assert approximate[0, 2] > table[0, 2]
    difference = eigvalsh(table - approximate)[::-1]
    assert answers["difference_eigenvalues"] == pytest.approx(difference[:2], rel=1e-12)
    assert difference[0] == pytest.approx(1 - np.exp(-4 * gamma), rel=1e-12)
    assert difference[1] == pytest.approx((1 - np.exp(-2 * gamma)) ** 2, rel=1e-12)
    # Nyström against the best table of its rank, with scikit-learn's Nystroem.
    X, _, Xq, _ = rows
    K = rbf(Xq, Xq)
    values = eigvalsh(K)[::-1]
    for row in answers["best_rows"]:
        sk = SklearnNystroem(gamma=GAMMA, n_components=row["count"],
                             random_state=LANDMARK_SEED).fit(X)
        features = sk.transform(Xq)
        error = np.linalg.norm(K - features @ features.T) / np.linalg.norm(K)
        assert row["nystroem"] == pytest.approx(error, rel=1e-6)
        best = np.sqrt(np.sum(values[row["count"]:] ** 2)) / np.linalg.norm(K)
        assert row["best"] == pytest.approx(best, rel=1e-6)
        assert error >= best


def test_part_two_exercises_agree_with_scikit_learn_and_numpy(facts, rows):
    from sklearn.kernel_approximation import Nystroem as SklearnNystroem

    answers = facts["large_exercises"]
    # The wall of a stated machine: the largest n whose tables fit, found by counting up.
    memory = answers["gib"] * 2**30
    n = int(np.floor(np.sqrt(memory / (answers["tables"] * 8))))
    while answers["tables"] * 8 * (n + 1) ** 2 <= memory:
        n += 1
    assert answers["wall_rows"] == n == 2**15
    assert answers["table_gib"] * 2**30 == np.zeros((1, 1)).nbytes * n * n
    assert answers["feature_mib"] * 2**20 == 8 * n * answers["wall_centres"]
    assert answers["held_rows"] == memory // (8 * answers["wall_centres"])
    # FALKON's passes at M = ⌊√n⌋.
    m = int(np.floor(np.sqrt(answers["rows"])))
    assert answers["centres"] == m
    assert answers["passes"] == m == answers["normal_work"] // answers["pass_work"]
    assert answers["system_mib"] == pytest.approx(8 * m * m / 2**20, rel=1e-15)
    assert answers["features_gib"] == pytest.approx(8 * answers["rows"] * m / 2**30, rel=1e-15)
    # Block sums with scikit-learn's Nystroem (its landmarks are kreport's, by the same rule),
    # against ridge on the whole feature table with the target centred.
    X, y, Xq, yq = rows
    sk = SklearnNystroem(gamma=GAMMA, n_components=answers["count"],
                         random_state=LANDMARK_SEED).fit(X)
    normal, right = 0.0, 0.0
    for start in range(0, len(X), answers["block"]):
        block = sk.transform(X[start : start + answers["block"]])
        normal = normal + block.T @ block
        right = right + block.T @ (y[start : start + answers["block"]] - y.mean())
    weights = np.linalg.solve(normal + PENALTY * np.eye(answers["count"]), right)
    whole = sk.transform(X)
    at_once = np.linalg.solve(whole.T @ whole + PENALTY * np.eye(answers["count"]),
                              whole.T @ (y - y.mean()))
    np.testing.assert_allclose(weights, at_once, rtol=0, atol=1e-10)
    error = np.sqrt(np.mean((y.mean() + sk.transform(Xq) @ weights - yq) ** 2))
    assert answers["error"] == pytest.approx(error, rel=1e-6)
    part_one = facts["kernel_ridge"]["rows"][COUNTS.index(answers["count"])]["error"]
    assert answers["part_one_error"] == pytest.approx(part_one, rel=1e-9)
    assert answers["blocks"] == len(range(0, len(X), answers["block"]))
