"""Part two's exercises: each answer computed here and each relation it states claimed.

1. The three people's condition number and shrinkage at two penalties, by hand.
2. The three people's RBF table in centimetres and in metres: what gamma must do.
3. On the throws at a small gamma: the penalty that keeps half of the arc's
   direction, and the training R² the eigenvalues predict for it.
"""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge, kernels
from kreport.pages.kernel_ridge.dual import NEAR_WHOLE
from kreport.pages.kernel_ridge.fits import (
    LINEAR,
    centred_rows,
    centred_target,
    dataset,
    eigen,
    kernel_fit,
    r_squared,
    slope_from_dual,
)
from kreport.pages.kernel_ridge.settings import PENALTY, RBF_GAMMAS, SMALL_PENALTY, THROWS_GAMMA
from kreport.report import claim, exact

#: Centimetres in a metre: the three people's heights rewritten in metres.
CM_PER_M = 100.0
#: The RBF at the smallest gamma of the throws' sweep, whose arc the penalty flattens.
ARC_GAMMA = RBF_GAMMAS[0]
#: The arc's direction is the third eigenvector of that table (largest first).
ARC_DIRECTION = 2

#: Why the pencil exercise's numbers print whole.
WHOLE = ("worked by hand they are whole: the three people's centred heights and weights are "
         "whole, the table's one non-zero eigenvalue is a sum of their squares, and the "
         "penalty is one; the computed values (whose solves and decompositions round) lie "
         "within the claims' tolerances of them and print as them")


def _whole(values):
    ints = np.rint(np.asarray(values, dtype=float)).astype(int)
    return exact(ints.tolist() if ints.ndim else int(ints), WHOLE)


def _conditioning():
    """Exercise 1: κ of the three people's linear table, and the share it keeps."""
    heights, weights = centred_rows("three_people")[:, 0], centred_target("three_people")
    table = np.outer(heights, heights)
    largest = float(heights @ heights)
    kappas, smallest_gaps = [], []
    for penalty in (PENALTY, SMALL_PENALTY):
        system = table + penalty * np.eye(len(heights))
        kappas.append(float(np.linalg.cond(system)))
        smallest_gaps.append(abs(float(np.linalg.eigvalsh(system)[0]) - penalty) / penalty)
    claim("numpy's condition number is (λ + α)/α at both penalties (to {tol} relative)",
          lambda tol: all(abs(k / ((largest + p) / p) - 1) < tol
              for k, p in zip(kappas, (PENALTY, SMALL_PENALTY), strict=True)),
          id="people_kappa", tol=1e-12)
    claim("at both penalties the smallest eigenvalue of the penalised table is the penalty "
          "itself (to {tol} relative)", lambda tol: max(smallest_gaps) < tol, id="people_floor",
          tol=1e-9)
    kept = largest / (largest + PENALTY)
    slope = float(slope_from_dual(kernel_fit("three_people", LINEAR, PENALTY))[0])
    least_squares = float(heights @ weights / largest)
    claim("the dual slope over the least-squares slope is the share λ/(λ + α) the fit keeps "
          "(to {tol})", lambda tol: abs(slope / least_squares - kept) < tol, id="people_kept",
          tol=1e-12)
    claim("the slope and the least-squares slope are whole (to {tol})",
          lambda tol: max(abs(slope - round(slope)),
          abs(least_squares - round(least_squares))) < tol,
          id="people_whole", tol=NEAR_WHOLE)
    return {
        "people_heights": _whole(heights), "people_weights": _whole(weights),
        "people_largest": _whole(largest), "penalty": PENALTY, "small_penalty": SMALL_PENALTY,
        "people_kappa": _whole(kappas[0]), "people_small_kappa": kappas[1],
        "people_kept": kept, "people_slope": _whole(slope),
        "people_least_squares": _whole(least_squares),
    }


def _units():
    """Exercise 2: the three people's RBF table in centimetres and in metres."""
    rows = dataset("three_people").rows
    centimetres = kernels.rbf(THROWS_GAMMA)(rows, rows)
    metres = rows / CM_PER_M
    naive = kernels.rbf(THROWS_GAMMA)(metres, metres)
    rescaled_gamma = THROWS_GAMMA * CM_PER_M**2
    rescaled = kernels.rbf(rescaled_gamma)(metres, metres)
    claim("with gamma multiplied by the square of {factor} the table in metres is the table in "
          "centimetres (to {tol})", lambda tol: np.max(np.abs(rescaled - centimetres)) < tol,
          id="same_table", factor=CM_PER_M, tol=1e-12)
    claim("at the same number for gamma, every entry of the table in metres is within {tol} of "
          "one", lambda tol: np.max(np.abs(naive - 1)) < tol, id="near_ones", tol=1e-3)
    return {
        "heights": np.rint(rows[:, 0]).astype(int).tolist(), "gamma": THROWS_GAMMA,
        "cm_neighbour": float(centimetres[0, 1]), "cm_outer": float(centimetres[0, 2]),
        "factor": CM_PER_M, "metre_neighbour": float(naive[0, 1]),
        "metre_outer": float(naive[0, 2]), "near_ones_within": 1e-3,
        "metre_gamma": rescaled_gamma, "metre_reach": float(1 / np.sqrt(rescaled_gamma)),
    }


def _arc_kept():
    """Exercise 3: the penalty that keeps half of the arc's direction on the throws."""
    kernel = kernels.rbf(ARC_GAMMA)
    values, vectors = eigen("throws", kernel)
    target = centred_target("throws")
    shares = (vectors.T @ target) ** 2 / float(target @ target)
    arc = int(np.argmax(shares))
    penalty = float(values[ARC_DIRECTION])
    r2 = r_squared("throws", KernelRidge(kernel, penalty).fit(dataset("throws").rows,
                                                             dataset("throws").target))
    predicted = 1 - float(np.sum(shares * (penalty / (values + penalty)) ** 2))
    claim("the eigenvector that carries most of the centred heights is the third",
          arc == ARC_DIRECTION, id="arc_third")
    claim("the training R² at that penalty is one minus the sum of each share times the "
          "squared part the penalty removes (to {tol})", lambda tol: abs(r2 - predicted) < tol,
          id="r2_from_shares", tol=1e-9)
    flat_r2 = r_squared("throws", kernel_fit("throws", kernel, PENALTY))
    claim("that penalty's training R² is far above the worked penalty's", r2 > flat_r2 + 0.5,
          id="arc_freed")
    return {
        "arc_gamma": ARC_GAMMA, "arc_share": float(shares[arc]), "arc_penalty": penalty,
        "arc_r2": r2, "arc_flat_r2": flat_r2,
    }


def exercises():
    """Answers to part two's exercises."""
    return {**_conditioning(), **_units(), **_arc_kept()}
