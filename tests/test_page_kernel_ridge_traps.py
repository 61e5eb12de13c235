"""The kernel-ridge page, part three (traps, and what an implementation
declares): it computes, it claims enough, and its key facts agree with plain
numpy (never kreport's models) and with the numbers the source documents fix."""

from __future__ import annotations

import numpy as np
import pytest

from kreport.data import crowd, throws
from kreport.pages.kernel_ridge.fits import half_centred_fit_for_demonstration
from kreport.pages.kernel_ridge_traps import page

from . import kernel_ridge_by_hand as by_hand


@pytest.fixture(scope="module")
def result(computed):
    return computed(page)


def test_the_page_computes_with_enough_claims_and_figures(result):
    assert len(result.claims) >= 50
    assert {name.removesuffix(".svg").removesuffix("-narrow") for name in result.figures} == {
        "kernel-ridge-traps-timings"}
    assert page.machine_specific == ("timings",)
    assert result.seconds < 120


def test_crowd_target_mean(result):
    assert result.facts["what_ridge_reports"]["mean"] == pytest.approx(72.0, abs=1e-12)
    assert result.facts["what_ridge_reports"]["mean"] == pytest.approx(crowd().target.mean(),
                                                                       rel=1e-15)


def test_half_centred_fit_differs_from_the_right_one(result):
    people = crowd()
    wrong_slope, wrong_at_mean = half_centred_fit_for_demonstration(people.rows, people.target,
                                                                    1.0)
    heights = people.rows[:, 0] - people.rows[:, 0].mean()
    right = heights @ (people.target - people.target.mean()) / (heights @ heights + 1.0)
    assert abs(wrong_slope[0] - right) > 0.5 * right
    assert abs(wrong_at_mean - people.target.mean()) > 0.1
    row = result.facts["half_centred_bug"]["rows"][0]
    assert row["wrong"] == pytest.approx(wrong_slope[0], rel=1e-9)
    assert row["ridge"] == pytest.approx(right, rel=1e-12)


def test_the_half_centred_rbf_fit_is_the_right_one():
    """The claim the page makes of the RBF, by plain numpy: raw table, centred target."""
    ball = throws()
    target = ball.target - ball.target.mean()
    raw = by_hand.rbf(1.0)(ball.rows, ball.rows)
    wrong = np.linalg.solve(raw + np.eye(len(raw)), target)
    right, _, _, _ = by_hand.fit(ball.rows, ball.target, 1.0, by_hand.rbf(1.0))
    np.testing.assert_allclose(wrong, right, rtol=0, atol=1e-12)


def test_the_refusals_quoted_on_the_page_do_not_recommend_a_badly_conditioned_penalty(result):
    mercer = result.facts["mercer"]["message"]
    assert "4.31256" in mercer and "nearly singular" in mercer and "held-out error" in mercer
    assert "or a penalty larger than" not in mercer
    zero = result.facts["zero_penalty"]["message"]
    assert "1e-6" not in zero and "held-out error" in zero
    # What the page measured just above the threshold: nearly singular, far worse than the mean.
    first = result.facts["mercer"]["above"][0]
    assert first["condition"] > 1000 and first["r2"] < -1


# ---------------------------------------------------------------- the exercises


def test_the_exercise_answers_agree_with_numpy_and_scikit_learn(result):
    from sklearn.kernel_ridge import KernelRidge as SkKernelRidge
    from sklearn.linear_model import Ridge as SkRidge

    from kreport.data import three_people

    facts = result.facts["exercises"]
    people = three_people()
    heights = people.rows[:, 0]
    target = people.target - people.target.mean()
    # 1. Only the target centred: scikit-learn's ridge with no intercept on the raw heights.
    wrong = SkRidge(alpha=1.0, fit_intercept=False).fit(people.rows, target).coef_[0]
    assert wrong == pytest.approx(12 / 86703, rel=1e-9)
    assert (facts["products"], facts["squares"]) == (12, 86702)
    assert facts["wrong_slope"] == pytest.approx(wrong, rel=1e-9)
    assert facts["right_slope"] == 4
    assert SkRidge(alpha=1.0).fit(people.rows, people.target).coef_[0] == pytest.approx(4.0)
    assert np.max(np.abs(heights * wrong)) < 0.05
    # 2. The first diagonal entry exempt: plain numpy.
    centred = heights - heights.mean()
    system = np.outer(centred, centred) + np.diag([0.0, 1.0, 1.0])
    weights = np.linalg.solve(system, target)
    np.testing.assert_allclose(weights, [-6.0, 0.0, 0.0], atol=1e-12)
    assert facts["exempt_weights"] == [-6, 0, 0]
    assert facts["exempt_system"] == [[1, 0, -1], [0, 1, 0], [-1, 0, 2]]
    slope = centred @ weights
    assert slope == pytest.approx(np.polyfit(heights, people.target, 1)[0], abs=1e-10)
    assert facts["exempt_slope"] == 6
    assert facts["exempt_answer"] == pytest.approx(
        people.target.mean() + slope * (170.5 - heights.mean()), abs=1e-10)
    # 3. The crowd with nothing centred is scikit-learn's own KernelRidge.
    people = crowd()
    sk = SkKernelRidge(alpha=1.0, kernel="rbf", gamma=0.01).fit(people.rows, people.target)
    assert facts["plain_r2"] == pytest.approx(sk.score(people.rows, people.target), rel=1e-9)
    assert facts["plain_r2"] < 0
    queries = [[people.rows.mean()], [250.0]]
    plain = sk.predict(queries)
    assert facts["plain_at_mean"] == pytest.approx(plain[0], rel=1e-9)
    assert abs(plain[1]) < 1e-10
    centred_fit = SkKernelRidge(alpha=1.0, kernel="rbf", gamma=0.01).fit(
        people.rows, people.target - people.target.mean())
    answers = centred_fit.predict(queries) + people.target.mean()
    assert facts["centred_at_mean"] == pytest.approx(answers[0], rel=1e-9)
    assert answers[1] == pytest.approx(people.target.mean(), abs=1e-10)
    assert facts["centred_r2"] == pytest.approx(
        by_hand.training_r2(people.rows, people.target, 1.0, by_hand.rbf(0.01)), rel=1e-9)
