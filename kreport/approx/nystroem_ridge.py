"""Kernel ridge regression with m Nyström centres instead of n dual weights."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve, lapack, solve_triangular
from scipy.linalg.blas import dsyrk, dtrsm

from .._validation import (
    FittedAttributeGuard,
    as_fit_table,
    as_target,
    check_penalty,
    match_query,
    require_fitted,
)
from ..errors import InvalidParameterError, KreportError
from ..kernels import Kernel, check_kernel
from ..ridge import r_squared
from ._common import (
    DEFAULT_BLOCK_SIZE,
    check_block_size,
    check_component_count,
    check_landmark_rule,
    check_mercer,
    check_seed,
    compensated_sums,
    draw_landmarks,
    mean_from_sums,
    rank_tolerance,
    refuse_zero_table,
    row_blocks,
)


class NystroemKernelRidge(FittedAttributeGuard):
    """Kernel ridge regression on m centres, never forming an n × n table.

    Parameters
    ----------
    kernel : kreport.kernels.Kernel
        The kernel and its parameters, kept as given.
    penalty : float
        λ, finite and greater than zero, checked at construction.
    n_components : int
        m, the number of centres; 1 ≤ m ≤ n (checked at fit).
    landmarks : "uniform", default "uniform"
        How centres are chosen; the only rule is uniform without replacement.
    seed : int, default 0
        Seed of the draw, a whole number in [0, 2³² − 1].
    block_size : int, default 4096
        Rows per block in ``fit`` and ``predict``. Working memory is about
        block_size · m + 8 m² floats whatever n is (measured: 93 MiB at
        m = 1000, block_size = 4096).

    Attributes
    ----------
    weights_ : (m,) a copy of β, one weight per centre, in landmark order
        (0 for a centre left out by the rank rule).
    landmarks_ : (m, p) a copy of the landmark rows as given (uncentred).
    centres_ : (m, p) a copy of the centres C = landmarks_ − feature_means_.
    landmark_indices_ : (m,) row numbers of the landmarks in the fitted X.
    rank_ : int, the number of centres the factorisation kept (m unless some
        centre is numerically a combination of others).
    feature_means_ : (p,); target_mean_ : float; n_rows_ : int, rows fitted.
    feature_names_ : list of str or None; n_features_in_ : int.

    Semantics
    ---------
    * Centring, as KernelRidge: rows are centred by the training feature means
      before the kernel, the target by its mean ȳ, and ȳ is added back to
      every prediction; no intercept. predict(Xq) =
      kernel(Xq − feature_means_, centres_) @ weights_ + target_mean_.
      The means are sums by compensated pairwise summation (TwoSum, carried
      as double-double) divided by n: exactly rounded but for rare near-ties,
      and the same however the rows are split into blocks or Dask chunks.
      (With an ill-conditioned K_mm a one-ulp change of the means moves
      predictions by about 10⁻⁹ relative; this is what lets fit_distributed
      reproduce fit far more closely than that.)
    * Centres. C = the centred landmark rows, drawn by the rule of
      ``Nystroem`` (``numpy.random.RandomState(seed).permutation(n)[:m]``,
      the rows scikit-learn's Nystroem picks for the same seed).
    * Problem. β minimises ‖y_c − K_nm β‖² + λ βᵀ K_mm β, with
      K_nm = kernel(X_c, C) and K_mm = kernel(C, C); that is
      (K_mn K_nm + λ K_mm) β = K_mn y_c.
    * Route. That system is never formed: K_mn K_nm squares the condition
      number of K_nm, and on ordinary data (n = 10⁵, m = 1000, rbf(0.1),
      d = 5, where K_mm has condition number about 10¹²) its rounding error
      exceeds λ K_mm and Cholesky fails. Instead K_mm is factorised once by
      pivoted Cholesky (LAPACK ``dpstrf``), K_SS = L Lᵀ on the kept centres S,
      and the fit is ridge on the whitened features Φ = K_nS L⁻ᵀ:
      (ΦᵀΦ + λI) w = Φᵀ y_c by Cholesky, then β_S = L⁻ᵀ w. Φ is the Nyström
      feature map K_nm K_mm^{-1/2} up to an orthogonal rotation
      (L⁻ᵀ = K_mm^{-1/2} Q with QQᵀ = I), and ridge with the same penalty on
      every coordinate does not see a rotation, so this is ridge on Nyström
      features; and when K_mm is invertible, substituting β = L⁻ᵀ w shows it
      solves the system above. ΦᵀΦ + λI has every eigenvalue ≥ λ.
    * Rank rule. Pivoted Cholesky stops when the largest remaining pivot (the
      squared feature-space distance from a centre to the span of those
      already taken) is ≤ m · ε · max diag(K_mm): such centres add nothing
      the others do not, are left out (weight 0) and rank_ < m. Duplicate
      rows among the landmarks are the usual cause.
    * Blocks. ΦᵀΦ and Φᵀy_c are sums over rows, accumulated one block of
      block_size rows at a time: the kernel block, an in-place triangular
      solve (n m²/2 multiply-adds in all) and a symmetric rank-k update
      (n m²/2). Time O(n·m·p + n·m²), memory O(block_size·m + m²); no
      n × m or n × n table is formed. The same block sums, added across workers,
      are what ``kreport.approx.distributed.fit_distributed`` computes.
    * m = n. With every row a centre, K_nm = K_mm = K and the normal equations
      read K (K + λI) β = K y_c; for an invertible K (the RBF kernel on
      distinct rows) β = (K + λI)⁻¹ y_c, KernelRidge's dual weights in
      landmark order, and the predictions agree to rounding.
      Duplicate rows make K singular but leave the span of the centres, hence
      the predictions, unchanged (the rank rule drops the copies).
    * Refusals: penalty ≤ 0 or not finite; m < 1 or m > n; NaN or infinite
      entries; the wrong columns at predict; a kernel that breaks Mercer's
      condition on the centres (MercerConditionError); an all-zero kernel
      table; a penalty below the rounding level of ΦᵀΦ.
    """

    _NOT_PROVIDED: ClassVar[dict[str, str]] = {
        "coef_": "the model has one weight per centre, not per feature (see weights_)",
        "intercept_": "rows and target are centred and each prediction restores the "
                      "training target's mean (target_mean_), so there is no intercept",
        "dual_weights_": "there is one weight per centre, not per training row (see weights_)",
    }

    def __init__(
        self,
        kernel: Kernel,
        penalty: float,
        n_components: int,
        landmarks: str = "uniform",
        seed: int = 0,
        block_size: int = DEFAULT_BLOCK_SIZE,
    ):
        self.kernel = check_kernel(kernel)
        self.penalty = check_penalty(penalty)
        self.n_components = check_component_count(n_components)
        self.landmarks = check_landmark_rule(landmarks)
        self.seed = check_seed(seed)
        self.block_size = check_block_size(block_size)

    def __repr__(self) -> str:
        return (
            f"NystroemKernelRidge(kernel={self.kernel!r}, penalty={self.penalty!r}, "
            f"n_components={self.n_components!r}, landmarks={self.landmarks!r}, "
            f"seed={self.seed!r})"
        )

    # ------------------------------------------------------------------ fit
    def fit(self, X, y) -> NystroemKernelRidge:
        rows, names = as_fit_table(X)
        target = as_target(y, rows.shape[0])
        indices = draw_landmarks(rows.shape[0], self.n_components, self.seed)
        feature_means = mean_from_sums(compensated_sums(rows), len(rows))
        target_mean = float(mean_from_sums(compensated_sums(target), len(target)))
        landmark_rows = rows[indices]
        basis = _centre_basis(self.kernel, landmark_rows, feature_means, self.penalty)
        gram, moment = _block_sums(basis, rows, target, target_mean, self.block_size)
        weights = _solve_weights(basis, gram, moment, self.penalty)
        self._set_state(basis, landmark_rows, indices, weights, target_mean, names, len(rows))
        return self

    def _set_state(self, basis, landmark_rows, indices, weights, target_mean, names, n_rows):
        self._basis = basis
        self._landmarks = landmark_rows
        self._kept_weights = weights
        self.landmark_indices_ = indices
        self.rank_ = len(basis.kept)
        self.feature_means_ = basis.feature_means
        self.target_mean_ = target_mean
        self.n_rows_ = n_rows
        self.feature_names_ = names
        self.n_features_in_ = landmark_rows.shape[1]

    @property
    def weights_(self) -> np.ndarray:
        """Copy of β, one weight per centre in landmark order (not coefficients)."""
        require_fitted(self, "_kept_weights")
        weights = np.zeros(self.n_components)
        weights[self._basis.kept] = self._kept_weights
        return weights

    @property
    def landmarks_(self) -> np.ndarray:
        """Copy of the landmark rows as given (before centring)."""
        require_fitted(self, "_landmarks")
        return self._landmarks.copy()

    @property
    def centres_(self) -> np.ndarray:
        """Copy of the centres: the landmark rows minus the training feature means."""
        require_fitted(self, "_landmarks")
        return self._landmarks - self.feature_means_

    # -------------------------------------------------------------- predict
    def predict(self, X) -> np.ndarray:
        """kernel(Xq − feature_means_, centres_) @ weights_ + target_mean_, in row blocks."""
        require_fitted(self, "_kept_weights")
        rows = match_query(X, self.feature_names_, self.n_features_in_)
        basis = self._basis
        predicted = np.empty(rows.shape[0])
        for block in row_blocks(rows.shape[0], self.block_size):
            table = self.kernel._finite_table(rows[block] - basis.feature_means, basis.centres)
            np.matmul(table, self._kept_weights, out=predicted[block])
        predicted += self.target_mean_
        return predicted

    def score(self, X, y) -> float:
        """R² = 1 − SS_res/SS_tot; a constant y is refused (SS_tot = 0)."""
        predicted = self.predict(X)
        return r_squared(as_target(y, len(predicted)), predicted)


@dataclass(frozen=True)
class _CentreBasis:
    """What every row block needs: the kernel, the training feature means, the
    kept centres (pivot order) and the lower Cholesky factor of their table."""

    kernel: Kernel
    feature_means: np.ndarray  # (p,)
    kept: np.ndarray  # (r,) positions of the kept centres among the m landmarks
    centres: np.ndarray  # (r, p) the kept centred landmark rows, in pivot order
    factor: np.ndarray  # (r, r) lower triangular, Fortran order: K_SS = L Lᵀ


def _centre_basis(kernel, landmark_rows, feature_means, penalty) -> _CentreBasis:
    """Centre the landmarks and factorise their table by pivoted Cholesky."""
    centres = landmark_rows - feature_means
    table = kernel._finite_table(centres, centres)
    check_mercer(kernel, table, penalty)
    largest = float(table.diagonal().max())
    refuse_zero_table(largest, kernel)
    tolerance = rank_tolerance(len(table), largest)
    factor, pivots, rank, info = lapack.dpstrf(table, tol=tolerance, lower=1, overwrite_a=1)
    if info < 0:  # an argument LAPACK rejected: a bug here, not bad input
        raise KreportError(f"LAPACK dpstrf rejected argument {-info}; please report this.")
    kept = pivots[:rank] - 1  # LAPACK numbers rows from 1
    return _CentreBasis(
        kernel=kernel,
        feature_means=feature_means,
        kept=kept,
        centres=np.ascontiguousarray(centres[kept]),
        factor=np.asfortranarray(np.tril(factor[:rank, :rank])),
    )


def _block_sums(basis: _CentreBasis, rows, target, target_mean, block_size):
    """(ΦᵀΦ, Φᵀ(y − ȳ)) over these rows, Φ = kernel(rows − means, centres) L⁻ᵀ.

    Only the upper triangle of ΦᵀΦ is filled (``dsyrk``); sums from several
    calls may be added before ``_solve_weights`` reads it.
    """
    rank = len(basis.kept)
    gram = np.zeros((rank, rank), order="F")
    moment = np.zeros(rank)
    for block in row_blocks(rows.shape[0], block_size):
        table = basis.kernel._finite_table(rows[block] - basis.feature_means, basis.centres)
        # table.T is Fortran-ordered (r × b): solved in place, it becomes Φᵀ of the block.
        features_t = dtrsm(1.0, basis.factor, table.T, side=0, lower=1, overwrite_b=1)
        dsyrk(1.0, features_t, beta=1.0, c=gram, trans=0, lower=0, overwrite_c=1)
        moment += features_t @ (target[block] - target_mean)
    return gram, moment


def _solve_weights(basis: _CentreBasis, gram, moment, penalty) -> np.ndarray:
    """β on the kept centres from the block sums: (ΦᵀΦ + λI) w = Φᵀy_c, β = L⁻ᵀ w."""
    system = np.triu(gram)
    system += np.triu(gram, 1).T
    system[np.diag_indices_from(system)] += penalty
    try:
        factor = cho_factor(system, lower=True, overwrite_a=True, check_finite=False)
    except LinAlgError:
        largest = float(np.diagonal(gram).max())
        raise InvalidParameterError(
            f"ΦᵀΦ + penalty·I is not positive definite in floating point: the penalty "
            f"{penalty:g} is below the rounding error of ΦᵀΦ, whose largest diagonal entry is "
            f"{largest:.6g}. Use a penalty above {rank_tolerance(len(gram), largest):.3g}."
        ) from None
    coordinates = cho_solve(factor, moment, check_finite=False)
    weights = solve_triangular(basis.factor, coordinates, trans="T", lower=True,
                               check_finite=False)
    if not np.isfinite(weights).all():
        raise KreportError(
            "the centre weights overflowed; the system is too ill-conditioned at this "
            "penalty. Raise the penalty or rescale the features."
        )
    return weights
