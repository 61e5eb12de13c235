"""Nyström feature map: m landmark rows stand in for the n training rows."""

from __future__ import annotations

import numpy as np
from scipy.linalg import eigh

from .._validation import FittedAttributeGuard, as_table, match_query, require_fitted
from ..kernels import Kernel, check_kernel
from ._common import (
    DEFAULT_BLOCK_SIZE,
    check_block_size,
    check_component_count,
    check_landmark_rule,
    check_mercer,
    check_seed,
    draw_landmarks,
    rank_tolerance,
    refuse_zero_table,
    row_blocks,
)


class Nystroem(FittedAttributeGuard):
    """Nyström features Φ = kernel(X, landmarks) · K_mm^{-1/2}, with m landmark rows.

    Parameters
    ----------
    kernel : kreport.kernels.Kernel
        The kernel and its parameters, kept as given.
    n_components : int
        m, the number of landmarks and of output features; 1 ≤ m ≤ n (checked
        at fit, where n is known).
    landmarks : "uniform", default "uniform"
        How landmarks are chosen; the only rule is uniform without replacement.
    seed : int, default 0
        Seed of the draw, a whole number in [0, 2³² − 1].
    block_size : int, default 4096
        Rows per block in ``transform``; memory is O(block_size · m + m²).

    Attributes
    ----------
    landmarks_ : (m, p) a copy of the landmark rows, in the order drawn.
    landmark_indices_ : (m,) their row numbers in the fitted X.
    normalization_ : (m, m) symmetric K_mm^{-1/2} (pseudo-inverse square root
        when some eigenvalue counts as zero, see Semantics).
    eigenvalues_ : (m,) eigenvalues of K_mm = kernel(landmarks_, landmarks_), descending.
    rank_ : int, the number of eigenvalues above the zero threshold.
    feature_names_ : list of str or None; n_features_in_ : int.

    Semantics
    ---------
    * Landmarks. The rows ``numpy.random.RandomState(seed).permutation(n)[:m]``
      of X, in that order. This is exactly the call scikit-learn's ``Nystroem``
      makes (``check_random_state(seed).permutation(n)[:m]``), so for the same
      integer seed both pick the same rows in the same order and the features
      match column for column (tests/test_approx.py checks it). The legacy
      RandomState stream is frozen by NumPy's compatibility policy, so the
      choice does not move between NumPy versions either.
    * Normalisation. K_mm = V diag(s) Vᵀ by ``scipy.linalg.eigh``. An eigenvalue
      s ≤ m · ε · s_max (ε the float64 machine epsilon) counts as zero: its
      direction gets weight 0 instead of 1/√s, so ``normalization_`` =
      V diag(w) Vᵀ with w = 1/√s above the threshold and 0 below it, the
      pseudo-inverse square root. scikit-learn takes an SVD and lifts singular
      values below 1e-12 to 1e-12, which multiplies rounding noise by up to
      10⁶; when every eigenvalue is above both thresholds the two agree to
      rounding.
    * Features. transform(X) = kernel(X, landmarks_) @ normalization_, one
      block of rows at a time. Rows are used as given: there is no centring
      here (NystroemKernelRidge centres before its kernel). Φ Φᵀ is the
      Nyström approximation K_nm K_mm⁺ K_mn of the kernel table, exact on
      the landmark rows when no eigenvalue counts as zero.
    * A kernel that is not positive semidefinite (sigmoid, polynomial with
      coef0 < 0) is refused with MercerConditionError when K_mm has an
      eigenvalue below −m · ε · max|s|; for the others a negative eigenvalue
      is rounding and counts as zero.
    """

    def __init__(
        self,
        kernel: Kernel,
        n_components: int,
        landmarks: str = "uniform",
        seed: int = 0,
        block_size: int = DEFAULT_BLOCK_SIZE,
    ):
        self.kernel = check_kernel(kernel)
        self.n_components = check_component_count(n_components)
        self.landmarks = check_landmark_rule(landmarks)
        self.seed = check_seed(seed)
        self.block_size = check_block_size(block_size)

    def __repr__(self) -> str:
        return (
            f"Nystroem(kernel={self.kernel!r}, n_components={self.n_components!r}, "
            f"landmarks={self.landmarks!r}, seed={self.seed!r})"
        )

    def fit(self, X) -> Nystroem:
        rows, names = as_table(X)
        indices = draw_landmarks(rows.shape[0], self.n_components, self.seed)
        landmarks = rows[indices]
        table = self.kernel._finite_table(landmarks, landmarks)
        check_mercer(self.kernel, table)
        eigenvalues, normalization, rank = _inverse_square_root(table, self.kernel)
        self._landmarks = landmarks
        self.landmark_indices_ = indices
        self.normalization_ = normalization
        self.eigenvalues_ = eigenvalues
        self.rank_ = rank
        self.feature_names_ = names
        self.n_features_in_ = rows.shape[1]
        return self

    @property
    def landmarks_(self) -> np.ndarray:
        """Copy of the landmark rows (m × p), in the order drawn."""
        require_fitted(self, "_landmarks")
        return self._landmarks.copy()

    def transform(self, X) -> np.ndarray:
        """Φ = kernel(X, landmarks_) @ normalization_, (n, m), computed in row blocks."""
        require_fitted(self, "_landmarks")
        rows = match_query(X, self.feature_names_, self.n_features_in_)
        features = np.empty((rows.shape[0], self.n_components))
        for block in row_blocks(rows.shape[0], self.block_size):
            table = self.kernel._finite_table(rows[block], self._landmarks)
            np.matmul(table, self.normalization_, out=features[block])
        return features

    def fit_transform(self, X) -> np.ndarray:
        return self.fit(X).transform(X)


def _inverse_square_root(table: np.ndarray, kernel: Kernel):
    """(eigenvalues descending, symmetric pseudo-inverse square root, rank) of a table."""
    eigenvalues, vectors = eigh(table, check_finite=False)
    eigenvalues, vectors = eigenvalues[::-1], vectors[:, ::-1]
    largest = float(eigenvalues[0])
    refuse_zero_table(largest, kernel)
    kept = eigenvalues > rank_tolerance(len(table), largest)
    # V diag(s^(-1/2)) Vᵀ written as A Aᵀ with A = V diag(s^(-1/4)): exactly symmetric.
    half = vectors[:, kept] / np.sqrt(np.sqrt(eigenvalues[kept]))
    normalization = half @ half.T
    return eigenvalues, normalization, int(kept.sum())
