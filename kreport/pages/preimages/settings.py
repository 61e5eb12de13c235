"""The pre-images page's constants, each printed on the page as a fact (never typed)."""

from __future__ import annotations

#: Kernel PCA's RBF gamma on the noisy circle (its rows are in the circle's units).
GAMMA = 1.0
#: The worked number of kept directions.
KEPT = 6
#: The numbers of kept directions swept.
DIRECTIONS = tuple(range(1, 13))
#: The learned map: an RBF kernel on the coordinates and a penalty, both at
#: scikit-learn's values for KernelPCA(fit_inverse_transform=True) here (the
#: same gamma as kernel PCA's, alpha 1).
LEARNED_GAMMA = 1.0
LEARNED_PENALTY = 1.0
#: How far the whole circle is moved along the first feature to show what not
#: centring the rows does.
SHIFT = 10.0
#: Every row's fixed point at the worked setting settles within this many steps.
STEP_LIMIT = 50
#: The mean radius below which the pre-images are said to sit inside the circle.
INSIDE_RADIUS = 0.9
#: The gammas compared when checking that the worked gamma is the fixed point's best.
GAMMAS_TRIED = (0.5, 1.0, 2.0)
#: The pencil exercise: the lifted mean of two of the three people, by height alone, at
#: a gamma (in 1/cm²) where the midpoint is its nearest image, and at a steeper one
#: where it is not.
EXERCISE_GAMMA = 1.0
STEEP_GAMMA = 4.0
#: Ordinary PCA's one-direction error is predicted to within this much.
PREDICTION_TOLERANCE = 0.01
#: How many leading pairs of eigenvalues the code exercise compares.
PAIRS = 3

#: How close to its lowest error the learned map has to be at a number of directions for the
#: page to count that number among its best: the curve is that flat near its bottom.
LEARNED_NEAR = 0.02
