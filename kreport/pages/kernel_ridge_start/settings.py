"""The entry page's constants, each printed on the page as a fact (never typed)."""

from __future__ import annotations

# The grid of γ (1/s²) and α searched by leave-one-out is the choosing page's,
# so that both pages report one chosen setting for the throws.
from kreport.pages.choosing.settings import PENALTIES
from kreport.pages.choosing.settings import THROWS_GAMMAS as GAMMAS

#: The factor the third exercise moves the chosen penalty by, down and up: close
#: to the grid's step (a factor of root ten) but not on it, so the answer is not
#: one of the settings the search already scored.
PENALTY_FACTOR = 3.0
#: A bottom counts as shallow when a step of PENALTY_FACTOR either way raises the
#: leave-one-out error by less than this share of it.
SHALLOW_RISE = 0.05
#: Where the first figure draws the curves: the throws' time span, finely.
CURVE_POINTS = 200

__all__ = ["CURVE_POINTS", "GAMMAS", "PENALTIES", "PENALTY_FACTOR", "SHALLOW_RISE"]
