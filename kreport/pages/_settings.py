"""Settings more than one page uses, each defined once.

A page imports what it shares with others from here; settings only one page
uses live in that page's package. Each is printed on the pages as a fact, never
typed.
"""

from __future__ import annotations

#: The ring's worked RBF gamma (kernel PCA pages and the background pages that
#: compare with them).
RING_GAMMA = 0.005
#: The arc's worked RBF gamma.
ARC_GAMMA = 0.002
#: The penalty every worked kernel ridge and ridge fit uses unless a section
#: sweeps it.
PENALTY = 1.0
#: The height (cm) every model is asked about in the three-people sections.
QUESTION_HEIGHT = 170.5
#: The throws' worked RBF gamma (in 1/s²).
THROWS_GAMMA = 1.0
