"""Kernel ridge regression in the dual, one weight per training row."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import ClassVar

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve, eigvalsh

from . import kernels
from ._centring import centre_rows_and_target
from ._validation import (
    FittedAttributeGuard,
    as_fit_table,
    as_target,
    check_penalty,
    match_query,
    require_fitted,
)
from .errors import KreportError, MercerConditionError, ModelFileError
from .kernels import Kernel, check_kernel
from .measure import r_squared

FORMAT_TAG = "kreport.KernelRidge"
FORMAT_VERSION = 1
_ARRAY_KEYS = ("training_rows", "training_target", "dual_weights", "feature_means", "meta")


class KernelRidge(FittedAttributeGuard):
    """Kernel ridge regression solved row by row (an n × n system).

    Parameters
    ----------
    kernel : kreport.kernels.Kernel
        The kernel and its parameters, kept as given (``kernel`` attribute).
    penalty : float
        Finite and greater than zero, checked at construction. This is the
        smallest penalty accepted: any positive number, however small. Zero
        is refused because K̃ a = y_c (centred table and target) has no unique
        solution when K̃ is singular
        (one centred feature already gives a rank-1 table).

    Attributes
    ----------
    dual_weights_ : (n,) a copy of the dual weights, one per training row.
    training_rows_ : (n, p) a copy of the training rows as given (uncentred).
    feature_means_ : (p,) column means of the training rows.
    target_mean_ : float, mean of the training target.
    feature_names_ : list of str or None; n_features_in_ : int.

    Semantics
    ---------
    * Centring. Both the rows and the target are centred: X_c = X − feature_means_,
      y_c = y − target_mean_. The table is K = kernel(X_c, X_c). A query is
      centred by the training means before the kernel, and every prediction
      gets ȳ (the training target mean) back:
      predict(Xq) = kernel(Xq − feature_means_, X_c) @ dual_weights_ + target_mean_.
      There is no intercept; the target mean does its job. (The RBF kernel
      depends only on differences, so centring the rows changes nothing for
      it; for linear and polynomial kernels it does.)
    * Every diagonal entry of K receives the penalty; no row is exempt.
    * Solver. (K + penalty·I) a = y_c is factorised by Cholesky
      (``scipy.linalg.cho_factor``, lower). If factorisation meets a pivot ≤ 0,
      the fit is refused with MercerConditionError, which names
      Mercer's condition and carries the smallest eigenvalue of K.
    * Dual weights are not coefficients: there is one per training row, not
      per feature, and on the training rows they equal residual / penalty.
      They and the training rows are exposed as copies; changing the copies
      does not change the model.
    * Query features are matched by name when fitted on names (missing or
      extra names refused), by position and count when fitted on an array.
    * ``save`` writes data only (an .npz of arrays plus a JSON header, no
      pickled code); the training rows are part of the saved model.
      ``load`` checks the file and the reloaded model predicts bit for bit
      as the original.
    """

    _NOT_PROVIDED: ClassVar[dict[str, str]] = {
        "coef_": "a kernel model has one dual weight per training row, not a coefficient "
                 "per feature (see dual_weights_); use Ridge for per-feature coefficients",
        "intercept_": "rows and target are centred, and each prediction restores the "
                      "training target's mean (target_mean_), so there is no intercept",
    }

    def __init__(self, kernel: Kernel, penalty: float):
        self.kernel = check_kernel(kernel)
        self.penalty = check_penalty(penalty)

    def __repr__(self) -> str:
        return f"KernelRidge(kernel={self.kernel!r}, penalty={self.penalty!r})"

    # ------------------------------------------------------------------ fit
    def fit(self, X, y) -> KernelRidge:
        """Fit on the rows of X (2-D array, mapping of name → column, or DataFrame)
        and the target y. Sparse matrices are refused with InputTypeError (the
        n × n table is dense anyway; pass ``X.toarray()``)."""
        rows, names = as_fit_table(X)
        target = as_target(y, rows.shape[0])
        centred = centre_rows_and_target(rows, target)
        weights = self._solve(centred.rows, centred.target)
        self._set_state(rows, target, weights, centred.feature_means, centred.target_mean, names)
        return self

    def _factorise(self, centred_rows: np.ndarray):
        """Cholesky factor (``cho_factor``, lower) of kernel(X_c, X_c) + penalty·I,
        or MercerConditionError at the first non-positive pivot."""
        system = self.kernel._finite_table(centred_rows, centred_rows)
        system[np.diag_indices_from(system)] += self.penalty
        try:
            return cho_factor(system, lower=True, overwrite_a=True, check_finite=False)
        except LinAlgError:
            raise self._mercer_error(centred_rows) from None

    def _solve(self, centred_rows: np.ndarray, centred_target: np.ndarray) -> np.ndarray:
        factor = self._factorise(centred_rows)
        weights = cho_solve(factor, centred_target, check_finite=False)
        if not np.isfinite(weights).all():
            raise KreportError(
                "the dual weights overflowed; the system is too ill-conditioned at this "
                "penalty. Raise the penalty or rescale the features."
            )
        return weights

    def _mercer_error(self, centred_rows: np.ndarray) -> MercerConditionError:
        table = self.kernel._finite_table(centred_rows, centred_rows)
        smallest = float(eigvalsh(table, subset_by_index=[0, 0], check_finite=False)[0])
        if self.kernel.positive_semidefinite:
            # Mercer holds exactly; a negative value here is rounding in a
            # (nearly) singular table that the penalty was too small to cover.
            diagnosis = (
                f"{self.kernel!r} satisfies Mercer's condition, so this negative value is "
                "rounding in a (nearly) singular table, not a property of the kernel. A penalty "
                "on the scale of that rounding would leave the system nearly singular and the "
                "fit chasing noise even where it factorises: choose the penalty by held-out "
                "error (kreport.leave_one_out or kreport.grid_search over powers of ten), "
                "not as the smallest value that goes through."
            )
        else:
            diagnosis = (
                f"{self.kernel!r} breaks Mercer's condition on these rows (a kernel table "
                "must have no negative eigenvalue). Use a kernel that satisfies it (linear, "
                "polynomial with coef0 ≥ 0, rbf). A penalty above "
                f"{abs(smallest):.6g} lets the factorisation finish but does not repair the "
                "kernel: just above that value K̃ + penalty·I is nearly singular (its condition "
                "number grows without limit as the penalty comes down to it), and a penalty "
                "far above it flattens the fit towards the mean. If you keep this kernel, "
                "choose the penalty by held-out error (kreport.grid_search)."
            )
        return MercerConditionError(
            f"Cholesky factorisation of K̃ + penalty·I met a non-positive pivot: the kernel "
            f"table of the centred rows, K̃, has smallest eigenvalue {smallest:.6g}, so with "
            f"penalty {self.penalty:g} "
            f"the system is not positive definite. {diagnosis}",
            smallest_eigenvalue=smallest,
            penalty=self.penalty,
        )

    def _set_state(self, rows, target, weights, feature_means, target_mean, names):
        self._training_rows = rows
        self._training_target = target
        self._centred_rows = rows - feature_means
        self._dual_weights = weights
        self.feature_means_ = feature_means
        self.target_mean_ = target_mean
        self.feature_names_ = names
        self.n_features_in_ = rows.shape[1]

    @property
    def dual_weights_(self) -> np.ndarray:
        """Copy of the dual weights (one per training row; not coefficients)."""
        return self._dual_weights.copy()

    @property
    def training_rows_(self) -> np.ndarray:
        """Copy of the training rows as given (before centring)."""
        return self._training_rows.copy()

    # -------------------------------------------------------------- predict
    def predict(self, X) -> np.ndarray:
        """kernel(Xq − feature_means_, X_c) @ dual_weights_ + target_mean_."""
        require_fitted(self, "_dual_weights")
        rows = match_query(X, self.feature_names_, self.n_features_in_)
        table = self.kernel._finite_table(rows - self.feature_means_, self._centred_rows)
        return table @ self._dual_weights + self.target_mean_

    def score(self, X, y) -> float:
        """R² = 1 − SS_res/SS_tot (``kreport.measure.r_squared``); a constant y is
        refused (SS_tot = 0)."""
        predicted = self.predict(X)
        return r_squared(as_target(y, len(predicted)), predicted)

    # ------------------------------------------------------------ save/load
    def save(self, path) -> None:
        """Write the fitted model as data: an .npz of arrays and a JSON header.

        The file is written to ``path`` exactly (no suffix is appended).
        """
        require_fitted(self, "_dual_weights")
        meta = {
            "format": FORMAT_TAG,
            "version": FORMAT_VERSION,
            "kernel": self.kernel.params,
            "penalty": self.penalty,
            "target_mean": self.target_mean_,
            "feature_names": self.feature_names_,
        }
        with open(path, "wb") as handle:
            np.savez(
                handle,
                training_rows=self._training_rows,
                training_target=self._training_target,
                dual_weights=self._dual_weights,
                feature_means=self.feature_means_,
                meta=np.array(json.dumps(meta)),
            )

    @classmethod
    def load(cls, path) -> KernelRidge:
        """Read a file written by ``save``; anything else raises ModelFileError."""
        arrays, meta = _read_model_file(path)
        try:
            model = cls(kernels.from_params(meta.get("kernel")), meta.get("penalty"))
        except KreportError as exc:
            raise ModelFileError(
                f"{path}: the stored kernel or penalty is invalid ({exc})."
            ) from None
        rows = arrays["training_rows"]
        target = arrays["training_target"]
        weights = arrays["dual_weights"]
        feature_means = arrays["feature_means"]
        names = _check_names(meta.get("feature_names"), rows.shape[1], path)
        target_mean = meta.get("target_mean")
        if isinstance(target_mean, bool) or not isinstance(target_mean, (int, float)):
            raise ModelFileError(f"{path}: target_mean is missing or not a number.")
        model._set_state(rows, target, weights, feature_means, float(target_mean), names)
        model._check_consistency(path)
        return model

    def _check_consistency(self, path) -> None:
        """Refuse a file whose numbers do not belong to one fitted model."""
        rows, target = self._training_rows, self._training_target
        if not np.allclose(rows.mean(axis=0), self.feature_means_, rtol=1e-12, atol=0.0):
            raise ModelFileError(f"{path}: feature means do not match the stored training rows.")
        if not np.isclose(target.mean(), self.target_mean_, rtol=1e-12, atol=1e-300):
            raise ModelFileError(f"{path}: target mean does not match the stored target.")
        system = self.kernel._finite_table(self._centred_rows, self._centred_rows)
        system[np.diag_indices_from(system)] += self.penalty
        residual = system @ self._dual_weights - (target - self.target_mean_)
        scale = np.abs(system).max() * np.abs(self._dual_weights).sum() + np.abs(target).max()
        if np.abs(residual).max() > 1e-9 * scale:
            raise ModelFileError(
                f"{path}: the dual weights do not solve (K̃ + penalty·I) a = y − ȳ, K̃ the "
                "kernel table of the stored rows centred, for the stored rows, target and "
                "kernel; the file was altered. Refit and save again."
            )


def _read_model_file(path):
    """Open ``path`` as a kreport model .npz and return (arrays, meta) or raise."""
    if not Path(path).is_file():
        raise ModelFileError(f"{path}: no such file; pass the path written by KernelRidge.save.")
    try:
        archive = np.load(path, allow_pickle=False)
        if not isinstance(archive, np.lib.npyio.NpzFile):
            raise ValueError("a bare .npy array, not an .npz archive")
        with archive:
            if sorted(archive.files) != sorted(_ARRAY_KEYS):
                raise ValueError(f"entries {sorted(archive.files)}, expected {sorted(_ARRAY_KEYS)}")
            arrays = {key: archive[key] for key in _ARRAY_KEYS}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ModelFileError(
            f"{path}: not a kreport KernelRidge file ({exc}); pass a file written by "
            "KernelRidge.save."
        ) from None
    meta_array = arrays.pop("meta")
    try:
        meta = json.loads(str(meta_array[()])) if meta_array.dtype.kind == "U" else None
    except (json.JSONDecodeError, IndexError, ValueError):
        meta = None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT_TAG:
        raise ModelFileError(f"{path}: missing or wrong format tag; expected {FORMAT_TAG!r}.")
    if meta.get("version") != FORMAT_VERSION:
        raise ModelFileError(
            f"{path}: format version {meta.get('version')!r} is not supported; this kreport "
            f"reads version {FORMAT_VERSION}. Refit and save with this version."
        )
    _check_shapes(arrays, path)
    return arrays, meta


def _check_shapes(arrays, path) -> None:
    for key, array in arrays.items():
        if array.dtype != np.float64:
            raise ModelFileError(f"{path}: {key} has dtype {array.dtype}, expected float64.")
        if not np.isfinite(array).all():
            raise ModelFileError(f"{path}: {key} contains NaN or infinite values.")
    rows = arrays["training_rows"]
    if rows.ndim != 2 or rows.shape[0] < 2 or rows.shape[1] < 1:
        raise ModelFileError(f"{path}: training_rows has shape {rows.shape}, expected (n ≥ 2, p).")
    n, p = rows.shape
    expected = {"training_target": (n,), "dual_weights": (n,), "feature_means": (p,)}
    for key, shape in expected.items():
        if arrays[key].shape != shape:
            raise ModelFileError(
                f"{path}: {key} has shape {arrays[key].shape}, expected {shape} for "
                f"{n} training rows of {p} features."
            )


def _check_names(names, n_features, path):
    if names is None:
        return None
    if (
        not isinstance(names, list)
        or len(names) != n_features
        or not all(isinstance(name, str) for name in names)
        or len(set(names)) != len(names)
    ):
        raise ModelFileError(
            f"{path}: feature_names must be {n_features} distinct strings or null."
        )
    return names
