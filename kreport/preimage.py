"""Pre-images: input rows for points of kernel PCA's feature space, and de-noising.

KernelPCA has no inverse transform (``inverse_transform`` raises
NoInverseTransformError, and keeps doing so): a point of the feature space is
in general the image of no input row. This module offers two explicit
approximations, each stating what it computes.

* :func:`fixed_point_preimage` -- for an RBF KernelPCA fit: the row z whose
  image φ(z) is (locally) nearest to the projection of a query onto the kept
  directions, by the fixed-point iteration of Mika et al. (1999), "Kernel PCA
  and de-noising in feature spaces".
* :class:`LearnedPreimage` -- a learned map from kernel PCA coordinates back to
  rows: one :class:`kreport.KernelRidge` per column of the rows (Bakır, Weston
  and Schölkopf 2004, as in scikit-learn's ``KernelPCA(fit_inverse_transform=True)``,
  but with KernelRidge's centring: the map shrinks toward the mean row, where
  scikit-learn's shrinks toward the origin).

De-noising: fit KernelPCA on noisy rows, keep the first few directions,
project each row onto them and map the projection back with either route.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from ._validation import (
    FittedAttributeGuard,
    as_fit_table,
    as_table,
    check_penalty,
    check_positive_int,
    check_positive_real,
    match_query,
    require_fitted,
)
from .errors import (
    InvalidInputError,
    InvalidParameterError,
    NotConvergedWarning,
    PreimageError,
)
from .kernels import RBF, Kernel, check_kernel
from .kpca import KernelPCA
from .krr import KernelRidge

__all__ = ["DENOMINATOR_THRESHOLD", "FixedPointPreimage", "LearnedPreimage", "fixed_point_preimage"]

#: A step whose denominator |Σᵢ γᵢ k(z, xᵢ)| is at most this fraction of
#: Σᵢ |γᵢ| k(z, xᵢ) is refused: the next point would be mostly rounding.
DENOMINATOR_THRESHOLD = 1e-10


class FixedPointPreimage(NamedTuple):
    """Result of :func:`fixed_point_preimage`.

    preimages : (m, p) one row per query, columns in the fit's column order.
    iterations : (m,) steps taken for each query.
    converged : (m,) True where the last step was within tolerance.
    last_step : (m,) length of each query's last step (in the rows' units).
    n_components : int, the directions projected onto.
    """

    preimages: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray
    last_step: np.ndarray
    n_components: int


def _projection_weights(fit: KernelPCA, scores: np.ndarray) -> np.ndarray:
    """γ (m × n): the projection P φ onto the kept directions as Σᵢ γᵢ φ(xᵢ).

    With α the coefficients (one column per direction, v_k = Σᵢ α_iᵏ (φ(xᵢ) − φ̄)
    of unit length), φ̄ = (1/n) Σᵢ φ(xᵢ) and β a query's first l coordinates,
    P φ = Σ_k β_k v_k + φ̄, so
    γᵢ = Σ_k β_k α_iᵏ + (1/n)(1 − Σⱼ Σ_k β_k α_jᵏ).
    (Σⱼ α_jᵏ is zero up to rounding, since centring makes the all-ones vector
    an eigenvector with eigenvalue 0; the term is kept because it is exact.)
    ``scores`` holds β for l = scores.shape[1] ≤ fit.n_components_ directions.
    """
    coefficients = fit.coefficients_[:, : scores.shape[1]]
    n = coefficients.shape[0]
    along = scores @ coefficients.T
    return along + (1.0 - along.sum(axis=1, keepdims=True)) / n


def fixed_point_preimage(
    fit: KernelPCA,
    *,
    rows=None,
    scores=None,
    n_components: int | None = None,
    max_iter: int = 1000,
    tol: float = 1e-9,
    start=None,
) -> FixedPointPreimage:
    """Pre-images of projections onto the first directions of an RBF KernelPCA fit.

    Parameters
    ----------
    fit : a fitted KernelPCA whose kernel is ``kernels.rbf`` (others refused:
        the iteration below is the stationary condition of the radial kernel;
        use :class:`LearnedPreimage` for other kernels).
    rows, scores : exactly one. ``rows`` (m × p, named as the fit was) are
        projected with ``fit.transform``; ``scores`` (m × l') are coordinates
        on the first l' ≤ fit.n_components_ directions.
    n_components : directions to project onto, at most those available
        (default: all of the fit's, or all l' columns of ``scores``).
    max_iter : positive int, steps allowed per query.
    tol : positive float; a query has converged when its step is at most
        tol × s, s the root-mean-square distance of the training rows from
        their mean (so tol is relative to the data's spread, not its units).
    start : None, "training", or an (m × p) table. None starts each query at
        its own row when ``rows`` are given (the de-noising start of Mika et
        al.), otherwise as "training": at the training row xⱼ that maximises
        Σᵢ γᵢ k(xⱼ, xᵢ), i.e. whose image is nearest to P φ.

    Semantics
    ---------
    * Target. P φ = Σᵢ γᵢ φ(xᵢ) with γ from ``_projection_weights`` (the
      kept directions plus the lifted mean φ̄ of kreport's centring).
    * Iteration. For k(z, x) = exp(−g‖z − x‖²), ‖φ(z) − P φ‖² = 1 + const −
      2 Σᵢ γᵢ k(z, xᵢ), and its stationary points satisfy
      z = Σᵢ γᵢ k(z, xᵢ) xᵢ / Σᵢ γᵢ k(z, xᵢ); this map is iterated from the
      start until the step is within tolerance or max_iter steps are taken.
      It finds a local optimum near the start, not necessarily the global one.
    * Refusal. When |Σᵢ γᵢ k(z, xᵢ)| ≤ DENOMINATOR_THRESHOLD · Σᵢ |γᵢ| k(z, xᵢ)
      (all kernel values underflowed, or the weights cancel), PreimageError
      names the query, the step and the denominator; no NaN is returned.
    * Non-convergence is reported, not hidden: ``converged`` is False for the
      queries concerned, their last iterate is returned, and a
      NotConvergedWarning names how many.
    """
    if not isinstance(fit, KernelPCA):
        raise InvalidParameterError(
            f"fit must be a fitted kreport.KernelPCA; got {type(fit).__name__}."
        )
    require_fitted(fit, "coefficients_")
    if not isinstance(fit.kernel, RBF):
        raise InvalidParameterError(
            f"fixed_point_preimage needs a KernelPCA fitted with kernels.rbf; this one uses "
            f"{fit.kernel!r}. Its fixed-point step is the stationary condition of the radial "
            "kernel only; for other kernels use LearnedPreimage."
        )
    max_iter = check_positive_int(max_iter, "max_iter")
    tol = check_positive_real(tol, "tol")
    if (rows is None) == (scores is None):
        raise InvalidParameterError(
            "pass exactly one of rows= (rows to project and map back) or scores= "
            "(coordinates on the fit's first directions)."
        )
    training = fit.training_rows_
    if rows is not None:
        queries = match_query(rows, fit.feature_names_, fit.n_features_in_, "rows")
        coordinates = fit.transform(rows)
    else:
        queries = None
        coordinates, _ = as_table(scores, "scores")
        if coordinates.shape[1] > fit.n_components_:
            raise InvalidInputError(
                f"scores has {coordinates.shape[1]} columns but the fit keeps "
                f"{fit.n_components_} directions; pass at most one column per kept direction."
            )
    kept = (
        coordinates.shape[1]
        if n_components is None
        else check_positive_int(n_components, "n_components")
    )
    if kept > coordinates.shape[1]:
        raise InvalidInputError(
            f"n_components={kept} but only {coordinates.shape[1]} coordinates are available; "
            f"ask for at most {coordinates.shape[1]}."
        )
    weights = _projection_weights(fit, np.ascontiguousarray(coordinates[:, :kept]))
    current = _starting_points(fit, start, queries, weights)
    spread = float(np.sqrt(np.mean(np.sum((training - training.mean(axis=0)) ** 2, axis=1))))
    return _iterate(fit.kernel, training, weights, current, max_iter, tol * spread, kept)


def _starting_points(fit, start, queries, weights) -> np.ndarray:
    if start is None:
        if queries is not None:
            return queries.copy()
        start = "training"
    if isinstance(start, str):
        if start != "training":
            raise InvalidParameterError(
                f"start must be None, 'training' or a table of starting rows; got {start!r}."
            )
        # Σᵢ γᵢ k(xⱼ, xᵢ) for every training row xⱼ; the largest is the nearest image.
        best = np.argmax(weights @ fit.training_table_, axis=1)
        return fit.training_rows_[best].copy()
    points = match_query(start, fit.feature_names_, fit.n_features_in_, "start")
    if points.shape[0] != weights.shape[0]:
        raise InvalidInputError(
            f"start has {points.shape[0]} rows but there are {weights.shape[0]} queries; "
            "give one starting row per query."
        )
    return points


def _iterate(kernel, training, weights, current, max_iter, step_limit, kept):
    m = current.shape[0]
    iterations = np.zeros(m, dtype=int)
    last_step = np.full(m, np.inf)
    converged = np.zeros(m, dtype=bool)
    for step in range(1, max_iter + 1):
        active = np.flatnonzero(~converged)
        if active.size == 0:
            break
        weighted = weights[active] * kernel._finite_table(current[active], training)
        denominator = weighted.sum(axis=1)
        scale = np.abs(weighted).sum(axis=1)
        stuck = np.abs(denominator) <= DENOMINATOR_THRESHOLD * scale
        if stuck.any():
            first = int(np.argmax(stuck))
            row = int(active[first])
            raise PreimageError(
                f"fixed-point step {step} for query {row} cannot be taken: the denominator "
                f"Σᵢ γᵢ k(z, xᵢ) is {denominator[first]:.3g} (against Σᵢ |γᵢ| k(z, xᵢ) = "
                f"{scale[first]:.3g}), so the next point would be a division by (almost) "
                "zero. The current point is too far from the training rows for this gamma, or "
                "the projection's weights cancel there: start nearer the data "
                "(start='training'), or keep more directions.",
                row=row,
                iteration=step,
                denominator=float(denominator[first]),
            )
        moved = (weighted @ training) / denominator[:, np.newaxis]
        length = np.sqrt(np.sum((moved - current[active]) ** 2, axis=1))
        current[active] = moved
        iterations[active] = step
        last_step[active] = length
        converged[active] = length <= step_limit
    if not converged.all():
        warnings.warn(
            f"the fixed-point pre-image did not converge for {int((~converged).sum())} of {m} "
            f"queries within {int(iterations.max())} steps; their last iterate is returned and "
            "flagged in converged. Raise max_iter, loosen tol, or try another start.",
            NotConvergedWarning,
            stacklevel=3,
        )
    return FixedPointPreimage(current, iterations, converged, last_step, kept)


class LearnedPreimage(FittedAttributeGuard):
    """A learned map from kernel PCA coordinates back to rows: kernel ridge,
    one :class:`kreport.KernelRidge` per column of the rows.

    Parameters
    ----------
    kernel : kreport.kernels.Kernel
        Kernel on the coordinates (not on the rows).
    penalty : float
        Finite and greater than zero, checked at construction.

    Attributes
    ----------
    models_ : tuple of KernelRidge, one per column of the rows.
    row_means_ : (p,) column means of the training rows (each model's target mean).
    feature_names_ : list of str or None, the rows' column names.
    n_coordinates_ : int, the number of coordinates (columns of ``scores``).
    n_features_out_ : int, p.

    Semantics
    ---------
    * ``fit(scores, rows)``: column j of ``rows`` is fitted as the target of
      ``KernelRidge(kernel, penalty).fit(scores, rows[:, j])``. So, per
      KernelRidge's semantics, the coordinates are centred (the RBF kernel
      ignores that), each column of the rows is centred, and its mean is added
      back: predict(Z) = kernel(Z − z̄, S_c) (K + penalty·I)⁻¹ (R − 1 r̄ᵀ) + r̄ᵀ.
      A query far from every training coordinate maps to the mean row r̄.
    * scikit-learn's ``KernelPCA(fit_inverse_transform=True)`` learns
      kernel(Z, S) (K + alpha·I)⁻¹ R with the raw rows R, which maps a far
      query to the origin. The two agree when the rows have zero column means
      (and the same kernel and penalty are used); otherwise they differ by
      (1 − kernel(Z, S)(K + penalty·I)⁻¹ 1) r̄ᵀ for an RBF kernel.
    * ``predict(scores)`` returns an (m, p) array, columns in the order of the
      fitted rows. Coordinates are matched by name if fitted on names.
    * The p models share one kernel table; each factorises it again (simple
      and exact, p times the cost of one fit).
    """

    def __init__(self, kernel: Kernel, penalty: float):
        self.kernel = check_kernel(kernel)
        self.penalty = check_penalty(penalty)

    def __repr__(self) -> str:
        return f"LearnedPreimage(kernel={self.kernel!r}, penalty={self.penalty!r})"

    def fit(self, scores, rows) -> LearnedPreimage:
        coordinates, _ = as_fit_table(scores, "scores")
        table, names = as_fit_table(rows, "rows")
        if table.shape[0] != coordinates.shape[0]:
            raise InvalidInputError(
                f"scores has {coordinates.shape[0]} rows but rows has {table.shape[0]}; pass "
                "the coordinates of exactly the rows to map back to, in the same order."
            )
        self.models_ = tuple(
            KernelRidge(self.kernel, self.penalty).fit(scores, table[:, j])
            for j in range(table.shape[1])
        )
        self.row_means_ = np.array([model.target_mean_ for model in self.models_])
        self.feature_names_ = names
        self.n_coordinates_ = coordinates.shape[1]
        self.n_features_out_ = table.shape[1]
        return self

    def predict(self, scores) -> np.ndarray:
        """Rows mapped back from coordinates, shape (m, p)."""
        require_fitted(self, "models_")
        return np.column_stack([model.predict(scores) for model in self.models_])
