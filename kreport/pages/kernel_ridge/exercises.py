"""Part one's exercises: each answer computed here and each relation it states claimed.

1. The three people's dual system solved again at a larger penalty.
2. The throws' times rescaled: what the linear table's one eigenvalue and the
   line's training score do.
3. Leave-one-out of the line at a smaller penalty: does it rescue the line?
"""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge, Ridge
from kreport.report import claim, exact

from .dual import NEAR_WHOLE
from .fits import LINEAR, centred_rows, centred_target, dataset, held_out, kernel_fit, spectrum
from .settings import EXERCISE_PENALTY, PENALTY, QUESTION_HEIGHT, SMALL_PENALTY, TIME_SCALE

#: Why the pencil exercise's numbers print whole.
WHOLE = ("worked by hand they are whole: the three people's centred heights and weights are "
         "whole, and at this penalty each dual weight is a centred weight divided by a whole "
         "number that divides it; the solver's answers (a Cholesky factor's square roots "
         "round) lie within a claim's tolerance of them and print as them")


def _whole(values):
    ints = np.rint(np.asarray(values, dtype=float)).astype(int)
    return exact(ints.tolist() if ints.ndim else int(ints), WHOLE)


def exercises():
    """Answers to part one's exercises."""
    # 1. The three people at a larger penalty.
    people = dataset("three_people")
    model = KernelRidge(LINEAR, EXERCISE_PENALTY).fit(people.rows, people.target)
    weights = model.dual_weights_
    slope = float(centred_rows("three_people")[:, 0] @ weights)
    answer = float(model.predict([[QUESTION_HEIGHT]])[0])
    ridge = Ridge(EXERCISE_PENALTY).fit(people.rows, people.target)
    claim("at the larger penalty the dual weights are whole numbers (to {tol})",
          lambda tol: np.max(np.abs(weights - np.rint(weights))) < tol
          and abs(slope - round(slope)) < tol, id="people_whole", tol=NEAR_WHOLE)
    claim("the slope rebuilt from the weights is ridge's at the same penalty (to {tol})",
          lambda tol: abs(slope - ridge.coef_[0]) < tol, id="people_ridge", tol=1e-12)
    worked = kernel_fit("three_people", LINEAR, PENALTY)
    worked_slope = float(centred_rows("three_people")[:, 0] @ worked.dual_weights_)
    claim("the larger penalty gives a smaller slope than the worked one",
          0 < slope < worked_slope, id="people_smaller")
    # 2. The throws' times in tenths of a second.
    throws = dataset("throws")
    scaled_rows = throws.rows * TIME_SCALE
    scaled = KernelRidge(LINEAR, PENALTY).fit(scaled_rows, throws.target)
    centred = scaled_rows - scaled_rows.mean(axis=0)
    scaled_largest = float(np.linalg.eigvalsh(LINEAR(centred, centred))[-1])
    largest = float(spectrum("throws", LINEAR)[0])
    scaled_r2 = float(scaled.score(scaled_rows, throws.target))
    r2 = float(kernel_fit("throws", LINEAR, PENALTY).score(throws.rows, throws.target))
    claim("rescaling the times by {factor} multiplies the eigenvalue by its square (to {tol} "
          "relative)", lambda factor, tol: abs(scaled_largest / largest / factor**2 - 1) < tol,
          id="eigenvalue", factor=TIME_SCALE, tol=1e-12)
    claim("the line's training R² rises with the rescaled times", scaled_r2 > r2,
          id="r2_rises")
    # 3. The line on the throws, held out, at a smaller penalty.
    line = held_out("throws", LINEAR, PENALTY)
    small = held_out("throws", LINEAR, SMALL_PENALTY)
    claim("at the smaller penalty the line's held-out R² is still below zero, and lower "
          "than at the worked penalty", small.r2 < line.r2 < 0, id="line_held_out")
    return {
        "penalty": EXERCISE_PENALTY, "worked_penalty": PENALTY,
        "centred_heights": _whole(centred_rows("three_people")[:, 0]),
        "centred_weights": _whole(centred_target("three_people")),
        "weights": _whole(weights), "slope": _whole(slope), "worked_slope": _whole(worked_slope),
        "question": QUESTION_HEIGHT, "answer": answer, "mean_weight": people.target.mean(),
        "factor": TIME_SCALE, "largest": largest, "scaled_largest": scaled_largest,
        "r2": r2, "scaled_r2": scaled_r2,
        "small_penalty": SMALL_PENALTY, "line_loo_r2": line.r2, "small_loo_r2": small.r2,
        "small_loo_mse": small.mse,
    }
