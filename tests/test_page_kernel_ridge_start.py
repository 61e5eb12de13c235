"""The ten-minute kernel ridge page: its numbers and its exercises' answers, worked
out again with scikit-learn and plain numpy (no kreport), from the CSV fixtures."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.kernel_ridge import KernelRidge as SklearnKernelRidge
from sklearn.linear_model import Ridge as SklearnRidge

from kreport.data import three_people, throws
from kreport.pages.kernel_ridge_start import page
from kreport.pages.kernel_ridge_start.settings import GAMMAS, PENALTIES


@pytest.fixture(scope="module")
def facts(computed):
    return computed(page).facts


def _throws():
    found = throws()
    return np.asarray(found.rows, dtype=float), np.asarray(found.target, dtype=float)


def _sklearn_fit_predict(x, y, xq, gamma, penalty):
    # scikit-learn's KernelRidge fits no intercept: centre the target ourselves.
    model = SklearnKernelRidge(alpha=penalty, kernel="rbf", gamma=gamma).fit(x, y - y.mean())
    return model.predict(xq) + y.mean()


def _loo_r2(x, y, gamma, penalty):
    residuals = np.array([y[i] - _sklearn_fit_predict(np.delete(x, i, axis=0), np.delete(y, i),
                                                      x[i:i + 1], gamma, penalty)[0]
                          for i in range(len(y))])
    return 1 - residuals @ residuals / np.sum((y - y.mean()) ** 2)


def test_the_chosen_setting_is_the_grid_minimum_by_sklearn(facts):
    x, y = _throws()
    errors = {(g, p): -_loo_r2(x, y, g, p) for g in GAMMAS for p in PENALTIES}
    gamma, penalty = min(errors, key=errors.get)
    chosen = facts["the_two_settings"]
    assert (chosen["gamma"], chosen["penalty"]) == (gamma, penalty)
    assert chosen["chosen"]["held_out_r2"] == pytest.approx(-errors[(gamma, penalty)], rel=1e-9)


def test_the_line_and_the_curve_scores_by_sklearn(facts):
    x, y = _throws()
    line = SklearnRidge(alpha=facts["the_problem"]["penalty"]).fit(x, y)
    fitted = line.predict(x)
    r2 = 1 - np.sum((y - fitted) ** 2) / np.sum((y - y.mean()) ** 2)
    assert facts["the_problem"]["line"]["training_r2"] == pytest.approx(r2, rel=1e-9)
    gamma, penalty = facts["the_problem"]["gamma"], facts["the_problem"]["penalty"]
    assert facts["the_problem"]["curve"]["held_out_r2"] == pytest.approx(
        _loo_r2(x, y, gamma, penalty), rel=1e-9)


def test_the_exercises_answers_by_hand(computed):
    found = three_people()
    heights, weights = np.asarray(found.rows, dtype=float)[:, 0], np.asarray(found.target, float)
    hc, yc = heights - heights.mean(), weights - weights.mean()
    answers = computed(page).facts["exercises"]
    # Ridge's slope with a penalty of one: Sxy / (Sxx + alpha).
    assert answers["slope"] == pytest.approx((hc @ yc) / (hc @ hc + 1.0), rel=1e-12)
    dual = np.linalg.solve(np.outer(hc, hc) + np.eye(3), yc)
    assert answers["dual_outer"] == pytest.approx([dual[0], dual[2]], rel=1e-12)
    x, _ = _throws()
    gap = x[1, 0] - x[0, 0]
    assert answers["half_gamma"] == pytest.approx(np.log(2) / gap**2, rel=1e-12)
    assert np.exp(-answers["half_gamma"] * gap**2) == pytest.approx(0.5, rel=1e-12)
    x, y = _throws()
    g, p = answers["chosen_gamma"], answers["chosen_penalty"]
    factor = answers["factor"]
    errors = {}
    for name, penalty in (("lower", p / factor), ("chosen", p), ("higher", p * factor)):
        r2 = _loo_r2(x, y, g, penalty)
        assert answers["moved"][name]["held_out_r2"] == pytest.approx(r2, rel=1e-9)
        errors[name] = (1 - r2) * np.mean((y - y.mean()) ** 2)
        assert answers["moved"][name]["held_out_mse"] == pytest.approx(errors[name], rel=1e-9)
    assert errors["chosen"] < min(errors["lower"], errors["higher"])


def test_the_middle_dual_weight_is_zero_because_the_middle_person_is_average():
    found = three_people()
    heights, weights = np.asarray(found.rows, dtype=float)[:, 0], np.asarray(found.target, float)
    assert heights[1] == heights.mean() and weights[1] == weights.mean()
