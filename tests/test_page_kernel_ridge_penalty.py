"""The kernel-ridge page, part two (kernels and the penalty): it computes, it
claims enough, and its held-out errors, picks and condition numbers agree with
plain numpy refits (never kreport's models)."""

from __future__ import annotations

import numpy as np
import pytest

from kreport.data import crowd, throws
from kreport.pages.kernel_ridge_penalty import page

from . import kernel_ridge_by_hand as by_hand


@pytest.fixture(scope="module")
def result():
    return page.compute()


def test_the_page_computes_with_enough_claims_and_figures(result):
    assert len(result.claims) >= 45
    assert {name.removesuffix(".svg").removesuffix("-narrow") for name in result.figures} == {
        f"kernel-ridge-penalty-{name}" for name in ("degrees", "gammas", "penalties",
                                                    "conditioning")}
    assert "playground" in result.playgrounds
    assert result.seconds < 120


def test_the_page_uses_the_shared_settings(result):
    from kreport.pages import _settings

    assert result.facts["rbf_on_throws"]["gamma"] == _settings.THROWS_GAMMA
    assert result.facts["polynomial_degrees"]["penalty"] == _settings.PENALTY


def test_held_out_errors_agree_with_refitting_by_hand(result):
    ball = throws()
    sweep = {row["gamma"]: row for row in result.facts["rbf_on_throws"]["sweep"]}
    for gamma in (0.3, 1.0, 100.0):
        mse, r2 = by_hand.loo(ball.rows, ball.target, 1.0, by_hand.rbf(gamma))
        assert sweep[gamma]["loo_mse"] == pytest.approx(mse, rel=1e-9)
        assert sweep[gamma]["loo_r2"] == pytest.approx(r2, rel=1e-9, abs=1e-12)
    degrees = result.facts["polynomial_degrees"]["rows"]
    mse, _ = by_hand.loo(ball.rows, ball.target, 1.0, lambda a, b: (a @ b.T + 1.0) ** 3)
    assert degrees[2]["loo_mse"] == pytest.approx(mse, rel=1e-9)


def test_held_out_error_picks_other_settings_than_the_training_score(result):
    """What the page says about choosing, recomputed: the training R² prefers gamma 3
    and the tiniest penalty; leave-one-out prefers gamma 1 and a penalty of 10⁻³,
    and at 10⁻⁹ its error is about five times larger."""
    ball = throws()
    gammas = (0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 100.0)
    training = [by_hand.training_r2(ball.rows, ball.target, 1.0, by_hand.rbf(g))
                for g in gammas]
    held_out = [by_hand.loo(ball.rows, ball.target, 1.0, by_hand.rbf(g))[0] for g in gammas]
    assert gammas[int(np.argmax(training))] == 3.0
    assert gammas[int(np.argmin(held_out))] == 1.0
    facts = result.facts["rbf_on_throws"]
    assert (facts["training_gamma"], facts["held_out_gamma"]) == (3.0, 1.0)
    penalties = (1e-9, 1e-6, 1e-3, 1e-1, 1.0, 10.0, 1e2, 1e3)
    losses = [by_hand.loo(ball.rows, ball.target, p, by_hand.rbf(1.0))[0] for p in penalties]
    assert penalties[int(np.argmin(losses))] == 1e-3
    assert losses[0] / min(losses) == pytest.approx(5.3, abs=0.05)
    facts = result.facts["penalty_as_conditioning"]
    assert facts["held_out_pick"] == 1e-3 and facts["training_pick"] == 1e-9
    assert facts["ratio"] == pytest.approx(losses[0] / min(losses), rel=1e-4)


def test_memorising_settings_score_below_the_mean_on_held_out_rows(result):
    ball, people = throws(), crowd()
    _, r2 = by_hand.loo(ball.rows, ball.target, 1.0, by_hand.rbf(100.0))
    assert r2 < 0 and r2 == pytest.approx(-0.148, abs=5e-4)
    _, r2 = by_hand.loo(people.rows, people.target, 1.0, by_hand.rbf(1.0))
    assert r2 < 0 and result.facts["units"]["loo_r2"] == pytest.approx(r2, rel=1e-9)


def test_condition_numbers_agree_with_numpy(result):
    ball = throws()
    centred = ball.rows - ball.rows.mean()
    table = by_hand.rbf(1.0)(centred, centred)
    for row in result.facts["penalty_as_conditioning"]["sweep"]:
        if row["penalty"] >= 1e-3:
            expected = np.linalg.cond(table + row["penalty"] * np.eye(len(table)))
            assert row["condition"] == pytest.approx(expected, rel=1e-6)


def test_the_grid_search_counts_the_throws(result):
    assert result.facts["choosing_together"]["rows"] == len(throws().target)
