"""The choosing page: it computes, it claims enough, and its key facts agree with
leave-one-out, k-fold and the median rule worked out with plain numpy."""

from __future__ import annotations

import numpy as np
import pytest

from kreport.data import crowd, throws
from kreport.pages.choosing import page
from kreport.pages.choosing.settings import FOLDS, PENALTIES, THROWS_GAMMAS


@pytest.fixture(scope="module")
def result():
    return page.compute()


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
