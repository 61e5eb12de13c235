"""The choosing page's constants, each printed on the page as a fact (never typed)."""

from __future__ import annotations

import numpy as np

#: The RBF gammas searched on the throws (in 1/s²) and on the crowd (in 1/cm²):
#: seventeen values, four per factor of ten each, spanning four factors of ten.
THROWS_GAMMAS = tuple(float(g) for g in np.logspace(-2.0, 2.0, 17))
CROWD_GAMMAS = tuple(float(g) for g in np.logspace(-5.0, -1.0, 17))
#: The penalties searched: from a millionth to a hundred, two per factor of ten.
PENALTIES = tuple(float(p) for p in np.logspace(-6.0, 2.0, 17))
#: Folds for k-fold cross-validation.
FOLDS = 5
#: The exercises: the penalty of the line on the three people (small whole numbers
#: keep the hand arithmetic short), and centimetres per metre for the median rule in
#: other units.
EXERCISE_PENALTY = 2.0
CM_PER_M = 100.0
