"""The choosing page: it computes, it claims enough, and its key facts agree with
leave-one-out, k-fold and the median rule worked out with plain numpy."""

from __future__ import annotations

import numpy as np
import pytest

from kreport.data import crowd, throws
from kreport.pages.choosing import page
from kreport.pages.choosing.settings import FOLDS, PENALTIES, THROWS_GAMMAS


@pytest.fixture(scope="module")
def result(computed):
    return computed(page)


@pytest.fixture(scope="module")
def facts(result):
    return result.facts


def _data(fixture):
    found = fixture()
    return np.asarray(found.rows, dtype=float)[:, 0], np.asarray(found.target, dtype=float)


def _fit_predict(x_train, y_train, x_query, gamma, penalty):
    """Kernel ridge with the RBF kernel, target centred and its mean added back."""
    table = np.exp(-gamma * (x_train[:, None] - x_train[None, :]) ** 2)
    weights = np.linalg.solve(table + penalty * np.eye(len(x_train)), y_train - y_train.mean())
    query = np.exp(-gamma * (x_query[:, None] - x_train[None, :]) ** 2)
    return query @ weights + y_train.mean()


def _loo(x, y, gamma, penalty):
    n = len(x)
    return np.array([y[i] - _fit_predict(np.delete(x, i), np.delete(y, i), x[i : i + 1],
                                         gamma, penalty)[0] for i in range(n)])


def test_the_page_computes_with_enough_claims_and_figures(result):
    assert len(result.claims) >= 12
    names = {name.replace("-narrow", "") for name in result.figures}
    assert names == {f"choosing-{name}.svg" for name in ("scores", "folds", "surface")}


def test_leave_one_out_by_refitting_in_numpy(facts):
    x, y = _data(throws)
    section = facts["exact_leave_one_out"]
    residuals = _loo(x, y, section["gamma"], section["penalty"])
    assert section["mse"] == pytest.approx(np.mean(residuals**2), rel=1e-10)


def test_the_textbook_shortcut_in_numpy(facts):
    x, y = _data(throws)
    section = facts["exact_leave_one_out"]
    n = len(x)
    table = np.exp(-section["gamma"] * (x[:, None] - x[None, :]) ** 2)
    averaging = np.full((n, n), 1.0 / n)
    # ŷ = ȳ + K̃ G⁻¹ y_c, so the whole hat matrix is J + K̃ G⁻¹ (I − J).
    hat = averaging + table @ np.linalg.inv(table + section["penalty"] * np.eye(n)) @ (
        np.eye(n) - averaging)
    fitted = hat @ y
    shortcut = (y - fitted) / (1.0 - np.diag(hat))
    assert section["textbook_mse"] == pytest.approx(np.mean(shortcut**2), rel=1e-10)
    assert section["textbook_mse"] < section["mse"]


def test_the_held_out_choice_is_the_grid_minimum_in_numpy(facts):
    x, y = _data(throws)
    best = facts["validation_surface"]["throws"]
    # The chosen cell and its neighbours on the grid, scored by refitting.
    i, j = THROWS_GAMMAS.index(best["gamma"]), PENALTIES.index(best["penalty"])
    chosen = np.mean(_loo(x, y, best["gamma"], best["penalty"]) ** 2)
    assert best["mse"] == pytest.approx(chosen, rel=1e-6)
    for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        neighbour = np.mean(_loo(x, y, THROWS_GAMMAS[i + di], PENALTIES[j + dj]) ** 2)
        assert neighbour > chosen


def test_contiguous_folds_in_numpy(facts):
    x, y = _data(throws)
    section = facts["k_fold"]
    gamma, penalty = facts["exact_leave_one_out"]["gamma"], facts["exact_leave_one_out"]["penalty"]
    folds = np.array_split(np.arange(len(x)), FOLDS)
    scores = []
    for test in folds:
        keep = np.setdiff1d(np.arange(len(x)), test)
        predicted = _fit_predict(x[keep], y[keep], x[test], gamma, penalty)
        scores.append(np.mean((y[test] - predicted) ** 2))
    np.testing.assert_allclose(section["contiguous"], scores, rtol=1e-10)


def test_folds_are_scikit_learns():
    from sklearn.model_selection import KFold

    from kreport import kfold_indices

    ours = kfold_indices(15, FOLDS)
    for fold, (train, test) in zip(ours, KFold(n_splits=FOLDS).split(np.zeros(15)), strict=True):
        assert fold.test.tolist() == test.tolist()
        assert fold.train.tolist() == train.tolist()


def test_median_rule_in_numpy(facts):
    for fixture, name in ((throws, "throws"), (crowd, "crowd")):
        x, _ = _data(fixture)
        i, j = np.triu_indices(len(x), k=1)
        median = np.median((x[i] - x[j]) ** 2)
        assert facts["median_rule"][name]["median"] == pytest.approx(median, rel=1e-12)
        assert facts["median_rule"][name]["gamma"] == pytest.approx(1.0 / median, rel=1e-12)
    assert facts["median_rule"]["crowd"]["median"] == pytest.approx(225.0)


def test_training_r2_falls_with_the_penalty_in_numpy():
    x, y = _data(throws)
    for gamma in (0.1, 1.0, 10.0):
        scores = []
        for penalty in (1e-3, 1e-1, 1.0, 10.0):
            fitted = _fit_predict(x, y, x, gamma, penalty)
            scores.append(1.0 - np.sum((y - fitted) ** 2) / np.sum((y - y.mean()) ** 2))
        assert np.all(np.diff(scores) < 0)


def test_the_exercises_answers_agree_with_scikit_learn_and_numpy(facts):
    from sklearn.kernel_ridge import KernelRidge as SklearnKernelRidge
    from sklearn.linear_model import Ridge as SklearnRidge
    from sklearn.model_selection import LeaveOneOut

    from kreport.data import three_people

    answers = facts["exercises"]
    # The mean, held out: refit "the mean of the others" n times.
    for fixture, key in ((three_people, "mean_r2"), (throws, "throws_r2")):
        _, y = _data(fixture)
        residuals = np.array([y[test][0] - y[train].mean()
                              for train, test in LeaveOneOut().split(y)])
        r2 = 1.0 - np.sum(residuals**2) / np.sum((y - y.mean()) ** 2)
        assert answers[key] == pytest.approx(r2, rel=1e-12)
        if fixture is three_people:
            assert answers["held_out"] == pytest.approx(residuals.tolist(), abs=1e-12)
            assert answers["without"] == pytest.approx((y - residuals).tolist(), abs=1e-12)
    # The shortcut for the line: scikit-learn's Ridge fits an unpenalised intercept, which
    # is what kernel ridge with the linear kernel does here.
    x, y = _data(three_people)
    alpha = answers["line_penalty"]
    line = SklearnRidge(alpha=alpha).fit(x[:, None], y)
    assert answers["slope"] == pytest.approx(line.coef_[0], rel=1e-12)
    assert answers["fitted"] == pytest.approx(line.predict(x[:, None]).tolist(), rel=1e-12)
    refit = SklearnRidge(alpha=alpha).fit(x[1:, None], y[1:])
    assert answers["refit_slope"] == pytest.approx(refit.coef_[0], rel=1e-12)
    assert answers["refit_prediction"] == pytest.approx(refit.predict(x[:1, None])[0], rel=1e-12)
    design = np.column_stack([np.ones(3), x - x.mean()])
    hat = design @ np.linalg.solve(design.T @ design + np.diag([0.0, alpha]), design.T)
    assert answers["leverage_a"] == pytest.approx(hat[0, 0], rel=1e-12)
    shortcut = (y[0] - line.predict(x[:1, None])[0]) / (1.0 - hat[0, 0])
    assert answers["shortcut_a"] == pytest.approx(shortcut, rel=1e-9)
    assert answers["shortcut_a"] == pytest.approx(y[0] - refit.predict(x[:1, None])[0], rel=1e-9)

    # The median rule in metres: scikit-learn's KernelRidge on the centred target, refitted.
    def loo_mse(heights, weights, gamma, penalty):
        residuals = []
        for train, test in LeaveOneOut().split(heights):
            mean = weights[train].mean()
            model = SklearnKernelRidge(alpha=penalty, kernel="rbf", gamma=gamma)
            model.fit(heights[train, None], weights[train] - mean)
            residuals.append(weights[test][0] - mean - model.predict(heights[test, None])[0])
        return float(np.mean(np.square(residuals)))

    x, y = _data(crowd)
    metres = x / answers["factor"]
    i, j = np.triu_indices(len(x), k=1)
    median_m = np.median((metres[i] - metres[j]) ** 2)
    assert answers["median_m"] == pytest.approx(median_m, rel=1e-12)
    assert answers["gamma_m"] == pytest.approx(1.0 / median_m, rel=1e-12)
    assert answers["gamma_cm"] == pytest.approx(1.0 / np.median((x[i] - x[j]) ** 2), rel=1e-12)
    assert answers["reach_m"] == pytest.approx(np.sqrt(median_m), rel=1e-12)
    assert answers["mse_m"] == pytest.approx(
        loo_mse(metres, y, answers["gamma_m"], answers["penalty"]), rel=1e-9)
    assert answers["mse_cm"] == pytest.approx(
        loo_mse(x, y, answers["gamma_cm"], answers["penalty"]), rel=1e-9)
    assert answers["carried_mse"] == pytest.approx(
        loo_mse(x, y, answers["gamma_m"], answers["penalty"]), rel=1e-9)


def _krr_predict(x, y, xq, gamma, penalty):
    """Kernel ridge with the target centred and its mean added back, in plain numpy."""
    table = np.exp(-gamma * (x[:, None, 0] - x[None, :, 0]) ** 2)
    weights = np.linalg.solve(table + penalty * np.eye(len(x)), y - y.mean())
    return y.mean() + np.exp(-gamma * (xq[:, None, 0] - x[None, :, 0]) ** 2) @ weights


def _loo_mse(x, y, gamma, penalty):
    keep = ~np.eye(len(y), dtype=bool)
    return np.mean([(y[i] - _krr_predict(x[keep[i]], y[keep[i]], x[i:i + 1], gamma,
                                         penalty)[0]) ** 2 for i in range(len(y))])


def test_the_nested_search_by_plain_refits(computed):
    """Nested leave-one-out worked again by refitting every fold in numpy: for each throw,
    the grid searched on the others by their own leave-one-out refits."""
    found = computed(page).facts["nested_search"]
    data = throws()
    x, y = np.asarray(data.rows, dtype=float), np.asarray(data.target, dtype=float)
    misses, picks = [], []
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        scores = {(g, p): _loo_mse(x[keep], y[keep], g, p)
                  for g in THROWS_GAMMAS for p in PENALTIES}
        gamma, penalty = min(scores, key=scores.get)
        picks.append(gamma)
        misses.append(y[i] - _krr_predict(x[keep], y[keep], x[i:i + 1], gamma, penalty)[0])
    misses = np.array(misses)
    assert found["nested_mse"] == pytest.approx(np.mean(misses**2), rel=1e-6)
    assert (found["gamma_low"], found["gamma_high"]) == (min(picks), max(picks))
    assert found["end_share"] == pytest.approx(
        (misses[0] ** 2 + misses[-1] ** 2) / np.sum(misses**2), rel=1e-6)
    plain = [y[i] - np.polyval(np.polyfit(np.delete(x[:, 0], i), np.delete(y, i), 2), x[i, 0])
             for i in range(len(y))]
    assert found["plain_parabola_mse"] == pytest.approx(np.mean(np.square(plain)), rel=1e-9)
