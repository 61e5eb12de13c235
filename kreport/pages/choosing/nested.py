"""How well the search itself does: leave-one-out wrapped round the whole grid search.

The best of many held-out scores was picked for being low, so it flatters the
setting it picked. Holding each throw out *before* searching, and predicting it
at the setting the other throws chose, scores the procedure, not the winner.
"""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge, grid_search, kernels, leave_one_out
from kreport.report import claim, within

from .common import GAMMAS, problem, search
from .settings import PENALTIES

#: The polynomial kernel that fits a parabola: degree, scale and added constant.
PARABOLA = (2, 1.0, 1.0)


def _searched_without(rows, target, left_out: int):
    """The grid's leave-one-out choice on every throw but one, and its prediction there."""
    keep = np.arange(len(target)) != left_out
    grid = grid_search(list(GAMMAS["throws"]), list(PENALTIES), rows[keep], target[keep],
                       scoring="mse")
    best = grid.best_held_out
    ordered = np.sort(grid.held_out.ravel())
    model = KernelRidge(best.kernel, best.penalty).fit(rows[keep], target[keep])
    return best, float(model.predict(rows[left_out:left_out + 1])[0]), ordered[1] / ordered[0]


def nested_search():
    """Each throw held out before the search; the search scored on the throws it never saw."""
    rows, target = problem("throws")
    picks = [_searched_without(rows, target, i) for i in range(len(target))]
    predictions = np.array([prediction for _, prediction, _ in picks])
    gammas = np.array([best.gamma for best, _, _ in picks])
    nested_mse = float(np.mean((target - predictions) ** 2))
    searched = search("throws").best_held_out
    parabola = leave_one_out(kernels.polynomial(*PARABOLA), searched.penalty, rows, target).mse
    # A plain least-squares parabola, left out row by row: no setting at all.
    times = rows[:, 0]
    plain = np.array([np.polyval(np.polyfit(np.delete(times, i), np.delete(target, i), 2),
                                 times[i]) for i in range(len(target))])
    plain_mse = float(np.mean((target - plain) ** 2))
    worst = int(np.argmax(np.abs(target - predictions)))
    squared = (target - predictions) ** 2
    ends = np.zeros(len(target), dtype=bool)
    ends[[0, -1]] = True  # the throws are in time order: the first and the last
    end_share = float(squared[ends].sum() / squared.sum())
    interior_nested = float(squared[~ends].mean())
    interior_parabola = float(((target - plain) ** 2)[~ends].mean())
    worst_gamma = float(picks[worst][0].gamma)
    claim("without the worst-missed throw the search picks a γ over {factor} times the one it "
          "picks with every throw", lambda factor: worst_gamma > factor * searched.gamma,
          id="short_reach", factor=10)
    claim("the first and last throws carry more than {share} of the nested squared error",
          lambda share: end_share > share, id="ends", share=0.8)
    claim("on the throws between them the nested error is within {share} of the parabola's",
          lambda share: abs(interior_nested / interior_parabola - 1) < share,
          id="interior_close", share=0.1)
    claim("every choice made without one throw beats its runner-up by more than {margin} "
          "relatively, so no choice is a tie", lambda margin: min(
              ratio for _, _, ratio in picks) > 1 + margin, margin=1e-4)
    claim("scored round the whole search, the error is over {factor} times the search's own best",
          lambda factor: nested_mse > factor * searched.held_out, id="flattered", factor=5)
    claim("and over {factor} times the parabola's", lambda factor: nested_mse > factor * parabola,
          id="parabola_wins", factor=5)
    claim("the parabola at the chosen penalty and a plain least-squares parabola score the same "
          "to within {share} of the error", lambda share: abs(parabola - plain_mse)
          < share * plain_mse, id="plain_parabola", share=0.01)
    claim("the choices made without one throw do not agree: γ ranges over more than a factor "
          "of {factor}", lambda factor: gammas.max() > factor * gammas.min(), id="unstable",
          factor=10)
    return {
        "nested_mse": within(nested_mse, 1e-6),
        "searched_mse": within(searched.held_out, 1e-6),
        "flattery": within(nested_mse / searched.held_out, 1e-6),
        "parabola_mse": within(parabola, 1e-6),
        "plain_parabola_mse": plain_mse,
        "parabola_ratio": within(nested_mse / parabola, 1e-6),
        "parabola_degree": PARABOLA[0],
        "gamma_low": float(gammas.min()), "gamma_high": float(gammas.max()),
        "worst_miss": within(float(np.abs(target - predictions)[worst]), 1e-6),
        "worst_time": float(times[worst]),
        "worst_gamma": worst_gamma,
        "end_share": within(end_share, 1e-6),
        "interior": int((~ends).sum()),
        "interior_nested_mse": within(interior_nested, 1e-6),
        "interior_parabola_mse": interior_parabola,
        "settings": len(GAMMAS["throws"]) * len(PENALTIES),
        "n": len(target),
    }
