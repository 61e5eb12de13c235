"""Answers to the exercises of Kernel PCA, part one, each worked here by the route the
exercise asks for (a hand formula, a few lines of numpy) and checked against
``kreport.KernelPCA``.

The first two exercises take the heights alone of the three people (``three_people``)
and the RBF kernel at :data:`THREE_GAMMA`, so that the people sit one and two
centimetres apart and the table is three by three. Its mirror symmetry (first and
third person swapped) makes the eigenvectors readable by hand: the *odd* vector
(first against third) and the *even* vectors (first and third alike).
"""

from __future__ import annotations

import numpy as np

from kreport import KernelPCA, kernels
from kreport import data as fixtures
from kreport.report import bound, claim

from .fits import inner, rbf_fit, rows, whole
from .settings import RING_GAMMA

#: The RBF kernel's gamma for the three heights, per squared centimetre.
THREE_GAMMA = 0.5
#: The odd and the even vector of the three heights' table, as a reader writes them.
ODD, EVEN = np.array([1.0, 0.0, -1.0]), np.array([1.0, -2.0, 1.0])
#: The two vectors whose mixes are the even vectors, before they are made unit.
PAIR, MIDDLE = np.array([1.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0])
#: Gammas on which the odd direction is checked to come first (a wide log grid).
CHECK_GAMMAS = np.geomspace(1e-3, 1e1, 41)


def _heights() -> np.ndarray:
    return np.asarray(fixtures.three_people().rows, dtype=float)


def _three_table(gamma: float) -> np.ndarray:
    return kernels.rbf(gamma)(_heights(), _heights())


def _three_centred() -> dict:
    """Exercise one: the three heights' RBF table, centred by hand."""
    heights = _heights()
    table = _three_table(THREE_GAMMA)
    n = len(heights)
    centring = np.eye(n) - np.full((n, n), 1 / n)
    centred = centring @ table @ centring
    odd_image, even_image = centred @ ODD, centred @ EVEN
    odd_value = float(ODD @ odd_image / (ODD @ ODD))
    even_value = float(EVEN @ even_image / (EVEN @ EVEN))
    fitted = KernelPCA(kernels.rbf(THREE_GAMMA)).fit(heights)
    claim("the odd and the even vector are eigenvectors of the centred table",
          np.allclose(odd_image, odd_value * ODD, rtol=0, atol=1e-10)
          and np.allclose(even_image, even_value * EVEN, rtol=0, atol=1e-10), id="eigenvectors")
    claim("their eigenvalues are kreport's two, the odd one first",
          np.allclose(fitted.eigenvalues_, [odd_value, even_value], rtol=1e-12),
          id="odd_first")
    claim("the odd eigenvalue is the diagonal entry less the corner entry of the table",
          abs(odd_value - (table[0, 0] - table[0, 2])) < 1e-10, id="odd_formula")
    # The odd direction comes first at every gamma: the difference of the two
    # eigenvalues is four thirds of (K₁₂ − K₁₃), and the nearer pair is always more alike.
    first_everywhere = True
    for gamma in CHECK_GAMMAS:
        other = _three_table(float(gamma))
        values = np.linalg.eigvalsh(centring @ other @ centring)[::-1]
        first_everywhere &= bool(np.isclose(values[0], other[0, 0] - other[0, 2], rtol=1e-10)
                                 and values[0] > values[1])
    claim("the odd direction comes first at every gamma from {low} to {high}",
          first_everywhere, id="odd_always", low=float(CHECK_GAMMAS[0]),
          high=float(CHECK_GAMMAS[-1]))
    coefficients, scores = fitted.coefficients_[:, 0], fitted.scores_[:, 0]
    claim("the first coordinates are the root of the eigenvalue times the unit odd vector, "
          "and the coefficients have the same pattern",
          np.allclose(coefficients, ODD / np.sqrt(2 * odd_value), rtol=1e-9, atol=1e-10) and
          np.allclose(scores, np.sqrt(odd_value) * ODD / np.sqrt(2), rtol=1e-9, atol=1e-10),
          id="odd_scores")
    return {
        "heights": whole(heights[:, 0]), "three_gamma": THREE_GAMMA,
        "near": table[0, 1], "far": table[0, 2], "three_centred": centred,
        "odd": whole(ODD), "even": whole(EVEN), "even_image": even_image,
        "three_values": [odd_value, even_value], "three_shares": fitted.shares_,
        "three_variance": fitted.variances_[0], "three_beta": coefficients[0],
        "three_score": scores[0],
        "three_middle": bound([coefficients[1], scores[1]], -10),
        "odd_always_low": float(CHECK_GAMMAS[0]), "odd_always_high": float(CHECK_GAMMAS[-1]),
    }


def _three_uncentred() -> dict:
    """Exercise two: the same table left uncentred."""
    table = _three_table(THREE_GAMMA)
    values, vectors = np.linalg.eigh(table)
    values, vectors = values[::-1], vectors[:, ::-1]
    leading = vectors[:, 0] * np.sign(vectors[0, 0])
    # The even vectors, read in the unit basis PAIR/√2 and MIDDLE:
    basis = np.column_stack([PAIR / np.linalg.norm(PAIR), MIDDLE])
    small = basis.T @ table @ basis
    small_values = np.linalg.eigvalsh(small)[::-1]
    odd_value = table[0, 0] - table[0, 2]
    claim("uncentred, the first eigenvector has every entry of one sign",
          np.all(leading > 0), id="one_sign")
    claim("the even two-by-two problem gives the largest and the smallest eigenvalue",
          np.allclose(small_values, values[[0, 2]], rtol=1e-12), id="small_problem")
    claim("the odd direction keeps its eigenvalue and drops to second",
          abs(values[1] - odd_value) < 1e-12, id="odd_second")
    return {
        "pair": whole(PAIR), "middle": whole(MIDDLE), "small": small, "raw_values": values,
        "raw_share": values[0] / np.trace(table),
        "raw_leading": leading,
    }


def _newcomer() -> dict:
    """Exercise three (code): a newcomer at the ring's inner mean, centred two ways."""
    data, mask = rows("ring"), inner("ring")
    fitted = rbf_fit("ring", RING_GAMMA)
    table, beta = fitted.training_table_, fitted.coefficients_[:, 0]
    newcomer = data[mask].mean(axis=0)
    k_q = kernels.rbf(RING_GAMMA)(newcomer[None, :], data)[0]
    average_row = table.mean(axis=0)
    right = (k_q - average_row) - (k_q - average_row).mean()
    wrong = k_q - k_q.mean()
    coordinate, wrong_coordinate = float(right @ beta), float(wrong @ beta)
    shift = wrong_coordinate - coordinate
    scores = fitted.scores_[:, 0]
    # The same mistake made for every training person sent back as a newcomer
    resent = table - table.mean(axis=1, keepdims=True)
    shifts = resent @ beta - scores
    claim("the hand coordinate is what transform gives",
          abs(coordinate - fitted.transform(newcomer[None, :])[0, 0]) < 1e-12, id="transform")
    claim("the newcomer at the inner mean lands beyond every inner person",
          coordinate > scores[mask].max(), id="beyond")
    claim("skipping the training average row moves every newcomer by the same amount, the "
          "average row summed against the coefficients",
          np.abs(shifts - shift).max() < 1e-12 and abs(shift - average_row @ beta) < 1e-12,
          id="same_shift")
    return {
        "newcomer": newcomer, "newcomer_coordinate": coordinate,
        "inner_scores": [scores[mask].min(), scores[mask].max()],
        "outer_scores": [scores[~mask].min(), scores[~mask].max()],
        "wrong_coordinate": wrong_coordinate, "shift": shift,
        "shift_spread": bound(shifts - shift, -12),
    }


def exercises() -> dict:
    """Three exercises: the three heights' table centred (pencil) and uncentred (pencil),
    and a newcomer on the ring centred two ways (code)."""
    return {**_three_centred(), **_three_uncentred(), **_newcomer()}
