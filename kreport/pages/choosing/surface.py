"""The validation surface over gamma and the penalty, and what it chooses."""

from __future__ import annotations

import numpy as np

from kreport import kernels, leave_one_out
from kreport.pages._settings import PENALTY
from kreport.report import bound, claim, within

from .common import GAMMAS, problem, search
from .settings import PENALTIES


def _pick(fixture: str) -> dict:
    grid = search(fixture)
    best = grid.best_held_out
    rows, target = problem(fixture)
    loo = leave_one_out(best.kernel, best.penalty, rows, target)
    ordered = np.sort(grid.held_out.ravel())
    row = GAMMAS[fixture].index(best.gamma)
    return {
        "gamma": best.gamma,
        "penalty": best.penalty,
        "mse": within(best.held_out, 1e-6),
        "r2": within(loo.r2, 1e-6),
        "training_r2": within(best.training_r2, 1e-6),
        "reach": 1.0 / np.sqrt(best.gamma),
        "runner_up": within(float(ordered[1] / ordered[0]), 1e-6),
        "at_edge": "yes" if row in (0, len(GAMMAS[fixture]) - 1) else "no",
        "training_penalty": grid.best_training.penalty,
        "training_gamma": grid.best_training.gamma,
        "training_gap": bound(1.0 - grid.best_training.training_r2, -10),
    }


def validation_surface():
    """Leave-one-out over the whole grid on the throws and the crowd."""
    throws, crowd = _pick("throws"), _pick("crowd")
    rows, target = problem("throws")
    span = float(rows.max() - rows.min())
    parabola_kernel = kernels.polynomial(2, 1.0, 1.0)
    parabola = leave_one_out(parabola_kernel, throws["penalty"], rows, target)
    crowd_rows, crowd_target = problem("crowd")
    line = leave_one_out(kernels.linear(), PENALTY, crowd_rows, crowd_target)
    crowd_span = float(crowd_rows.max() - crowd_rows.min())
    count = len(GAMMAS["throws"]) * len(PENALTIES)
    # What looking at the worked penalty alone would have chosen (the first section).
    worked = search("throws")
    column = PENALTIES.index(PENALTY)
    row = int(np.argmin(worked.held_out[:, column]))
    worked_mse = float(worked.held_out[row, column])
    claim("each held-out choice beats the next best setting by more than {margin} relatively",
          lambda margin: all(f["runner_up"].value > 1 + margin for f in (throws, crowd)),
          id="clear", margin=1e-3)
    claim("the throws' held-out reach is longer than the time the throws span",
          throws["reach"] > span, id="long_reach")
    claim("the crowd's held-out reach is longer than the range of its heights",
          crowd["reach"] > crowd_span, id="crowd_long_reach")
    claim("the training R² picks the smallest penalty on the grid on both data sets",
          throws["training_penalty"] == crowd["training_penalty"] == PENALTIES[0],
          id="training_corner")
    claim("the crowd's held-out choice sits at the edge of the grid, at its smallest γ",
          crowd["at_edge"] == "yes" and crowd["gamma"] == GAMMAS["crowd"][0], id="crowd_edge")
    claim("the straight line's leave-one-out error on the crowd is below the best RBF setting's",
          line.mse < crowd["mse"].value, id="line_wins")
    claim("the best RBF setting on the throws has a smaller leave-one-out error than a parabola "
          "(polynomial of degree {degree}) at the same penalty",
          throws["mse"].value < parabola.mse, id="beats_parabola",
          degree=parabola_kernel.degree)
    # The best penalty at each gamma, as a step of the penalty grid.
    crowd_best = np.argmin(search("crowd").held_out, axis=1)
    throws_best = np.argmin(worked.held_out, axis=1)
    claim("on the crowd the best penalty grows from {low} at the smallest γ to {high} at the "
          "largest, stepping back by at most one step of the grid on the way",
          crowd_best[-1] > crowd_best[0] and np.all(np.diff(crowd_best) >= -1), id="diagonal",
          low=PENALTIES[crowd_best[0]], high=PENALTIES[crowd_best[-1]])
    narrow = int(np.flatnonzero(throws_best != 0).max()) + 1  # smallest penalty from here on
    claim("on the throws the smallest penalty of the grid is best at every γ from {gamma} on, "
          "and not at every γ below it", narrow < len(throws_best) and np.all(throws_best[narrow:]
                                                                             == 0),
          id="throws_corner", gamma=GAMMAS["throws"][narrow])
    claim("the best setting at the worked penalty alone has a leave-one-out error over {factor} "
          "times the grid's choice", lambda factor: worked_mse > factor * throws["mse"].value,
          id="worked_worse", factor=10)
    # The other half of the lesson: keep that gamma and search the penalty alone.
    penalty_alone = float(worked.held_out[row].min())
    claim("at that γ, searching the penalty alone does better than the worked penalty but "
          "worse than the joint choice", throws["mse"].value < penalty_alone < worked_mse,
          id="penalty_alone")
    return {
        "penalty_alone_mse": within(penalty_alone, 1e-6),
        "penalty_alone_ratio": within(penalty_alone / throws["mse"].value, 1e-6),
        "crowd_best_low": PENALTIES[crowd_best[0]], "crowd_best_high": PENALTIES[crowd_best[-1]],
        "throws_corner_gamma": GAMMAS["throws"][narrow],
        "worked_gamma": GAMMAS["throws"][row],
        "worked_mse": worked_mse,
        "worked_ratio": within(worked_mse / throws["mse"].value, 1e-6),
        "worked_factor": 10,
        "throws": throws,
        "crowd": crowd,
        "span": span,
        "crowd_span": crowd_span,
        "parabola_mse": within(parabola.mse, 1e-6),
        "parabola_degree": parabola_kernel.degree, "parabola_gamma": parabola_kernel.gamma,
        "parabola_coef0": parabola_kernel.coef0,
        "line_mse": line.mse,
        "line_penalty": PENALTY,
        "count": count,
        "gamma_count": len(GAMMAS["throws"]),
        "penalty_count": len(PENALTIES),
        "penalty_low": PENALTIES[0],
        "penalty_high": PENALTIES[-1],
        "throws_gamma_low": GAMMAS["throws"][0],
        "throws_gamma_high": GAMMAS["throws"][-1],
        "crowd_gamma_low": GAMMAS["crowd"][0],
        "crowd_gamma_high": GAMMAS["crowd"][-1],
    }
