"""The entry page's constants, each printed on the page as a fact (never typed)."""

from __future__ import annotations

import numpy as np

#: The RBF gammas (1/s²) and penalties searched by leave-one-out: nine each,
#: two per factor of ten, a coarser version of the choosing page's grid.
GAMMAS = tuple(float(g) for g in np.logspace(-2.0, 2.0, 9))
PENALTIES = tuple(float(p) for p in np.logspace(-6.0, 2.0, 9))
#: The factor the third exercise raises the penalty by: not a step of the grid
#: above, so the answer is not already one of the settings it scored.
PENALTY_FACTOR = 300.0
#: Where the first figure draws the curves: the throws' time span, finely.
CURVE_POINTS = 200
