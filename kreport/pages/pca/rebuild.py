"""The arc of twelve: its directions, and what rebuilding from one coordinate loses."""

from __future__ import annotations

import numpy as np

from kreport import measure
from kreport.report import bound, claim

from . import fits


def arc_directions() -> dict:
    """S, eigenvalues, variances, shares and the first direction of the arc."""
    X = fits.rows("arc")
    centred = X - X.mean(axis=0)
    S = centred.T @ centred
    fit = fits.pca("arc")
    lam = fit.eigenvalues_
    first = fit.components_[0]
    angle = float(np.degrees(np.arctan2(abs(first[1]), abs(first[0]))))
    limit = 2.0
    claim("the first direction is within {limit} degrees of the height axis", angle < limit,
          id="along_height", limit=limit)
    order = np.argsort(X[:, 0], kind="stable")
    first_scores = fit.scores_[order, 0]
    turns = measure.reversals(first_scores)
    # The tilt off the axes obeys tan 2θ = 2 S_hw / (S_hh - S_ww): a covariance
    # small against the difference of the two scatters keeps it small.
    claim("twice the off-diagonal entry of S is less than {share} of the difference of its "
          "two diagonal entries", lambda share: 2 * abs(S[0, 1]) < share * abs(S[0, 0] - S[1, 1]),
          id="small_tilt", share=0.1)
    claim("read by height, the first coordinates never turn back", turns == 0, id="ordered")
    claim("the first coordinate rises with height", first_scores[-1] > first_scores[0],
          id="rises")
    return {
        "n": int(X.shape[0]),
        "mean": X.mean(axis=0),
        "scatter": S,
        "eigenvalues": lam,
        "variances": fit.variances_,
        "total": fit.total_variance_,
        "shares": fit.shares_,
        "first": first,
        "angle": angle,
        "angle_limit": limit,
        "turns": turns,
        "lowest": float(first_scores[0]),
        "highest": float(first_scores[-1]),
    }


def reconstruction() -> dict:
    """Rebuild the arc from ℓ = 1 coordinate: per-row residuals; the error is λ₂."""
    X = fits.rows("arc")
    one = fits.pca("arc", 1)
    both = fits.pca("arc")
    rebuilt = one.inverse_transform(one.scores_)
    residual = ((X - rebuilt) ** 2).sum(axis=1)
    error = float(residual.sum())
    dropped = float(both.eigenvalues_[1])
    claim("the summed squared residual equals the dropped eigenvalue λ₂",
          abs(error - dropped) < 1e-10 * dropped, id="dropped")
    claim("kreport's reconstruction error is the same number",
          abs(one.reconstruction_error_ - dropped) < 1e-10 * dropped, id="kreport")
    claim("each row's squared residual is its squared second coordinate",
          np.allclose(residual, both.scores_[:, 1] ** 2, rtol=1e-9, atol=1e-9 * dropped),
          id="second_coordinate")
    ends = np.argsort(residual, kind="stable")[-2:]
    heights = X[:, 0]
    claim("the two largest residuals belong to the two ends of the arc (shortest and tallest)",
          set(ends.tolist()) == {int(np.argmin(heights)), int(np.argmax(heights))}, id="ends")
    full = both.inverse_transform(both.scores_)
    gap = bound(np.max(np.abs(full - X)) / np.max(np.abs(X)), -12)
    lost_share = dropped / float(both.eigenvalues_.sum())
    claim("the share lost is the second direction's share",
          abs(lost_share - both.shares_[1]) < 1e-12, id="lost_share")
    order = np.argsort(heights, kind="stable")
    table = [{"height": X[i, 0], "weight": X[i, 1], "coordinate": one.scores_[i, 0],
              "rebuilt_height": rebuilt[i, 0], "rebuilt_weight": rebuilt[i, 1],
              "residual": residual[i]} for i in order]
    return {
        "kept": 1,
        "error": error,
        "dropped": dropped,
        "lost_share": lost_share,
        "largest": float(residual.max()),
        "smallest": float(residual.min()),
        "full_gap": gap,
        "table": table,
    }
