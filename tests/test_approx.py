"""kreport.approx: Nyström and random Fourier features against scikit-learn, and
NystroemKernelRidge against the exact KernelRidge and its own stated equations."""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np
import pytest
from sklearn.kernel_approximation import Nystroem as SkNystroem
from sklearn.kernel_approximation import RBFSampler

from kreport import (
    PCA,
    FeatureMismatchError,
    InputTypeError,
    InvalidInputError,
    InvalidParameterError,
    KernelRidge,
    MercerConditionError,
    NotFittedError,
    Ridge,
    kernels,
)
from kreport.approx import (
    MissingDependencyError,
    Nystroem,
    NystroemKernelRidge,
    RandomFourierFeatures,
)
from kreport.approx._common import compensated_sums, mean_from_sums, merge_sums


def relative_error(actual, expected) -> float:
    return float(np.abs(np.asarray(actual) - expected).max() / np.abs(expected).max())


def sine_data(n, p=3, seed=0, noise=0.1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    return X, np.sin(X[:, 0]) + noise * rng.normal(size=n)


# ------------------------------------------------------------------ Nyström
@pytest.mark.parametrize("seed", [0, 7, 2**32 - 1])
def test_landmarks_are_scikit_learns_rows_for_the_same_seed(seed):
    X, _ = sine_data(200)
    ours = Nystroem(kernels.rbf(0.5), 50, seed=seed).fit(X)
    theirs = SkNystroem(kernel="rbf", gamma=0.5, n_components=50, random_state=seed).fit(X)
    np.testing.assert_array_equal(ours.landmark_indices_, theirs.component_indices_)
    np.testing.assert_array_equal(ours.landmarks_, theirs.components_)
    np.testing.assert_array_equal(
        ours.landmark_indices_, np.random.RandomState(seed).permutation(200)[:50]
    )


@pytest.mark.parametrize(
    ("kernel", "sk_kwargs"),
    [
        (kernels.rbf(0.5), {"kernel": "rbf", "gamma": 0.5}),
        (kernels.polynomial(3, 0.5, 1.0), {"kernel": "poly", "degree": 3, "gamma": 0.5,
                                           "coef0": 1.0}),
    ],
)
def test_nystroem_features_equal_scikit_learns(kernel, sk_kwargs):
    X, _ = sine_data(200)
    query = np.random.default_rng(1).normal(size=(30, 3))
    ours = Nystroem(kernel, 15, seed=3).fit(X)
    theirs = SkNystroem(n_components=15, random_state=3, **sk_kwargs).fit(X)
    # K_mm^{-1/2} of a positive definite table is unique: no rotation freedom is left.
    assert ours.rank_ == 15
    assert ours.eigenvalues_[-1] > 1e-6 * ours.eigenvalues_[0]
    assert relative_error(ours.normalization_, theirs.normalization_) < 1e-10
    assert relative_error(ours.transform(query), theirs.transform(query)) < 1e-10
    features, their_features = ours.transform(X), theirs.transform(X)
    assert features.shape == (200, 15)
    assert relative_error(features @ features.T, their_features @ their_features.T) < 1e-10


def test_nystroem_with_more_landmarks_than_feature_dimensions():
    # Degree 2 in 3 variables has a 10-dimensional feature space: 40 landmarks
    # leave 30 zero eigenvalues. We give them weight 0 where scikit-learn lifts
    # them to 1e-12; both then describe the same kernel approximation Φ Φᵀ.
    X, _ = sine_data(200)
    ours = Nystroem(kernels.polynomial(2, 0.5, 1.0), 40, seed=3).fit(X)
    theirs = SkNystroem(kernel="poly", degree=2, gamma=0.5, coef0=1.0, n_components=40,
                        random_state=3).fit(X)
    assert ours.rank_ == 10
    features, their_features = ours.transform(X), theirs.transform(X)
    assert relative_error(features @ features.T, their_features @ their_features.T) < 1e-8
    table = kernels.polynomial(2, 0.5, 1.0)(X, X)  # rank 10: Nyström is exact here
    assert relative_error(features @ features.T, table) < 1e-10


def test_nystroem_reproduces_the_kernel_on_its_landmarks():
    X, _ = sine_data(150)
    kernel = kernels.rbf(0.3)
    model = Nystroem(kernel, 30, seed=1).fit(X)
    landmark_features = model.transform(model.landmarks_)
    table = kernel(model.landmarks_, model.landmarks_)
    np.testing.assert_allclose(landmark_features @ landmark_features.T, table, atol=1e-10)
    # Elsewhere Φ Φᵀ is the Nyström approximation K_nm K_mm⁻¹ K_mn.
    features = model.transform(X)
    cross = kernel(X, model.landmarks_)
    expected = cross @ np.linalg.solve(table, cross.T)
    assert relative_error(features @ features.T, expected) < 1e-9


def test_nystroem_drops_the_zero_directions_of_duplicate_landmarks():
    base, _ = sine_data(10)
    X = np.vstack([base, base])  # every row twice
    model = Nystroem(kernels.rbf(0.5), 20, seed=0).fit(X)
    assert model.rank_ == 10
    features = model.transform(X)
    assert np.isfinite(features).all()
    table = kernels.rbf(0.5)(X, X)
    np.testing.assert_allclose(features @ features.T, table, atol=1e-9)


@pytest.mark.parametrize(("square", "rank"), [(1e-15, 2), (8e-16, 1)])
def test_rank_rule_counts_zero_at_m_eps_times_the_largest(square, rank):
    # Linear kernel on ±(1, 0), ±(0, t): eigenvalues 2 and 2t² (Nystroem) and
    # pivots 1 and t² (NystroemKernelRidge), against thresholds 4ε·2 and 4ε·1.
    t = np.sqrt(square)
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, t], [0.0, -t]])
    assert 4 * np.finfo(float).eps < 1e-15 and 4 * np.finfo(float).eps > 8e-16
    assert Nystroem(kernels.linear(), 4).fit(X).rank_ == rank
    model = NystroemKernelRidge(kernels.linear(), 1.0, 4).fit(X, [1.0, 2.0, 3.0, 4.0])
    assert model.rank_ == rank


def test_nystroem_transform_is_independent_of_the_block_size():
    X, _ = sine_data(300)
    whole = Nystroem(kernels.rbf(0.5), 25, seed=2, block_size=4096).fit(X).transform(X)
    pieces = Nystroem(kernels.rbf(0.5), 25, seed=2, block_size=7).fit(X).transform(X)
    np.testing.assert_allclose(pieces, whole, rtol=0, atol=1e-13)


# ----------------------------------------------------- random Fourier features
def test_random_fourier_features_draw_what_rbf_sampler_draws():
    X, _ = sine_data(120, p=4)
    ours = RandomFourierFeatures(kernels.rbf(0.7), 300, seed=11).fit(X)
    theirs = RBFSampler(gamma=0.7, n_components=300, random_state=11).fit(X)
    np.testing.assert_array_equal(ours.random_weights_, theirs.random_weights_)
    np.testing.assert_array_equal(ours.random_offset_, theirs.random_offset_)
    np.testing.assert_allclose(ours.transform(X), theirs.transform(X), rtol=0, atol=1e-13)


def test_random_fourier_error_shrinks_like_one_over_root_m():
    X, _ = sine_data(60, p=3)
    table = kernels.rbf(0.5)(X, X)
    sizes = np.array([64, 256, 1024, 4096])
    errors = []
    for m in sizes:
        per_seed = []
        for seed in range(6):
            features = RandomFourierFeatures(kernels.rbf(0.5), int(m), seed=seed).fit_transform(X)
            per_seed.append(np.sqrt(np.mean((features @ features.T - table) ** 2)))
        errors.append(np.mean(per_seed))
    slope = np.polyfit(np.log(sizes), np.log(errors), 1)[0]
    assert -0.6 < slope < -0.4
    # The constant too: each entry is an average of m terms of variance at most
    # 1, so the RMS error is about (at most) 1/√m; a mis-scaled map would be biased.
    scaled = np.array(errors) * np.sqrt(sizes)
    assert np.all((scaled > 0.5) & (scaled < 1.5))


def test_random_fourier_features_refuse_other_kernels():
    for kernel in (kernels.linear(), kernels.polynomial(2), kernels.sigmoid(0.1, 0.0)):
        with pytest.raises(InvalidParameterError, match="rbf kernel only"):
            RandomFourierFeatures(kernel, 10)


def test_feature_maps_feed_pca_and_ridge():
    X, y = sine_data(300)
    query, _ = sine_data(40, seed=5)
    for mapper in (Nystroem(kernels.rbf(0.5), 30), RandomFourierFeatures(kernels.rbf(0.5), 30)):
        features = mapper.fit_transform(X)
        ridge = Ridge(0.1).fit(features, y)
        assert ridge.score(features, y) > 0.9
        assert np.isfinite(ridge.predict(mapper.transform(query))).all()
        pca = PCA(3).fit(features)
        assert pca.transform(mapper.transform(query)).shape == (40, 3)


# ------------------------------------------------------- NystroemKernelRidge
def test_every_row_a_centre_gives_kernel_ridge():
    X, y = sine_data(80)
    query, _ = sine_data(25, seed=9)
    exact = KernelRidge(kernels.rbf(0.5), 0.1).fit(X, y)
    model = NystroemKernelRidge(kernels.rbf(0.5), 0.1, n_components=80, seed=4).fit(X, y)
    assert model.rank_ == 80
    assert relative_error(model.predict(query), exact.predict(query)) < 1e-9
    assert relative_error(model.predict(X), exact.predict(X)) < 1e-9
    # β in landmark order is KernelRidge's dual weights: K(K + λI)β = K y_c.
    dual = np.empty(80)
    dual[model.landmark_indices_] = model.weights_
    assert relative_error(dual, exact.dual_weights_) < 1e-8


def test_duplicate_rows_leave_the_m_equals_n_fit_exact():
    base, _ = sine_data(50)
    X = np.vstack([base, base[:10]])
    y = np.sin(X[:, 0]) + np.cos(X[:, 1])
    query, _ = sine_data(20, seed=3)
    exact = KernelRidge(kernels.rbf(0.5), 0.2).fit(X, y)
    model = NystroemKernelRidge(kernels.rbf(0.5), 0.2, n_components=60).fit(X, y)
    assert model.rank_ == 50
    assert np.count_nonzero(model.weights_) == 50
    assert relative_error(model.predict(query), exact.predict(query)) < 1e-9


@pytest.mark.parametrize(
    "kernel", [kernels.rbf(0.4), kernels.polynomial(2, 0.2, 1.0), kernels.linear()]
)
def test_weights_solve_the_stated_normal_equations(kernel):
    X, y = sine_data(400)
    X = X + 3.0  # centring matters for the polynomial and linear kernels
    model = NystroemKernelRidge(kernel, 0.5, n_components=30, seed=8).fit(X, y)
    means, target_mean = model.feature_means_, model.target_mean_
    np.testing.assert_allclose(means, X.mean(axis=0), rtol=1e-15)
    assert target_mean == pytest.approx(y.mean(), rel=1e-15)
    centres = X[model.landmark_indices_] - means
    np.testing.assert_array_equal(model.centres_, centres)
    cross = kernel(X - means, centres)
    beta = model.weights_
    lhs = cross.T @ (cross @ beta) + 0.5 * kernel(centres, centres) @ beta
    rhs = cross.T @ (y - target_mean)
    # Feature-space dimension caps the rank: 3 for linear, 10 for degree 2 in 3 variables.
    assert model.rank_ == {"rbf": 30, "polynomial": 10, "linear": 3}[kernel.name]
    assert relative_error(lhs, rhs) < 1e-9
    query, _ = sine_data(10, seed=2)
    expected = kernel(query - means, centres) @ beta + target_mean
    assert relative_error(model.predict(query), expected) < 1e-12


def test_fit_is_ridge_on_nystroem_features_of_the_centred_rows():
    # The Cholesky whitening is a rotation of K_mm^{-1/2}; ridge does not see it.
    X, y = sine_data(500)
    query, _ = sine_data(30, seed=6)
    model = NystroemKernelRidge(kernels.rbf(0.3), 0.05, n_components=40, seed=2).fit(X, y)
    means = X.mean(axis=0)
    mapper = Nystroem(kernels.rbf(0.3), 40, seed=2).fit(X - means)
    features = mapper.transform(X - means)
    w = np.linalg.solve(features.T @ features + 0.05 * np.eye(40), features.T @ (y - y.mean()))
    expected = mapper.transform(query - means) @ w + y.mean()
    assert relative_error(model.predict(query), expected) < 1e-9


def test_block_size_changes_only_rounding():
    X, y = sine_data(700)
    query, _ = sine_data(50, seed=1)
    reference = NystroemKernelRidge(kernels.rbf(0.5), 0.3, 50, block_size=4096).fit(X, y)
    for block_size in (1, 13, 256):
        model = NystroemKernelRidge(kernels.rbf(0.5), 0.3, 50, block_size=block_size).fit(X, y)
        assert relative_error(model.predict(query), reference.predict(query)) < 1e-12


def test_means_are_exactly_rounded_whatever_the_blocks():
    rng = np.random.default_rng(4)
    # Large offsets and cancelling magnitudes: plain sums depend on the order.
    values = np.concatenate([rng.normal(size=(5000, 3)) * 1e8 + 1e12, -np.full((5000, 3), 1e12)])
    values = values[rng.permutation(len(values))]
    exact = np.array([math.fsum(column) for column in values.T])
    for block_size in (7, 1000, 65536):
        np.testing.assert_array_equal(
            mean_from_sums(compensated_sums(values, block_size), len(values)),
            exact / len(values),
        )
    halves = merge_sums(compensated_sums(values[:3333]), compensated_sums(values[3333:]))
    np.testing.assert_array_equal(mean_from_sums(halves, len(values)), exact / len(values))


SHAPES: list[tuple[int, int]] = []


@dataclass(frozen=True, repr=False)
class RecordingRBF(kernels.RBF):
    """The rbf kernel, noting the shape of every table it is asked for."""

    def _table(self, A, B):
        SHAPES.append((len(A), len(B)))
        return super()._table(A, B)


def test_no_table_larger_than_a_block_by_m_is_formed():
    X, y = sine_data(2000)
    SHAPES.clear()
    model = NystroemKernelRidge(RecordingRBF(0.5), 0.3, 40, block_size=128).fit(X, y)
    model.predict(X)
    assert SHAPES, "the recording kernel was not used"
    assert max(rows for rows, _ in SHAPES) <= 128
    assert max(columns for _, columns in SHAPES) <= 40
    assert sum(rows for rows, columns in SHAPES if columns == 40) >= 2 * 2000


def test_fitted_state_is_copied_out_and_names_are_matched():
    X, y = sine_data(200)
    named = {"a": X[:, 0], "b": X[:, 1], "c": X[:, 2]}
    model = NystroemKernelRidge(kernels.rbf(0.5), 0.3, 20).fit(named, y)
    reordered = {"c": X[:5, 2], "a": X[:5, 0], "b": X[:5, 1]}
    in_order = {name: values[:5] for name, values in named.items()}
    np.testing.assert_array_equal(model.predict(reordered), model.predict(in_order))
    weights, landmarks = model.weights_, model.landmarks_
    weights[:] = 0.0
    landmarks[:] = 0.0
    assert np.abs(model.weights_).max() > 0
    assert np.abs(model.landmarks_).max() > 0
    with pytest.raises(FeatureMismatchError):
        model.predict({"a": X[:5, 0], "b": X[:5, 1]})
    with pytest.raises(FeatureMismatchError):
        model.predict(X[:5])


# ------------------------------------------------------------------ refusals
def test_bad_parameters_are_refused():
    rbf = kernels.rbf(0.5)
    for penalty in (0.0, -1.0, float("nan"), float("inf"), "1"):
        with pytest.raises(InvalidParameterError, match="penalty"):
            NystroemKernelRidge(rbf, penalty, 10)
    for count in (0, -3, 1.5, True, None):
        with pytest.raises(InvalidParameterError, match="n_components"):
            NystroemKernelRidge(rbf, 1.0, count)
        with pytest.raises(InvalidParameterError, match="n_components"):
            Nystroem(rbf, count)
        with pytest.raises(InvalidParameterError, match="n_components"):
            RandomFourierFeatures(rbf, count)
    for seed in (-1, 2**32, 1.5, None, "0"):
        with pytest.raises(InvalidParameterError, match="seed"):
            NystroemKernelRidge(rbf, 1.0, 10, seed=seed)
        with pytest.raises(InvalidParameterError, match="seed"):
            RandomFourierFeatures(rbf, 10, seed=seed)
    with pytest.raises(InvalidParameterError, match="landmarks"):
        Nystroem(rbf, 10, landmarks="kmeans")
    with pytest.raises(InvalidParameterError, match="block_size"):
        Nystroem(rbf, 10, block_size=0)
    with pytest.raises(InvalidParameterError, match="kreport kernel"):
        NystroemKernelRidge("rbf", 1.0, 10)


def test_bad_data_is_refused():
    X, y = sine_data(30)
    model = NystroemKernelRidge(kernels.rbf(0.5), 1.0, 10)
    with pytest.raises(InvalidInputError, match="at most 30"):
        NystroemKernelRidge(kernels.rbf(0.5), 1.0, 31).fit(X, y)
    with pytest.raises(InvalidInputError, match="at most 30"):
        Nystroem(kernels.rbf(0.5), 31).fit(X)
    broken = X.copy()
    broken[4, 1] = np.nan
    with pytest.raises(InvalidInputError, match="1 NaN"):
        model.fit(broken, y)
    with pytest.raises(InvalidInputError, match="1 NaN"):
        Nystroem(kernels.rbf(0.5), 5).fit(broken)
    with pytest.raises(InvalidInputError, match="infinite"):
        model.fit(X, np.where(np.arange(30) == 3, np.inf, y))
    with pytest.raises(InvalidInputError, match="29 values"):
        model.fit(X, y[:-1])
    with pytest.raises(InputTypeError):
        model.fit(X.astype(str), y)
    with pytest.raises(NotFittedError):
        model.predict(X)
    with pytest.raises(NotFittedError):
        Nystroem(kernels.rbf(0.5), 5).transform(X)
    with pytest.raises(NotFittedError):
        RandomFourierFeatures(kernels.rbf(0.5), 5).transform(X)
    model.fit(X, y)
    with pytest.raises(InvalidInputError, match="columns"):
        model.predict(X[:, :2])
    with pytest.raises(InvalidInputError, match="columns"):
        RandomFourierFeatures(kernels.rbf(0.5), 5).fit(X).transform(X[:, :2])
    with pytest.raises(AttributeError, match="one weight per centre"):
        _ = model.coef_


def test_kernel_breaking_mercer_is_refused():
    X, y = sine_data(60)
    kernel = kernels.sigmoid(2.0, -1.0)
    with pytest.raises(MercerConditionError, match="Mercer"):
        NystroemKernelRidge(kernel, 1.0, 30).fit(X * 3, y)
    with pytest.raises(MercerConditionError, match="Mercer"):
        Nystroem(kernel, 30).fit(X * 3)


def test_an_all_zero_kernel_table_is_refused():
    X = np.ones((20, 2))
    with pytest.raises(InvalidInputError, match="zero"):
        NystroemKernelRidge(kernels.linear(), 1.0, 5).fit(X, np.arange(20.0))
    with pytest.raises(InvalidInputError, match="zero"):
        Nystroem(kernels.linear(), 5).fit(np.zeros((20, 2)))


def test_missing_dask_names_the_extra_to_install(monkeypatch):
    from kreport.approx import distributed

    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.array", None)
    with pytest.raises(MissingDependencyError, match=r"pip install kreport\[scale\]"):
        distributed.random_rows(100, 3)
    with pytest.raises(ImportError, match=r"kreport\[scale\]"):
        distributed.fit_distributed(NystroemKernelRidge(kernels.rbf(1.0), 1.0, 5), None, None)
