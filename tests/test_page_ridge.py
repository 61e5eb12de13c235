"""The ridge page: its numbers agree with plain numpy solves (no kreport model involved)
and with the numbers the source documents fix on the three people and the throws."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kreport.report.facts import Bound
from kreport.report.page import PageResult

DATA = Path(__file__).resolve().parents[1] / "kreport" / "data"


def read(name: str) -> tuple[np.ndarray, np.ndarray]:
    table = np.loadtxt(DATA / f"{name}.csv", delimiter=",", skiprows=1)
    return table[:, :1], table[:, 1]


def ridge(X: np.ndarray, y: np.ndarray, penalty: float):
    """(weights, predict) of ridge with an unpenalised intercept, by a plain solve."""
    mean, target = X.mean(axis=0), y.mean()
    Xc = X - mean
    w = np.linalg.solve(Xc.T @ Xc + penalty * np.eye(X.shape[1]), Xc.T @ (y - target))
    return w, lambda Q: (Q - mean) @ w + target


def powers(t: np.ndarray, degree: int) -> np.ndarray:
    s = (t - (t.min() + t.max()) / 2) / ((t.max() - t.min()) / 2)
    return np.column_stack([s**k for k in range(1, degree + 1)])


@pytest.fixture(scope="module")
def result(computed) -> PageResult:
    from kreport.pages.ridge import page

    return computed(page)


@pytest.fixture(scope="module")
def facts(result):
    return result.facts


def test_the_page_computes_its_claims_and_figures(result):
    assert len(result.claims) >= 12
    assert {name.split("-", 1)[1] for name in result.figures} >= {
        "held-out.svg", "curves.svg", "intercept.svg"}


def test_three_people_by_hand(facts):
    X, y = read("three_people")
    w, predict = ridge(X, y, 1.0)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    a = np.linalg.solve(Xc @ Xc.T + np.eye(3), yc)
    assert a == pytest.approx([-2.0, 0.0, 2.0], abs=1e-12)
    people = facts["three_people"]
    assert people["slope"] == pytest.approx(4.0, rel=1e-12)
    assert w[0] == pytest.approx(4.0, rel=1e-12)
    assert people["dual_weights"][0] == pytest.approx(-2.0, rel=1e-12)
    assert isinstance(people["dual_weights"][1], Bound)
    assert people["dual_weights"][2] == pytest.approx(2.0, rel=1e-12)
    assert people["answer"] == pytest.approx(72.0, rel=1e-12)
    assert predict(np.array([[170.5]]))[0] == pytest.approx(72.0, rel=1e-12)
    assert people["system"] == [[2, 0, -1], [0, 1, 0], [-1, 0, 2]]


def test_held_out_sweep_by_plain_refits(facts):
    t, y = read("throws")
    X = powers(t[:, 0], 6)
    penalties = 10.0 ** (np.arange(-24, 9) / 4)
    rmse = []
    for penalty in penalties:
        misses = []
        for i in range(len(y)):
            keep = np.arange(len(y)) != i
            _, predict = ridge(X[keep], y[keep], penalty)
            misses.append(y[i] - predict(X[i:i + 1])[0])
        rmse.append(np.sqrt(np.mean(np.square(misses))))
    best = int(np.argmin(rmse))
    held = facts["held_out"]
    assert held["best"] == pytest.approx(penalties[best], rel=1e-12)
    assert held["rmse_best"] == pytest.approx(rmse[best], rel=1e-9)
    assert held["rmse_smallest"] == pytest.approx(rmse[0], rel=1e-7)
    assert held["rmse_largest"] == pytest.approx(rmse[-1], rel=1e-9)
    _w, predict = ridge(X, y, penalties[0])
    r2 = 1 - np.sum((y - predict(X)) ** 2) / np.sum((y - y.mean()) ** 2)
    assert held["train_smallest"] == pytest.approx(r2, rel=1e-10)


def test_shrink_factors_and_trace(facts):
    t, _ = read("throws")
    X = powers(t[:, 0], 6)
    Xc = X - X.mean(axis=0)
    lam = np.linalg.eigvalsh(Xc.T @ Xc)[::-1]
    best = facts["shrinkage"]["best"]
    assert facts["shrinkage"]["eigenvalues"] == pytest.approx(lam, rel=1e-9)
    H = Xc @ np.linalg.solve(Xc.T @ Xc + best * np.eye(6), Xc.T)
    assert facts["shrinkage"]["trace_best"] == pytest.approx(np.trace(H), rel=1e-10)


def test_penalised_intercept(facts):
    X, y = read("crowd")
    n = len(y)
    intercept = facts["intercept"]
    assert intercept["mean_weight"] == pytest.approx(72.0, rel=1e-12)
    assert intercept["centred_intercept"] == pytest.approx(n * 72.0 / (n + 1.0), rel=1e-12)
    A = np.column_stack([np.ones(n), X[:, 0]])
    raw = np.linalg.solve(A.T @ A + np.eye(2), A.T @ y)
    assert intercept["raw_slope"] == pytest.approx(raw[1], rel=1e-9)
    w, _ = ridge(X, y, 1.0)
    assert intercept["right_slope"] == pytest.approx(w[0], rel=1e-12)


def test_primal_and_dual_on_the_throws(facts):
    t, y = read("throws")
    times = t[:, 0] - t[:, 0].mean()
    top = np.linalg.eigvalsh(np.outer(times, times))[-1]
    side = facts["throws_side_by_side"]
    assert side["line_scatter"] == pytest.approx(times @ times, rel=1e-12)
    assert round(top, 3) == 22.834
    X = powers(t[:, 0], 6)
    Xc = X - X.mean(axis=0)
    penalty = side["penalty"]
    a = np.linalg.solve(Xc @ Xc.T + penalty * np.eye(len(y)), y - y.mean())
    w, _ = ridge(X, y, penalty)
    assert np.allclose(Xc.T @ a, w, rtol=1e-8, atol=1e-10)
    assert side["weights"] == pytest.approx(w, rel=1e-8)


def test_the_exercises_answers_agree_with_scikit_learn_and_numpy(facts):
    from sklearn.linear_model import LinearRegression
    from sklearn.linear_model import Ridge as SklearnRidge

    answers = facts["exercises"]
    X, y = read("three_people")
    # The shrunk slope: scikit-learn's Ridge leaves the intercept out of the penalty too.
    least_squares = LinearRegression().fit(X, y).coef_[0]
    assert answers["least_squares"] == pytest.approx(least_squares, rel=1e-12)
    assert answers["slope"] == pytest.approx(SklearnRidge(alpha=1.0).fit(X, y).coef_[0], rel=1e-12)
    assert SklearnRidge(alpha=answers["halving"]).fit(X, y).coef_[0] == pytest.approx(
        least_squares / 2, rel=1e-12)
    # The penalised intercept: ridge with no separate intercept on [1, x_c], by least squares
    # on the rows stacked with √α times the identity.
    xc = X[:, 0] - X[:, 0].mean()
    A = np.column_stack([np.ones(3), xc])
    alpha = 1.0
    stacked = np.vstack([A, np.sqrt(alpha) * np.eye(2)])
    w0, slope = np.linalg.lstsq(stacked, np.concatenate([y, [0.0, 0.0]]), rcond=None)[0]
    assert answers["penalised_intercept"] == pytest.approx(w0, rel=1e-12)
    assert slope == pytest.approx(answers["slope"], rel=1e-12)
    assert answers["right_at_mean"] == pytest.approx(y.mean(), rel=1e-12)
    # The quadratic's leave-one-out errors across the grid, by refitting scikit-learn's Ridge.
    from kreport.pages.ridge.fits import PENALTIES

    t, heights = read("throws")
    Q = powers(t[:, 0], 2)
    keep = [np.arange(len(heights)) != i for i in range(len(heights))]
    rmse = []
    for alpha in PENALTIES:
        model = SklearnRidge(alpha=alpha)
        misses = [heights[i] - model.fit(Q[k], heights[k]).predict(Q[i:i + 1])[0]
                  for i, k in enumerate(keep)]
        rmse.append(np.sqrt(np.mean(np.square(misses))))
    best = int(np.argmin(rmse))
    assert answers["quadratic_best"] == pytest.approx(PENALTIES[best], rel=1e-12)
    assert answers["quadratic_best_rmse"] == pytest.approx(rmse[best], rel=1e-9)
    assert answers["quadratic_smallest_rmse"] == pytest.approx(rmse[0], rel=1e-9)
