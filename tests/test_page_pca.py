"""The PCA page: its numbers agree with plain numpy (no kreport model involved) and with
the numbers the source documents fix on the measured four and the arc."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kreport.report.facts import Bound
from kreport.report.page import PageResult

DATA = Path(__file__).resolve().parents[1] / "kreport" / "data"


def read(name: str, columns=(0, 1)) -> np.ndarray:
    return np.loadtxt(DATA / f"{name}.csv", delimiter=",", skiprows=1, usecols=columns)


def groups(name: str) -> np.ndarray:
    labels = np.loadtxt(DATA / f"{name}.csv", delimiter=",", skiprows=1, usecols=2, dtype=str)
    return labels == "inner"


def unit_eigen(S: np.ndarray):
    values, vectors = np.linalg.eigh(S)
    return values[::-1], vectors[:, ::-1]


@pytest.fixture(scope="module")
def result(computed) -> PageResult:
    from kreport.pages.pca import page

    return computed(page)


@pytest.fixture(scope="module")
def facts(result):
    return result.facts


def test_the_page_computes_its_claims_and_figures(result):
    assert len(result.claims) >= 12
    assert {name.split("-", 1)[1] for name in result.figures} >= {
        "rebuilt.svg", "units.svg", "usefulness.svg"}


def test_measured_four_scatter_and_eigenvalues(facts):
    X = read("measured_four")
    Xc = X - X.mean(axis=0)
    S = Xc.T @ Xc
    assert np.array_equal(np.array(facts["scatter_matrix"]["scatter"]), S)
    assert S.tolist() == [[250, 150], [150, 250]]
    assert facts["scatter_matrix"]["eigenvalues"] == pytest.approx([400.0, 100.0], rel=1e-12)
    # The brief's centred table of the four: the Gram matrix of the centred rows.
    assert (Xc @ Xc.T).tolist() == [[200, -200, 0, 0], [-200, 200, 0, 0], [0, 0, 50, -50],
                                    [0, 0, -50, 50]]
    half = 1 / np.sqrt(2)
    assert np.allclose(facts["scatter_matrix"]["directions"], [[half, half], [half, -half]],
                       atol=1e-12)
    coordinates = facts["scatter_matrix"]["coordinates"]
    assert coordinates[0][0] == pytest.approx(np.sqrt(200), rel=1e-12)
    assert all(isinstance(coordinates[i][j], Bound) for i, j in ((0, 1), (1, 1), (2, 0), (3, 0)))


def test_divisors(facts):
    lam = np.array([400.0, 100.0])
    divisor = facts["divisor"]
    assert divisor["over_n1"] == pytest.approx(lam / 3, rel=1e-12)
    assert divisor["over_n"] == pytest.approx(lam / 4, rel=1e-12)
    assert divisor["shares"] == pytest.approx([0.8, 0.2], rel=1e-12)
    X = read("measured_four")
    assert divisor["sd_n1"] == pytest.approx(np.std(X, axis=0, ddof=1), rel=1e-12)
    assert divisor["sd_n"] == pytest.approx(np.std(X, axis=0), rel=1e-12)


def test_uncentred_scatter_matches_the_source_documents(facts):
    X = read("measured_four")
    values = np.linalg.eigvalsh(X.T @ X)
    assert facts["centring"]["top"] == pytest.approx(values[-1], rel=1e-12)
    assert round(facts["centring"]["top"], 1) == 134449.5
    assert round(facts["centring"]["share"], 4) == 0.9989


def test_arc_matches_the_source_documents(facts):
    X = read("arc")
    Xc = X - X.mean(axis=0)
    values, _vectors = unit_eigen(Xc.T @ Xc)
    arc = facts["arc_directions"]
    assert arc["eigenvalues"] == pytest.approx(values, rel=1e-10)
    assert [round(v, 2) for v in arc["eigenvalues"]] == [7055.88, 3316.45]
    assert round(arc["shares"][0], 3) == 0.680
    assert round(arc["total"], 1) == 942.9
    assert round(arc["variances"][1], 1) == 301.5


def test_reconstruction_error_is_the_dropped_eigenvalue(facts):
    X = read("arc")
    mean = X.mean(axis=0)
    values, vectors = unit_eigen((X - mean).T @ (X - mean))
    v = vectors[:, 0]
    rebuilt = mean + np.outer((X - mean) @ v, v)
    residual = ((X - rebuilt) ** 2).sum(axis=1)
    rec = facts["reconstruction"]
    assert rec["error"] == pytest.approx(values[1], rel=1e-10)
    order = np.argsort(X[:, 0], kind="stable")
    assert [row["residual"] for row in rec["table"]] == pytest.approx(residual[order], rel=1e-8)
    assert rec["largest"] == pytest.approx(residual.max(), rel=1e-10)


def test_units_and_standardising(facts):
    X = read("arc")
    r = np.corrcoef(X.T)[0, 1]
    units = facts["standardising"]
    assert units["correlation"] == pytest.approx(r, rel=1e-10)
    assert units["std_shares"] == pytest.approx([(1 + abs(r)) / 2, (1 - abs(r)) / 2], rel=1e-10)
    metres = X * [0.01, 1.0]
    Mc = metres - metres.mean(axis=0)
    values, vectors = unit_eigen(Mc.T @ Mc)
    assert units["raw_m_shares"][0] == pytest.approx(values[0] / values.sum(), rel=1e-10)
    assert abs(vectors[1, 0]) == pytest.approx(abs(units["raw_m_first"][1]), rel=1e-10)


def test_ring_share_and_separation(facts):
    X = read("ring")
    inner = groups("ring")
    Xc = X - X.mean(axis=0)
    values, vectors = unit_eigen(Xc.T @ Xc)
    scores = Xc @ vectors
    useful = facts["share_not_usefulness"]
    assert useful["shares"] == pytest.approx(values / values.sum(), rel=1e-10)
    for m in range(2):
        a, b = scores[inner, m], scores[~inner, m]
        shift = min(a.max() - b.min(), b.max() - a.min())
        assert useful["shifts"][m] == pytest.approx(shift, rel=1e-9)
    radius = np.linalg.norm(Xc, axis=1)
    assert useful["radius_gap"] == pytest.approx(radius[~inner].min() - radius[inner].max(),
                                                 rel=1e-10)
    # the RBF kernel's first direction, from a plain eigen-decomposition of the centred table
    gamma = 0.005
    squared = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    K = np.exp(-gamma * squared)
    J = np.full(K.shape, 1 / len(K))
    Kc = K - J @ K - K @ J + J @ K @ J
    kvalues, kvectors = unit_eigen(Kc)
    z = Kc @ kvectors[:, 0] / np.sqrt(kvalues[0])
    gap = max(z[inner].min() - z[~inner].max(), z[~inner].min() - z[inner].max())
    assert useful["kernel_gap"] == pytest.approx(gap, rel=1e-8)
    assert useful["kernel_share"] == pytest.approx(kvalues[0] / kvalues[kvalues > 0].sum(),
                                                   rel=1e-8)


def test_sign_rule_on_the_measured_four(facts):
    assert facts["sign_convention"]["first_a"] == pytest.approx(np.sqrt(200), rel=1e-12)
    assert facts["sign_convention"]["second_c"] == pytest.approx(np.sqrt(50), rel=1e-12)


def test_the_exercises_answers_agree_with_scikit_learn_and_numpy(facts):
    from sklearn.decomposition import PCA as SklearnPCA

    answers = facts["exercises"]
    X = read("measured_four")
    # Rebuild the four from one direction with scikit-learn: C lands on the mean row, the
    # total squared residual is the second eigenvalue of the scatter matrix.
    one = SklearnPCA(n_components=1).fit(X)
    rebuilt = one.inverse_transform(one.transform(X))
    residuals = ((X - rebuilt) ** 2).sum(axis=1)
    assert rebuilt[2] == pytest.approx(X.mean(axis=0), rel=1e-12)
    assert answers["rebuilt_c"] == pytest.approx(rebuilt[2], rel=1e-12)
    assert [answers["residual_c"], answers["residual_d"]] == pytest.approx(residuals[2:], rel=1e-9)
    second = unit_eigen((X - X.mean(axis=0)).T @ (X - X.mean(axis=0)))[0][1]
    assert answers["total"] == pytest.approx(residuals.sum(), rel=1e-9)
    assert answers["total"] == pytest.approx(second, rel=1e-12)
    # The four in grams: raw shares from scikit-learn, standardised shares from the
    # correlation matrix's eigenvalues.
    grams = X * np.array([1.0, 1000.0])
    raw = SklearnPCA().fit(grams)
    assert answers["raw_shares"] == pytest.approx(raw.explained_variance_ratio_, rel=1e-6)
    assert abs(raw.components_[0, 1]) == pytest.approx(np.cos(np.radians(answers["weight_angle"])),
                                                       rel=1e-12)
    correlation = np.corrcoef(grams.T)
    assert answers["correlation"] == pytest.approx(correlation[0, 1], rel=1e-12)
    assert answers["std_shares"] == pytest.approx(np.linalg.eigvalsh(correlation)[::-1] / 2,
                                                  rel=1e-12)
    assert np.array(answers["grams_scatter"]) == pytest.approx(
        (grams - grams.mean(axis=0)).T @ (grams - grams.mean(axis=0)), rel=1e-15)
    # The arc without centring: the top eigenvector of XᵀX against the mean row.
    arc = read("arc")
    values, vectors = unit_eigen(arc.T @ arc)
    mean = arc.mean(axis=0)
    angle = np.degrees(np.arccos(abs(vectors[:, 0] @ mean) / np.linalg.norm(mean)))
    assert answers["uncentred_angle"] == pytest.approx(angle, rel=1e-9)
    assert answers["uncentred_share"] == pytest.approx(values[0] / values.sum(), rel=1e-12)
    first = SklearnPCA().fit(arc).components_[0]
    assert answers["centred_first"] == pytest.approx(first * np.sign(first[0]), rel=1e-9)
    assert answers["centred_angle"] == pytest.approx(
        np.degrees(np.arccos(abs(first @ mean) / np.linalg.norm(mean))), rel=1e-9)
