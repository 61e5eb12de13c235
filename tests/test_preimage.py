"""kreport.preimage: fixed-point pre-images, the learned map, and de-noising the noisy circle.

References are independent of the code under test: a plain-numpy kernel PCA
(explicit centring matrices, numpy's eigh) and a plain-numpy fixed-point
iteration; scikit-learn's KernelPCA(fit_inverse_transform=True) for the learned
map; and the clean positions stored in the fixture for the de-noising errors.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from kreport import (
    PCA,
    InvalidInputError,
    InvalidParameterError,
    KernelPCA,
    KernelRidge,
    KreportError,
    NoInverseTransformError,
    NotFittedError,
    data,
    kernels,
)
from kreport.errors import NotConvergedWarning, PreimageError
from kreport.preimage import LearnedPreimage, _projection_weights, fixed_point_preimage

# ------------------------------------------------------------------ the data

FX = data.noisy_circle()
NOISY = np.asarray(FX.rows)
CLEAN = FX.extra_rows("clean_x1", "clean_x2")

# The settings the de-noising tests use. Chosen by measuring the fixed point
# on a grid (gamma 0.25-4, 1-12 directions; see the report of this change):
# gamma 1 with 6 directions is the best fixed-point setting on that grid, and
# the 6th/7th eigenvalues (2.41, 1.41) are well apart, so the kept subspace is
# well defined.
GAMMA = 1.0
KEPT = 6
PENALTY = 1.0  # for the learned map


def mean_squared_error(rows: np.ndarray) -> float:
    """Mean over rows of the squared distance to the clean position."""
    return float(np.mean(np.sum((rows - CLEAN) ** 2, axis=1)))


NOISY_ERROR = mean_squared_error(NOISY)


def rbf(A, B, gamma):
    return np.exp(-gamma * ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1))


def numpy_kpca(X, gamma, kept):
    """Coefficients (n × kept) and the centred table, by explicit centring matrices."""
    n = len(X)
    ones = np.full((n, n), 1.0 / n)
    K = rbf(X, X, gamma)
    Kc = K - ones @ K - K @ ones + ones @ K @ ones
    values, vectors = np.linalg.eigh(Kc)
    values, vectors = values[::-1][:kept], vectors[:, ::-1][:, :kept]
    return vectors / np.sqrt(values), K


def numpy_fixed_point(X, gamma, kept, queries, iterations=2000):
    """Mika et al.'s iteration written out from the formulas, for every query."""
    alpha, K = numpy_kpca(X, gamma, kept)
    n = len(X)
    kq = rbf(queries, X, gamma)
    kq_c = kq - kq.mean(axis=1, keepdims=True) - K.mean(axis=0) + K.mean()
    beta = kq_c @ alpha
    gamma_weights = beta @ alpha.T + (1 - (beta @ alpha.T).sum(axis=1, keepdims=True)) / n
    z = queries.copy()
    for _ in range(iterations):
        w = gamma_weights * rbf(z, X, gamma)
        z = (w @ X) / w.sum(axis=1, keepdims=True)
    return z, gamma_weights


# ---------------------------------------------------- the projection weights


def test_projection_weights_rebuild_the_projection():
    fit = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(NOISY)
    beta = fit.transform(NOISY[:10] + 0.05)
    weights = _projection_weights(fit, beta)
    n = len(NOISY)
    # Σᵢ γᵢ = 1: the projection keeps the lifted mean's full weight.
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    # Coordinates of Σ γᵢ φ(xᵢ) on the kept directions are the query's own.
    np.testing.assert_allclose(weights @ fit.centred_table_ @ fit.coefficients_, beta, atol=1e-10)
    # ‖P φ − φ̄‖² = Σ β_k² (unit, orthogonal directions), computed from K alone.
    centred_weights = weights - 1.0 / n
    lengths = np.einsum("ij,jk,ik->i", centred_weights, fit.training_table_, centred_weights)
    np.testing.assert_allclose(lengths, np.sum(beta**2, axis=1), rtol=1e-9)


# -------------------------------------------------------------- fixed point


def test_fixed_point_matches_a_plain_numpy_iteration():
    fit = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(NOISY)
    ours = fixed_point_preimage(fit, rows=NOISY, tol=1e-12, max_iter=5000)
    theirs, _ = numpy_fixed_point(NOISY, GAMMA, KEPT, NOISY)
    # Both iterate the same contraction to its fixed point; the tolerance is the
    # stopping rule (1e-12 × the data's spread) amplified by slow contraction.
    np.testing.assert_allclose(ours.preimages, theirs, atol=1e-8)


def test_fixed_point_converges_on_the_noisy_circle():
    fit = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(NOISY)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a NotConvergedWarning would fail the test
        result = fixed_point_preimage(fit, rows=NOISY)
    assert result.converged.all()
    assert result.iterations.max() < 100  # measured: at most 17 steps
    assert result.n_components == KEPT
    assert np.isfinite(result.preimages).all()
    # The result is a fixed point of the map, up to the stopping tolerance ...
    weights = _projection_weights(fit, fit.transform(NOISY))
    w = weights * rbf(result.preimages, NOISY, GAMMA)
    step = (w @ NOISY) / w.sum(axis=1, keepdims=True) - result.preimages
    spread = np.sqrt(np.mean(np.sum((NOISY - NOISY.mean(axis=0)) ** 2, axis=1)))
    assert np.abs(step).max() < 1e-7 * spread
    # ... and a local maximum of Σᵢ γᵢ k(z, xᵢ), i.e. a local minimum of ‖φ(z) − Pφ‖².
    score = lambda z: np.sum(weights * rbf(z, NOISY, GAMMA), axis=1)  # noqa: E731
    at_result = score(result.preimages)
    assert np.all(at_result >= score(NOISY) - 1e-12)
    for angle in np.linspace(0, 2 * np.pi, 8, endpoint=False):
        nudge = 1e-3 * np.array([np.cos(angle), np.sin(angle)])
        assert np.all(score(result.preimages + nudge) <= at_result + 1e-12)


def test_scores_route_with_the_rows_as_start_equals_the_rows_route():
    fit = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(NOISY)
    by_rows = fixed_point_preimage(fit, rows=NOISY[:20], tol=1e-12)
    by_scores = fixed_point_preimage(fit, scores=fit.scores_[:20], start=NOISY[:20], tol=1e-12)
    np.testing.assert_allclose(by_scores.preimages, by_rows.preimages, atol=1e-9)
    # fewer directions from the same scores, and the "training" start
    fewer = fixed_point_preimage(fit, scores=fit.scores_[:5], n_components=4, start="training")
    assert fewer.n_components == 4 and fewer.preimages.shape == (5, 2)
    assert fewer.converged.all()


def test_named_fit_matches_queries_by_name():
    named = {"x1": NOISY[:, 0], "x2": NOISY[:, 1]}
    fit = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(named)
    swapped = {"x2": NOISY[:5, 1], "x1": NOISY[:5, 0]}
    plain = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(NOISY)
    np.testing.assert_allclose(
        fixed_point_preimage(fit, rows=swapped).preimages,
        fixed_point_preimage(plain, rows=NOISY[:5]).preimages,
        atol=1e-12,
    )


# ---------------------------------------------------------------- de-noising


def test_denoising_brings_the_noisy_circle_closer_to_the_clean_one():
    fit = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(NOISY)
    fixed = mean_squared_error(fixed_point_preimage(fit, rows=NOISY).preimages)
    learned_map = LearnedPreimage(kernels.rbf(GAMMA), PENALTY).fit(fit.scores_, NOISY)
    learned = mean_squared_error(learned_map.predict(fit.scores_))
    # Measured: noisy 0.0565, fixed point 0.0309, learned map 0.0314 (mean
    # squared distance to the clean points; the noise has sd 0.15 per coordinate).
    assert NOISY_ERROR == pytest.approx(0.0565, abs=5e-5)
    assert fixed < 0.6 * NOISY_ERROR
    assert learned < 0.6 * NOISY_ERROR
    # The de-noised points lie nearer the unit circle than the noisy ones do.
    radius_gap = lambda rows: np.mean(np.abs(np.hypot(*rows.T) - 1))  # noqa: E731
    denoised = fixed_point_preimage(fit, rows=NOISY).preimages
    assert radius_gap(denoised) < 0.5 * radius_gap(NOISY)


def test_too_few_directions_do_not_denoise():
    # Measured at gamma 1: the fixed point with 1, 2 or 3 directions is farther
    # from the clean circle than the noisy rows (0.597, 0.064, 0.081 against
    # 0.0565): the first directions alone pull the points toward a distorted curve.
    for kept in (1, 2, 3):
        fit = KernelPCA(kernels.rbf(GAMMA), n_components=kept).fit(NOISY)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NotConvergedWarning)
            result = fixed_point_preimage(fit, rows=NOISY)
        assert mean_squared_error(result.preimages) > NOISY_ERROR, kept


def test_linear_pca_cannot_denoise_a_circle():
    # PCA in 2-D has at most 2 directions. With both it gives the noisy rows
    # back exactly; with one it flattens the circle onto a line (0.533). With the
    # same 1 or 2 kernel directions the fixed point does no better (0.597, 0.064,
    # see above); with 6 it does (0.0309). The learned map, given only 2 kernel
    # coordinates, already de-noises (measured 0.0313).
    both = PCA(2).fit(NOISY)
    np.testing.assert_allclose(both.inverse_transform(both.scores_), NOISY, atol=1e-12)
    one = PCA(1).fit(NOISY)
    flattened = mean_squared_error(one.inverse_transform(one.scores_))
    assert flattened > 5 * NOISY_ERROR
    fit = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(NOISY)
    assert mean_squared_error(fixed_point_preimage(fit, rows=NOISY).preimages) < NOISY_ERROR
    two = KernelPCA(kernels.rbf(GAMMA), n_components=2).fit(NOISY)
    learned = LearnedPreimage(kernels.rbf(GAMMA), PENALTY).fit(two.scores_, NOISY)
    assert mean_squared_error(learned.predict(two.scores_)) < 0.6 * NOISY_ERROR


# --------------------------------------------------------------- learned map


def test_learned_map_is_one_kernel_ridge_per_column():
    fit = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(NOISY)
    rows = NOISY + np.array([3.0, -2.0])  # not centred, so the row means matter
    learned = LearnedPreimage(kernels.rbf(GAMMA), PENALTY).fit(fit.scores_, rows)
    queries = fit.transform(NOISY[:7] * 1.1)
    # plain numpy: centred coordinates and rows, means added back
    S = fit.scores_
    means = rows.mean(axis=0)
    A = np.linalg.solve(rbf(S, S, GAMMA) + PENALTY * np.eye(len(S)), rows - means)
    expected = rbf(queries - S.mean(axis=0), S - S.mean(axis=0), GAMMA) @ A + means
    np.testing.assert_allclose(learned.predict(queries), expected, atol=1e-10)
    assert len(learned.models_) == 2
    assert all(isinstance(model, KernelRidge) for model in learned.models_)
    np.testing.assert_allclose(learned.row_means_, means, rtol=1e-15)
    assert (learned.n_coordinates_, learned.n_features_out_) == (KEPT, 2)


sklearn = pytest.importorskip("sklearn")
from sklearn.decomposition import KernelPCA as SkKernelPCA  # noqa: E402


def sk_fit(rows, alpha):
    return SkKernelPCA(
        KEPT,
        kernel="rbf",
        gamma=GAMMA,
        fit_inverse_transform=True,
        alpha=alpha,
        eigen_solver="dense",
    ).fit(rows)


def aligned_sklearn_scores(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """scikit-learn's coordinates with each column's sign turned to match ours."""
    return theirs * np.sign(np.sum(ours * theirs, axis=0))


@pytest.mark.parametrize("alpha", [0.1, 1.0])
def test_learned_map_agrees_with_sklearn_on_centred_rows(alpha):
    rows = NOISY - NOISY.mean(axis=0)  # zero column means: the two maps coincide
    fit = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(rows)
    theirs = sk_fit(rows, alpha)
    queries = np.array([[0.0, 0.0], [1.2, 0.3], [-0.7, 0.8], [2.5, -2.5]])
    ours_scores = fit.transform(queries)
    their_scores = aligned_sklearn_scores(ours_scores, theirs.transform(queries))
    np.testing.assert_allclose(ours_scores, their_scores, atol=1e-9)  # the same coordinates
    learned = LearnedPreimage(kernels.rbf(GAMMA), alpha).fit(fit.scores_, rows)
    # scikit-learn maps its own (sign-arbitrary) coordinates; the radial kernel
    # on coordinates ignores a column's sign, so both maps take the same input.
    np.testing.assert_allclose(
        learned.predict(ours_scores),
        theirs.inverse_transform(theirs.transform(queries)),
        atol=1e-9,
    )
    np.testing.assert_allclose(
        learned.predict(fit.scores_), theirs.inverse_transform(theirs.transform(rows)), atol=1e-9
    )


def test_learned_map_differs_from_sklearn_on_rows_that_are_not_centred():
    offset = np.array([3.0, -2.0])
    rows = NOISY + offset
    fit = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(rows)
    theirs = sk_fit(rows, PENALTY)
    learned = LearnedPreimage(kernels.rbf(GAMMA), PENALTY).fit(fit.scores_, rows)
    ours = learned.predict(fit.scores_)
    sklearn_rows = theirs.inverse_transform(theirs.transform(rows))
    # The whole difference is the mean row, times 1 − k(z, S)(K + αI)⁻¹1
    # (scikit-learn regresses on the raw rows, kreport on the centred rows):
    S = fit.scores_
    shrink = rbf(S, S, GAMMA) @ np.linalg.solve(
        rbf(S, S, GAMMA) + PENALTY * np.eye(len(S)), np.ones(len(S))
    )
    expected = np.outer(1.0 - shrink, rows.mean(axis=0))
    np.testing.assert_allclose(ours - sklearn_rows, expected, atol=1e-9)
    # kreport's map moves with the rows (shifting the rows shifts its answers),
    # scikit-learn's does not. Measured at this offset with alpha 1: ours is 0.0314
    # from the clean points, as without the offset; scikit-learn's is 0.0713, worse
    # than the noisy rows (0.0565), its answers 0.19 from ours on average.
    unshifted = KernelPCA(kernels.rbf(GAMMA), n_components=KEPT).fit(NOISY)
    ours_unshifted = LearnedPreimage(kernels.rbf(GAMMA), PENALTY).fit(unshifted.scores_, NOISY)
    np.testing.assert_allclose(ours - offset, ours_unshifted.predict(unshifted.scores_), atol=1e-9)
    assert mean_squared_error(ours - offset) < 0.6 * NOISY_ERROR
    assert mean_squared_error(sklearn_rows - offset) > NOISY_ERROR
    assert np.mean(np.linalg.norm(ours - sklearn_rows, axis=1)) > 0.1
    # Far from every training coordinate: ours answers the mean row, theirs the origin.
    far = np.full((1, KEPT), 100.0)
    np.testing.assert_allclose(learned.predict(far), [rows.mean(axis=0)], atol=1e-12)
    np.testing.assert_allclose(theirs.inverse_transform(far), [[0.0, 0.0]], atol=1e-12)


# ---------------------------------------------------------------- bad input


def rbf_fit(kept=KEPT):
    return KernelPCA(kernels.rbf(GAMMA), n_components=kept).fit(NOISY)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (
            lambda: fixed_point_preimage(KernelPCA(kernels.linear()).fit(NOISY), rows=NOISY),
            InvalidParameterError,
            "LearnedPreimage",
        ),
        (
            lambda: fixed_point_preimage(KernelPCA(kernels.polynomial(2)).fit(NOISY), rows=NOISY),
            InvalidParameterError,
            "rbf",
        ),
        (
            lambda: fixed_point_preimage(KernelPCA(kernels.rbf(1.0)), rows=NOISY),
            NotFittedError,
            "fit",
        ),
        (
            lambda: fixed_point_preimage(PCA().fit(NOISY), rows=NOISY),
            InvalidParameterError,
            "KernelPCA",
        ),
        (lambda: fixed_point_preimage(rbf_fit()), InvalidParameterError, "exactly one"),
        (
            lambda: fixed_point_preimage(rbf_fit(), rows=NOISY, scores=NOISY),
            InvalidParameterError,
            "exactly one",
        ),
        (
            lambda: fixed_point_preimage(rbf_fit(), rows=NOISY, n_components=7),
            InvalidInputError,
            "at most 6",
        ),
        (
            lambda: fixed_point_preimage(rbf_fit(), rows=NOISY, n_components=0),
            InvalidParameterError,
            "n_components",
        ),
        (
            lambda: fixed_point_preimage(rbf_fit(), scores=np.ones((2, 7))),
            InvalidInputError,
            "keeps 6",
        ),
        (lambda: fixed_point_preimage(rbf_fit(), rows=NOISY[:, :1]), InvalidInputError, "columns"),
        (
            lambda: fixed_point_preimage(rbf_fit(), rows=NOISY, max_iter=0),
            InvalidParameterError,
            "max_iter",
        ),
        (
            lambda: fixed_point_preimage(rbf_fit(), rows=NOISY, tol=0.0),
            InvalidParameterError,
            "tol",
        ),
        (
            lambda: fixed_point_preimage(rbf_fit(), rows=NOISY, start="origin"),
            InvalidParameterError,
            "start",
        ),
        (
            lambda: fixed_point_preimage(rbf_fit(), rows=NOISY[:3], start=NOISY[:2]),
            InvalidInputError,
            "one starting row per query",
        ),
        (
            lambda: fixed_point_preimage(rbf_fit(), rows=np.full((1, 2), np.nan)),
            InvalidInputError,
            "NaN",
        ),
        (lambda: LearnedPreimage(kernels.rbf(1.0), 0.0), InvalidParameterError, "penalty"),
        (lambda: LearnedPreimage("rbf", 1.0), InvalidParameterError, "kreport kernel"),
        (
            lambda: LearnedPreimage(kernels.rbf(1.0), 1.0).fit(NOISY[:5], NOISY[:6]),
            InvalidInputError,
            "scores has 5 rows but rows has 6",
        ),
        (lambda: LearnedPreimage(kernels.rbf(1.0), 1.0).predict(NOISY), NotFittedError, "fit"),
        (
            lambda: (
                LearnedPreimage(kernels.rbf(1.0), 1.0).fit(NOISY, NOISY).predict(np.ones((1, 3)))
            ),
            InvalidInputError,
            "3 columns",
        ),
        (
            lambda: LearnedPreimage(kernels.rbf(1.0), 1.0).fit(NOISY, NOISY[:, 0]),
            InvalidInputError,
            "two-dimensional",
        ),
    ],
)
def test_bad_input_gets_a_kreport_error(call, error, words):
    with pytest.raises(error, match=words) as caught:
        call()
    assert isinstance(caught.value, KreportError)


def test_a_vanishing_denominator_is_refused_not_answered_with_nan():
    # Started 100 units from a unit circle, every kernel value exp(−10⁴) is 0.
    with pytest.raises(PreimageError, match="denominator") as caught:
        fixed_point_preimage(rbf_fit(), rows=NOISY[:3], start=np.full((3, 2), 100.0))
    error = caught.value
    assert (error.row, error.iteration, error.denominator) == (0, 1, 0.0)
    assert isinstance(error, ValueError)


def test_non_convergence_is_reported_and_flagged():
    with pytest.warns(NotConvergedWarning, match="did not converge for 10 of 10"):
        result = fixed_point_preimage(rbf_fit(), rows=NOISY[:10], max_iter=1)
    assert not result.converged.any()
    assert np.all(result.iterations == 1)
    assert np.isfinite(result.preimages).all() and np.all(result.last_step > 0)


def test_kernel_pca_still_has_no_inverse_transform():
    with pytest.raises(NoInverseTransformError):
        rbf_fit().inverse_transform(rbf_fit().scores_)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.filterwarnings("ignore::kreport.errors.NotConvergedWarning")
def test_garbage_never_escapes_as_index_or_linalg_error_or_nan():
    rng = np.random.default_rng(0)
    candidates = [
        np.zeros((3, 2)),
        np.ones((5, 1)),
        rng.normal(size=(3, 7)),
        [[1e308, 1e308]] * 3,
        [[1e200, 1.0], [-1e200, 2.0], [0.0, 3.0]],
        [[1e20, 1.0], [2e20, 3.0], [0.0, 1.0]],
    ]

    def fixed_point(X):
        fit = KernelPCA(kernels.rbf(0.5), n_components=1).fit(X)
        return fixed_point_preimage(fit, rows=X).preimages

    def learned(X):
        return LearnedPreimage(kernels.rbf(0.5), 1.0).fit(X, X).predict(X)

    for X in candidates:
        for call in (fixed_point, learned):
            try:
                result = call(X)
            except KreportError:
                continue
            assert np.isfinite(result).all(), X
