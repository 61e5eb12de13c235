"""The entry page's own constants, each printed on the page as a fact (never typed).

The ring's worked gamma, the directions kept, the two round gammas either side
of the ring's band and the far stranger come from the Kernel PCA page's
settings (``kreport.pages.kernel_pca.settings``), the RBF gamma of the two-person
exercise from the five-steps page: each constant lives in one place.
"""

from __future__ import annotations

#: The share of the total variance the "how many directions" setting asks to keep.
SHARE_LEVEL = 0.9
#: The numpy lines and KernelPCA agree to below 10 to this power, relative to the
#: largest coordinate (rounding of two eigen-solvers on a 36 × 36 table).
AGREEMENT_EXPONENT = -13
#: The coordinates of a fit that keeps a few directions and of one that keeps all
#: agree to below 10 to this power, relative to the largest.
TRUNCATION_EXPONENT = -13
#: Without centring, the ring's raw first coordinates still follow the centred
#: first coordinates closely: their correlation exceeds this.
UNCENTRED_CORRELATION = 0.99
