"""The kernel-ridge page's own settings, each defined once and printed as a fact.

Settings other pages share (the worked penalty, the question height, the throws'
RBF gamma) come from :mod:`kreport.pages._settings`.
"""

from __future__ import annotations

from kreport.pages._settings import PENALTY, QUESTION_HEIGHT, THROWS_GAMMA

__all__ = [
    "CONDITIONING_PENALTIES",
    "CROWD_GAMMAS",
    "CURVE_PENALTIES",
    "CURVE_SAMPLES",
    "DEGREES",
    "DERIVATION_PENALTIES",
    "EXERCISE_PENALTY",
    "EXTRAPOLATION_STEPS",
    "FIGURE_GAMMAS",
    "FREEING_PENALTY",
    "LIFT",
    "PENALTY",
    "QUESTION_HEIGHT",
    "RBF_GAMMAS",
    "SAMPLES",
    "SHRINKING_PENALTIES",
    "SIGMOID_COEF0",
    "SIGMOID_GAMMA",
    "SIGMOID_PLAIN_COEF0",
    "SMALLEST_PENALTY",
    "SMALL_PENALTY",
    "THROWS_GAMMA",
    "TIME_SCALE",
    "TINY_PENALTY",
    "ZERO_EIGENVALUE_FRACTION",
]

#: An eigenvalue below this fraction of the largest is counted as zero. The
#: rank-deficient tables here leave "zero" eigenvalues near 1e-15 of the
#: largest, far under this line; every genuine eigenvalue the page counts sits
#: far above it.
ZERO_EIGENVALUE_FRACTION = 1e-10

#: Evenly spaced times at which two fits of the throws are compared.
SAMPLES = 81
#: Evenly spaced times at which a curve is drawn or searched (turning points,
#: largest departure from a parabola).
CURVE_SAMPLES = 801

#: The penalties at which ridge and the linear dual are compared.
DERIVATION_PENALTIES = (1e-3, 1e-2, 1e-1, 1.0, 10.0, 1e2, 1e3)
#: The penalties at which the linear dual's largest weight is followed down.
SHRINKING_PENALTIES = (1.0, 1e-1, 1e-2, 1e-3)

#: Polynomial degrees tried on the throws (coef0 1, gamma 1).
DEGREES = (1, 2, 3, 4, 5, 6)
#: RBF gammas tried on the throws (in 1/s²).
RBF_GAMMAS = (0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 100.0)
#: The four of them the gamma figure draws.
FIGURE_GAMMAS = (0.01, 0.3, 3.0, 100.0)
#: RBF gammas tried on the crowd (in 1/cm²), the first the throws' gamma unchanged.
CROWD_GAMMAS = (THROWS_GAMMA, 0.01, 0.001, 0.0001)
#: A small penalty, beside the worked one, for the sections that show what the
#: penalty (not the kernel) is doing.
SMALL_PENALTY = 1e-3

#: The penalty sweep of "The penalty, held-out error and conditioning".
CONDITIONING_PENALTIES = (1e-9, 1e-6, 1e-3, 1e-1, 1.0, 10.0, 1e2, 1e3)
#: The smallest penalty of the sweep, at which the narrow RBF memorises the crowd.
SMALLEST_PENALTY = CONDITIONING_PENALTIES[0]
#: A penalty small enough to let the widest RBF of the sweep follow the arc.
FREEING_PENALTY = 1e-6
#: The curves the penalties figure draws.
CURVE_PENALTIES = (1e-9, 1e-6, 1e-3, 1.0, 1e3)

#: How far (m) every throw is lifted to show that the level is not penalised.
LIFT = 100.0

#: Seconds after the last throw at which the fits are asked about the ball.
EXTRAPOLATION_STEPS = (1.0, 2.0, 3.0, 4.0)

#: The sigmoid kernel that breaks Mercer's condition on the throws, and the
#: milder one whose negative eigenvalue a penalty of one hides.
SIGMOID_GAMMA = 1.0
SIGMOID_COEF0 = -0.5
SIGMOID_PLAIN_COEF0 = 0.0

#: A penalty so small that adding it to an entry of size one changes nothing.
TINY_PENALTY = 1e-300

#: Part one's exercises: the three people solved again at this penalty (their
#: centred target over two plus it comes out whole), and the throws' times
#: rescaled by this factor (seconds to tenths of a second).
EXERCISE_PENALTY = 4.0
TIME_SCALE = 10.0
