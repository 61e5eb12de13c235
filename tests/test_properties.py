"""Identities that must hold on any well-conditioned data (hypothesis)."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kreport import PCA, KernelPCA, KernelRidge, Ridge, kernels

SETTINGS = settings(max_examples=30, deadline=None)


@st.composite
def tables(draw, min_rows=3, max_rows=20, max_cols=4):
    """Rows of uniform floats in [−10, 10]; hypothesis picks the shape and seed.

    Drawing whole tables from a seeded generator (rather than element by
    element) keeps the draws well spread, so few are rejected below.
    """
    n = draw(st.integers(min_rows, max_rows))
    p = draw(st.integers(1, max_cols))
    seed = draw(st.integers(0, 2**32 - 1))
    X = np.random.default_rng(seed).uniform(-10, 10, size=(n, p))
    # Well-conditioned draws only: every column spread out, rows distinct.
    assume(np.all(np.ptp(X, axis=0) > 0.5))
    distances = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    assume(distances[np.triu_indices(n, 1)].min() > 1e-2)
    return X


def well_separated(eigenvalues, scores):
    """True when directions and their signs are determined well above rounding."""
    values = np.asarray(eigenvalues)
    if values[-1] < 1e-6 * values[0]:
        return False
    if len(values) > 1 and np.min(-np.diff(values)) < 1e-3 * values[0]:
        return False
    magnitudes = np.sort(np.abs(scores), axis=0)
    top, runner_up = magnitudes[-1], magnitudes[-2]
    close = (top - runner_up) < 1e-6 * top
    exact_tie = (top - runner_up) < 1e-12 * top
    return bool(np.all(~close | exact_tie))


@SETTINGS
@given(tables())
def test_linear_kernel_pca_equals_pca(X):
    pca = PCA().fit(X)
    assume(well_separated(pca.eigenvalues_, pca.scores_))
    kpca = KernelPCA(kernels.linear()).fit(X)
    assert kpca.n_components_ == pca.n_components_
    np.testing.assert_allclose(kpca.variances_, pca.variances_, rtol=1e-8)
    assert np.isclose(kpca.total_variance_, pca.total_variance_, rtol=1e-10)
    scale = np.abs(pca.scores_).max()
    np.testing.assert_allclose(kpca.scores_, pca.scores_, atol=1e-7 * scale)


@SETTINGS
@given(tables(), st.sampled_from([0.01, 0.1, 1.0]))
def test_coefficients_are_orthonormal_in_the_centred_table(X, gamma):
    full = KernelPCA(kernels.rbf(gamma)).fit(X)
    kept = min(2, full.n_components_)
    model = KernelPCA(kernels.rbf(gamma), n_components=kept).fit(X)
    gram = model.coefficients_.T @ model.centred_table_ @ model.coefficients_
    np.testing.assert_allclose(gram, np.eye(kept), atol=1e-7)
    assert np.all(np.isfinite(model.kept_share_))


@SETTINGS
@given(tables(), st.sampled_from(["linear", "rbf", "poly"]))
def test_training_rows_sent_back_reproduce_scores(X, name):
    kernel = {
        "linear": kernels.linear(),
        "rbf": kernels.rbf(0.05),
        "poly": kernels.polynomial(2, 0.01, 1.0),
    }[name]
    model = KernelPCA(kernel, n_components=1).fit(X)
    centred = model._centre_query_rows(kernel(X, X))
    scale = np.abs(model.centred_table_).max()
    np.testing.assert_allclose(centred, model.centred_table_, atol=1e-10 * scale)
    np.testing.assert_allclose(
        model.transform(X), model.scores_, atol=1e-8 * np.abs(model.scores_).max()
    )


@SETTINGS
@given(tables(), st.floats(0.01, 100.0), st.integers(0, 2**32 - 1))
def test_dual_weights_are_residuals_over_penalty(X, penalty, seed):
    y = np.random.default_rng(seed).normal(size=len(X)) * 5
    model = KernelRidge(kernels.rbf(0.1), penalty).fit(X, y)
    residual = y - model.predict(X)
    np.testing.assert_allclose(
        model.dual_weights_, residual / penalty, atol=1e-8 * (np.abs(y).max() / penalty + 1)
    )


@SETTINGS
@given(tables(), st.floats(0.1, 10.0), st.integers(0, 2**32 - 1))
def test_primal_and_dual_agree(X, penalty, seed):
    rng = np.random.default_rng(seed)
    y = X @ rng.normal(size=X.shape[1]) + rng.normal(size=len(X))
    primal = Ridge(penalty).fit(X, y)
    dual = KernelRidge(kernels.linear(), penalty).fit(X, y)
    query = rng.uniform(-10, 10, size=(5, X.shape[1]))
    scale = np.abs(y).max() + 1
    np.testing.assert_allclose(dual.predict(query), primal.predict(query), atol=1e-8 * scale)
    slope = (X - dual.feature_means_).T @ dual.dual_weights_
    np.testing.assert_allclose(slope, primal.coef_, atol=1e-8 * (np.abs(primal.coef_).max() + 1))


@SETTINGS
@given(tables(), st.floats(0.1, 10.0), st.integers(0, 2**32 - 1))
def test_polynomial_degree_one_matches_linear_thanks_to_centring(X, penalty, seed):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=len(X))
    linear = KernelRidge(kernels.linear(), penalty).fit(X, y)
    affine = KernelRidge(kernels.polynomial(1, gamma=1.0, coef0=1.0), penalty).fit(X, y)
    query = rng.uniform(-10, 10, size=(4, X.shape[1]))
    np.testing.assert_allclose(affine.predict(query), linear.predict(query), rtol=1e-9, atol=1e-9)
