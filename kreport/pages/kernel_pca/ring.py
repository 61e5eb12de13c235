"""The ring: why no straight axis splits it, and how to read the kernel direction that does."""

from __future__ import annotations

import numpy as np

from kreport import kernels
from kreport.report import bound, claim

from .fits import DATASETS, inner, kernel_fit, pca, rbf_fit, rows, split
from .settings import ARC_GAMMA, EVEN_SHARES, RING_GAMMA


def _from_centre(dataset: str) -> np.ndarray:
    """Each person's distance (cm and kg mixed) from the inner group's centre."""
    data, mask = rows(dataset), inner(dataset)
    return np.hypot(*(data - data[mask].mean(axis=0)).T)


def ring_problem():
    """Ordinary PCA cannot split the ring; the RBF kernel's first direction can."""
    data, mask = rows("ring"), inner("ring")
    linear = pca("ring")
    along = [split(linear.scores_[:, j], mask) for j in range(2)]
    kernel_split = split(rbf_fit("ring", RING_GAMMA).scores_[:, 0], mask)
    distance, ideal_distance = _from_centre("ring"), _from_centre("ideal")
    ideal_mask = inner("ideal")
    claim("ordinary PCA spreads the ring almost evenly: its two shares differ by under {limit}",
          lambda limit: abs(linear.shares_[0] - linear.shares_[1]) < limit, id="even",
          limit=EVEN_SHARES)
    claim("along ordinary PCA's first axis the groups overlap over the inner group's whole width, "
          "and clearing them would take a longer slide than that",
          not along[0].separated
          and np.isclose(along[0].overlap, np.ptp(linear.scores_[mask, 0]), rtol=1e-12)
          and along[0].shift > along[0].overlap, id="first_axis")
    claim("along ordinary PCA's second axis the groups overlap too", not along[1].separated,
          id="second_axis")
    claim("along the first RBF direction every inner person lies on one side of every outer "
          "person", kernel_split.separated, id="rbf_splits")
    claim("the ideal ring's inner group is tighter than the ring's and its nearest outer "
          "person is further out, so the empty band between the groups is wider",
          ideal_distance[ideal_mask].max() < distance[mask].max()
          and ideal_distance[~ideal_mask].min() > distance[~mask].min(), id="ideal_cleaner")
    return {
        "datasets": len(DATASETS),
        "n": len(data), "n_inner": int(mask.sum()), "n_outer": int((~mask).sum()),
        "inner_reach": distance[mask].max(),
        "outer_distance": [distance[~mask].min(), distance[~mask].max()],
        "pca_shares": linear.shares_,
        "pca_overlap": along[0].overlap, "pca_shift": along[0].shift,
        "pca_second_overlap": along[1].overlap,
        "gamma": RING_GAMMA, "kernel_gap": kernel_split.gap,
        "ideal_n": len(rows("ideal")),
        "ideal_inner": int(ideal_mask.sum()), "ideal_outer": int((~ideal_mask).sum()),
        "ideal_inner_reach": ideal_distance[ideal_mask].max(),
        "ideal_outer_distance": [ideal_distance[~ideal_mask].min(),
                                 ideal_distance[~ideal_mask].max()],
        "arc_n": len(rows("arc")), "four_n": len(rows("four")),
    }


def ring_coefficients():
    """The first direction on the ring as a recipe over its people."""
    data, mask = rows("ring"), inner("ring")
    fitted = rbf_fit("ring", RING_GAMMA)
    first = fitted.coefficients_[:, 0]
    raw_row = kernels.rbf(RING_GAMMA)(data[:1], data)[0]
    coordinate = fitted.centred_table_[0] @ first
    claim("every inner coefficient is positive and every outer coefficient negative",
          np.all(first[mask] > 0) and np.all(first[~mask] < 0), id="signs")
    claim("the squared length of the coefficient vector is one over the raw eigenvalue",
          abs((first**2).sum() * fitted.eigenvalues_[0] - 1) < 1e-10, id="length")
    claim("the first person's coordinate is their centred kernel row summed against the "
          "coefficients", abs(coordinate - fitted.scores_[0, 0]) < 1e-12, id="coordinate")
    return {
        "inner_range": [first[mask].min(), first[mask].max()],
        "outer_range": [first[~mask].min(), first[~mask].max()],
        "raw": fitted.eigenvalues_[0], "divisor": len(data) - 1,
        "variance": fitted.variances_[0], "squared_length": (first**2).sum(),
        "person": data[0], "row_next": raw_row[1:3], "row_smallest": raw_row.min(),
        "coordinate": coordinate,
    }


def _orthogonality(fitted):
    gram = fitted.coefficients_.T @ fitted.coefficients_
    off_diagonal = gram - np.diag(np.diag(gram))
    unit = fitted.coefficients_.T @ fitted.centred_table_ @ fitted.coefficients_
    return off_diagonal, unit - np.eye(len(unit))


def orthogonality():
    """Coefficient vectors are perpendicular in the ordinary sense, and not of unit length."""
    ring_off, ring_unit = _orthogonality(rbf_fit("ring", RING_GAMMA, n_components=2))
    arc_off, _ = _orthogonality(rbf_fit("arc", ARC_GAMMA, n_components=2))
    four_lengths = (kernel_fit("four", "linear").coefficients_**2).sum(axis=0)
    claim("coefficient vectors of different directions are orthogonal in the ordinary sense",
          np.abs(ring_off).max() < 1e-14 and np.abs(arc_off).max() < 1e-14, id="orthogonal")
    claim("coefficient vectors are not of unit length", np.all(np.abs(four_lengths - 1) > 0.5),
          id="not_unit")
    return {
        "ring_dot": bound(ring_off, -14), "arc_dot": bound(arc_off, -14),
        "arc_gamma": ARC_GAMMA,
        "ring_identity": bound(ring_unit, -12), "four_lengths": four_lengths,
    }


def ring_shares():
    """Small shares, and a first direction that still splits the ring."""
    data, mask = rows("ring"), inner("ring")
    fitted = rbf_fit("ring", RING_GAMMA)
    table = fitted.training_table_
    others = ~np.eye(len(data), dtype=bool)  # pairs of two different people
    within_inner = table[np.outer(mask, mask) & others].mean()
    within_outer = table[np.outer(~mask, ~mask) & others].mean()
    claim("the kernel's first share is less than half of ordinary PCA's",
          fitted.shares_[0] < pca("ring").shares_[0] / 2, id="small")
    claim("the kernel spreads the ring's {n} people along {count} directions, one fewer",
          fitted.n_components_ == len(data) - 1, id="directions", n=len(data),
          count=fitted.n_components_)
    claim("inner people resemble one another more than twice as much as outer people do",
          within_inner > 2 * within_outer, id="resemble")
    return {
        "shares": fitted.shares_[:2], "total": fitted.total_variance_,
        "pca_shares": pca("ring").shares_, "directions": fitted.n_components_,
        "within_inner": within_inner, "within_outer": within_outer,
    }
