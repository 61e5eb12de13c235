"""Kernel ridge, the short way in: the throws, a line against a curve, the method in a
few lines of numpy beside the kreport call, the two settings that matter, exercises."""

from __future__ import annotations

from functools import cache

import numpy as np

from kreport import KernelRidge, data, grid_search, kernels, leave_one_out
from kreport.measure import r_squared
from kreport.pages._settings import PENALTY, THROWS_GAMMA
from kreport.pages.kernel_ridge.fits import mean_of_others_r2
from kreport.report import bound, claim, exact

from .settings import GAMMAS, PENALTIES, PENALTY_FACTOR, SHALLOW_RISE

#: The method written out in numpy, exactly as the page prints it; the page runs
#: this text and checks it against KernelRidge. (No digits: the site prints none.)
NUMPY_ROUTE = '''\
import numpy as np
from scipy.spatial.distance import cdist

mean_y = y.mean()
K = np.exp(-gamma * cdist(X, X, "sqeuclidean"))
a = np.linalg.solve(K + alpha * np.eye(len(X)), y - mean_y)
Kq = np.exp(-gamma * cdist(Xq, X, "sqeuclidean"))
prediction = mean_y + Kq @ a'''

KREPORT_ROUTE = '''\
from kreport import KernelRidge, kernels

model = KernelRidge(kernels.rbf(gamma), alpha).fit(X, y)
prediction = model.predict(Xq)'''


def throws() -> tuple[np.ndarray, np.ndarray]:
    found = data.throws()
    return np.asarray(found.rows, dtype=float), np.asarray(found.target, dtype=float)


@cache
def search():
    """Leave-one-out over the page's grid of γ and α (the sections and the figure share it)."""
    rows, target = throws()
    return grid_search(list(GAMMAS), list(PENALTIES), rows, target, scoring="mse")


def _scores(kernel, penalty: float) -> dict:
    rows, target = throws()
    model = KernelRidge(kernel, penalty).fit(rows, target)
    scored = leave_one_out(kernel, penalty, rows, target)
    return {"training_r2": r_squared(target, model.predict(rows)),
            "held_out_r2": scored.r2, "held_out_mse": scored.mse}


def the_problem():
    """The fifteen throws: heights against time, one arc."""
    rows, target = throws()
    line = _scores(kernels.linear(), PENALTY)
    curve = _scores(kernels.rbf(THROWS_GAMMA), PENALTY)
    claim("a straight line explains less of the heights than the RBF curve, on the training "
          "throws and on left-out ones", line["training_r2"] < curve["training_r2"]
          and line["held_out_r2"] < curve["held_out_r2"], id="curve_wins")
    mean_of_others = mean_of_others_r2("throws")
    claim("on left-out throws the line does worse than answering the mean of the other throws",
          line["held_out_r2"] < mean_of_others, id="line_below_mean")
    return {"n": len(target), "duration": float(rows.max() - rows.min()),
            "mean_of_others_r2": mean_of_others,
            "highest": float(target.max()), "penalty": PENALTY, "gamma": THROWS_GAMMA,
            "line": line, "curve": curve}


def numpy_route():
    """The method in numpy, run as printed, against KernelRidge."""
    X, y = throws()
    Xq = np.linspace(X.min(), X.max(), 7)[:, None]
    gamma, alpha = THROWS_GAMMA, PENALTY
    scope = {"X": X, "y": y, "Xq": Xq, "gamma": gamma, "alpha": alpha}
    exec(NUMPY_ROUTE, scope)  # the page's own text, not a copy of it
    ours = KernelRidge(kernels.rbf(gamma), alpha).fit(X, y).predict(Xq)
    gap = float(np.max(np.abs(scope["prediction"] - ours)) / np.max(np.abs(ours)))
    claim("the numpy lines and KernelRidge predict the same heights to within {limit} of the "
          "largest", lambda limit: gap < limit, id="same", limit=1e-12)
    return {"numpy": NUMPY_ROUTE, "kreport": KREPORT_ROUTE, "gap": bound(gap, -12),
            "gamma": gamma, "penalty": alpha}


def the_two_settings():
    """γ and α chosen together by leave-one-out over a small grid."""
    rows, _ = throws()
    grid = search()
    best = grid.best_held_out
    chosen = _scores(best.kernel, best.penalty)
    worked = _scores(kernels.rbf(THROWS_GAMMA), PENALTY)
    claim("the setting chosen by leave-one-out predicts left-out throws better than the worked "
          "setting", chosen["held_out_r2"] > worked["held_out_r2"], id="better")
    span = float(rows.max() - rows.min())
    claim("the pick lies inside the grid, on neither edge of γ or α, and its reach is longer "
          "than the throws' span", GAMMAS[0] < best.gamma < GAMMAS[-1]
          and PENALTIES[0] < best.penalty < PENALTIES[-1] and 1.0 / np.sqrt(best.gamma) > span,
          id="inside")
    claim("the training score prefers the smallest penalty of the grid",
          grid.best_training.penalty == PENALTIES[0], id="training_smallest")
    return {"gamma": best.gamma, "penalty": best.penalty, "reach": 1.0 / np.sqrt(best.gamma),
            "chosen": chosen, "settings": len(GAMMAS) * len(PENALTIES),
            "gamma_low": GAMMAS[0], "gamma_high": GAMMAS[-1], "gamma_count": len(GAMMAS),
            "penalty_count": len(PENALTIES),
            "penalty_low": PENALTIES[0], "penalty_high": PENALTIES[-1],
            "training_penalty": grid.best_training.penalty}


def exercises():
    """Answers to the page's exercises, each computed here."""
    # 1. The three people, linear kernel, penalty one: the dual weights by hand.
    people = data.three_people()
    heights = np.asarray(people.rows, dtype=float)
    weights_kg = np.asarray(people.target, dtype=float)
    centred = heights - heights.mean(axis=0)
    target_c = weights_kg - weights_kg.mean()
    table = centred @ centred.T
    dual = np.linalg.solve(table + PENALTY * np.eye(len(heights)), target_c)
    slope = float(centred[:, 0] @ dual)
    claim("the slope rebuilt from the dual weights is ridge's slope, the centred cross "
          "product over the scatter plus the penalty",
          abs(slope - (centred[:, 0] @ target_c) / (centred[:, 0] @ centred[:, 0] + PENALTY))
          < 1e-12, id="slope")
    # 2. The first two throws: the gamma at which their kernel value is one half.
    rows, _ = throws()
    gap_s = float(rows[1, 0] - rows[0, 0])
    half_gamma = float(np.log(2.0) / gap_s**2)
    claim("at that γ the RBF kernel value of the first two throws is one half",
          abs(kernels.rbf(half_gamma)(rows[:1], rows[1:2])[0, 0] - 0.5) < 1e-12, id="half")
    # 3. The chosen penalty moved down and up by the same factor: both scores.
    best = search().best_held_out
    moved = {name: _scores(best.kernel, best.penalty * factor)
             for name, factor in (("lower", 1 / PENALTY_FACTOR), ("chosen", 1.0),
                                  ("higher", PENALTY_FACTOR))}
    claim("the training R² falls as the penalty rises",
          moved["lower"]["training_r2"] > moved["chosen"]["training_r2"]
          > moved["higher"]["training_r2"], id="training_falls")
    claim("the leave-one-out error is lower at the chosen penalty than at that penalty divided "
          "or multiplied by {factor}", lambda factor: moved["chosen"]["held_out_mse"]
          < min(moved["lower"]["held_out_mse"], moved["higher"]["held_out_mse"]),
          id="held_out_minimum", factor=PENALTY_FACTOR)
    rise = {name: moved[name]["held_out_mse"] / moved["chosen"]["held_out_mse"] - 1
            for name in ("lower", "higher")}
    claim("a step either way raises the leave-one-out error by less than {shallow} of it",
          lambda shallow: max(rise.values()) < shallow, id="shallow", shallow=SHALLOW_RISE)
    return {
        "people_heights": heights[:, 0], "people_weights": weights_kg,
        # Whole numbers minus their whole-number mean: exact on the committed data
        # (rint only removes the few-ulp noise of the stability check's replicas).
        "people_centred": exact(np.rint(centred[:, 0]), "whole heights less their whole mean"),
        "people_target": exact(np.rint(target_c), "whole weights less their whole mean"),
        "dual_outer": [float(dual[0]), float(dual[2])], "dual_middle": bound(dual[1], -11),
        "slope": slope, "penalty": PENALTY,
        "gap_s": gap_s, "half_gamma": half_gamma, "half_reach": 1.0 / np.sqrt(half_gamma),
        "factor": PENALTY_FACTOR, "moved": moved,
        "rise_percent": {name: 100 * value for name, value in rise.items()},
        "shallow_percent": 100 * SHALLOW_RISE,
        "chosen_gamma": best.gamma, "chosen_penalty": best.penalty,
    }
