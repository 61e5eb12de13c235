"""No way back: why kernel PCA has no inverse, measured on the noisy circle."""

from __future__ import annotations

import numpy as np

from kreport import NoInverseTransformError, kernels
from kreport.report import claim

from .common import circle, fixed_point, kpca, weights
from .settings import GAMMA, KEPT


def no_way_back():
    """The refusal, and why: projected points lie strictly inside the sphere of images."""
    noisy, _ = circle()
    fit = kpca(KEPT)
    try:
        fit.inverse_transform(fit.scores_)
    except NoInverseTransformError as error:
        refused, message = True, str(error)
    else:  # pragma: no cover - the claim reports it
        refused, message = False, ""
    kernel = kernels.rbf(GAMMA)
    diagonal = np.diag(kernel(noisy, noisy))
    omega = weights(fit, fit.transform(noisy))
    squared = np.einsum("ij,jk,ik->i", omega, fit.training_table_, omega)
    result, _ = fixed_point(KEPT)
    best = result.preimages
    distance = 1.0 - 2.0 * np.einsum("ij,ij->i", omega, kernel(best, noisy)) + squared
    claim("KernelPCA.inverse_transform refuses with a NoInverseTransformError", refused,
          id="refused")
    # Exactly one on every machine: the squared distance of a row to itself is
    # computed by subtraction (exactly zero) and exp(0) is exactly one.
    claim("every RBF image has squared length one", np.all(diagonal == 1.0), id="unit")
    claim("with {kept} directions every projected point has squared length below one",
          squared.max() < 1.0, id="inside", kept=KEPT)
    claim("even at the fixed point's answer, each row's image is at squared distance over "
          "{limit} from its projected point", lambda limit: distance.min() > limit, id="distance",
          limit=0.01)
    claim("the weights ωᵢ of every projected point add up to one, to within {limit}",
          lambda limit: np.abs(omega.sum(axis=1) - 1.0).max() < limit, id="weights_sum",
          limit=1e-12)
    beta = fit.coefficients_
    claim("each kept coefficient vector βₘ adds up to zero, to within {limit} of its largest "
          "entry",
          lambda limit: np.all(np.abs(beta.sum(axis=0)) < limit * np.abs(beta).max(axis=0)),
          id="coefficients_sum", limit=1e-12)
    return {
        "message": message,
        "error": "NoInverseTransformError",
        "kept": KEPT,
        "gamma": GAMMA,
        "largest_squared": float(squared.max()),
        "smallest_squared": float(squared.min()),
        "smallest_distance": float(distance.min()),
        "n": len(noisy),
    }
