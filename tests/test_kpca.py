"""kreport.KernelPCA: the declared semantics, one test per statement."""

import warnings

import numpy as np
import pytest

from kreport import (
    SIGN_CONVENTION,
    FeatureMismatchError,
    InvalidInputError,
    InvalidParameterError,
    KernelPCA,
    NoInverseTransformError,
    NotFittedError,
    NotPositiveSemidefiniteWarning,
    kernels,
)
from kreport.kpca import orientation_signs

MEASURED_FOUR = np.array([[180.0, 78.0], [160.0, 58.0], [175.0, 63.0], [165.0, 73.0]])
THROW_TIMES = np.round(np.linspace(0, 4, 15), 2).reshape(-1, 1)


def blobs(n=40, seed=0):
    return np.random.default_rng(seed).normal(size=(n, 2)) * [3.0, 1.0]


# ------------------------------------------------------------ fixed numbers
def test_measured_four_centred_table_is_exact():
    model = KernelPCA(kernels.linear()).fit(MEASURED_FOUR)
    expected = [[200, -200, 0, 0], [-200, 200, 0, 0], [0, 0, 50, -50], [0, 0, -50, 50]]
    np.testing.assert_array_equal(model.centred_table_, np.array(expected, dtype=float))
    np.testing.assert_allclose(model.eigenvalues_, [400.0, 100.0], rtol=1e-13)
    np.testing.assert_allclose(model.variances_, [400 / 3, 100 / 3], rtol=1e-13)
    np.testing.assert_allclose(model.shares_, [0.8, 0.2], rtol=1e-13)


def test_measured_four_uncentred_table_is_dominated_by_the_mean():
    model = KernelPCA(kernels.linear()).fit(MEASURED_FOUR)
    raw = model.training_table_
    np.testing.assert_array_equal(raw, MEASURED_FOUR @ MEASURED_FOUR.T)
    largest = np.linalg.eigvalsh(raw)[-1]
    assert largest == pytest.approx(134449.5, abs=0.05)
    assert round(largest / np.trace(raw), 4) == 0.9989


def test_throw_times_linear_eigenvalue():
    model = KernelPCA(kernels.linear()).fit(THROW_TIMES)
    assert model.n_components_ == 1  # one centred feature: rank one
    assert round(float(model.eigenvalues_[0]), 3) == 22.834


# ------------------------------------------------------------------ centring
def test_centring_identity_matches_explicit_ones_matrices():
    X = blobs(12)
    model = KernelPCA(kernels.rbf(0.3)).fit(X)
    n = len(X)
    ones = np.full((n, n), 1.0 / n)
    K = kernels.rbf(0.3)(X, X)
    explicit = K - ones @ K - K @ ones + ones @ K @ ones
    np.testing.assert_allclose(model.centred_table_, explicit, atol=1e-14)
    assert np.array_equal(model.centred_table_, model.centred_table_.T)


def test_query_centring_reproduces_training_rows_of_centred_table():
    X = blobs(10)
    model = KernelPCA(kernels.polynomial(2, 0.5, 1.0)).fit(X)
    centred_rows = model._centre_query_rows(model.kernel(X, X))
    np.testing.assert_allclose(centred_rows, model.centred_table_, atol=1e-10)
    np.testing.assert_allclose(model.transform(X), model.scores_, atol=1e-9)


# ---------------------------------------------------- counts and thresholds
def test_none_keeps_every_nonzero_direction_up_to_ceiling():
    X = blobs(9)
    model = KernelPCA(kernels.rbf(0.5)).fit(X)
    assert model.n_components_ == 8  # n − 1: centring made the ninth zero
    assert model.eigenvalues_[-1] > KernelPCA.ZERO_THRESHOLD * model.eigenvalues_[0]
    np.testing.assert_allclose(model.shares_.sum(), 1.0, rtol=1e-12)


def test_above_ceiling_is_refused_naming_it():
    with pytest.raises(InvalidInputError, match="ceiling of n − 1 = 3"):
        KernelPCA(kernels.rbf(0.1), n_components=4).fit(MEASURED_FOUR)


def test_more_than_nonzero_directions_is_refused_with_the_count():
    with pytest.raises(InvalidInputError, match="only 2 eigenvalue"):
        KernelPCA(kernels.linear(), n_components=3).fit(blobs(10))


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, "2"])
def test_n_components_must_be_a_positive_int(bad):
    with pytest.raises(InvalidParameterError, match="n_components"):
        KernelPCA(kernels.linear(), n_components=bad)


def test_kernel_must_be_a_kreport_kernel():
    with pytest.raises(InvalidParameterError, match="kreport kernel"):
        KernelPCA("rbf")


def test_all_rows_identical_is_refused():
    with pytest.raises(InvalidInputError, match="no positive eigenvalue"):
        KernelPCA(kernels.rbf(1.0)).fit(np.ones((4, 2)))


# -------------------------------------------------- variances and coefficients
def test_truncation_keeps_total_variance_and_normalises_coefficients():
    X = blobs(20)
    everything = KernelPCA(kernels.rbf(0.2)).fit(X)
    two = KernelPCA(kernels.rbf(0.2), n_components=2).fit(X)
    assert two.total_variance_ == pytest.approx(everything.total_variance_, rel=1e-12)
    assert two.total_variance_ == pytest.approx(np.trace(two.centred_table_) / 19, rel=1e-10)
    np.testing.assert_allclose(two.variances_, two.eigenvalues_ / 19)
    np.testing.assert_allclose(two.shares_, two.variances_ / two.total_variance_)
    gram = two.coefficients_.T @ two.centred_table_ @ two.coefficients_
    np.testing.assert_allclose(gram, np.eye(2), atol=1e-10)
    np.testing.assert_allclose(two.scores_, two.centred_table_ @ two.coefficients_)
    assert np.all(np.diff(everything.eigenvalues_) <= 0)


def test_partial_solver_agrees_with_full_solver():
    X = blobs(260, seed=4)
    assert len(X) >= KernelPCA.ITERATIVE_MIN_ROWS
    partial = KernelPCA(kernels.rbf(0.5), n_components=3).fit(X)
    full = KernelPCA(kernels.rbf(0.5), n_components=40).fit(X)  # above the ARPACK limit
    np.testing.assert_allclose(partial.eigenvalues_, full.eigenvalues_[:3], rtol=1e-10)
    np.testing.assert_allclose(partial.scores_, full.scores_[:, :3], atol=1e-8)
    assert partial.total_variance_ == pytest.approx(full.total_variance_, rel=1e-10)


# ---------------------------------------------------------------- sign
def test_sign_convention_largest_entry_positive_first_on_ties():
    columns = np.array([[-1.0, 0.5, 1.0], [1.0, -2.0, -1.0 + 1e-12], [0.2, 0.0, 0.0]])
    np.testing.assert_array_equal(orientation_signs(columns), [-1.0, -1.0, 1.0])
    assert "largest magnitude" in SIGN_CONVENTION


def test_one_sign_rule_and_one_centring_shared_and_still_importable_from_kpca():
    import kreport
    from kreport import _centring, _signs, kpca, pca

    assert kpca.orientation_signs is _signs.orientation_signs
    assert pca.orientation_signs is _signs.orientation_signs
    assert kpca.SIGN_CONVENTION is _signs.SIGN_CONVENTION is kreport.SIGN_CONVENTION
    assert kpca.SIGN_TIE_TOLERANCE == 1e-9
    assert kpca.centre_training_table is _centring.centre_training_table


def test_query_centring_is_the_training_identity_with_training_averages():
    from kreport._centring import centre_query_table, centre_training_table

    X = blobs(9)
    K = kernels.rbf(0.3)(X, X)
    centred, column_means, grand_mean = centre_training_table(K)
    n = len(X)
    ones = np.full((n, n), 1.0 / n)
    np.testing.assert_allclose(centred, K - ones @ K - K @ ones + ones @ K @ ones, atol=1e-14)
    np.testing.assert_allclose(centre_query_table(K, column_means, grand_mean), centred, atol=1e-14)
    queries = blobs(4, seed=9)
    k = kernels.rbf(0.3)(queries, X)
    query_ones = np.full((4, n), 1.0 / n)
    explicit = k - query_ones @ K - k @ ones + query_ones @ K @ ones
    centred_queries = centre_query_table(k, column_means, grand_mean)
    np.testing.assert_allclose(centred_queries, explicit, atol=1e-14)


def test_fitted_eigenvectors_obey_the_sign_convention():
    model = KernelPCA(kernels.rbf(0.3)).fit(blobs(15))
    vectors = model.coefficients_ * np.sqrt(model.eigenvalues_)
    np.testing.assert_array_equal(orientation_signs(vectors), np.ones(model.n_components_))


# ------------------------------------------------------ negative eigenvalues
def test_sigmoid_negative_eigenvalues_are_clamped_and_reported():
    with pytest.warns(NotPositiveSemidefiniteWarning, match="most negative -1.78") as caught:
        model = KernelPCA(kernels.sigmoid(1.0, -0.5)).fit(THROW_TIMES)
    assert "shares ignore" in str(caught[0].message)
    assert model.clamped_eigenvalues_[0] == pytest.approx(-1.78567, abs=1e-5)
    assert np.all(model.clamped_eigenvalues_ < 0)
    assert np.all(model.eigenvalues_ > 0)
    everything = np.linalg.eigvalsh(model.centred_table_)
    positive_sum = everything[everything > 0].sum()
    assert model.total_variance_ * 14 == pytest.approx(positive_sum, rel=1e-10)


def test_positive_semidefinite_fit_reports_nothing_clamped():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = KernelPCA(kernels.rbf(0.5)).fit(blobs(10))
    assert model.clamped_eigenvalues_.shape == (0,)


# ------------------------------------------------------------- kept share
def test_kept_share_all_directions_is_one_and_fewer_is_less():
    X = blobs(12)
    np.testing.assert_allclose(KernelPCA(kernels.rbf(0.4)).fit(X).kept_share_, 1.0, rtol=1e-9)
    two = KernelPCA(kernels.rbf(0.4), n_components=2).fit(X)
    expected = (two.scores_**2).sum(axis=1) / np.diag(two.centred_table_)
    np.testing.assert_allclose(two.kept_share_, expected)
    assert np.all((two.kept_share_ > 0) & (two.kept_share_ < 1))


def test_kept_share_of_a_row_at_the_lifted_mean_is_one_not_nan():
    X = np.array([[-1.0, 0.0], [1.0, 0.0], [0.0, -1.0], [0.0, 1.0], [0.0, 0.0]])
    model = KernelPCA(kernels.linear(), n_components=1).fit(X)
    assert model.centred_table_[4, 4] == 0.0
    assert model.kept_share_[4] == 1.0
    assert np.isfinite(model.kept_share_).all()


# ------------------------------------------------------- state and refusals
def test_fitted_state_is_kept():
    data = {"height": MEASURED_FOUR[:, 0], "weight": MEASURED_FOUR[:, 1]}
    model = KernelPCA(kernels.rbf(0.005), n_components=2).fit(data)
    np.testing.assert_array_equal(model.training_rows_, MEASURED_FOUR)
    expected_table = kernels.rbf(0.005)(MEASURED_FOUR, MEASURED_FOUR)
    np.testing.assert_array_equal(model.training_table_, expected_table)
    assert model.feature_names_ == ["height", "weight"]
    assert model.n_features_in_ == 2
    assert repr(model) == "KernelPCA(kernel=rbf(gamma=0.005), n_components=2)"
    reordered = {"weight": [63.0], "height": [175.0]}
    np.testing.assert_allclose(model.transform(reordered), model.scores_[2:3], atol=1e-10)
    with pytest.raises(FeatureMismatchError, match="weight"):
        model.transform({"height": [170.0]})


def test_no_inverse_transform_says_why_and_what_to_use():
    model = KernelPCA(kernels.linear()).fit(MEASURED_FOUR)
    with pytest.raises(NoInverseTransformError, match="feature space") as caught:
        model.inverse_transform(model.scores_)
    assert "PCA" in str(caught.value)
    assert isinstance(caught.value, TypeError)


def test_calls_before_fit_raise_not_fitted():
    model = KernelPCA(kernels.rbf(1.0))
    with pytest.raises(NotFittedError, match="fit"):
        model.transform(MEASURED_FOUR)
    with pytest.raises(NotFittedError):
        _ = model.scores_
    assert not hasattr(model, "eigenvalues_")


def test_threshold_text_matches_the_constant():
    from kreport import ZERO_THRESHOLD_RULE

    assert KernelPCA.ZERO_THRESHOLD == 1e-10
    assert "1e-10" in ZERO_THRESHOLD_RULE
    assert "never divided by" in ZERO_THRESHOLD_RULE


def test_fitted_state_does_not_follow_later_edits_of_the_input():
    X = blobs(8)
    model = KernelPCA(kernels.rbf(0.3)).fit(X)
    before = model.transform(X[:2]).copy()
    X[:] = 0.0
    np.testing.assert_array_equal(model.training_rows_, blobs(8))
    np.testing.assert_array_equal(model.transform(blobs(8)[:2]), before)
