"""The kernel-ridge page, part one: it computes, it claims enough, and its key
facts agree with the same quantities worked out independently with plain numpy
and scipy (never kreport's models), and with the numbers the source documents
fix. Parts two and three have test files of their own."""

from __future__ import annotations

import numpy as np
import pytest

from kreport.data import crowd, three_people, throws
from kreport.pages.kernel_ridge import page

from . import kernel_ridge_by_hand as by_hand


@pytest.fixture(scope="module")
def result(computed):
    return computed(page)


def test_the_page_computes_with_enough_claims_and_figures(result):
    assert len(result.claims) >= 35
    assert {name.removesuffix(".svg").removesuffix("-narrow") for name in result.figures} == {
        "kernel-ridge-tables"}
    assert result.seconds < 120


def test_the_page_uses_the_shared_settings(result):
    from kreport.pages import _settings

    assert result.facts["lines"]["penalty"] == _settings.PENALTY
    assert result.facts["three_people"]["question"] == _settings.QUESTION_HEIGHT
    assert result.facts["weights_are_residuals"]["rbf_gamma"] == _settings.THROWS_GAMMA


def test_every_moved_anchor_names_a_later_part():
    from kreport.pages.kernel_ridge_penalty import page as penalty_page
    from kreport.pages.kernel_ridge_traps import page as traps_page

    assert set(page.moved_anchors.values()) == {penalty_page.slug, traps_page.slug}
    moved_sections = {function.__name__ for later in (penalty_page, traps_page)
                      for function in later.sections} | {"playground-playground"}
    for anchor in page.moved_anchors:
        if anchor.startswith("claim-"):
            assert any(anchor.startswith(f"claim-{name}-") for name in moved_sections), anchor


def test_three_people_by_hand(result):
    people = three_people()
    model = by_hand.fit(people.rows, people.target, 1.0, by_hand.linear)
    np.testing.assert_allclose(model[0], [-2.0, 0.0, 2.0], atol=1e-12)
    centred = people.rows[:, 0] - people.rows[:, 0].mean()
    slope = centred @ model[0]
    assert slope == pytest.approx(4.0, abs=1e-12)
    answer = by_hand.predict(model, by_hand.linear, [[170.5]])[0]
    assert answer == pytest.approx(72.0, abs=1e-12)
    facts = result.facts["three_people"]
    assert facts["dual_weights"] == [-2, 0, 2]
    assert facts["linear_table"] == [[1, 0, -1], [0, 0, 0], [-1, 0, 1]]
    assert facts["primal_slope"] == 4
    assert facts["answer"] == pytest.approx(answer, abs=1e-10)


def test_linear_table_of_the_throws_has_one_eigenvalue(result):
    times = throws().rows[:, 0]
    centred = times - times.mean()
    eigenvalues = np.linalg.eigvalsh(np.outer(centred, centred))
    assert eigenvalues[-1] == pytest.approx(22.834, abs=5e-4)
    assert result.facts["throw_tables"]["linear_largest"] == pytest.approx(eigenvalues[-1],
                                                                          rel=1e-12)
    assert np.sum(np.abs(eigenvalues) > 1e-10 * eigenvalues[-1]) == 1


def test_crowd_slope(result):
    people = crowd()
    heights = people.rows[:, 0] - people.rows[:, 0].mean()
    slope = heights @ (people.target - people.target.mean()) / (heights @ heights + 1.0)
    assert result.facts["lines"]["crowd_slope"] == pytest.approx(slope, rel=1e-12)


def test_rbf_dual_weights_are_residuals_over_the_penalty():
    ball = throws()
    weights, _, _, centred = by_hand.fit(ball.rows, ball.target, 1.0, by_hand.rbf(1.0))
    residuals = ((ball.target - ball.target.mean())
                 - by_hand.rbf(1.0)(centred, centred) @ weights)
    np.testing.assert_allclose(weights, residuals, atol=1e-12)


def test_held_out_error_of_the_crowd_agrees_with_refitting_by_hand(result):
    people = crowd()
    _, r2 = by_hand.loo(people.rows, people.target, 1.0, by_hand.linear)
    assert result.facts["held_out_error"]["crowd_loo_r2"] == pytest.approx(r2, rel=1e-9)
    assert r2 == pytest.approx(0.851, abs=5e-4)  # the reviewer's plain refits


# ---------------------------------------------------------------- the exercises


def test_the_exercise_answers_agree_with_numpy_and_scikit_learn(result):
    from sklearn.linear_model import Ridge as SkRidge

    facts = result.facts["exercises"]
    people, ball = three_people(), throws()
    # 1. The three people at a penalty of four: plain numpy, then scikit-learn's ridge.
    weights, _, _, centred = by_hand.fit(people.rows, people.target, 4.0, by_hand.linear)
    np.testing.assert_allclose(weights, [-1.0, 0.0, 1.0], atol=1e-12)
    assert facts["weights"] == [-1, 0, 1] and facts["slope"] == 2
    sk = SkRidge(alpha=4.0).fit(people.rows, people.target)
    assert sk.coef_[0] == pytest.approx(centred[:, 0] @ weights, abs=1e-12)
    assert facts["answer"] == pytest.approx(sk.predict([[170.5]])[0], abs=1e-10)
    # 2. Times in tenths of a second: the eigenvalue a hundredfold, the R² a little up.
    times = ball.rows[:, 0] - ball.rows[:, 0].mean()
    assert facts["scaled_largest"] == pytest.approx(100 * times @ times, rel=1e-12)
    scaled = by_hand.training_r2(10 * ball.rows, ball.target, 1.0, by_hand.linear)
    plain = by_hand.training_r2(ball.rows, ball.target, 1.0, by_hand.linear)
    assert facts["scaled_r2"] == pytest.approx(scaled, rel=1e-9) and scaled > plain
    # 3. The line held out at a penalty of a thousandth: refitted row by row.
    mse, r2 = by_hand.loo(ball.rows, ball.target, 1e-3, by_hand.linear)
    assert facts["small_loo_r2"] == pytest.approx(r2, rel=1e-9) and r2 < 0
    assert facts["small_loo_mse"] == pytest.approx(mse, rel=1e-9)
