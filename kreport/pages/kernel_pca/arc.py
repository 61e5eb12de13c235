"""The arc: what ordinary PCA keeps and loses, the RBF table, and the fold."""

from __future__ import annotations

import numpy as np

from kreport import kernels, measure
from kreport.report import claim

from .fits import kernel_fit, pca, rbf_fit, rows, whole
from .settings import ARC_GAMMA, LONGEST_ARC_GAMMA, WIDE_ARC_GAMMAS


def arc_under_pca():
    """A straight axis orders the arc and loses its bend."""
    linear = pca("arc")
    first = linear.scores_[:, 0]
    one_axis = pca("arc", n_components=1)
    claim("read by height, the arc's first PCA coordinates never turn back",
          measure.reversals(first) == 0, id="ordered")
    claim("the error of rebuilding from one coordinate is the dropped eigenvalue",
          abs(one_axis.reconstruction_error_ - linear.eigenvalues_[1])
          < 1e-8 * linear.eigenvalues_[0], id="error_is_eigenvalue")
    claim("that error is the variance across the axis times the divisor {divisor}",
          np.isclose(one_axis.reconstruction_error_, linear.variances_[1] * (len(first) - 1),
                     rtol=1e-10), id="error_is_variance", divisor=len(first) - 1)
    return {
        "n": len(first), "first_share": linear.shares_[0], "second_share": linear.shares_[1],
        "error_one": one_axis.reconstruction_error_,
        "first_coordinates": [first[0], first[-1]], "across": linear.variances_[1],
        "total": linear.total_variance_, "divisor": len(first) - 1,
    }


def kernel_table():
    """The arc's RBF table: similarity falls with distance, and only distance counts."""
    data = rows("arc")
    people = whole(data)  # heights and weights of the arc are whole numbers
    table = kernels.rbf(ARC_GAMMA)(data, data)
    end = table[0]
    # The bottom of the dip: the lightest person, ties going to the one nearest the
    # arc's middle height (two people share the lowest weight).
    heights, weights = (np.array([person[c] for person in people]) for c in (0, 1))
    lightest = np.flatnonzero(weights == weights.min())
    dip = int(lightest[np.argmin(np.abs(2 * heights[lightest] - heights.min() - heights.max()))])
    # by height: the near twin just below, then the next person on either side of the pair
    twin, before, after = dip - 1, dip - 2, dip + 1
    squared = [sum((people[k][c] - people[dip][c]) ** 2 for c in range(2))
               for k in (twin, before, after)]
    for dataset in ("four", "arc"):
        linear_kernel, ordinary = kernel_fit(dataset, "linear"), pca(dataset)
        claim(f"the linear kernel reproduces ordinary PCA's variances and scores on the {dataset}",
              np.allclose(linear_kernel.variances_, ordinary.variances_, rtol=1e-10)
              and np.abs(linear_kernel.scores_ - ordinary.scores_).max() < 1e-9,
              id=f"linear_{dataset}")
    claim("the shortest person's similarity falls with every step along the arc",
          np.all(np.diff(end) < 0), id="falls")
    claim("the people just beyond the dip's pair on either side are the same whole-number "
          "squared distance from the dip's lowest person, and score the same with them to "
          "rounding", squared[1] == squared[2]
          and np.isclose(table[dip, before], table[dip, after], rtol=1e-12, atol=0),
          id="sides")
    claim("the dip's lowest person scores highest with their near twin, who is closer than "
          "either of those two", table[dip, twin] > table[dip, after] and squared[0] < squared[1],
          id="twin")
    return {
        "gamma": ARC_GAMMA, "end_person": people[0], "end_row": end[1:5],
        "end_far": end[5:].max(), "dip_person": people[dip],
        "twin": people[twin], "twin_similarity": table[dip, twin],
        "twin_distance": whole(np.sqrt(squared[0])),
        "sides": [people[before], people[after]], "side_similarity": table[dip, after],
        "side_squared": squared[1], "side_distance": np.sqrt(squared[1]),
    }


def arc_fold():
    """The arc's first kernel coordinate folds: ends against middle."""
    fitted = rbf_fit("arc", ARC_GAMMA)
    first, second = fitted.scores_[:, 0], fitted.scores_[:, 1]
    turns = measure.reversals(first)
    wider = [rbf_fit("arc", gamma) for gamma in WIDE_ARC_GAMMAS]
    wider_turns = [measure.reversals(w.scores_[:, 0]) for w in wider]
    widest, linear = wider[0].shares_, pca("arc").shares_
    middle = len(first) // 2
    claim("read by height, the first kernel coordinate turns back at least once", turns > 0,
          id="turns")
    claim("the short end and the tall end share a sign on the first kernel axis, and the "
          "middle has the other", np.sign(first[0]) == np.sign(first[-1]) != np.sign(first[middle]),
          id="ends_middle")
    claim("the second kernel coordinate falls steadily from the third person to the tenth and "
          "turns only at those two", np.all(np.diff(second[2:10]) < 0)
          and measure.reversals(second) == 2, id="second")
    claim("at the middle wide reach the first coordinate turns back as often as at the worked "
          "reach, and only at the widest does it turn back less",
          wider_turns[1] == turns and wider_turns[0] < turns, id="wider")
    hooked = wider[1].scores_[:, 0]
    inner_steps = np.diff(hooked[1:-1])
    claim("at the middle wide reach the first coordinate runs one way from the second person "
          "to the second-last, and the two end people have opposite signs",
          (np.all(inner_steps > 0) or np.all(inner_steps < 0))
          and np.sign(hooked[0]) != np.sign(hooked[-1]), id="hooks")
    claim("neither of the two wider reaches tried straightens the arc: each leaves at least "
          "one turning point", min(wider_turns) > 0, id="never_straight")
    claim("the first share at the widest reach lies between the worked reach's and ordinary "
          "PCA's", fitted.shares_[0] < widest[0] < linear[0], id="first_between")
    claim("the second share at the widest reach is larger than both the worked reach's and "
          "ordinary PCA's", widest[1] > max(fitted.shares_[1], linear[1]), id="second_above")
    # What PCA's coordinate keeps and loses of the arc: the order, but not the spacing.
    data = rows("arc")  # in order of height
    along = np.hypot(*np.diff(data, axis=0).T)  # the arc's path, person to person
    end_ratio = float(min(along[0] / np.diff(data[:, 0])[0], along[-1] / np.diff(data[:, 0])[-1]))
    pca_height = abs(float(np.corrcoef(pca("arc").scores_[:, 0], data[:, 0])[0, 1]))
    claim("ordinary PCA's first coordinate correlates over {limit} in size with height, and at "
          "each end of the arc a step between neighbours is over {factor} times as long along "
          "the arc as in height", lambda limit, factor: pca_height > limit and end_ratio > factor
          and np.all(np.diff(data[:, 0]) > 0), id="pca_is_height", limit=0.999, factor=2)
    # Signs are arbitrary, so a kernel coordinate follows PCA's by the size of the correlation.
    follows = [abs(float(np.corrcoef(wider[0].scores_[:, m], pca("arc").scores_[:, m])[0, 1]))
               for m in (0, 1)]
    longest = rbf_fit("arc", LONGEST_ARC_GAMMA).scores_[:, 0]
    longest_follows = abs(float(np.corrcoef(longest, pca("arc").scores_[:, 0])[0, 1]))
    claim("at the widest reach the first two kernel coordinates correlate over {limit} in size "
          "with ordinary PCA's", lambda limit: min(follows) > limit, id="coordinates_close",
          limit=0.99)
    claim("at a longer reach still the first coordinate has no turning point, and it "
          "correlates over {limit} in size with ordinary PCA's first",
          lambda limit: measure.reversals(longest) == 0 and longest_follows > limit,
          id="longest", limit=0.99)
    return {
        "follows_pca": follows, "pca_height": pca_height, "end_ratio": end_ratio,
        "longest_gamma": LONGEST_ARC_GAMMA,
        "longest_follows": longest_follows,
        "gamma": ARC_GAMMA, "first": first, "second": second, "turns": turns,
        "wide_gammas": list(WIDE_ARC_GAMMAS), "wide_turns": wider_turns,
        "wide_shares": widest[:2], "shares": fitted.shares_[:2], "pca_shares": linear,
    }
