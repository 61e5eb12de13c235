"""Principal component analysis by the scatter matrix (the control for KernelPCA)."""

from __future__ import annotations

import numpy as np
from scipy.linalg import eigh

from ._centring import centre_columns
from ._signs import orientation_signs
from ._validation import (
    FittedAttributeGuard,
    as_fit_table,
    as_table,
    check_positive_int,
    match_query,
    require_fitted,
)
from .errors import InvalidInputError


class PCA(FittedAttributeGuard):
    """Ordinary PCA: centre the columns, then eigen-decompose the p × p scatter
    matrix XcᵀXc with a symmetric solver (``scipy.linalg.eigh``).

    Parameters
    ----------
    n_components : int or None, default None
        Directions to keep, a positive int at most min(n − 1, p). ``None``
        keeps every direction with a non-zero eigenvalue.

    Attributes
    ----------
    mean_ : (p,) column means of the training rows.
    components_ : (l, p) unit directions, one per row, descending variance.
    eigenvalues_ : (l,) raw eigenvalues of the scatter matrix.
    variances_ : (l,) ``eigenvalues_ / (n − 1)``.
    total_variance_ : float, sum of all p variances before truncation.
    shares_ : (l,) ``variances_ / total_variance_``.
    scores_ : (n, l) coordinates of the training rows.
    reconstruction_error_ : float, sum over training rows of squared residuals
        after rebuilding from the kept coordinates; equals the sum of the
        dropped raw eigenvalues.
    n_components_, feature_names_, n_features_in_.

    Semantics
    ---------
    * Ceiling min(n − 1, p): centring removes one direction from n rows.
    * Zero threshold as in KernelPCA: an eigenvalue ≤ 1e-10 × the largest is
      a zero; such directions are not kept, and asking for them is refused.
    * Directions in descending eigenvalue order. Sign: the column of training
      scores of each direction has its largest-magnitude entry positive (first
      such row on ties within a relative 1e-9), the same rule KernelPCA applies
      to its eigenvectors (one function, ``kreport._signs.orientation_signs``),
      so PCA and KernelPCA(linear) scores agree in sign.
    * ``inverse_transform(Z) = Z @ components_ + mean_`` (exact for kept
      coordinates).
    """

    ZERO_THRESHOLD = 1e-10

    def __init__(self, n_components: int | None = None):
        self.n_components = (
            None if n_components is None else check_positive_int(n_components, "n_components")
        )

    def __repr__(self) -> str:
        return f"PCA(n_components={self.n_components!r})"

    def fit(self, X) -> PCA:
        rows, names = as_fit_table(X)
        n, p = rows.shape
        ceiling = min(n - 1, p)
        if self.n_components is not None and self.n_components > ceiling:
            raise InvalidInputError(
                f"n_components={self.n_components} is above the ceiling min(n − 1, p) = "
                f"{ceiling} for {n} rows and {p} columns; ask for at most {ceiling}."
            )
        centred, mean = centre_columns(rows)
        with np.errstate(over="ignore", invalid="ignore"):
            scatter = centred.T @ centred
        if not np.isfinite(scatter).all():
            raise InvalidInputError(
                "the scatter matrix overflowed (entries too large to square in float64); "
                "rescale the columns before fitting."
            )
        values, vectors = eigh(scatter, check_finite=False)
        values, vectors = values[::-1], vectors[:, ::-1]
        largest = float(values[0])
        if not largest > 0.0:
            raise InvalidInputError(
                "every row is identical, so there is no spread to decompose; pass rows that differ."
            )
        n_nonzero = min(int(np.count_nonzero(values > self.ZERO_THRESHOLD * largest)), ceiling)
        kept = self.n_components if self.n_components is not None else n_nonzero
        if kept > n_nonzero:
            raise InvalidInputError(
                f"n_components={kept} asks for more directions than the data have: only "
                f"{n_nonzero} scatter eigenvalue(s) exceed {self.ZERO_THRESHOLD:g} × the "
                f"largest; ask for at most {n_nonzero}."
            )
        directions = np.ascontiguousarray(vectors[:, :kept])
        scores = centred @ directions
        signs = orientation_signs(scores)
        directions *= signs
        scores *= signs
        residual = centred - scores @ directions.T
        scores += 0.0  # turns any −0.0 into 0.0 so printed tables never show "−0"

        self.mean_ = mean
        self.components_ = np.ascontiguousarray(directions.T)
        self.eigenvalues_ = values[:kept].copy()
        self.variances_ = self.eigenvalues_ / (n - 1)
        self.total_variance_ = float(np.clip(values, 0.0, None).sum()) / (n - 1)
        self.shares_ = self.variances_ / self.total_variance_
        self.scores_ = scores
        self.reconstruction_error_ = float(np.sum(residual * residual))
        self.n_components_ = kept
        self.feature_names_ = names
        self.n_features_in_ = p
        return self

    def transform(self, X) -> np.ndarray:
        """Coordinates of query rows: (X − mean_) @ components_ᵀ."""
        require_fitted(self, "components_")
        rows = match_query(X, self.feature_names_, self.n_features_in_)
        return (rows - self.mean_) @ self.components_.T

    def fit_transform(self, X) -> np.ndarray:
        return self.fit(X).scores_.copy()

    def inverse_transform(self, Z) -> np.ndarray:
        """Rows rebuilt from kept coordinates: Z @ components_ + mean_."""
        require_fitted(self, "components_")
        coordinates, _ = as_table(Z, "Z")
        if coordinates.shape[1] != self.n_components_:
            raise InvalidInputError(
                f"Z has {coordinates.shape[1]} columns but {self.n_components_} directions "
                "are kept; pass one column per kept direction."
            )
        return coordinates @ self.components_ + self.mean_
