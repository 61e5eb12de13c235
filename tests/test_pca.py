"""kreport.PCA: the scatter-matrix control, on the measured four and random data."""

import numpy as np
import pytest

from kreport import PCA, InvalidInputError, KernelPCA, NotFittedError, kernels

MEASURED_FOUR = np.array([[180.0, 78.0], [160.0, 58.0], [175.0, 63.0], [165.0, 73.0]])


def test_measured_four_eigenvalues_variances_and_shares():
    model = PCA().fit(MEASURED_FOUR)
    np.testing.assert_allclose(model.eigenvalues_, [400.0, 100.0], rtol=1e-13)
    np.testing.assert_allclose(model.variances_, [400.0 / 3, 100.0 / 3], rtol=1e-13)
    assert model.total_variance_ == pytest.approx(500.0 / 3, rel=1e-13)
    np.testing.assert_allclose(model.shares_, [0.8, 0.2], rtol=1e-13)
    np.testing.assert_allclose(model.mean_, [170.0, 68.0])


def test_measured_four_directions_and_signs():
    model = PCA().fit(MEASURED_FOUR)
    half = np.sqrt(0.5)
    # First score column is (+√200, −√200, 0, 0): its first row is the tied largest.
    np.testing.assert_allclose(model.components_, [[half, half], [half, -half]], atol=1e-14)
    expected = np.array([[200**0.5, 0], [-(200**0.5), 0], [0, 50**0.5], [0, -(50**0.5)]])
    np.testing.assert_allclose(model.scores_, expected, atol=1e-12)


def test_components_are_orthonormal_and_descending():
    X = np.random.default_rng(3).normal(size=(30, 4)) * [5, 3, 2, 1]
    model = PCA().fit(X)
    np.testing.assert_allclose(model.components_ @ model.components_.T, np.eye(4), atol=1e-12)
    assert np.all(np.diff(model.eigenvalues_) <= 0)
    assert model.shares_.sum() == pytest.approx(1.0, rel=1e-12)


def test_reconstruction_error_is_the_dropped_eigenvalue():
    one = PCA(1).fit(MEASURED_FOUR)
    assert one.reconstruction_error_ == pytest.approx(100.0, rel=1e-12)
    rebuilt = one.inverse_transform(one.scores_)
    np.testing.assert_allclose(rebuilt, [[180, 78], [160, 58], [170, 68], [170, 68]], atol=1e-12)
    full = PCA().fit(MEASURED_FOUR)
    assert full.reconstruction_error_ < 1e-20
    np.testing.assert_allclose(full.inverse_transform(full.transform(MEASURED_FOUR)), MEASURED_FOUR)


def test_reconstruction_error_on_random_data():
    X = np.random.default_rng(5).normal(size=(25, 5))
    everything = PCA().fit(X)
    two = PCA(2).fit(X)
    dropped = everything.eigenvalues_[2:].sum()
    assert two.reconstruction_error_ == pytest.approx(dropped, rel=1e-10)
    assert two.total_variance_ == pytest.approx(everything.total_variance_, rel=1e-14)


def test_transform_of_training_rows_reproduces_scores():
    X = np.random.default_rng(11).normal(size=(12, 3))
    model = PCA().fit(X)
    np.testing.assert_allclose(model.transform(X), model.scores_, atol=1e-12)


def test_scores_agree_in_sign_with_linear_kernel_pca():
    X = np.random.default_rng(2).normal(size=(15, 3))
    pca = PCA().fit(X)
    kpca = KernelPCA(kernels.linear()).fit(X)
    np.testing.assert_allclose(pca.scores_, kpca.scores_, atol=1e-10)
    np.testing.assert_allclose(pca.eigenvalues_, kpca.eigenvalues_, rtol=1e-10)


def test_ceiling_is_min_of_rows_less_one_and_columns():
    with pytest.raises(InvalidInputError, match=r"min\(n − 1, p\) = 2"):
        PCA(3).fit(MEASURED_FOUR)
    wide = np.random.default_rng(1).normal(size=(3, 6))
    assert PCA().fit(wide).n_components_ == 2
    with pytest.raises(InvalidInputError, match="ceiling"):
        PCA(3).fit(wide)


def test_asking_for_a_zero_direction_is_refused_with_the_count():
    collinear = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    assert PCA().fit(collinear).n_components_ == 1
    with pytest.raises(InvalidInputError, match="only 1"):
        PCA(2).fit(collinear)


def test_named_columns_matched_by_name():
    data = {"height": MEASURED_FOUR[:, 0], "weight": MEASURED_FOUR[:, 1]}
    model = PCA().fit(data)
    assert model.feature_names_ == ["height", "weight"]
    swapped = {"weight": [78.0], "height": [180.0]}
    np.testing.assert_allclose(model.transform(swapped), model.scores_[:1], atol=1e-12)


def test_inverse_transform_checks_width_and_fit():
    with pytest.raises(NotFittedError):
        PCA().inverse_transform([[1.0]])
    model = PCA(1).fit(MEASURED_FOUR)
    with pytest.raises(InvalidInputError, match="one column per kept direction"):
        model.inverse_transform([[1.0, 2.0]])


def test_calls_before_fit():
    with pytest.raises(NotFittedError, match="fit"):
        PCA().transform(MEASURED_FOUR)
    assert not hasattr(PCA(), "scores_")
