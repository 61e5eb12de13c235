"""The measured four (and the arc): a direction as a recipe over people, the
Gram matrix route, the two scales of one eigenvalue, and the uncentred trap.

The measured four are whole numbers, so their mean, deviations, dot products
and the entries of their tables are whole numbers too; those are returned as
ints (after checking they are whole to rounding), so they print as written on
every machine. Eigenvalues and eigenvectors come from a solver and are floats.
"""

from __future__ import annotations

import math

import numpy as np

from kreport import kernels
from kreport.report import bound, claim

from .fits import kernel_fit, pca, rows, symmetric_eigen, whole
from .settings import UNCENTRED_SHARE


def _deviations() -> np.ndarray:
    return rows("four") - rows("four").mean(axis=0)


def recipe():
    """The first principal direction rebuilt from the four deviations, each weighted."""
    deviations = _deviations()
    direction = pca("four").components_[0]
    weights = kernel_fit("four", "linear").coefficients_[:, 0]
    rebuilt = weights @ deviations
    dots = deviations @ deviations.T
    coordinate = dots[0] @ weights
    claim("the weighted sum of the four deviations rebuilds the first direction",
          np.allclose(rebuilt, direction, atol=1e-12), id="rebuilds")
    claim("a coordinate from dot products alone equals ordinary PCA's score",
          abs(coordinate - pca("four").scores_[0, 0]) < 1e-12, id="score")
    claim("the recipe weighs the first two people equally and oppositely and the other two "
          "not at all", np.isclose(weights[0], -weights[1], rtol=1e-12)
          and np.abs(weights[2:]).max() < 1e-12 * np.abs(weights[0]), id="weights")
    return {
        "deviations": whole(deviations), "direction": direction,
        "weight": weights[0], "other_weights": bound(weights[2:], -12),
        "dots_first": whole(dots[0]), "coordinate": coordinate,
        "rebuild_error": bound(rebuilt - direction, -12),
    }


def gram_route():
    """The n × n table of dot products has the scatter matrix's non-zero eigenvalues."""
    four_fit = kernel_fit("four", "linear")
    values, vectors = symmetric_eigen(four_fit.centred_table_)
    scatter_values = pca("four").eigenvalues_
    arc_rows = rows("arc")
    arc_deviations = arc_rows - arc_rows.mean(axis=0)
    arc_scatter = arc_deviations.T @ arc_deviations
    arc_gram = np.linalg.eigvalsh(kernel_fit("arc", "linear").centred_table_)[::-1]
    arc_routes = kernel_fit("arc", "linear").scores_ - pca("arc").scores_
    leading = vectors[:, 0]
    claim("the Gram table's two non-zero eigenvalues equal the scatter matrix's",
          np.allclose(values[:2], scatter_values, rtol=1e-12), id="same_values")
    claim("the leading Gram eigenvector weights the first and second person equally and "
          "oppositely, and the others not at all",
          np.allclose(leading * np.sqrt(2), [1, -1, 0, 0], atol=1e-12), id="leading")
    claim("on the arc the Gram table's top two eigenvalues equal the scatter matrix's",
          np.allclose(arc_gram[:2], pca("arc").eigenvalues_, rtol=1e-10), id="arc_values")
    claim("with the shared sign rule the two routes' arc coordinates agree without flipping",
          np.abs(arc_routes).max() < 1e-9, id="arc_agree")
    return {
        "centred_table": whole(four_fit.centred_table_),
        # eigenvalues of this whole-number table are whole numbers (400 and 100)
        "eigenvalues": whole(values[:2]),
        "zeros": bound(values[2:], -9), "leading": leading[0],
        "leading_rest": bound(leading[2:], -12),
        "arc_scatter": arc_scatter, "arc_scatter_values": pca("arc").eigenvalues_,
        "arc_gram_values": arc_gram[:2], "arc_rest": bound(arc_gram[2:], -9),
        "arc_rest_count": len(arc_gram) - 2, "arc_n": len(arc_rows),
        "arc_agreement": bound(arc_routes, -10),
    }


def two_scales():
    """One raw eigenvalue gives a variance (over n − 1) and a length (its square root)."""
    fitted = kernel_fit("four", "linear")
    raw, n = fitted.eigenvalues_, len(rows("four"))
    lengths = (fitted.coefficients_**2).sum(axis=0)
    whole_raw = whole(raw)
    root = math.isqrt(whole_raw[0])
    claim("the reported variances are the raw eigenvalues over {divisor}",
          np.allclose(fitted.variances_, raw / (n - 1), rtol=1e-15), id="variances",
          divisor=n - 1)
    claim("each coefficient vector's squared length is one over its raw eigenvalue",
          np.allclose(lengths * raw, 1.0, rtol=1e-12), id="lengths")
    claim("the largest raw eigenvalue is a perfect square, so its root is whole",
          root * root == whole_raw[0], id="root")
    return {
        "n": n, "divisor": n - 1, "raw": whole_raw, "variances": fitted.variances_,
        "direction_length": root, "squared_lengths": lengths,
    }


def uncentred():
    """Without centring, the first direction points at the cloud's mean."""
    table = kernels.linear()(rows("four"), rows("four"))
    values, vectors = symmetric_eigen(table)
    arc_table = kernels.linear()(rows("arc"), rows("arc"))
    arc_share = np.linalg.eigvalsh(arc_table)[-1] / np.trace(arc_table)
    leading = vectors[:, 0]
    share = values[0] / np.trace(table)
    claim("the uncentred table's first eigenvector weighs all four people nearly alike",
          np.ptp(leading) < 0.1 and np.all(leading > 0), id="alike")
    claim("the uncentred first direction takes more than {limit} of the trace on both data sets",
          lambda limit: share > limit and arc_share > limit, id="share",
          limit=UNCENTRED_SHARE)
    return {
        "person_one": whole(rows("four")[0]), "table": whole(table), "largest": values[0],
        "share": share, "leading": leading, "arc_share": arc_share,
    }
