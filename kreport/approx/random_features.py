"""Random Fourier features for the RBF kernel (Rahimi and Recht's random kitchen sinks)."""

from __future__ import annotations

import numpy as np

from .._validation import FittedAttributeGuard, as_table, match_query, require_fitted
from ..errors import InvalidInputError, InvalidParameterError
from ..kernels import RBF, Kernel, check_kernel
from ._common import (
    DEFAULT_BLOCK_SIZE,
    check_block_size,
    check_component_count,
    check_seed,
    row_blocks,
)


class RandomFourierFeatures(FittedAttributeGuard):
    """Random Fourier features Φ = √(2/m) · cos(X W + b) approximating an RBF kernel.

    Parameters
    ----------
    kernel : kreport.kernels.RBF
        ``kernels.rbf(gamma)``; any other kernel is refused (see Semantics).
    n_components : int
        m, the number of random features, at least 1.
    seed : int, default 0
        Seed of the draw, a whole number in [0, 2³² − 1].
    block_size : int, default 4096
        Rows per block in ``transform``.

    Attributes
    ----------
    random_weights_ : (p, m) W, the random frequencies.
    random_offset_ : (m,) b, the random phases.
    feature_names_ : list of str or None; n_features_in_ : int.

    Semantics
    ---------
    * Draw. With ``state = numpy.random.RandomState(seed)``, in this order:
      ``random_weights_ = (2.0 * gamma) ** 0.5 * state.normal(size=(p, m))``,
      then ``random_offset_ = state.uniform(0, 2π, size=m)``. This is
      scikit-learn's ``RBFSampler.fit`` with ``random_state=seed``, statement
      for statement, so for the same seed the two draw identical W and b
      (tests/test_approx.py checks it). Only p is read from X at fit.
    * Features. transform(X) = √(2/m) · cos(X W + b), one block of rows at a
      time, no centring (the RBF kernel depends only on differences).
    * Why it works. For w ~ N(0, 2γ I) and b ~ U(0, 2π),
      E[2 cos(wᵀx + b) cos(wᵀz + b)] = exp(−γ‖x − z‖²) (Bochner's theorem), so
      each entry of Φ Φᵀ is an average of m independent bounded terms whose
      mean is the RBF kernel value: its error shrinks like 1/√m.
    * Only the RBF kernel: the construction needs a shift-invariant kernel
      whose spectral measure is known. Use Nystroem for the other kernels.
    """

    def __init__(
        self,
        kernel: Kernel,
        n_components: int,
        seed: int = 0,
        block_size: int = DEFAULT_BLOCK_SIZE,
    ):
        kernel = check_kernel(kernel)
        if not isinstance(kernel, RBF):
            raise InvalidParameterError(
                f"random Fourier features approximate the rbf kernel only; got {kernel!r}. "
                "Use kernels.rbf(gamma), or kreport.approx.Nystroem for any other kernel."
            )
        self.kernel = kernel
        self.n_components = check_component_count(n_components)
        self.seed = check_seed(seed)
        self.block_size = check_block_size(block_size)

    def __repr__(self) -> str:
        return (
            f"RandomFourierFeatures(kernel={self.kernel!r}, "
            f"n_components={self.n_components!r}, seed={self.seed!r})"
        )

    def fit(self, X) -> RandomFourierFeatures:
        rows, names = as_table(X)
        state = np.random.RandomState(self.seed)
        n_features = rows.shape[1]
        self.random_weights_ = (2.0 * self.kernel.gamma) ** 0.5 * state.normal(
            size=(n_features, self.n_components)
        )
        self.random_offset_ = state.uniform(0, 2 * np.pi, size=self.n_components)
        self.feature_names_ = names
        self.n_features_in_ = n_features
        return self

    def transform(self, X) -> np.ndarray:
        """√(2/m) · cos(X W + b), (n, m), computed in row blocks."""
        require_fitted(self, "random_weights_")
        rows = match_query(X, self.feature_names_, self.n_features_in_)
        features = np.empty((rows.shape[0], self.n_components))
        scale = (2.0 / self.n_components) ** 0.5
        for block in row_blocks(rows.shape[0], self.block_size):
            with np.errstate(over="ignore", invalid="ignore"):
                projection = np.matmul(rows[block], self.random_weights_, out=features[block])
                projection += self.random_offset_
                finite = np.isfinite(projection.sum())
            if not finite:
                raise InvalidInputError(
                    "X W overflowed float64 on these rows; rescale the features (or lower "
                    "gamma) so that the random projections stay finite."
                )
            np.cos(projection, out=projection)
            projection *= scale
        return features

    def fit_transform(self, X) -> np.ndarray:
        return self.fit(X).transform(X)
