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
def result(computed):
    return computed(page)


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


def test_the_exercises_answers_agree_with_scikit_learn_and_scipy(facts):
    from scipy.optimize import minimize_scalar
    from sklearn.decomposition import PCA as SklearnPCA
    from sklearn.metrics.pairwise import rbf_kernel
    from sklearn.preprocessing import KernelCenterer

    from kreport.data import three_people

    answers = facts["exercises"]
    # The lifted mean of A and B: the nearest image maximises the mean kernel value, found
    # here by scipy's bounded search instead of the fixed point.
    heights = np.asarray(three_people().rows, dtype=float)[:2, :1]
    for gamma, key, bounds in ((answers["gamma"], "settled", (169.0, 170.0)),
                               (answers["steep_gamma"], "steep", (169.0, 169.5))):
        table = rbf_kernel(heights, gamma=gamma)

        def distance(x, gamma=gamma, table=table):
            return 1.0 + table.mean() - 2.0 * rbf_kernel([[x]], heights, gamma=gamma).mean()

        best = minimize_scalar(distance, bounds=bounds, method="bounded",
                               options={"xatol": 1e-10})
        assert answers[key] == pytest.approx(best.x, abs=1e-5)  # a flat optimum
        if key == "settled":
            assert answers["squared_length"] == pytest.approx(table.mean(), rel=1e-12)
            assert answers["distance"] == pytest.approx(best.fun, rel=1e-9)
        else:
            assert answers["steep_distance"] == pytest.approx(best.fun, rel=1e-9)
            assert answers["steep_midpoint_distance"] == pytest.approx(distance(169.5), rel=1e-12)
    kernel = np.exp(-answers["gamma"])
    assert answers["first_step"] == pytest.approx((169.0 + 170.0 * kernel) / (1 + kernel),
                                                  rel=1e-14)
    # Ordinary PCA with one direction, by scikit-learn, against one half plus the variance.
    one = SklearnPCA(n_components=1).fit(NOISY)
    assert answers["measured"] == pytest.approx(
        _error(one.inverse_transform(one.transform(NOISY))), rel=1e-9)
    assert answers["predicted"] == pytest.approx(0.5 + np.var(NOISY - CLEAN, ddof=1), rel=1e-12)
    assert abs(answers["predicted"] - answers["measured"]) < answers["tolerance"]

    # The pairs: eigenvalues of scikit-learn's centred RBF tables.
    def gaps(rows):
        table = KernelCenterer().fit_transform(rbf_kernel(rows, gamma=answers["gamma"]))
        values = np.linalg.eigvalsh(table)[::-1][: 2 * answers["pairs"]]
        return (values[0::2] - values[1::2]) / values[0::2]

    angles = 2 * np.pi * np.arange(len(NOISY)) / len(NOISY)
    assert np.max(np.abs(gaps(np.column_stack([np.cos(angles), np.sin(angles)])))) < 1e-12
    assert np.max(np.abs(gaps(CLEAN))) < 1e-3
    assert answers["noisy_gaps"] == pytest.approx(gaps(NOISY).tolist(), rel=1e-8)
