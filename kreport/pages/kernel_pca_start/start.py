"""Kernel PCA, the short way in: the ring, where a straight axis fails and the RBF kernel
does not; the method in a few lines of numpy beside the kreport call; the settings
that matter; exercises.

The ring, its fits and its settings are the Kernel PCA page's (``kernel_pca.fits``
and ``kernel_pca.settings``), so this page reads the very fits that page reads.
"""

from __future__ import annotations

import numpy as np

from kreport import PCA, KernelPCA, data, kernels, measure
from kreport._signs import SIGN_CONVENTION, SIGN_TIE_TOLERANCE
from kreport.pages.kernel_pca.fits import inner, pca, rbf_fit, rows, split
from kreport.pages.kernel_pca.settings import KEPT, RING_GAMMA, ROUND_OUTSIDE
from kreport.pages.kernel_pca_steps.settings import RBF_GAMMA as FOUR_GAMMA
from kreport.report import bound, claim, exact

from .settings import (
    AGREEMENT_EXPONENT,
    SHARE_LEVEL,
    TRUNCATION_EXPONENT,
    UNCENTRED_CORRELATION,
)

#: The method written out in numpy, exactly as the page prints it; the page runs
#: this text and checks it against KernelPCA. (No digits: the site prints none.)
NUMPY_ROUTE = '''\
import numpy as np
from scipy.spatial.distance import cdist

n = len(X)
K = np.exp(-gamma * cdist(X, X, "sqeuclidean"))
C = np.eye(n) - np.ones((n, n)) / n
Kc = C @ K @ C
lam, U = np.linalg.eigh(Kc)
order = np.argsort(-lam)
order = order[lam[order] > tol * lam.max()][:keep]  # drop the zeros
lam, U = lam[order], U[:, order]
U = U * np.sign([u[np.argmax(np.abs(u))] for u in U.T])
Z = Kc @ (U / np.sqrt(lam))'''

KREPORT_ROUTE = '''\
from kreport import KernelPCA, kernels

model = KernelPCA(kernels.rbf(gamma), n_components=keep).fit(X)
Z = model.scores_
Zq = model.transform(Xq)'''

#: Why the three people's tables are exact (printed on the page).
WHOLE = ("the three people are whole centimetres and kilograms whose means are whole, so "
         "their deviations and the dot products of the deviations are small whole numbers")
#: Why the two people's squared distance is exact.
WHOLE_TWO = "a sum of squares of differences of whole numbers"


def _run_numpy(X: np.ndarray, gamma: float, keep: int, text: str = NUMPY_ROUTE) -> dict:
    scope = {"X": X, "gamma": gamma, "keep": keep, "tol": KernelPCA.ZERO_THRESHOLD}
    exec(text, scope)  # the page's own text, not a copy of it
    return scope


def _largest_lead(vectors: np.ndarray) -> float:
    """How far, relative to it, each column's largest magnitude leads its second largest
    (the smallest lead over the columns): the sign rule's tie tolerance matters only
    when this is within that tolerance."""
    ordered = np.sort(np.abs(vectors), axis=0)[::-1]
    return float(np.min(1.0 - ordered[1] / ordered[0]))


def the_problem():
    """The ring: ordinary PCA's two axes both mix the groups; the RBF kernel's first
    direction splits them."""
    X, mask = rows("ring"), inner("ring")
    linear = pca("ring")
    along = [split(linear.scores_[:, j], mask) for j in range(2)]
    kernel = split(rbf_fit("ring", RING_GAMMA).scores_[:, 0], mask)
    claim("along each of ordinary PCA's two axes the inner and outer groups overlap",
          not along[0].separated and not along[1].separated, id="pca_fails")
    claim("along the RBF kernel's first direction every inner person lies on one side of "
          "every outer person", kernel.separated, id="rbf_splits")
    return {
        "n": len(X), "n_inner": int(mask.sum()), "n_outer": int((~mask).sum()),
        "pca_shares": linear.shares_, "pca_overlaps": [a.overlap for a in along],
        "gamma": RING_GAMMA, "kernel_gap": kernel.gap,
    }


def numpy_route():
    """The method in numpy, run as printed on the ring, against KernelPCA."""
    X = np.array(rows("ring"))
    scope = _run_numpy(X, RING_GAMMA, KEPT)
    fitted = KernelPCA(kernels.rbf(RING_GAMMA), n_components=KEPT).fit(X)
    scale = float(np.abs(fitted.scores_).max())
    gap = float(np.abs(scope["Z"] - fitted.scores_).max()) / scale
    eigen_gap = float(np.abs(scope["lam"] - fitted.eigenvalues_).max() / fitted.eigenvalues_[0])
    limit = 10.0**AGREEMENT_EXPONENT
    claim("the numpy lines and KernelPCA give the same coordinates, signs included, to within "
          "{limit} of the largest", gap < limit, id="same", limit=limit)
    claim("and the same eigenvalues to within {limit} of the largest", eigen_gap < limit,
          id="same_eigenvalues", limit=limit)
    lead = _largest_lead(scope["U"])
    claim("in each kept eigenvector the largest entry leads the next by far more than the sign "
          "rule's tie tolerance", lead > 1e3 * SIGN_TIE_TOLERANCE, id="no_tie")
    return {
        "numpy": NUMPY_ROUTE, "kreport": KREPORT_ROUTE, "n": len(X), "keep": KEPT,
        "gamma": RING_GAMMA, "gap": bound(gap, AGREEMENT_EXPONENT),
        "eigen_gap": bound(eigen_gap, AGREEMENT_EXPONENT), "tol": KernelPCA.ZERO_THRESHOLD,
        "sign_convention": SIGN_CONVENTION, "tie_tolerance": SIGN_TIE_TOLERANCE, "lead": lead,
        "eigenvalues": fitted.eigenvalues_, "variances": fitted.variances_,
    }


def the_settings():
    """The kernel and its gamma; how many directions to keep; the centring."""
    X, mask = rows("ring"), inner("ring")
    worked = rbf_fit("ring", RING_GAMMA)
    wide_gamma, narrow_gamma = ROUND_OUTSIDE
    wide, narrow = (split(rbf_fit("ring", g).scores_[:, 0], mask) for g in ROUND_OUTSIDE)
    claim("at a γ on either side of the worked one, longer reach and shorter, the groups "
          "overlap along the first direction",
          wide_gamma < RING_GAMMA < narrow_gamma and not wide.separated
          and not narrow.separated, id="either_side")
    # How many directions: all there are, the few that carry a share, and truncation.
    needed = measure.cumulative_count(worked.shares_, SHARE_LEVEL)
    claim("the RBF kernel gives the ring's {n} people {count} directions, one fewer than "
          "people, where ordinary PCA has {p}, one per feature",
          worked.n_components_ == len(X) - 1 and pca("ring").n_components_ == X.shape[1],
          id="directions", n=len(X), count=worked.n_components_, p=X.shape[1])
    claim("a rule that keeps directions until their shares reach {level} keeps {needed} of "
          "them, more than the one whose coordinates split the ring",
          needed > 1, id="share_rule", level=SHARE_LEVEL, needed=needed)
    kept = rbf_fit("ring", RING_GAMMA, n_components=KEPT)
    truncation = float(np.abs(kept.scores_ - worked.scores_[:, :KEPT]).max()
                       / np.abs(worked.scores_).max())
    claim("keeping fewer directions leaves the kept ones as they were, to within {limit} of "
          "the largest coordinate", truncation < 10.0**TRUNCATION_EXPONENT, id="truncation",
          limit=10.0**TRUNCATION_EXPONENT)
    # Centring: the linear kernel on the measured four, uncentred.
    four = np.asarray(data.measured_four().rows, dtype=float)
    raw = four @ four.T
    values, vectors = np.linalg.eigh(raw)
    raw_share = float(values[-1] / np.trace(raw))
    claim("without centring, the first eigenvector of the four's linear table weighs every "
          "person with one sign", np.all(vectors[:, -1] > 0) or np.all(vectors[:, -1] < 0),
          id="one_sign")
    return {
        "gamma": RING_GAMMA, "reach": 1.0 / np.sqrt(RING_GAMMA),
        "wide_gamma": wide_gamma, "wide_reach": 1.0 / np.sqrt(wide_gamma),
        "wide_overlap": wide.overlap,
        "narrow_gamma": narrow_gamma, "narrow_reach": 1.0 / np.sqrt(narrow_gamma),
        "narrow_overlap": narrow.overlap,
        "directions": worked.n_components_, "pca_directions": pca("ring").n_components_,
        "shares": worked.shares_[:2], "pca_share": pca("ring").shares_[0],
        "level": SHARE_LEVEL, "needed": needed, "keep": KEPT,
        "truncation": bound(truncation, TRUNCATION_EXPONENT),
        "four_n": len(four), "raw_share": raw_share,
    }


def exercises():
    """Answers to the page's exercises, each computed here."""
    # 1. Three people, the linear kernel, by hand: a rank-one centred table.
    people = np.asarray(data.three_people().rows, dtype=float)
    people = np.column_stack([people, data.three_people().target])
    deviations = people - people.mean(axis=0)
    centred = deviations @ deviations.T
    linear = KernelPCA(kernels.linear()).fit(people)
    eigenvalue = float(linear.eigenvalues_[0])
    unit = linear.coefficients_[:, 0] * np.sqrt(eigenvalue)
    claim("the centred table has one non-zero eigenvalue, its trace",
          linear.n_components_ == 1 and abs(eigenvalue / np.trace(centred) - 1) < 1e-12,
          id="rank_one")
    claim("the first and third entries of the unit eigenvector tie in size, and the rule gives "
          "the positive one to the first person", abs(abs(unit[0]) - abs(unit[2])) < 1e-12
          and unit[0] > 0, id="tie_first")
    scores = linear.scores_[:, 0]
    ordinary = PCA(n_components=1).fit(people).scores_[:, 0]
    claim("ordinary PCA gives the same coordinates, signs included",
          float(np.abs(scores - ordinary).max()) < 1e-12 * float(np.abs(scores).max()),
          id="as_pca")
    # 2. Two people (A and B of the measured four), the RBF kernel.
    two = np.asarray(data.measured_four().rows, dtype=float)[:2]
    squared = float(((two[0] - two[1]) ** 2).sum())
    value = float(np.exp(-FOUR_GAMMA * squared))
    pair = KernelPCA(kernels.rbf(FOUR_GAMMA)).fit(two)
    feature_distance = float(np.sqrt(2.0 - 2.0 * value))
    claim("the one eigenvalue of the centred two-person table is one minus their kernel value",
          pair.n_components_ == 1 and abs(pair.eigenvalues_[0] - (1.0 - value)) < 1e-12,
          id="one_minus")
    claim("the two coordinates lie the lifted people's distance apart",
          abs(pair.scores_[0, 0] - pair.scores_[1, 0] - feature_distance) < 1e-12,
          id="distance")
    # 3. The ring without centring: the numpy lines with K in place of Kc.
    X = np.array(rows("ring"))
    skipped = NUMPY_ROUTE.replace("Kc = C @ K @ C", "Kc = K")
    if skipped == NUMPY_ROUTE:
        raise ValueError("the numpy lines no longer centre with 'Kc = C @ K @ C'")
    uncentred = _run_numpy(X, RING_GAMMA, KEPT, skipped)
    worked = rbf_fit("ring", RING_GAMMA)
    raw_first = uncentred["Z"][:, 0]
    correlation = float(np.corrcoef(raw_first, worked.scores_[:, 0])[0, 1])
    raw_table = uncentred["K"]
    claim("without centring every entry of the first eigenvector has one sign",
          np.all(uncentred["U"][:, 0] > 0), id="raw_one_sign")
    claim("the raw first eigenvalue is larger than the centred one",
          uncentred["lam"][0] > worked.eigenvalues_[0], id="raw_larger")
    claim("the raw first coordinates follow the centred ones with a correlation above {limit}",
          lambda limit: correlation > limit, id="follows", limit=UNCENTRED_CORRELATION)
    return {
        # 1.
        "people": exact(np.rint(people).astype(int).tolist(), "whole centimetres and kilograms"),
        "deviations": exact(np.rint(deviations).astype(int).tolist(), WHOLE),
        "centred": exact(np.rint(centred).astype(int).tolist(), WHOLE),
        "eigenvalue": eigenvalue, "entry": float(abs(unit[0])),
        "scores_outer": [float(scores[0]), float(scores[2])],
        "score_middle": bound(scores[1], -10),
        # 2.
        "two": exact(np.rint(two).astype(int).tolist(), "whole centimetres and kilograms"),
        "two_gamma": FOUR_GAMMA, "two_squared": exact(int(np.rint(squared)), WHOLE_TWO),
        "two_value": value, "two_centred": (1.0 - value) / 2.0,
        "two_eigenvalue": float(pair.eigenvalues_[0]), "two_scores": pair.scores_[:, 0],
        "two_distance": feature_distance,
        # 3.
        "gamma": RING_GAMMA, "raw_eigenvalue": float(uncentred["lam"][0]),
        "centred_eigenvalue": float(worked.eigenvalues_[0]),
        "raw_share": float(uncentred["lam"][0] / np.trace(raw_table)),
        "centred_share": float(worked.shares_[0]), "correlation": correlation,
        "correlation_limit": UNCENTRED_CORRELATION,
    }
