"""What the penalty does: it shrinks least squares along PCA's directions of the features."""

from __future__ import annotations

import numpy as np

from kreport import Ridge, measure
from kreport.report import claim

from . import fits


def shrinkage() -> dict:
    """Shrink factors λ_m/(λ_m + α), the trace of the hat matrix, the condition number."""
    X = fits.features()
    Xc = X - X.mean(axis=0)
    S = Xc.T @ Xc
    lam = np.linalg.eigvalsh(S)[::-1]
    best = float(fits.PENALTIES[fits.best_index()])
    smallest, largest = float(fits.PENALTIES[0]), float(fits.PENALTIES[-1])
    factors = lam / (lam + best)
    hat = Xc @ np.linalg.solve(S + best * np.eye(len(S)), Xc.T)
    trace = float(np.trace(hat))
    claim("the trace of H - J (the hat matrix less its mean part) is the sum of the shrink "
          "factors", abs(trace - factors.sum()) < 1e-10, id="trace")
    claim("the smaller the eigenvalue, the harder its direction is shrunk",
          np.all(np.diff(factors) < 0), id="ordered")
    traces = [float(np.sum(lam / (lam + a))) for a in (smallest, best, largest)]
    claim("the trace of H - J falls from nearly p towards zero as the penalty grows",
          traces[0] > traces[1] > traces[2] and traces[0] > len(lam) - 0.01, id="traces")
    _, y = fits.throws()
    weights = np.array([Ridge(a).fit(X, y).coef_ for a in fits.PENALTIES])
    lengths = np.linalg.norm(weights, axis=1)
    claim("along the page's grid of penalties the length of w falls at every step",
          np.all(np.diff(lengths) < 0), id="length_falls")
    claim("while at least one single weight changes sign along the same grid",
          np.any(np.diff(np.sign(weights), axis=0) != 0), id="weight_turns")
    conditions = [measure.condition_number(lam, a) for a in (smallest, best, largest)]
    claim("the penalty lowers the condition number of the system",
          conditions[0] > conditions[1] > conditions[2], id="condition")
    return {
        "eigenvalues": lam,
        "factors": factors,
        "best": best,
        "trace_best": trace,
        "traces": traces,
        "conditions": conditions,
        "p": len(lam),
        "index": list(range(1, len(lam) + 1)),
    }
