"""The Kernel PCA page's settings, each defined once and printed as a fact.

Settings other pages share (the ring's and the arc's worked gammas, the
penalty) come from ``kreport.pages._settings``; the rest are this page's own.
"""

from __future__ import annotations

import numpy as np

from kreport.pages._settings import ARC_GAMMA, PENALTY, RING_GAMMA

__all__ = [
    "ARC_GAMMA", "CONSTANT_COLUMN", "E24", "EVEN_SHARES", "KEPT", "LONGEST_ARC_GAMMA", "PENALTY",
    "POLY", "RING_GAMMA", "ROUND_OUTSIDE", "SIGMOID", "STANDARD_GAMMA", "STRANGERS",
    "SWEEP_DECADES", "SWEEP_EXTRAS", "TIE_RTOL", "TOP", "UNCENTRED_SHARE", "WIDE_ARC_GAMMAS",
]

#: Directions kept when asking what each person keeps.
KEPT = 2
#: How many leading directions the sweep reads (a tied group is read whole).
TOP = 6
#: Two eigenvalues whose difference is at most this fraction of the largest are
#: read together, as a plane (or a larger group), never one at a time. The ties
#: the ideal ring's symmetry makes differ by rounding alone (below 1e-12); what
#: fixes the tolerance is the stability check. Grouping only those exact ties,
#: it failed: where the ideal ring's spectrum crowds at short reaches (directions
#: four to nine, gaps down to 1e-9 of the largest), single directions' gaps moved
#: by up to 2e-8 of themselves on perturbed fixtures. At 1e-6 the largest such
#: movement is below 3e-10, and the smallest gap among the first three directions
#: (about 0.01) is four orders of magnitude above the tolerance.
TIE_RTOL = 1e-6

#: The E24 preferred numbers: 24 values per decade, close to evenly spaced on a log scale
#: and rounded to two significant digits.
E24 = (1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0,
       3.3, 3.6, 3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2, 9.1)
#: Round values the prose names that the E24 series skips.
SWEEP_EXTRAS = (0.0004, 0.0005, 0.004, 0.005, 0.04, 0.05)
SWEEP_DECADES = (-4, -3, -2)
#: Round gammas just outside the ring's first-direction band.
ROUND_OUTSIDE = (0.002, 0.02)

#: Ordinary PCA's two shares on the ring differ by less than this.
EVEN_SHARES = 0.1
#: The uncentred table's first direction takes more than this share of the trace.
UNCENTRED_SHARE = 0.98

#: Wider reaches tried on the arc.
WIDE_ARC_GAMMAS = (0.0003, 0.0005)
#: A reach longer still, where the first kernel coordinate no longer turns back at all: there
#: it has become ordinary PCA's, which measures across the arc.
LONGEST_ARC_GAMMA = 0.0002
#: The squared kernel: degree, gamma, coef0.
POLY = (2, 0.005, 1.0)
#: The gamma for the standardised arc (distances in standard deviations).
STANDARD_GAMMA = 0.5

#: The sigmoid kernel's gamma and coef0: a table with negative eigenvalues on the ring.
SIGMOID = (0.0001, -1.0)
#: People far from every ring person (height cm, weight kg).
STRANGERS = np.array([[400.0, 400.0], [0.0, 0.0], [1000.0, -200.0]])
#: The value of the constant third column added to the ring.
CONSTANT_COLUMN = 170.0
