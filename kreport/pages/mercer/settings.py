"""The Mercer page's constants, each printed on the page as a fact (never typed)."""

from __future__ import annotations

import numpy as np

from kreport import KernelPCA

#: The fixtures every probe builds tables on (their rows centred, as kernel ridge
#: centres them before the kernel).
PROBE_FIXTURES = ("throws", "crowd", "ring", "three_clusters")

#: The RBF's gamma in the probe, as multiples of each fixture's median-rule gamma
#: (a thousandth to a thousand times it), so that every fixture is probed from
#: "everyone alike" to "everyone a stranger" whatever its units.
RBF_FACTORS = tuple(float(f) for f in np.logspace(-3.0, 3.0, 13))
#: The polynomial kernels probed: degrees and non-negative constants (gamma 1).
POLY_DEGREES = (1, 2, 3, 4)
POLY_COEF0S = (0.0, 0.5, 1.0, 2.0)
#: The same degrees with a negative constant, which breaks the condition.
NEGATIVE_COEF0S = (-0.5, -1.0, -2.0)

#: The sigmoid's grid: gamma from a hundredth to ten, the constant from −2 to 2.
SIGMOID_GAMMAS = tuple(float(g) for g in np.logspace(-2.0, 1.0, 13))
SIGMOID_COEF0S = tuple(float(c) for c in np.linspace(-2.0, 2.0, 17))
#: The fixtures on which the sigmoid is swept (their features are of order one).
SIGMOID_FIXTURES = ("throws", "three_clusters")

#: The sigmoid that kernel ridge refuses on the throws (gamma, c_0).
REFUSED_SIGMOID = (1.0, -0.5)
#: A sigmoid whose table on the throws is only slightly negative (gamma, c_0).
MILD_SIGMOID = (0.01, 0.25)
#: The polynomial kernel with a negative constant shown on the throws (degree, c_0).
NEGATIVE_POLYNOMIAL = (2, -1.0)

#: KernelPCA's zero threshold: an eigenvalue within this fraction of the largest
#: counts as zero (and a negative one beyond it is clamped and reported).
ZERO_THRESHOLD = KernelPCA.ZERO_THRESHOLD

#: Penalties tried just above the refused sigmoid's negative eigenvalue.
ABOVE_PENALTIES = (4.4, 5.0, 10.0)
