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
def result():
    return page.compute()


@pytest.fixture(scope="module")
def large_result():
    """The page's second part (split by topic, issue 17): the timing study's sections."""
    return at_scale_large.page.compute()


@pytest.fixture(scope="module")
def facts(result, large_result):
    assert not set(result.facts) & set(large_result.facts), "two parts compute one section"
    return {**result.facts, **large_result.facts}


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
