"""The five-steps page's constants, each in one place and printed as a fact."""

from __future__ import annotations

import numpy as np

#: The new person sent through the fit: height in cm, weight in kg.
QUERY = (176.0, 70.0)
#: The worked RBF gamma, per cm² (or kg²): a reach of about thirty units.
RBF_GAMMA = 0.001
#: A wide reach (a thousand units): the RBF kernel is nearly linear.
WIDE_GAMMA = 1e-6
#: A narrow reach (one unit): every person resembles only themselves.
NARROW_GAMMA = 1.0
#: The gamma sweep of the reach figure.
SWEEP = np.logspace(-6, 0, 61)
#: How far the wide reach's shares may sit from ordinary PCA's.
SHARE_TOLERANCE = 1e-3
#: How close the wide reach's coordinates must be to ordinary PCA's (correlation).
WIDE_CORRELATION = 0.99999
#: How closely the wide reach's two scales (RBF coordinate over PCA's, per direction)
#: must agree, relative to each other, for the kernel to act as a scaled linear one.
SCALE_AGREEMENT = 1e-3

#: Entries that are zero in exact arithmetic are shown as bounds with these
#: exponents. The linear example's tables run to tens of thousands, so its
#: rounding noise is larger than the RBF example's, whose entries are below one.
LINEAR_NOISE = -9
RBF_NOISE = -12
#: Below this magnitude a computed entry is taken to be one of those zeros.
ZERO_ENTRY = 1e-7

#: The squared (degree two) polynomial kernel tried on the ring: degree, gamma
#: (per cm² or kg²) and the constant c₀, once positive and once zero. The same
#: degree, gamma and positive c₀ as the long page's squared kernel.
SQUARED_DEGREE = 2
SQUARED_GAMMA = 0.005
SQUARED_COEF0 = 1.0
SQUARED_NO_COEF0 = 0.0

#: How far two numbers of the worked example may differ and still count as equal: the
#: four's arithmetic is exact, but on the stability check's perturbed fixtures (the
#: rows moved by a few units in their last place) it leaves rounding of about 1e-11.
ROUNDING = 1e-9

#: Why the measured four's arithmetic is exact (printed on the page).
_EXACT_ARITHMETIC = ("sums and products of whole numbers this small, and their divisions by "
                     "four or sixteen, are exact in floating point, in any order")
EXACT_FOUR = f"the measured four are whole centimetres and kilograms, and {_EXACT_ARITHMETIC}"
#: Why the new person's numbers are exact as well.
EXACT_QUERY = ("the new person, like the measured four, is whole centimetres and kilograms, "
               f"and {_EXACT_ARITHMETIC}")

#: Numbers the source documents fix for the measured four, checked as claims.
SOURCE_MEAN = (170.0, 68.0)
SOURCE_EIGENVALUES = (400.0, 100.0)
