"""Nyström against random Fourier features at equal M = D.

Two measures: how well each reproduces the kernel table of the held-out rows
(relative Frobenius error), at the page's gamma and at a rougher one, and the
held-out error of ridge regression on each set of features. Random features
are drawn with several seeds and reported as mean and range: one draw is a
sample, not a property of the method.
"""

from __future__ import annotations

import numpy as np

from kreport.report import claim

from . import fits
from .settings import COUNTS, GAMMA, RANDOM_SEEDS, ROUGH_GAMMA

#: The band the random features' fitted slope must fall in: theory says −1/2.
SLOPE_BAND = (-0.6, -0.4)
#: The landmark count whose table error the random features are asked to match.
MATCH_COUNT = COUNTS[2]
#: What "most of the trace" and "little of it" mean for the eigenvalue-mass claim.
MASS_HIGH = 0.95
MASS_LOW = 0.5


def slope(counts, errors) -> float:
    """Least-squares slope of log(error) against log(count)."""
    fitted, _ = np.polyfit(np.log(counts), np.log(errors), 1)
    return float(fitted)


def errors_at(gamma: float) -> dict:
    found = fits.table_errors(gamma)
    nystroem = np.array(found["nystroem"])
    random = np.array(found["random"])
    mean = random.mean(axis=1)
    return {
        "gamma": gamma, "nystroem": nystroem, "mean": mean,
        "low": random.min(axis=1), "high": random.max(axis=1),
        "ratio": nystroem / mean,
        "nystroem_slope": slope(COUNTS, nystroem), "random_slope": slope(COUNTS, mean),
    }


def compare():
    """Nyström and random features at equal M: table error at two gammas, held-out error."""
    smooth, rough = errors_at(GAMMA), errors_at(ROUGH_GAMMA)
    for name, found in (("smooth", smooth), ("rough", rough)):
        claim("at gamma {gamma} the Nyström table error is below the best random draw's at "
              "every M", bool(np.all(found["nystroem"] < found["low"])), id=f"{name}_better",
              gamma=found["gamma"])
    low, high = SLOPE_BAND
    claim("at both gammas the random features' error falls with a fitted slope between {low} "
          "and {high}", all(low < f["random_slope"] < high for f in (smooth, rough)),
          id="random_slope", low=low, high=high)
    claim("at the page's gamma the Nyström error falls faster than one over M (slope below "
          "{limit})", lambda limit: smooth["nystroem_slope"] < limit, id="nystroem_fast",
          limit=-1.0)
    claim("at the page's gamma the ratio of the Nyström error to the random features' falls at "
          "every step of M; at the rough gamma it rises at every step",
          bool(np.all(np.diff(smooth["ratio"]) < 0)) and bool(np.all(np.diff(rough["ratio"]) > 0)),
          id="ratio_trend")
    # Random features needed to match the table error of MATCH_COUNT landmarks, from the
    # theory's one-over-root-D law anchored at the largest count measured.
    target = smooth["nystroem"][COUNTS.index(MATCH_COUNT)]
    needed = COUNTS[-1] * (smooth["mean"][-1] / target) ** 2
    claim("matching the table error of {count} landmarks would take more than {times} times as "
          "many random features", lambda count, times: needed > times * count, id="needed",
          count=MATCH_COUNT,
          times=100)

    ridge = fits.feature_ridge_errors()
    nystroem_ridge = np.array(ridge["nystroem"])
    random_ridge = np.array(ridge["random"])
    random_mean = random_ridge.mean(axis=1)
    claim("ridge on Nyström features has a lower held-out error than the average random draw at "
          "every M", bool(np.all(nystroem_ridge < random_mean)), id="ridge_better")
    lucky = [count for count, ours, draws in zip(COUNTS, nystroem_ridge, random_ridge, strict=True)
             if draws.min() < ours]
    claim("at M = {lucky} the luckiest random draw beats the landmarks", bool(lucky),
          id="lucky", lucky=lucky[0] if lucky else 0)
    lucky_at = COUNTS.index(lucky[0])
    exact_error = fits.held_out_error(fits.exact_predictions())
    claim("at the largest M the luckiest draw's held-out error is below even the exact fit's",
          random_ridge[-1].min() < exact_error, id="below_exact")
    held_out = len(fits.rows()[3])

    def table(found):
        return [{"count": count, "nystroem": float(ours), "mean": float(mean),
                 "low": float(lo), "high": float(hi), "ratio": float(ratio)}
                for count, ours, mean, lo, hi, ratio in zip(
                    COUNTS, found["nystroem"], found["mean"], found["low"], found["high"],
                    found["ratio"], strict=True)]

    # Why: how much of each held-out table's trace its largest MATCH_COUNT eigenvalues hold.
    mass = {}
    for name, gamma in (("smooth", GAMMA), ("rough", ROUGH_GAMMA)):
        values = np.linalg.eigvalsh(fits.held_out_table(gamma))[::-1]
        mass[name] = float(values[:MATCH_COUNT].sum() / values.sum())
    claim("the largest {count} eigenvalues of the smooth kernel's table hold more than {high} of "
          "its trace, those of the rough kernel's less than {low}",
          lambda high, low: mass["smooth"] > high and mass["rough"] < low, id="mass",
          count=MATCH_COUNT, high=MASS_HIGH, low=MASS_LOW)
    return {
        "smooth_mass": mass["smooth"], "rough_mass": mass["rough"], "mass_high": MASS_HIGH,
        "mass_low": MASS_LOW,
        "gamma": GAMMA, "rough_gamma": ROUGH_GAMMA, "seeds": len(RANDOM_SEEDS),
        "first_seed": RANDOM_SEEDS[0], "last_seed": RANDOM_SEEDS[-1],
        "anchor_count": COUNTS[-1], "anchor_error": float(smooth["mean"][-1]),
        "smooth": table(smooth), "rough": table(rough),
        "smooth_nystroem_slope": smooth["nystroem_slope"],
        "smooth_random_slope": smooth["random_slope"],
        "rough_nystroem_slope": rough["nystroem_slope"],
        "rough_random_slope": rough["random_slope"],
        "slope_low": low, "slope_high": high,
        "match_count": MATCH_COUNT, "match_error": float(target), "needed": float(needed),
        "ridge": [{"count": count, "nystroem": float(ours), "mean": float(draws.mean()),
                   "low": float(draws.min()), "high": float(draws.max())}
                  for count, ours, draws in zip(COUNTS, nystroem_ridge, random_ridge,
                                                strict=True)],
        "lucky": lucky, "lucky_count": lucky[0],
        "lucky_nystroem": float(nystroem_ridge[lucky_at]),
        "lucky_best": float(random_ridge[lucky_at].min()),
        "exact_error": exact_error, "largest_best": float(random_ridge[-1].min()),
        "largest_count": COUNTS[-1],
        # Standard error of a root-mean-square error over held_out rows, for normal errors:
        # about the error over the square root of twice the count.
        "standard_error": exact_error / np.sqrt(2 * held_out),
    }
