"""Ridge regression in the primal, one weight per feature (the control for KernelRidge)."""

from __future__ import annotations

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve

from ._centring import centre_rows_and_target
from ._validation import (
    FittedAttributeGuard,
    as_fit_table,
    as_target,
    check_penalty,
    match_query,
    require_fitted,
)
from .errors import InvalidInputError
from .measure import r_squared

# ``r_squared`` lives in kreport/measure.py (one R² for the models' score and the
# pages); it stays importable from here as before.
__all__ = ["Ridge", "r_squared"]


class Ridge(FittedAttributeGuard):
    """Ridge regression solved feature by feature (a p × p system).

    Parameters
    ----------
    penalty : float
        Finite and greater than zero, checked at construction.

    Attributes
    ----------
    coef_ : (p,) one weight per feature.
    intercept_ : float, ``target_mean_ − feature_means_ · coef_``.
    feature_means_ : (p,); target_mean_ : float.
    feature_names_ : list of str or None; n_features_in_ : int.

    Semantics
    ---------
    * X and y are centred by their means; (XcᵀXc + penalty·I) w = Xcᵀyc is
      solved by Cholesky (``scipy.linalg.cho_factor``). The intercept is not
      penalised: it is recovered from the means afterwards.
    * Predictions are computed as (Xq − feature_means_) @ coef_ + target_mean_,
      which equals Xq @ coef_ + intercept_ up to rounding.
    * A constant column is refused: centred it is all zeros, so the data say
      nothing about its weight (only the penalty would set it to 0).
    * Query columns are matched to the fitted ones by name when fitted on
      names (missing or extra names refused), by position otherwise.
    * y may be 1-D or a single (n, 1) column, which is flattened.
    """

    def __init__(self, penalty: float):
        self.penalty = check_penalty(penalty)

    def __repr__(self) -> str:
        return f"Ridge(penalty={self.penalty!r})"

    def fit(self, X, y) -> Ridge:
        rows, names = as_fit_table(X)
        target = as_target(y, rows.shape[0])
        constant = np.flatnonzero(rows.max(axis=0) == rows.min(axis=0))
        if constant.size:
            labels = [names[j] if names else f"column {j}" for j in constant]
            raise InvalidInputError(
                f"{labels} is constant; a constant column is all zeros once centred, so its "
                "weight is not determined by the data. Drop it before fitting Ridge."
            )
        centred, feature_means, centred_target, target_mean = centre_rows_and_target(rows, target)
        with np.errstate(over="ignore", invalid="ignore"):
            system = centred.T @ centred
        if not np.isfinite(system).all():
            raise InvalidInputError(
                "XcᵀXc overflowed (entries too large to square in float64); rescale the "
                "columns before fitting."
            )
        system[np.diag_indices_from(system)] += self.penalty
        try:
            factor = cho_factor(system, lower=True, check_finite=False)
        except LinAlgError:  # only with absurd scales; the system is positive definite
            raise InvalidInputError(
                "XcᵀXc + penalty·I could not be factorised in floating point; rescale the "
                "features or raise the penalty."
            ) from None
        coef = cho_solve(factor, centred.T @ centred_target, check_finite=False)

        self.coef_ = coef
        self.feature_means_ = feature_means
        self.target_mean_ = target_mean
        self.intercept_ = float(target_mean - feature_means @ coef)
        self.feature_names_ = names
        self.n_features_in_ = rows.shape[1]
        return self

    def predict(self, X) -> np.ndarray:
        require_fitted(self, "coef_")
        rows = match_query(X, self.feature_names_, self.n_features_in_)
        return (rows - self.feature_means_) @ self.coef_ + self.target_mean_

    def score(self, X, y) -> float:
        """R² of the predictions for X against y (``kreport.measure.r_squared``);
        a constant y is refused (SS_tot = 0)."""
        predicted = self.predict(X)
        return r_squared(as_target(y, len(predicted)), predicted)
