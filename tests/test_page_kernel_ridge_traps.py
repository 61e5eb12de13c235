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
def result():
    return page.compute()


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
