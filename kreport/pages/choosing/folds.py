"""k-fold cross-validation: contiguous folds on time-ordered rows extrapolate."""

from __future__ import annotations

import numpy as np

from kreport import cross_validate, kernels, kfold_indices, leave_one_out
from kreport.pages._settings import PENALTY, THROWS_GAMMA
from kreport.report import claim, within

from .common import interleaved, problem, search
from .settings import FOLDS


def _three_ways(kernel, penalty):
    rows, target = problem("throws")
    order = interleaved(len(target), FOLDS)
    contiguous = cross_validate(kernel, penalty, rows, target, FOLDS)
    spread = cross_validate(kernel, penalty, rows[order], target[order], FOLDS)
    loo = leave_one_out(kernel, penalty, rows, target)
    return contiguous, spread, loo


def k_fold():
    """Contiguous folds against interleaved folds and leave-one-out, on the throws."""
    rows, target = problem("throws")
    n = len(target)
    folds = kfold_indices(n, FOLDS)
    contiguous, spread, loo = _three_ways(kernels.rbf(THROWS_GAMMA), PENALTY)
    worst_two = set(np.argsort(contiguous.scores)[-2:].tolist())
    best = search("throws").best_held_out
    best_contiguous, best_spread, best_loo = _three_ways(best.kernel, best.penalty)
    claim("the first and the last fold are the two worst", worst_two == {0, FOLDS - 1},
          id="ends_worst")
    claim("contiguous folds score more than {factor} times worse than leave-one-out",
          lambda factor: contiguous.mean > factor * loo.mse, id="contiguous_worse", factor=2)
    claim("interleaved folds score within {limit} of leave-one-out, relatively",
          lambda limit: abs(spread.mean - loo.mse) < limit * loo.mse, id="interleaved_close",
          limit=0.1)
    claim("at the held-out choice, too, contiguous folds score worse than interleaved ones and "
          "than leave-one-out", best_contiguous.mean > max(best_spread.mean, best_loo.mse),
          id="at_best")
    interior_mean = float(np.mean(contiguous.scores[1:-1]))
    # The same middle throws, each left out alone: leave-one-out's score where neither
    # scheme extrapolates, to set beside the middle folds'.
    middle = np.concatenate([fold.test for fold in folds[1:-1]])
    interior_loo = float(np.mean(np.asarray(loo.residuals)[middle] ** 2))
    ends = np.asarray(loo.residuals)[[0, n - 1]] ** 2
    end_share = float(ends.sum() / np.sum(np.asarray(loo.residuals) ** 2))
    claim("the two end throws carry over {share} of leave-one-out's squared error",
          lambda share: end_share > share, id="ends_dominate", share=0.5)
    claim("on the middle throws, where no scheme extrapolates, the middle contiguous folds "
          "score over {factor} times leave-one-out", lambda factor: interior_mean
          > factor * interior_loo, id="interior_worse", factor=2)
    # At the held-out choice the hole costs nothing in the middle: the excess of
    # contiguous folds is the end folds' alone.
    best_interior_mean = float(np.mean(best_contiguous.scores[1:-1]))
    best_interior_loo = float(np.mean(np.asarray(best_loo.residuals)[middle] ** 2))
    claim("at the held-out choice the middle contiguous folds score below leave-one-out on the "
          "same throws", best_interior_mean < best_interior_loo, id="interior_at_best")
    first, last = folds[0].test, folds[-1].test
    return {
        "k": FOLDS,
        "n": n,
        "fold_size": len(first),
        "first_times": [float(rows[i, 0]) for i in (first[0], first[-1])],
        "last_times": [float(rows[i, 0]) for i in (last[0], last[-1])],
        "contiguous": [float(s) for s in contiguous.scores],
        "contiguous_mean": contiguous.mean,
        "interior_mean": interior_mean, "interior_loo": interior_loo, "end_share": end_share,
        "interleaved": [float(s) for s in spread.scores],
        "interleaved_mean": spread.mean,
        "loo": loo.mse,
        "contiguous_worse_factor": 2, "contiguous_ratio": contiguous.mean / loo.mse,
        "best_gamma": best.gamma,
        "best_penalty": best.penalty,
        "best_contiguous": within(best_contiguous.mean, 1e-6),
        "best_interleaved": within(best_spread.mean, 1e-6),
        "best_loo": within(best_loo.mse, 1e-6),
        "best_interior_mean": within(best_interior_mean, 1e-6),
        "best_interior_loo": within(best_interior_loo, 1e-6),
    }
