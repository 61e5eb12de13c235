"""The opening section: a straight line on the throws and on the crowd, and R²."""

from __future__ import annotations

import numpy as np

from kreport.report import claim

from .fits import dataset, r_squared, ridge_fit
from .settings import PENALTY

#: Below this training R² a line "explains almost none" of the spread; above
#: the second, "most" of it.
ALMOST_NONE, MOST = 0.05, 0.8


def lines():
    """Ridge on the throws and on the crowd: a straight line, one weight per feature.
    R² is defined here, at its first use, with its two sums printed for the crowd."""
    throws, crowd = ridge_fit("throws", PENALTY), ridge_fit("crowd", PENALTY)
    throws_r2, crowd_r2 = r_squared("throws", throws), r_squared("crowd", crowd)
    people = dataset("crowd")
    misses = people.target - crowd.predict(people.rows)
    spread = people.target - people.target.mean()
    residual_sum, total_sum = float(misses @ misses), float(spread @ spread)
    ball = dataset("throws")
    least_squares_slope = float(np.polyfit(ball.rows[:, 0], ball.target, 1)[0])
    claim("a line explains almost none of the throws' spread (training R² below {limit})",
          lambda limit: throws_r2 < limit, id="throws_none", limit=ALMOST_NONE)
    claim("a line explains most of the crowd's spread (training R² above {limit})",
          lambda limit: crowd_r2 > limit, id="crowd_most", limit=MOST)
    claim("R² is one minus the sum of squared misses over the sum of squared distances "
          "from the mean (to {tol} relative)",
          lambda tol: abs(1 - residual_sum / total_sum - crowd_r2) < tol, id="definition",
          tol=1e-12)
    claim("the penalty pulls the ridge line's slope below the least-squares slope",
          0 < throws.coef_[0] < least_squares_slope, id="shrunk")
    return {
        "penalty": PENALTY,
        "throws_count": len(ball.target),
        "crowd_count": len(people.target),
        "throws_r2": throws_r2,
        "throws_slope": throws.coef_[0],
        "least_squares_slope": least_squares_slope,
        "crowd_r2": crowd_r2,
        "crowd_slope": crowd.coef_[0],
        "residual_sum": residual_sum,
        "total_sum": total_sum,
        "almost_none": ALMOST_NONE,
    }
