"""scikit-learn as an independent oracle, on seeded random data."""

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")
from sklearn.decomposition import PCA as SkPCA  # noqa: E402
from sklearn.decomposition import KernelPCA as SkKernelPCA  # noqa: E402
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge  # noqa: E402
from sklearn.linear_model import Ridge as SkRidge  # noqa: E402

from kreport import PCA, KernelPCA, KernelRidge, Ridge, kernels  # noqa: E402

RNG = np.random.default_rng(2024)
X = RNG.normal(size=(60, 3)) * [2.0, 1.0, 0.5] + [170.0, 70.0, 30.0]
Y = np.sin(X[:, 0] - 170.0) + 0.1 * X[:, 1] + 0.05 * RNG.normal(size=60)
QUERY = RNG.normal(size=(7, 3)) * [2.0, 1.0, 0.5] + [170.0, 70.0, 30.0]


def sign_flips(ours, theirs):
    """Per-column ±1 that turns sklearn's training scores (solver's signs) into ours."""
    return np.sign(np.sum(ours * theirs, axis=0))


@pytest.mark.parametrize("gamma", [0.05, 0.5])
def test_kernel_pca_against_sklearn(gamma):
    ours = KernelPCA(kernels.rbf(gamma), n_components=5).fit(X)
    theirs = SkKernelPCA(5, kernel="rbf", gamma=gamma, eigen_solver="dense").fit(X)
    np.testing.assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9)
    flips = sign_flips(ours.scores_, theirs.transform(X))
    np.testing.assert_allclose(ours.scores_, theirs.transform(X) * flips, atol=1e-8)
    np.testing.assert_allclose(ours.transform(QUERY), theirs.transform(QUERY) * flips, atol=1e-8)


def test_kernel_pca_iterative_path_against_sklearn():
    rows = np.random.default_rng(5).normal(size=(300, 4))
    ours = KernelPCA(kernels.rbf(0.2), n_components=3).fit(rows)
    theirs = SkKernelPCA(3, kernel="rbf", gamma=0.2, eigen_solver="dense").fit(rows)
    np.testing.assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9)
    theirs_scores = theirs.transform(rows)
    flips = sign_flips(ours.scores_, theirs_scores)
    np.testing.assert_allclose(ours.scores_, theirs_scores * flips, atol=1e-7)


@pytest.mark.parametrize(
    ("kernel", "sk_kwargs"),
    [
        (kernels.rbf(0.3), {"kernel": "rbf", "gamma": 0.3}),
        (kernels.linear(), {"kernel": "linear"}),
        (
            kernels.polynomial(2, 0.1, 1.0),
            {"kernel": "poly", "degree": 2, "gamma": 0.1, "coef0": 1.0},
        ),
    ],
)
def test_kernel_ridge_against_sklearn_on_centred_data(kernel, sk_kwargs):
    ours = KernelRidge(kernel, 0.5).fit(X, Y)
    means, target_mean = X.mean(axis=0), Y.mean()
    theirs = SkKernelRidge(alpha=0.5, **sk_kwargs).fit(X - means, Y - target_mean)
    np.testing.assert_allclose(ours.dual_weights_, theirs.dual_coef_, rtol=1e-7, atol=1e-9)
    expected = theirs.predict(QUERY - means) + target_mean
    np.testing.assert_allclose(ours.predict(QUERY), expected, rtol=1e-10)


@pytest.mark.parametrize("penalty", [0.01, 1.0, 100.0])
def test_ridge_against_sklearn(penalty):
    ours = Ridge(penalty).fit(X, Y)
    theirs = SkRidge(alpha=penalty).fit(X, Y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9)
    assert ours.intercept_ == pytest.approx(theirs.intercept_, rel=1e-10)
    np.testing.assert_allclose(ours.predict(QUERY), theirs.predict(QUERY), rtol=1e-10)


def test_pca_against_sklearn():
    ours = PCA().fit(X)
    theirs = SkPCA().fit(X)
    np.testing.assert_allclose(ours.variances_, theirs.explained_variance_, rtol=1e-10)
    np.testing.assert_allclose(ours.shares_, theirs.explained_variance_ratio_, rtol=1e-10)
    flips = sign_flips(ours.scores_, theirs.transform(X))
    np.testing.assert_allclose(ours.transform(QUERY), theirs.transform(QUERY) * flips, atol=1e-9)
