"""De-noising the noisy circle: error to the clean points as the kept directions vary."""

from __future__ import annotations

import numpy as np

from kreport import KernelPCA, kernels
from kreport.report import bound, claim, within

from .common import circle, error, fixed_point, learned, pca
from .settings import DIRECTIONS, GAMMA, GAMMAS_TRIED, INSIDE_RADIUS, KEPT, LEARNED_NEAR

#: Eigenvalues shown (raw, of the centred table): the first three twos; further
#: down the pairing fades.
SHOWN = 6


def _radius(rows: np.ndarray) -> float:
    return float(np.mean(np.hypot(rows[:, 0], rows[:, 1])))


def denoising():
    """Fixed point, learned map and ordinary PCA against the noisy rows."""
    noisy, clean = circle()
    noisy_error = error(noisy)
    fixed = {kept: error(fixed_point(kept)[0].preimages) for kept in DIRECTIONS}
    mapped = {kept: error(learned(kept)) for kept in DIRECTIONS}
    pca_errors = {kept: error(pca(kept)) for kept in (1, 2)}
    eigenvalues = KernelPCA(kernels.rbf(GAMMA)).fit(noisy).eigenvalues_[:SHOWN]
    best_fixed = min(fixed, key=fixed.get)
    best_learned = min(mapped, key=mapped.get)
    # The learned map's curve is nearly flat near its lowest point, so which count is lowest
    # is not worth a sentence; the counts within LEARNED_NEAR of it are.
    learned_near = [kept for kept in DIRECTIONS
                    if mapped[kept] <= (1 + LEARNED_NEAR) * mapped[best_learned]]
    runner_up = min(fixed[kept] for kept in DIRECTIONS if kept != best_fixed)
    worse_few = [kept for kept in DIRECTIONS if fixed[kept] > noisy_error]
    radius_two = _radius(fixed_point(2)[0].preimages)
    learned_radius_two = _radius(learned(2))
    others = []
    for gamma in GAMMAS_TRIED:
        if gamma != GAMMA:
            errors = {k: error(fixed_point(k, gamma)[0].preimages) for k in DIRECTIONS}
            best = min(errors, key=errors.get)
            others.append({"gamma": gamma, "error": within(errors[best], 1e-5), "kept": best})
    claim("every other γ tried is best at another number of directions",
          all(other["kept"] != best_fixed for other in others), id="other_counts")
    claim("with {kept} directions both the fixed point and the learned map are closer to the "
          "clean points than the noisy rows are", fixed[KEPT] < noisy_error
          and mapped[KEPT] < noisy_error, id="both_help", kept=KEPT)
    claim("with one, two or three directions the fixed point is further from the clean points "
          "than the noisy rows are", all(fixed[k] > noisy_error for k in (1, 2, 3)),
          id="few_worse")
    claim("ordinary PCA with one direction is far further from the clean points than the noisy "
          "rows (over {factor} times)", lambda factor: pca_errors[1] > factor * noisy_error,
          id="pca_one", factor=5)
    claim("ordinary PCA with both directions gives back the noisy rows",
          abs(pca_errors[2] - noisy_error) < 1e-12, id="pca_two")
    claim("keeping three directions is worse than two, and five worse than four, for the fixed "
          "point", fixed[3] > fixed[2] and fixed[5] > fixed[4], id="odd_worse")
    # The shown eigenvalues taken two at a time: how far apart within a two, and the gap to
    # the next two.
    larger, smaller = eigenvalues[0::2], eigenvalues[1::2]
    within_pair = (larger - smaller) / larger
    claim("the leading eigenvalues group in twos: within each two the smaller is within "
          "a share {share} of the larger, and each two's smaller is over {ratio} times the "
          "next two's larger", lambda share, ratio: bool(np.all(within_pair < share))
          and bool(np.all(smaller[:-1] > ratio * larger[1:])), id="pairs", share=0.25,
          ratio=1.5)
    claim("with two directions the fixed point's answers lie inside the circle (mean radius "
          "below {limit})", lambda limit: radius_two < limit, id="inside", limit=INSIDE_RADIUS)
    claim("the fixed point's best number of directions is {kept}, and no other γ tried reaches "
          "a lower error at its own best number of directions", lambda kept: best_fixed == kept
          and all(other["error"].value > fixed[KEPT] for other in others), id="best_fixed",
          kept=KEPT)
    claim("the fixed point's lowest error is below its next lowest by more than a share "
          "{margin} of itself",
          lambda margin: runner_up > (1 + margin) * fixed[best_fixed], id="fixed_margin",
          margin=0.05)
    claim("the learned map's errors at {count} of the numbers of directions tried lie within "
          "a share {near} of its lowest, and at every other number further above it",
          lambda count, near: len(learned_near) == count > 1 and all(
              (kept in learned_near) == (mapped[kept] <= (1 + near) * mapped[best_learned])
              for kept in DIRECTIONS),
          id="learned_flat", count=len(learned_near), near=LEARNED_NEAR)
    claim("with two directions the learned map's error is within a share {near} of its lowest",
          lambda near: mapped[2] <= (1 + near) * mapped[best_learned], id="learned_two",
          near=LEARNED_NEAR)
    claim("with two directions the learned map's answers are not pulled inside the circle "
          "(mean radius above {limit})", lambda limit: learned_radius_two > limit,
          id="learned_outside", limit=INSIDE_RADIUS)
    claim("past {kept} directions the fixed point's error is larger at every count tried",
          lambda kept: all(fixed[k] > fixed[KEPT] for k in DIRECTIONS if k > kept),
          id="rises_again", kept=KEPT)
    rows = [{"kept": kept, "fixed": within(fixed[kept], 1e-5),
             "learned": within(mapped[kept], 1e-6)} for kept in DIRECTIONS]
    return {
        "noisy": noisy_error,
        "rows": rows,
        "kept": KEPT,
        "fixed_kept": within(fixed[KEPT], 1e-5),
        "learned_kept": within(mapped[KEPT], 1e-6),
        "best_fixed": best_fixed,
        "best_learned": best_learned,
        "learned_near": learned_near,
        "learned_near_percent": round(100 * LEARNED_NEAR),
        "best_learned_error": within(mapped[best_learned], 1e-6),
        "pca_one": pca_errors[1],
        "pca_two": bound(pca_errors[2] - noisy_error, -12),
        "worse_count": len(worse_few),
        "eigenvalues": [float(v) for v in eigenvalues],
        "pair_gaps": [float(gap) for gap in within_pair],
        "radius_two": within(radius_two, 1e-5),
        "learned_radius_two": within(learned_radius_two, 1e-6),
        "other_gammas": others,
        "radius_kept": within(_radius(fixed_point(KEPT)[0].preimages), 1e-5),
        "clean_radius": _radius(clean),
        "gamma": GAMMA,
        "directions_low": DIRECTIONS[0],
        "directions_high": DIRECTIONS[-1],
        "rows_count": len(noisy),
        "noise": float(np.std(noisy - clean, ddof=1)),
    }
