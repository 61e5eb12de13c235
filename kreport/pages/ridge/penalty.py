"""Why penalise: the training score against the held-out error as the penalty moves."""

from __future__ import annotations

import numpy as np

from kreport import kernels, leave_one_out
from kreport.report import bound, claim

from . import fits


def setting() -> dict:
    """The problem: the throws, time rescaled, its powers as features."""
    t, y = fits.throws()
    middle, half = fits.time_scale()
    X = fits.features()
    return {
        "n": len(y),
        "p": int(X.shape[1]),
        "degree": fits.DEGREE,
        "quadratic": fits.QUADRATIC,
        "middle": middle,
        "half": half,
        "scaled_first": float(X[:, 0].min()),
        "scaled_last": float(X[:, 0].max()),
        "first_time": float(t.min()),
        "last_time": float(t.max()),
        "mean_height": float(y.mean()),
        "smallest": float(fits.PENALTIES[0]),
        "largest": float(fits.PENALTIES[-1]),
        "steps": len(fits.PENALTIES),
        "raw_power": float(t.max()) ** fits.DEGREE,
    }


def held_out() -> dict:
    """Training R² only rises as the penalty falls; the held-out error turns."""
    sweep = fits.sweep()
    quadratic = fits.sweep(fits.QUADRATIC)
    train, rmse = sweep["train"], sweep["loo_rmse"]
    best = fits.best_index()
    last = len(fits.PENALTIES) - 1
    claim("the training R² falls at every step up the penalty grid",
          np.all(np.diff(train) < 0), id="train_falls")
    claim("the held-out error is lowest at an interior penalty of the grid",
          0 < best < last, id="interior")
    claim("from the smallest penalty to the best one the held-out error falls at every step",
          np.all(np.diff(rmse[:best + 1]) < 0), id="falls_to_best")
    claim("and from the best to the largest it rises at every step",
          np.all(np.diff(rmse[best:]) > 0), id="rises_after")
    claim("with the smallest penalty the flexible model scores a higher training R² than the "
          "quadratic", train[0] > quadratic["train"][0], id="train_beats_quadratic")
    claim("but its held-out error is several times the quadratic's",
          rmse[0] > 3 * quadratic["loo_rmse"][0], id="loo_loses")
    claim("even at the best penalty the flexible model's held-out error is above the "
          "quadratic's", rmse[best] > quadratic["loo_rmse"][0], id="quadratic_wins")
    ends = sweep["residuals"][0]
    squared = ends**2
    end_share = float((squared[0] + squared[-1]) / squared.sum())
    order = np.argsort(np.abs(ends), kind="stable")
    claim("at the smallest penalty the two largest held-out residuals are the first and last "
          "throws", set(order[-2:].tolist()) == {0, len(ends) - 1}, id="ends")
    claim("and those two throws carry over {floor} of the squared held-out error",
          lambda floor: end_share > floor, id="end_share", floor=0.9)
    _, y = fits.throws()
    X = fits.features()
    library = max(float(np.max(np.abs(
        leave_one_out(kernels.linear(), penalty, X, y).residuals - residuals)))
        for penalty, residuals in zip(fits.PENALTIES, sweep["residuals"], strict=True))
    claim("kreport.leave_one_out with the linear kernel gives the same residuals as the refits",
          library < 1e-7, id="library")
    return {
        "smallest": float(fits.PENALTIES[0]),
        "best": float(fits.PENALTIES[best]),
        "largest": float(fits.PENALTIES[last]),
        "train_smallest": float(train[0]),
        "train_best": float(train[best]),
        "train_largest": float(train[last]),
        "rmse_smallest": float(rmse[0]),
        "rmse_best": float(rmse[best]),
        "rmse_largest": float(rmse[last]),
        "loo_r2_best": float(sweep["loo_r2"][best]),
        "quadratic_train": float(quadratic["train"][0]),
        "quadratic_rmse": float(quadratic["loo_rmse"][0]),
        "library_gap": bound(library, -7),
        "end_share": end_share,
        "end_floor": 0.9,
        "first_residual": float(ends[0]),
        "last_residual": float(ends[-1]),
        "train_rmse_smallest": float(sweep["train_rmse"][0]),
        "train_rmse_best": float(sweep["train_rmse"][best]),
    }
