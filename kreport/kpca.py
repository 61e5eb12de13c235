"""Kernel principal component analysis by the centred kernel table."""

from __future__ import annotations

import warnings

import numpy as np
from scipy.linalg import eigh
from scipy.sparse.linalg import ArpackNoConvergence, eigsh

from ._centring import centre_query_table, centre_training_table
from ._signs import SIGN_CONVENTION, SIGN_TIE_TOLERANCE, orientation_signs
from ._validation import (
    FittedAttributeGuard,
    as_fit_table,
    check_positive_int,
    match_query,
    require_fitted,
)
from .errors import (
    InvalidInputError,
    NoInverseTransformError,
    NotPositiveSemidefiniteWarning,
)
from .kernels import Kernel, check_kernel

# Re-exported: the sign rule and the table centring live in kreport/_signs.py and
# kreport/_centring.py, and are importable from here as before.
__all__ = [
    "SIGN_CONVENTION",
    "SIGN_TIE_TOLERANCE",
    "ZERO_THRESHOLD_RULE",
    "KernelPCA",
    "centre_query_table",
    "centre_training_table",
    "orientation_signs",
]

ZERO_THRESHOLD_RULE = (
    "An eigenvalue λ of the centred table with |λ| ≤ 1e-10 × λ_max (λ_max the "
    "largest eigenvalue, the most positive one, not the largest in size) counts as "
    "zero: it is the zero that centring (or the rank of the data) produced. Such a "
    "direction is never kept and its eigenvalue is never divided by."
)


class KernelPCA(FittedAttributeGuard):
    """Kernel PCA: principal directions of the kernel's feature space, found
    from the centred n × n kernel table of the training rows.

    Parameters
    ----------
    kernel : kreport.kernels.Kernel
        The kernel and its parameters, kept as given (``kernel`` attribute).
    n_components : int or None, default None
        Number of directions to keep, a positive int at most n − 1. ``None``
        keeps every direction whose eigenvalue is non-zero (see Semantics).

    Attributes
    ----------
    eigenvalues_ : (l,) raw eigenvalues of the centred table, descending.
    variances_ : (l,) ``eigenvalues_ / (n − 1)``.
    total_variance_ : float, summed over all directions before truncation, / (n − 1).
    shares_ : (l,) ``variances_ / total_variance_``.
    coefficients_ : (n, l) eigenvectors divided by √(raw eigenvalue).
    scores_ : (n, l) ``centred_table_ @ coefficients_``.
    kept_share_ : (n,) per training row, kept squared coordinates over K_c[i, i].
    clamped_eigenvalues_ : (m,) negative eigenvalues set to zero (empty when none).
    n_components_ : int, number of directions kept.
    training_rows_, training_table_, centred_table_ : fitted state (copies).
    table_column_means_, table_grand_mean_ : training averages of the raw table.
    feature_names_ : list of str or None; n_features_in_ : int.

    Semantics
    ---------
    * Centring. The training table K = kernel(X, X) is centred as
      K_c = K − 1ₙK − K1ₙ + 1ₙK1ₙ, computed from the column means of K (equal
      to its row means, K being symmetric) and their grand mean.
      A query row k (kernel values against the training rows) is centred as
      k − mean(k) − (training column means) + (training grand mean).
    * Ceiling. Centring removes one direction, so at most n − 1 are kept;
      asking for more is refused at fit time.
    * Zero threshold. An eigenvalue λ with |λ| ≤ ZERO_THRESHOLD · λ_max
      (ZERO_THRESHOLD = 1e-10, λ_max the most positive eigenvalue) is a zero made by
      centring or by rank. Such directions are never kept and never divided by.
      ``None`` keeps exactly the non-zero ones; asking for more than exist is
      refused with the count that exists. A table with no non-zero eigenvalue
      at all (every row the same to the kernel, e.g. identical rows) is refused
      with InvalidInputError rather than fitted with no directions.
    * Negative eigenvalues (a table that breaks Mercer's condition, e.g. the
      sigmoid kernel) are clamped to zero, not refused. Those below
      −ZERO_THRESHOLD · λ_max are listed in ``clamped_eigenvalues_`` and a
      NotPositiveSemidefiniteWarning names the most negative; shares ignore them.
    * Variances and coefficients. Eigenvalues are reported over n − 1 as
      variances; coefficients are eigenvectors scaled by 1/√(raw eigenvalue), so
      coefficientsᵀ K_c coefficients = I.
    * Total variance is the sum of all clamped eigenvalues over n − 1, taken
      before truncation. When only the top directions are computed (see
      Solver), it is trace(K_c)/(n − 1), equal for Mercer kernels up to rounding;
      on that path only Mercer kernels are used, so nothing is clamped and
      ``clamped_eigenvalues_`` is empty.
    * Order and sign. Directions are in descending eigenvalue order; the sign
      of each follows ``kreport.kpca.SIGN_CONVENTION`` (largest-magnitude entry
      of the eigenvector positive, first such entry on ties within 1e-9).
    * Solver. ``scipy.linalg.eigh`` on the full table, except when the kernel
      is positive semidefinite, n ≥ ITERATIVE_MIN_ROWS and n_components ≤
      ITERATIVE_MAX_COMPONENTS: then the top directions alone are found by
      ARPACK (``scipy.sparse.linalg.eigsh``, tolerance 0, fixed start vector,
      Krylov subspace of max(2l + 1, 25) vectors),
      falling back to ``eigh(subset_by_index=...)`` if it does not converge.
    * Kept share of row i = Σⱼ scores_[i, j]² / K_c[i, i]. A row with
      K_c[i, i] ≤ ZERO_THRESHOLD · λ_max sits at the lifted mean and has
      nothing to lose: its kept share is defined as 1.0 (never NaN).
    * No inverse transform: ``inverse_transform`` raises
      NoInverseTransformError (points of the feature space generally have no
      pre-image among input rows). Approximate pre-images are a separate,
      explicit API with its own stated semantics: ``kreport.preimage``.
    * The training rows, the raw table and the centred table are fitted state.
    """

    ZERO_THRESHOLD = 1e-10
    ITERATIVE_MIN_ROWS = 200
    ITERATIVE_MAX_COMPONENTS = 10

    def __init__(self, kernel: Kernel, n_components: int | None = None):
        self.kernel = check_kernel(kernel)
        self.n_components = (
            None if n_components is None else check_positive_int(n_components, "n_components")
        )

    def __repr__(self) -> str:
        return f"KernelPCA(kernel={self.kernel!r}, n_components={self.n_components!r})"

    def fit(self, X) -> KernelPCA:
        """Fit on the rows of X (2-D array, mapping of name → column, or DataFrame).

        Sparse matrices are refused with InputTypeError (the n × n table is dense
        anyway; pass ``X.toarray()``). Rows that all look the same to the kernel
        are refused with InvalidInputError (see the zero threshold above)."""
        rows, names = as_fit_table(X)
        n = rows.shape[0]
        if self.n_components is not None and self.n_components > n - 1:
            raise InvalidInputError(
                f"n_components={self.n_components} is above the ceiling of n − 1 = {n - 1} "
                f"directions for {n} rows (centring removes one); ask for at most {n - 1}."
            )
        table = self.kernel._finite_table(rows, rows)
        centred, column_means, grand_mean = centre_training_table(table)
        eigenvalues, vectors, total = self._decompose(centred)

        signs = orientation_signs(vectors)
        vectors *= signs
        coefficients = vectors / np.sqrt(eigenvalues)
        scores = centred @ coefficients
        scores += 0.0  # turns any −0.0 into 0.0 so printed tables never show "−0"

        self.training_rows_ = rows
        self.training_table_ = table
        self.centred_table_ = centred
        self.table_column_means_ = column_means
        self.table_grand_mean_ = grand_mean
        self.feature_names_ = names
        self.n_features_in_ = rows.shape[1]
        self.n_components_ = len(eigenvalues)
        self.eigenvalues_ = eigenvalues
        self.variances_ = eigenvalues / (n - 1)
        self.total_variance_ = total / (n - 1)
        self.shares_ = self.variances_ / self.total_variance_
        self.coefficients_ = coefficients
        self.scores_ = scores
        self.kept_share_ = self._kept_share(centred, scores, eigenvalues[0])
        return self

    def _decompose(self, centred: np.ndarray):
        """Eigenvalues (descending, kept only), their eigenvectors, and the total."""
        n = centred.shape[0]
        wanted = self.n_components
        partial = (
            wanted is not None
            and self.kernel.positive_semidefinite
            and n >= self.ITERATIVE_MIN_ROWS
            and wanted <= self.ITERATIVE_MAX_COMPONENTS
        )
        if partial:
            values, vectors = _top_eigenpairs(centred, wanted)
            total = float(np.trace(centred))
        else:
            values, vectors = eigh(centred, check_finite=False)
            values, vectors = values[::-1], vectors[:, ::-1]
        largest = float(values[0])
        if not largest > 0.0:
            raise InvalidInputError(
                "the centred kernel table has no positive eigenvalue: every row looks the "
                "same to this kernel; use rows that differ, or a kernel that tells them apart."
            )
        zero_level = self.ZERO_THRESHOLD * largest
        if not partial:
            self._report_negative(values[values < -zero_level])
            total = float(np.clip(values, 0.0, None).sum())
        else:
            self.clamped_eigenvalues_ = np.empty(0)
        n_nonzero = min(int(np.count_nonzero(values > zero_level)), n - 1)
        if wanted is None:
            wanted = n_nonzero
        elif wanted > n_nonzero:
            raise InvalidInputError(
                f"n_components={wanted} asks for more directions than the data have: only "
                f"{n_nonzero} eigenvalue(s) of the centred table exceed {self.ZERO_THRESHOLD:g} "
                f"× the largest; ask for at most {n_nonzero}."
            )
        return values[:wanted].copy(), np.ascontiguousarray(vectors[:, :wanted]), total

    def _report_negative(self, negatives: np.ndarray) -> None:
        self.clamped_eigenvalues_ = np.sort(negatives)
        if negatives.size:
            warnings.warn(
                f"the centred kernel table is not positive semidefinite: {negatives.size} "
                f"negative eigenvalue(s), the most negative {negatives.min():.6g}, were clamped "
                f"to zero and the shares ignore them; {self.kernel!r} breaks Mercer's "
                "condition on these rows (see clamped_eigenvalues_).",
                NotPositiveSemidefiniteWarning,
                stacklevel=4,
            )

    def _kept_share(self, centred, scores, largest) -> np.ndarray:
        deviation = np.diag(centred).copy()
        kept = np.einsum("ij,ij->i", scores, scores)
        at_mean = deviation <= self.ZERO_THRESHOLD * largest
        safe = np.where(at_mean, 1.0, deviation)
        return np.where(at_mean, 1.0, kept / safe)

    def _centre_query_rows(self, query_table: np.ndarray) -> np.ndarray:
        """Centre kernel rows of queries against the training rows (section-10 identity)."""
        return centre_query_table(query_table, self.table_column_means_, self.table_grand_mean_)

    def transform(self, X) -> np.ndarray:
        """Coordinates of query rows on the kept directions, shape (m, l)."""
        require_fitted(self, "coefficients_")
        rows = match_query(X, self.feature_names_, self.n_features_in_)
        query_table = self.kernel._finite_table(rows, self.training_rows_)
        return self._centre_query_rows(query_table) @ self.coefficients_

    def fit_transform(self, X) -> np.ndarray:
        return self.fit(X).scores_.copy()

    def inverse_transform(self, Z=None):
        """Always refused: see NoInverseTransformError's message."""
        raise NoInverseTransformError(
            "KernelPCA has no inverse transform: its coordinates are positions in the "
            "kernel's feature space, and a point rebuilt there generally is not the image "
            "of any input row, so there is nothing exact to return. For the linear kernel "
            "use kreport.PCA, whose inverse_transform is exact."
        )


def _top_eigenpairs(centred: np.ndarray, count: int):
    """Top ``count`` eigenpairs of a symmetric positive semidefinite table, descending."""
    n = centred.shape[0]
    # A fixed start vector makes the iteration reproducible; the all-ones
    # vector would not do, since centring puts it in the null space.
    start = np.random.default_rng(0).uniform(-1.0, 1.0, n)
    # Each Lanczos step costs one n × n product, while keeping a wider Krylov
    # subspace costs only O(n) per vector; 25 vectors usually avoid a restart
    # on the clustered top spectra of RBF tables (measured on the bench data:
    # 26 products instead of 38 with SciPy's default of 2·count + 1 → 20).
    subspace = min(n - 1, max(2 * count + 1, 25))
    try:
        values, vectors = eigsh(centred, k=count, which="LA", tol=0.0, v0=start, ncv=subspace)
    except ArpackNoConvergence:
        values, vectors = eigh(centred, subset_by_index=[n - count, n - 1], check_finite=False)
    order = np.argsort(values)[::-1]
    return values[order], vectors[:, order]
