"""The two approximations: the fixed point and the learned map."""

from __future__ import annotations

import inspect

import numpy as np

from kreport import LearnedPreimage, fixed_point_preimage, kernels
from kreport.report import claim, within

from .common import circle, error, fixed_point, kpca, learned
from .settings import DIRECTIONS, KEPT, LEARNED_GAMMA, LEARNED_PENALTY, SHIFT, STEP_LIMIT


def fixed_point_method():
    """Mika et al.'s iteration from each noisy row: does it settle, and how fast."""
    result, _ = fixed_point(KEPT)
    every_count = [fixed_point(kept) for kept in DIRECTIONS]
    claim("at every number of directions tried, the fixed point converges for every row, "
          "with no NotConvergedWarning", all(bool(found.converged.all()) and caught == 0
                                               for found, caught in every_count), id="converged")
    claim("at the worked number of directions every row settles within {limit} steps",
    lambda limit: int(result.iterations.max()) <= limit,
          id="steps", limit=STEP_LIMIT)
    return {
        "kept": KEPT,
        "rows": len(result.iterations),
        "all_converged": "yes" if result.converged.all() else "no",
        "step_limit": STEP_LIMIT,
        "tolerance": inspect.signature(fixed_point_preimage).parameters["tol"].default,
        "step_cap": inspect.signature(fixed_point_preimage).parameters["max_iter"].default,
        "twice": 2,
        "error": within(error(result.preimages), 1e-5),
    }


def _without_centring(scores: np.ndarray, rows: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """scikit-learn's learned map: kernel ridge onto the rows as they are (not centred)."""
    kernel = kernels.rbf(LEARNED_GAMMA)
    table = kernel(scores, scores) + LEARNED_PENALTY * np.eye(len(scores))
    return kernel(queries, scores) @ np.linalg.solve(table, rows)


def learned_map():
    """Kernel ridge from the coordinates back to the rows, centred (kreport) or not
    (scikit-learn), on the circle and on the circle moved along the first feature."""
    noisy, clean = circle()
    fit = kpca(KEPT)
    scores, queries = fit.scores_, fit.transform(noisy)
    ours = learned(KEPT)
    theirs = _without_centring(scores, noisy, queries)
    shift = np.array([SHIFT, 0.0])
    # Kernel PCA with the RBF kernel sees only differences of rows, so moving the
    # circle leaves the coordinates unchanged; only the map back sees the move.
    moved_theirs = _without_centring(scores, noisy + shift, queries)
    moved_error = float(np.mean(np.sum((moved_theirs - clean - shift) ** 2, axis=1)))
    moved_ours = (LearnedPreimage(kernels.rbf(LEARNED_GAMMA), LEARNED_PENALTY)
                  .fit(scores, noisy + shift).predict(queries))
    gap = float(np.sqrt(np.sum((ours - theirs) ** 2, axis=1)).max())
    claim("on the circle as given the two maps' answers are less than {limit} apart",
          lambda limit: gap < limit, id="close", limit=0.01)
    claim("kreport's map moves with the circle: its answers move by the shift, to within "
          "{limit}", lambda limit: np.abs(moved_ours - ours - shift).max() < limit, id="moves",
          limit=1e-9)
    claim("on the moved circle the uncentred map's error is more than {factor} times kreport's",
          lambda factor: moved_error > factor * error(ours), id="uncentred_worse", factor=10)
    # (the factor is printed on the page as learned_map.factor)
    mean_row = noisy.mean(axis=0)
    return {
        "kept": KEPT,
        "gamma": LEARNED_GAMMA,
        "penalty": LEARNED_PENALTY,
        "error": within(error(ours), 1e-6),
        "sklearn_error": within(error(theirs), 1e-6),
        "gap": gap,
        "mean_row": [float(v) for v in mean_row],
        "mean_distance": float(np.hypot(*mean_row)),
        "shift": SHIFT,
        "factor": 10,
        "moved_error": within(moved_error, 1e-6),
    }
