"""Random Fourier features for the RBF kernel, written here in plain numpy for teaching.

z(x) = √(2/D) · cos(W x + b), with the D rows of W drawn from N(0, 2γI) and the D
entries of b uniformly from [0, 2π), so that E[z(x)ᵀz(x')] = exp(−γ‖x − x'‖²)
(Rahimi and Recht). Every draw is seeded, so the page is the same on every run;
the error it measures is still a statistical quantity, reported as a mean over
seeds with its spread and printed with two significant digits.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from kreport import kernels
from kreport.pages._settings import RING_GAMMA
from kreport.report import claim

from . import fits
from .cost import features
from .series import TARGET, first_below, truncation_errors

#: Feature counts D tried, and the seeds each is drawn with.
COUNTS = (10, 30, 100, 300, 1000, 3000, 10_000)
SEEDS = tuple(range(20))


def random_features(rows: np.ndarray, count: int, gamma: float, seed: int) -> np.ndarray:
    """The n × D table of random Fourier features of ``rows``."""
    generator = np.random.default_rng(seed)
    W = generator.normal(0.0, np.sqrt(2.0 * gamma), size=(count, rows.shape[1]))
    b = generator.uniform(0.0, 2.0 * np.pi, size=count)
    return np.sqrt(2.0 / count) * np.cos(rows @ W.T + b)


def entry_variance(table: np.ndarray) -> np.ndarray:
    """Variance of one feature's contribution 2cos(wᵀx + b)cos(wᵀx' + b) to an entry:
    1 − k² + k⁴/2, for an entry whose kernel value is k."""
    return 1.0 - table**2 + table**4 / 2.0


@cache
def errors() -> dict:
    """Mean-square table error for every count and seed, and the theory's prediction."""
    rows = fits.centred("ring")
    table = kernels.rbf(RING_GAMMA)(rows, rows)
    squared = np.array([[float(np.mean((Z @ Z.T - table) ** 2))
                         for Z in (random_features(rows, count, RING_GAMMA, seed)
                                   for seed in SEEDS)]
                        for count in COUNTS])
    constant = float(np.mean(entry_variance(table)))
    return {"squared": squared, "constant": constant}


def random_fourier() -> dict:
    """The RMS table error shrinks like 1/√D, as the theory predicts, whatever p is."""
    measured = errors()
    squared, constant = measured["squared"], measured["constant"]
    counts = np.array(COUNTS, dtype=float)
    mean_square = squared.mean(axis=1)
    standard_error = squared.std(axis=1, ddof=1) / np.sqrt(len(SEEDS))
    predicted = constant / counts
    rms = np.sqrt(mean_square)
    in_errors = np.abs(mean_square - predicted) / standard_error
    claim("at every D the measured mean-square error is within three standard errors of "
          "the theory's", bool(np.all(in_errors < 3)), id="theory")
    slope = float(np.polyfit(np.log(counts), np.log(rms), 1)[0])
    claim("on a log-log scale the RMS error falls with slope within {tolerance} of {half}",
          lambda tolerance: abs(slope + 0.5) < tolerance, id="slope", tolerance=0.05, half=-0.5)
    seed_rms = np.sqrt(squared)
    spread = seed_rms.std(axis=1, ddof=1) / rms
    rows = [{"count": int(c), "rms": float(r), "low": float(seed_rms[i].min()),
             "high": float(seed_rms[i].max()), "predicted": float(np.sqrt(pr))}
            for i, (c, r, pr) in enumerate(zip(COUNTS, rms, predicted, strict=True))]
    p = int(fits.rows("ring").shape[1])
    centred = truncation_errors(True)
    degree = first_below(centred, TARGET)
    needed = constant / TARGET**2
    claim("random features would need more than {factor} times the Taylor features to reach "
          "the target on the ring", lambda factor: needed > factor * features(p, degree),
          id="taylor_wins", factor=100_000)
    high_p = 100
    claim("while in {p} dimensions the same Taylor degree would need more features than that",
          features(high_p, degree) > needed, id="random_wins", p=high_p)
    return {
        "gamma": RING_GAMMA,
        "largest_gap": float(in_errors.max()),
        "variance": 2 * RING_GAMMA,
        "seeds": len(SEEDS),
        "rows": rows,
        "constant": float(np.sqrt(constant)),
        "slope": slope,
        "spread": float(np.max(spread)),
        "target": TARGET,
        "needed": needed,
        "taylor_features": features(p, degree),
        "high_p": high_p,
        "high_p_features": float(features(high_p, degree)),
        "degree": degree,
        "largest_count": COUNTS[-1],
    }
