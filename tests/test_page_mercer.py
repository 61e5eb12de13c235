"""The Mercer page: it computes, it claims enough, and its key facts agree with the
same quantities worked out independently with plain numpy and scipy."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import eigvalsh

from kreport.data import measured_four, three_clusters, throws
from kreport.pages.mercer import page
from kreport.pages.mercer.settings import (
    MILD_SIGMOID,
    REFUSED_SIGMOID,
    SIGMOID_COEF0S,
    SIGMOID_GAMMAS,
)


@pytest.fixture(scope="module")
def result(computed):
    return computed(page)


@pytest.fixture(scope="module")
def facts(result):
    return result.facts


def _times() -> np.ndarray:
    times = np.asarray(throws().rows, dtype=float)[:, 0]
    return times - times.mean()


def _sigmoid(rows, gamma, coef0):
    return np.tanh(gamma * rows @ rows.T + coef0)


def test_the_page_computes_with_enough_claims_and_figures(result):
    assert len(result.claims) >= 12
    names = {name.replace("-narrow", "") for name in result.figures}
    assert names == {"mercer-spectra.svg", "mercer-sigmoid-map.svg"}


def test_measured_four_numbers_the_sources_fix(facts):
    rows = np.asarray(measured_four().rows, dtype=float)
    table = rows @ rows.T
    values = np.linalg.eigvalsh(table)[::-1]
    assert values[0] == pytest.approx(134_449.5, abs=0.05)
    assert values[0] / values[:2].sum() == pytest.approx(0.9989, abs=5e-5)
    section = facts["table_eigenvalues"]
    assert section["table"] == table.astype(int).tolist()
    assert section["largest"] == pytest.approx(values[0], rel=1e-12)
    assert section["second"] == pytest.approx(values[1], rel=1e-10)
    assert np.all(np.abs(values[2:]) < 1e-14 * values[0])


def test_polynomial_with_negative_constant_on_the_throws(facts):
    times = _times()
    linear = np.linalg.eigvalsh(np.outer(times, times))[-1]
    assert linear == pytest.approx(22.834, abs=5e-4)  # the throws' number from the sources
    squared = np.linalg.eigvalsh((np.outer(times, times) - 1.0) ** 2)
    assert squared[0] == pytest.approx(-2 * linear, rel=1e-10)
    section = facts["worked_kernels"]
    assert section["linear_eigenvalue"] == pytest.approx(linear, rel=1e-12)
    assert section["negative_eigenvalue"] == pytest.approx(squared[0], rel=1e-10)


def test_refused_sigmoid_eigenvalue_and_message(facts):
    times = _times()[:, None]
    values = eigvalsh(_sigmoid(times, *REFUSED_SIGMOID))
    section = facts["refusal"]
    assert section["smallest"] == pytest.approx(values[0], rel=1e-10)
    assert values[0] == pytest.approx(-4.313, abs=5e-4)  # the sources' number
    assert "Mercer" in section["message"]
    for row in section["above"]:
        assert row["kappa"] == pytest.approx((values[-1] + row["penalty"])
                                             / (values[0] + row["penalty"]), rel=1e-9)


def test_penalty_shifts_every_eigenvalue(facts):
    times = _times()[:, None]
    table = _sigmoid(times, *MILD_SIGMOID)
    penalty = facts["penalty_shift"]["penalty"]
    shifted = eigvalsh(table + penalty * np.eye(len(table)))
    np.testing.assert_allclose(shifted, eigvalsh(table) + penalty, atol=1e-12)
    assert facts["penalty_shift"]["smallest"] == pytest.approx(eigvalsh(table)[0], rel=1e-8)


def test_kernel_pca_clamps_the_negative_eigenvalues_of_the_centred_table(facts):
    times = _times()[:, None]
    n = len(times)
    centring = np.eye(n) - np.full((n, n), 1.0 / n)
    values = eigvalsh(centring @ _sigmoid(times, *REFUSED_SIGMOID) @ centring)
    negatives = values[values < -1e-10 * values.max()]
    section = facts["clamping"]
    assert section["clamped"] == len(negatives)
    assert section["most_negative"] == pytest.approx(negatives.min(), rel=1e-9)
    positive = np.clip(values, 0.0, None)
    assert section["first_share"] == pytest.approx(positive.max() / positive.sum(), rel=1e-9)


def test_every_sigmoid_table_has_a_negative_eigenvalue(facts):
    rows = np.asarray(three_clusters().rows, dtype=float)
    rows = rows - rows.mean(axis=0)
    mildest = 0.0 - np.inf
    for gamma in SIGMOID_GAMMAS[::4]:
        for coef0 in SIGMOID_COEF0S[::4]:
            values = eigvalsh(_sigmoid(rows, gamma, coef0))
            ratio = values[0] / np.abs(values).max()
            assert ratio < -1e-8
            mildest = max(mildest, ratio)
    section = facts["sigmoid_sweep"]
    assert section["broken"] == section["total"]
    assert section["mildest"] >= mildest - 1e-12


def test_mercer_kernels_have_no_negative_eigenvalue_on_the_throws():
    times = _times()[:, None]
    squared = (times - times.T) ** 2
    for table in (times @ times.T, (times @ times.T + 1.0) ** 3, np.exp(-0.5 * squared)):
        values = eigvalsh(table)
        assert values[0] > -1e-13 * values[-1]


def test_the_exercises_answers_agree_with_scikit_learn_and_scipy(facts):
    from sklearn.kernel_ridge import KernelRidge as SklearnKernelRidge
    from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel, sigmoid_kernel

    from kreport.data import ring, three_people

    answers = facts["exercises"]
    people = three_people()
    h = np.asarray(people.rows, dtype=float)
    h = h - h.mean(axis=0)
    y = np.asarray(people.target, dtype=float)
    yc = y - y.mean()
    table = polynomial_kernel(h, degree=2, gamma=1.0, coef0=-1.0)
    assert np.array_equal(np.array(answers["table"]), table)
    assert eigvalsh(table).min() == pytest.approx(answers["eigenvalue"], rel=1e-12)
    # scikit-learn's KernelRidge solves without checking the table; on the centred target it
    # gives the residuals and R² the exercise finds from one eigenvalue.
    fitted = SklearnKernelRidge(alpha=answers["fitted_penalty"], kernel="precomputed")
    residuals = yc - fitted.fit(table, yc).predict(table)
    assert [answers["residuals"][0], answers["residuals"][2]] == pytest.approx(
        residuals[[0, 2]], rel=1e-12)
    assert abs(residuals[1]) < 1e-10
    assert answers["r2"] == pytest.approx(1 - residuals @ residuals / (yc @ yc), rel=1e-12)
    # At the smaller penalty the penalised table is not positive definite.
    assert eigvalsh(table + answers["refused_penalty"] * np.eye(3)).min() < 0
    # The ring's three tables against the rounding floor.
    rows = np.asarray(ring().rows, dtype=float)
    rows = rows - rows.mean(axis=0)
    n = len(rows)
    eps = np.finfo(float).eps
    linear = eigvalsh(rows @ rows.T)
    assert answers["linear_floor"] == pytest.approx(n * eps * np.abs(linear).max(), rel=1e-9)
    assert np.sum(np.abs(linear) > answers["linear_floor"]) == rows.shape[1]
    rbf = eigvalsh(rbf_kernel(rows, gamma=answers["ring_gamma"]))
    assert answers["rbf_smallest"] == pytest.approx(rbf.min(), rel=1e-6)
    sig = eigvalsh(sigmoid_kernel(rows, gamma=answers["sigmoid_gamma"],
                                  coef0=answers["sigmoid_coef0"]))
    floor = n * eps * np.abs(sig).max()
    assert answers["sigmoid_negative"] == np.sum(sig < -floor)
    assert answers["sigmoid_relative"] == pytest.approx(sig.min() / np.abs(sig).max(), rel=1e-9)
    t = _times()[:, None]
    on_throws = eigvalsh(sigmoid_kernel(t, gamma=MILD_SIGMOID[0], coef0=MILD_SIGMOID[1]))
    assert answers["throws_relative"] == pytest.approx(on_throws.min() / np.abs(on_throws).max(),
                                                       rel=1e-6)
