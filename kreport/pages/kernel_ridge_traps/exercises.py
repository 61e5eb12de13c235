"""Part three's exercises: each answer computed here and each relation it states claimed.

1. The half-centred bug on the three people, by hand.
2. The three people with the first person's diagonal entry left unpenalised.
3. An RBF fit of the crowd with nothing centred (scikit-learn's convention),
   against kreport's, on the rows and far past them.
"""

from __future__ import annotations

import numpy as np

from kreport import kernels
from kreport.pages.kernel_ridge.dual import NEAR_WHOLE
from kreport.pages.kernel_ridge.fits import (
    LINEAR,
    centred_rows,
    centred_target,
    dataset,
    gram,
    half_centred_fit_for_demonstration,
    kernel_fit,
    r_squared,
    slope_from_dual,
)
from kreport.pages.kernel_ridge.settings import PENALTY, QUESTION_HEIGHT
from kreport.report import bound, claim, exact

#: The crowd's RBF for the uncentred fit (1/cm²): a reach of ten centimetres.
UNCENTRED_GAMMA = 0.01
#: A height (cm) far past the crowd, where every RBF term has died away.
FAR_HEIGHT = 250.0

#: Why the pencil exercises' numbers print whole.
WHOLE = ("worked by hand they are whole: the three people's heights, centred heights and "
         "centred weights are whole, and with a penalty of one every sum and weight of these "
         "exercises is a whole number; the computed values (whose solves round) lie within "
         "the claims' tolerances of them and print as them")


def _whole(values):
    ints = np.rint(np.asarray(values, dtype=float)).astype(int)
    return exact(ints.tolist() if ints.ndim else int(ints), WHOLE)


def _half_centred():
    """Exercise 1: the raw heights' table with the centred target."""
    people = dataset("three_people")
    heights, weights = people.rows[:, 0], centred_target("three_people")
    products, squares = float(heights @ weights), float(heights @ heights)
    slope, _ = half_centred_fit_for_demonstration(people.rows, people.target, PENALTY)
    wrong = float(slope[0])
    right = float(slope_from_dual(kernel_fit("three_people", LINEAR, PENALTY))[0])
    # The solve loses digits to cancellation (its table is far from the origin):
    # the closed form is what the page prints, and the solve is checked against it.
    by_hand = products / (squares + PENALTY)
    answers = people.target.mean() + heights * by_hand
    claim("the half-centred slope is the raw heights' sum of products over their sum of "
          "squares plus the penalty (to {tol} relative)",
          lambda tol: abs(wrong / by_hand - 1) < tol, id="by_hand", tol=1e-8)
    claim("the half-centred slope is less than {share} of the right one",
          lambda share: 0 < wrong < share * right, id="collapse", share=1e-4)
    claim("across the three people the half-centred answers stay within {tol} kg of the mean "
          "weight", lambda tol: np.max(np.abs(answers - people.target.mean())) < tol, id="flat",
          tol=0.05)
    return {
        "heights": _whole(heights), "weights": _whole(weights), "penalty": PENALTY,
        "mean_weight": _whole(people.target.mean()), "products": _whole(products),
        "squares": _whole(squares), "wrong_slope": by_hand, "right_slope": _whole(right),
        "collapse_share": 1e-4, "flat_within": 0.05,
    }


def _exempted():
    """Exercise 2: the first person's diagonal entry left out of the penalty."""
    table = gram("three_people", LINEAR)
    system = table + PENALTY * np.eye(len(table))
    system[0, 0] -= PENALTY
    weights = np.linalg.solve(system, centred_target("three_people"))
    heights = centred_rows("three_people")[:, 0]
    slope = float(heights @ weights)
    least_squares = float(heights @ centred_target("three_people") / (heights @ heights))
    mean_height = float(dataset("three_people").rows.mean())
    mean_weight = float(dataset("three_people").target.mean())
    answer = mean_weight + slope * (QUESTION_HEIGHT - mean_height)
    worked = kernel_fit("three_people", LINEAR, PENALTY)
    claim("with the first entry exempt the dual weights are whole (to {tol})",
          lambda tol: np.max(np.abs(weights - np.rint(weights))) < tol, id="exempt_whole",
          tol=NEAR_WHOLE)
    claim("the exempted fit's slope is the least-squares slope (to {tol})",
          lambda tol: abs(slope - least_squares) < tol, id="unpenalised", tol=NEAR_WHOLE)
    return {
        "exempt_system": _whole(system), "exempt_weights": _whole(weights),
        "exempt_slope": _whole(slope), "worked_weights": _whole(worked.dual_weights_),
        "question": QUESTION_HEIGHT, "exempt_answer": _whole(answer),
        "worked_answer": _whole(worked.predict([[QUESTION_HEIGHT]])[0]),
    }


def _uncentred():
    """Exercise 3: an RBF fit of the crowd with neither rows nor target centred."""
    crowd = dataset("crowd")
    kernel = kernels.rbf(UNCENTRED_GAMMA)
    rows, target = crowd.rows, crowd.target
    weights = np.linalg.solve(kernel(rows, rows) + PENALTY * np.eye(len(target)), target)
    queries = np.array([[float(rows.mean())], [FAR_HEIGHT]])
    plain = kernel(queries, rows) @ weights
    fitted = kernel(rows, rows) @ weights
    spread = target - target.mean()
    plain_r2 = 1 - float((target - fitted) @ (target - fitted)) / float(spread @ spread)
    model = kernel_fit("crowd", kernel, PENALTY)
    centred = model.predict(queries)
    claim("the uncentred fit scores below zero on its own rows", plain_r2 < 0,
          id="below_zero")
    claim("at the mean height the uncentred fit answers more than {gap} kg below the centred "
          "one", lambda gap: centred[0] - plain[0] > gap, id="pulled_down", gap=5)
    claim("far past the crowd the centred fit answers the mean weight (to {tol} kg)",
          lambda tol: abs(centred[1] - crowd.target.mean()) < tol, id="far_mean", tol=1e-10)
    return {
        "crowd_gamma": UNCENTRED_GAMMA, "mean_height": float(rows.mean()),
        "far_height": FAR_HEIGHT, "plain_r2": plain_r2,
        "centred_r2": r_squared("crowd", model), "plain_at_mean": float(plain[0]),
        "centred_at_mean": float(centred[0]), "plain_far": bound(plain[1], -10),
        "crowd_mean": float(target.mean()),
    }


def exercises():
    """Answers to part three's exercises."""
    return {**_half_centred(), **_exempted(), **_uncentred()}
