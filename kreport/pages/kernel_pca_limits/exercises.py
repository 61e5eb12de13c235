"""Answers to the exercises of The limits of kernel PCA, each worked here by the route
the exercise asks for and checked against ``kreport.KernelPCA``: the first two of the
measured four alone, with a stranger and a person at their midpoint (pencil); the
measured four entered twice (pencil); and the angle of the arc's people in the plane of
their first two kernel coordinates (code).
"""

from __future__ import annotations

import numpy as np

from kreport import KernelPCA, kernels
from kreport.pages.kernel_pca.fits import kernel_fit, rbf_fit, rows, whole
from kreport.pages.kernel_pca.settings import ARC_GAMMA, RING_GAMMA
from kreport.report import bound, claim


def _two_alone() -> dict:
    """Exercise one: A and B alone, and two newcomers who land on the same spot."""
    two = rows("four")[:2]
    fitted = KernelPCA(kernels.rbf(RING_GAMMA)).fit(two)
    off = fitted.training_table_[0, 1]
    value = 1 - off
    midpoint = two.mean(axis=0)
    stranger = np.array([[1000.0, -200.0]])  # one of the limits page's strangers
    k_mid = kernels.rbf(RING_GAMMA)(midpoint[None, :], two)[0]
    k_far = kernels.rbf(RING_GAMMA)(stranger, two)[0]
    placed = fitted.transform(np.vstack([midpoint[None, :], stranger]))[:, 0]
    # each newcomer's squared distance from the lifted mean: k(q, q) − 2 mean(k_q) + mean(K)
    table_mean = fitted.training_table_.mean()
    distances = [1 - 2 * k.mean() + table_mean for k in (k_mid, k_far)]
    claim("the one eigenvalue is the diagonal entry less the other entry",
          abs(fitted.eigenvalues_[0] - value) < 1e-12, id="value")
    claim("A and B sit at plus and minus the root of half the eigenvalue",
          np.allclose(fitted.scores_[:, 0], [np.sqrt(value / 2), -np.sqrt(value / 2)],
                      rtol=1e-10), id="scores")
    claim("the midpoint and the stranger both land at zero",
          np.abs(placed).max() < 1e-12, id="both_zero")
    claim("yet their squared distances from the lifted mean differ: the stranger is further",
          distances[1] > distances[0] + 0.5, id="distances")
    return {"two": whole(two), "off": off, "two_value": value, "two_score": np.sqrt(value / 2),
            "midpoint": whole(midpoint), "k_mid": k_mid[0], "stranger": whole(stranger[0]),
            "k_far": bound(k_far, -12), "placed": bound(placed, -12),
            "lifted_distances": distances}


def _four_twice() -> dict:
    """Exercise two: the measured four, each entered twice, with the linear kernel."""
    once = kernel_fit("four", "linear")
    twice_rows = np.vstack([rows("four"), rows("four")])
    twice = KernelPCA(kernels.linear()).fit(twice_rows)
    n = len(rows("four"))
    claim("entered twice, the raw eigenvalues double",
          np.allclose(twice.eigenvalues_, 2 * once.eigenvalues_, rtol=1e-12), id="double")
    claim("the variances are the doubled eigenvalues over {divisor}, not over {old}",
          np.allclose(twice.variances_, twice.eigenvalues_ / (2 * n - 1), rtol=1e-12),
          id="variances", divisor=2 * n - 1, old=n - 1)
    claim("the shares and each person's coordinates are unchanged",
          np.allclose(twice.shares_, once.shares_, rtol=1e-12)
          and np.allclose(twice.scores_[:n], once.scores_, rtol=0, atol=1e-9)
          and np.allclose(twice.scores_[n:], once.scores_, rtol=0, atol=1e-9), id="unchanged")
    claim("the variances shrink by the factor {factor}",
          np.allclose(twice.variances_ / once.variances_, 2 * (n - 1) / (2 * n - 1), rtol=1e-12),
          id="shrink", factor=2 * (n - 1) / (2 * n - 1))
    return {"once_values": whole(once.eigenvalues_), "twice_values": whole(twice.eigenvalues_),
            "once_variances": once.variances_, "twice_variances": twice.variances_,
            "twice_divisor": 2 * n - 1, "twice_shares": twice.shares_,
            "shrink": 2 * (n - 1) / (2 * n - 1)}


def _arc_angle() -> dict:
    """Exercise three (code): the arc's people go round the plane of the first two."""
    scores = rbf_fit("arc", ARC_GAMMA).scores_[:, :2]
    angle = np.unwrap(np.arctan2(scores[:, 1], scores[:, 0]))
    steps = np.degrees(np.diff(angle))
    swept = float(abs(np.degrees(angle[-1] - angle[0])))
    radius = np.hypot(scores[:, 0], scores[:, 1])
    first_steps = np.sign(np.diff(scores[:, 0]))
    first_turns = int(np.count_nonzero(first_steps[1:] != first_steps[:-1]))
    claim("read by height, the angle moves the same way at every step",
          np.all(steps > 0) or np.all(steps < 0), id="one_way")
    claim("the first coordinate alone turns back {turns} times", first_turns == 2,
          id="first_turns", turns=first_turns)
    claim("the people go most of the way round, more than {limit} degrees",
          lambda limit: swept > limit, id="most", limit=270)
    return {"swept": swept, "smallest_step": float(np.abs(steps).min()),
            "largest_step": float(np.abs(steps).max()),
            "radius_range": [radius.min(), radius.max()], "first_turns": first_turns,
            "most_limit": 270}


def exercises() -> dict:
    """Three exercises: two people and two newcomers (pencil), the four twice (pencil),
    the arc's angle (code)."""
    return {**_two_alone(), **_four_twice(), **_arc_angle()}
