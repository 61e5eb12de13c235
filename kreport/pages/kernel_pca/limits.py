"""What kernel PCA does not do: rank the useful direction first, or come back."""

from __future__ import annotations

import numpy as np

from kreport import KernelPCA, NoInverseTransformError, kernels
from kreport.report import claim

from .fits import inner, kernel_fit, rbf_fit, rows, split
from .settings import KEPT, POLY, RING_GAMMA

#: The squared kernel's first two directions follow height and weight at least this closely.
FOLLOWS = 0.9
#: The radius counts as the separating direction within this angle, in degrees.
RADIUS_ANGLE = 5


def _separating(fitted, mask) -> list[int]:
    return [j for j in range(fitted.n_components_) if split(fitted.scores_[:, j], mask).separated]


def squared_kernel():
    """The squared kernel's feature space holds the radius; its spread lies elsewhere."""
    data, mask = rows("ring"), inner("ring")
    fitted = kernel_fit("ring", "polynomial", *POLY)
    separating = _separating(fitted, mask)
    claim("along the squared kernel's first direction the groups overlap",
          not split(fitted.scores_[:, 0], mask).separated, id="first_overlaps")
    claim("exactly one direction of the squared kernel separates the groups, and it is the last",
          separating == [fitted.n_components_ - 1], id="last")
    position = separating[0]
    height, weight = data.T
    features = np.column_stack([np.ones(len(data)), height, weight, height**2, weight**2])
    squared_radius = ((data - data[mask].mean(axis=0)) ** 2).sum(axis=1)
    _, residual, *_ = np.linalg.lstsq(features, squared_radius, rcond=None)
    claim("the squared distance from the inner group's centre is a weighted sum of a constant, "
          "height, weight and their squares",
          np.sqrt(residual[0]) < 1e-9 * np.linalg.norm(squared_radius), id="radius_inside")
    # The radius as a direction of feature space: within the directions' span, the vector
    # whose dot product with each person's lifted, centred deviation is their centred
    # squared radius. Its weight on direction k is that quantity's dot product with the
    # k-th coordinates over their squared length (the coordinates are √λ_k times the unit
    # eigenvector u_k, and the direction weighs the lifted deviations by u_k / √λ_k).
    radius_centred = squared_radius - squared_radius.mean()
    along = np.array([radius_centred @ score / (score @ score) for score in fitted.scores_.T])
    radius_angle = float(np.degrees(np.arccos(abs(along[position]) / np.linalg.norm(along))))
    claim("the radius, as a direction of feature space, lies within {limit} degrees of the "
          "separating direction", lambda limit: radius_angle < limit, id="radius_direction",
          limit=RADIUS_ANGLE)
    follows = [abs(np.corrcoef(fitted.scores_[:, j], feature)[0, 1])
               for j, feature in ((0, height), (1, weight))]
    claim("the first two directions follow height and weight: correlations above {limit}",
          lambda limit: min(follows) > limit, id="follows", limit=FOLLOWS)
    outer_heights = height[~mask]
    lockstep = np.corrcoef(outer_heights, outer_heights**2)[0, 1]
    claim("across the outer group, height squared moves in step with height: a correlation "
          "above {limit}", lambda limit: lockstep > limit, id="lockstep", limit=0.99)
    centred = KernelPCA(kernels.polynomial(*POLY)).fit(data - data.mean(axis=0))
    centred_separating = _separating(centred, mask)
    claim("with the ring centred first, the radius direction takes a far larger share but is "
          "still the last", centred_separating == [centred.n_components_ - 1]
          and centred.shares_[-1] > 1000 * fitted.shares_[position], id="centred_still_last")
    return {
        "degree": POLY[0], "gamma": POLY[1], "coef0": POLY[2],
        "shares": fitted.shares_[:2], "overlap": split(fitted.scores_[:, 0], mask).overlap,
        "directions": fitted.n_components_, "position": position + 1,
        "position_share": fitted.shares_[position],
        "position_gap": split(fitted.scores_[:, position], mask).gap,
        "radius_angle": radius_angle,
        "follows_height": follows[0], "follows_weight": follows[1], "lockstep": lockstep,
        "centred_share": centred.shares_[-1], "centred_position": centred_separating[0] + 1,
    }


def _refused(fitted) -> dict:
    try:
        fitted.inverse_transform(fitted.scores_)
    except NoInverseTransformError as error:
        return {"refused": True, "error": type(error).__name__, "message": str(error)}
    return {"refused": False, "error": "", "message": ""}


def no_way_back():
    """No inverse transform; what each person keeps instead."""
    mask = inner("ring")
    fitted = rbf_fit("ring", RING_GAMMA, n_components=KEPT)
    kept = fitted.kept_share_
    by_direction = fitted.scores_**2 / np.diag(fitted.centred_table_)[:, None]
    rbf, linear = _refused(rbf_fit("four", RING_GAMMA)), _refused(kernel_fit("four", "linear"))
    claim("inverse_transform is refused for the RBF and for the linear kernel",
          rbf["refused"] and linear["refused"], id="refused")
    claim("the inner group keeps more of its lifted deviation than the outer group, on average",
          kept[mask].mean() > kept[~mask].mean(), id="inner_keeps_more")
    claim("the first direction keeps more for the inner group on average, the second more for "
          "the outer group", by_direction[mask, 0].mean() > by_direction[~mask, 0].mean()
          and by_direction[mask, 1].mean() < by_direction[~mask, 1].mean(), id="why")
    claim("the share of the whole held by the kept directions is the sum of their shares",
          abs(fitted.shares_.sum() - (fitted.scores_**2).sum() / np.trace(fitted.centred_table_))
          < 1e-12, id="sum")
    return {
        "error": rbf["error"], "message": rbf["message"], "kept": KEPT, "gamma": RING_GAMMA,
        "total": fitted.shares_.sum(), "lowest": kept.min(), "highest": kept.max(),
        "inner_mean": kept[mask].mean(), "outer_mean": kept[~mask].mean(),
        "first_inner": by_direction[mask, 0].mean(), "first_outer": by_direction[~mask, 0].mean(),
        "second_inner": by_direction[mask, 1].mean(),
        "second_outer": by_direction[~mask, 1].mean(),
        "every_inner_above_outer": bool(kept[mask].min() > kept[~mask].max()),
    }
