"""The pre-images page: it computes, it claims enough, and its key facts agree with
kernel PCA, the fixed point and PCA written out in plain numpy, and with
scikit-learn's learned inverse map."""

from __future__ import annotations

import numpy as np
import pytest

from kreport.data import noisy_circle
from kreport.pages.preimages import page
from kreport.pages.preimages.settings import GAMMA, KEPT, LEARNED_PENALTY

FIXTURE = noisy_circle()
NOISY = np.asarray(FIXTURE.rows, dtype=float)
CLEAN = np.asarray(FIXTURE.extra_rows("clean_x1", "clean_x2"), dtype=float)


@pytest.fixture(scope="module")
def result():
    return page.compute()


@pytest.fixture(scope="module")
def facts(result):
    return result.facts


def _error(rows):
    return float(np.mean(np.sum((rows - CLEAN) ** 2, axis=1)))


def _rbf(a, b, gamma=GAMMA):
    return np.exp(-gamma * ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))


def _kpca(kept):
    n = len(NOISY)
    table = _rbf(NOISY, NOISY)
    centring = np.eye(n) - np.full((n, n), 1.0 / n)
    values, vectors = np.linalg.eigh(centring @ table @ centring)
    values, vectors = values[::-1], vectors[:, ::-1]
    return values, vectors[:, :kept] / np.sqrt(values[:kept]), table, centring


def test_the_page_computes_with_enough_claims_and_figures(result):
    assert len(result.claims) >= 12
    names = {name.replace("-narrow", "") for name in result.figures}
    assert names == {"preimages-denoised.svg", "preimages-errors.svg"}


def test_noisy_and_pca_errors_in_numpy(facts):
    section = facts["denoising"]
    assert section["noisy"] == pytest.approx(_error(NOISY), rel=1e-12)
    assert section["noisy"] == pytest.approx(0.0565, abs=5e-5)  # the library author's number
    centred = NOISY - NOISY.mean(axis=0)
    _, _, directions = np.linalg.svd(centred, full_matrices=False)
    first = directions[:1]
    rebuilt = centred @ first.T @ first + NOISY.mean(axis=0)
    assert section["pca_one"] == pytest.approx(_error(rebuilt), rel=1e-10)


def test_eigenvalues_in_numpy(facts):
    values, _, _, _ = _kpca(KEPT)
    np.testing.assert_allclose(facts["denoising"]["eigenvalues"],
                               values[: len(facts["denoising"]["eigenvalues"])], rtol=1e-10)


def test_fixed_point_in_numpy(facts):
    n = len(NOISY)
    _, beta, table, _ = _kpca(KEPT)
    query = _rbf(NOISY, NOISY)
    centred_query = (query - query.mean(axis=1, keepdims=True) - table.mean(axis=0)
                     + table.mean())
    coordinates = centred_query @ beta
    omega = 1.0 / n + coordinates @ (beta - beta.mean(axis=0)).T
    np.testing.assert_allclose(omega.sum(axis=1), 1.0, atol=1e-12)
    z = NOISY.copy()
    for _ in range(3000):
        w = omega * _rbf(z, NOISY)
        z = (w @ NOISY) / w.sum(axis=1, keepdims=True)
    assert facts["fixed_point_method"]["error"] == pytest.approx(_error(z), rel=1e-6)
    assert facts["fixed_point_method"]["error"] == pytest.approx(0.0309, abs=5e-5)


def test_scikit_learns_learned_map_is_the_uncentred_one(facts):
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    model = SklearnKernelPCA(n_components=KEPT, kernel="rbf", gamma=GAMMA,
                             fit_inverse_transform=True, alpha=LEARNED_PENALTY).fit(NOISY)
    rebuilt = model.inverse_transform(model.transform(NOISY))
    assert facts["learned_map"]["sklearn_error"] == pytest.approx(_error(rebuilt), rel=1e-8)
    # and kreport's centred map, in numpy: kernel ridge on each centred feature
    _, beta, table, _ = _kpca(KEPT)
    n = len(NOISY)
    centring = np.eye(n) - np.full((n, n), 1.0 / n)
    scores = centring @ table @ centring @ beta
    gram = _rbf(scores, scores) + LEARNED_PENALTY * np.eye(n)
    mean = NOISY.mean(axis=0)
    ours = _rbf(scores, scores) @ np.linalg.solve(gram, NOISY - mean) + mean
    assert facts["learned_map"]["error"] == pytest.approx(_error(ours), rel=1e-8)
