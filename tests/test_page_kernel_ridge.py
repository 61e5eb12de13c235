"""The kernel-ridge page: it computes, it claims enough, and its key facts agree
with the same quantities worked out independently with plain numpy."""

from __future__ import annotations

import numpy as np
import pytest

from kreport.data import crowd, three_people, throws
from kreport.pages._kernel_ridge_fits import _half_centred_fit_for_demonstration
from kreport.pages.kernel_ridge import page


@pytest.fixture(scope="module")
def result():
    return page.compute()


def test_the_page_computes_with_enough_claims_and_figures(result):
    assert len(result.claims) >= 25
    assert sorted(result.figures) == sorted(
        f"kernel-ridge-{name}.svg" for name in ("tables", "degrees", "gammas", "penalties",
                                                 "timings"))
    assert result.seconds < 60


def _dual_by_hand(rows, target, penalty, kernel_table):
    centred = rows - rows.mean(axis=0)
    table = kernel_table(centred, centred)
    return np.linalg.solve(table + penalty * np.eye(len(rows)), target - target.mean())


def test_three_people_by_hand(result):
    people = three_people()
    weights = _dual_by_hand(people.rows, people.target, 1.0, lambda a, b: a @ b.T)
    np.testing.assert_allclose(weights, [-2.0, 0.0, 2.0], atol=1e-12)
    centred = people.rows[:, 0] - people.rows[:, 0].mean()
    slope = centred @ weights
    answer = people.target.mean() + slope * (170.5 - people.rows[:, 0].mean())
    assert answer == pytest.approx(72.0, abs=1e-12)
    facts = result.facts["three_people"]
    assert facts["dual_weights"] == [-2, 0, 2]
    assert facts["answer"] == pytest.approx(answer, abs=1e-10)
    assert facts["primal_slope"] == pytest.approx(slope, abs=1e-12)


def test_linear_table_of_the_throws_has_one_eigenvalue(result):
    times = throws().rows[:, 0]
    centred = times - times.mean()
    eigenvalues = np.linalg.eigvalsh(np.outer(centred, centred))
    assert eigenvalues[-1] == pytest.approx(22.834, abs=5e-4)
    assert result.facts["throw_tables"]["linear_largest"] == pytest.approx(eigenvalues[-1],
                                                                          rel=1e-12)
    assert np.sum(np.abs(eigenvalues) > 1e-10 * eigenvalues[-1]) == 1


def test_crowd_target_mean_and_slope(result):
    people = crowd()
    assert result.facts["what_ridge_reports"]["mean"] == pytest.approx(72.0, abs=1e-12)
    heights = people.rows[:, 0] - people.rows[:, 0].mean()
    slope = heights @ (people.target - people.target.mean()) / (heights @ heights + 1.0)
    assert result.facts["lines"]["crowd_slope"] == pytest.approx(slope, rel=1e-12)


def test_half_centred_fit_differs_from_the_right_one(result):
    people = crowd()
    wrong_slope, wrong_at_mean = _half_centred_fit_for_demonstration(people.rows, people.target,
                                                                     1.0)
    heights = people.rows[:, 0] - people.rows[:, 0].mean()
    right = heights @ (people.target - people.target.mean()) / (heights @ heights + 1.0)
    assert abs(wrong_slope[0] - right) > 0.5 * right
    assert abs(wrong_at_mean - people.target.mean()) > 0.1
    row = result.facts["half_centred_bug"]["rows"][0]
    assert row["wrong"] == pytest.approx(wrong_slope[0], rel=1e-9)
    assert row["ridge"] == pytest.approx(right, rel=1e-12)


def test_rbf_dual_weights_are_residuals_over_the_penalty():
    ball = throws()
    rows = ball.rows - ball.rows.mean(axis=0)
    table = np.exp(-((rows - rows.T) ** 2))
    weights = _dual_by_hand(ball.rows, ball.target, 1.0,
                            lambda a, b: np.exp(-((a - b.T) ** 2)))
    residuals = (ball.target - ball.target.mean()) - table @ weights
    np.testing.assert_allclose(weights, residuals, atol=1e-12)
