"""Training score against held-out score."""

from __future__ import annotations

import numpy as np

from kreport.pages._settings import PENALTY, THROWS_GAMMA
from kreport.report import claim, within

from .common import search
from .settings import PENALTIES, THROWS_GAMMAS

#: The penalties shown in the table of the worked gamma (a subset of the grid).
SHOWN_PENALTIES = (1e-6, 1e-3, 1.0, 100.0)


def _index(values, value) -> int:
    found = np.flatnonzero(np.isclose(values, value, rtol=1e-12, atol=0.0))
    if len(found) != 1:
        raise ValueError(f"{value} is not on the grid {values}")
    return int(found[0])


def training_against_held_out():
    """At the worked penalty: the training R² and the leave-one-out R² across gamma."""
    r2 = search("throws", "r2")
    column = _index(PENALTIES, PENALTY)
    training, held_out = r2.training_r2[:, column], r2.held_out[:, column]
    best_training, best_held = int(np.argmax(training)), int(np.argmax(held_out))
    row = _index(THROWS_GAMMAS, THROWS_GAMMA)
    table = [{"penalty": p, "training": within(float(r2.training_r2[row, _index(PENALTIES, p)]),
                                                1e-6),
              "held_out": within(float(r2.held_out[row, _index(PENALTIES, p)]), 1e-6)}
             for p in SHOWN_PENALTIES]
    claim("at α = {penalty} the held-out R² peaks at a smaller γ than the training R²",
          THROWS_GAMMAS[best_held] < THROWS_GAMMAS[best_training], id="peaks", penalty=PENALTY)
    claim("at the largest γ the training R² is above {limit} and the held-out R² below zero",
          lambda limit: training[-1] > limit and held_out[-1] < 0, id="memorises", limit=0.7)
    falls = all(np.all(np.diff(search(f).training_r2, axis=1) < 0) for f in ("throws", "crowd"))
    claim("on both data sets and at every γ of the grid, the training R² falls at every step up "
          "in the penalty", falls, id="training_falls")
    claim("at γ = {gamma} the held-out R² is highest at neither end of the penalties shown",
          0 < int(np.argmax([r["held_out"].value for r in table])) < len(table) - 1,
          id="held_out_interior", gamma=THROWS_GAMMA)
    return {
        "penalty": PENALTY,
        "gamma": THROWS_GAMMA,
        "training_best_gamma": THROWS_GAMMAS[best_training],
        "training_best": training[best_training],
        "held_out_best_gamma": THROWS_GAMMAS[best_held],
        "held_out_best": held_out[best_held],
        "held_out_at_training_best": held_out[best_training],
        "gamma_count": len(THROWS_GAMMAS),
        "smallest_gamma": THROWS_GAMMAS[0],
        "largest_gamma": THROWS_GAMMAS[-1],
        "penalty_count": len(PENALTIES),
        "largest_penalty": PENALTIES[-1],
        "training_largest": training[-1],
        "held_out_largest": held_out[-1],
        "table": table,
        "smallest_penalty": PENALTIES[0],
    }
