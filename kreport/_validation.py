"""Conversion and checking of user input, done once at the public boundary.

Everything past these helpers may assume float64, two-dimensional, finite,
C-contiguous arrays, so the numerical code carries no defensive checks.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Mapping, Sequence
from typing import ClassVar

import numpy as np

from .errors import (
    FeatureMismatchError,
    InputTypeError,
    InvalidInputError,
    InvalidParameterError,
    NotFittedError,
)


def _is_dataframe(obj) -> bool:
    # pandas is optional: only look for it if the caller has already imported it.
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(obj, pandas.DataFrame)


def _numeric_array(values, what: str) -> np.ndarray:
    """Turn an array-like into a float64 array, refusing non-numeric content."""
    if isinstance(values, (str, bytes)) or values is None or isinstance(values, (set, frozenset)):
        raise InputTypeError(
            f"{what} must be numbers in a 2-D array, a list of rows or a mapping of "
            f"column name to values; got {type(values).__name__}."
        )
    try:
        raw = np.asarray(values)
    except (ValueError, TypeError) as exc:  # ragged nested lists end up here
        raise InvalidInputError(
            f"{what} could not be read as a rectangular table ({exc}); make every row "
            "the same length."
        ) from None
    kind = raw.dtype.kind
    if kind == "b":
        raise InputTypeError(
            f"{what} holds booleans; convert them to 0.0/1.0 floats explicitly if a "
            "numeric coding is what you mean."
        )
    if kind == "c":
        raise InputTypeError(f"{what} holds complex numbers; kreport works on real numbers only.")
    if kind not in "iuf":
        raise InputTypeError(
            f"{what} holds non-numeric values (dtype {raw.dtype}); pass numbers only, "
            "for example by converting text columns before fitting."
        )
    # Always a fresh copy: fitted state must not change if the caller later
    # edits the array they passed in.
    return np.array(raw, dtype=np.float64, order="C", copy=True)


def _check_finite(array: np.ndarray, what: str) -> None:
    if not np.isfinite(array).all():
        n_nan = int(np.isnan(array).sum())
        n_inf = int(np.isinf(array).sum())
        raise InvalidInputError(
            f"{what} contains {n_nan} NaN and {n_inf} infinite entries; remove or impute "
            "them before calling kreport."
        )


def _from_mapping(columns: Mapping, what: str) -> tuple[np.ndarray, list[str]]:
    names = list(columns.keys())
    for name in names:
        if not isinstance(name, str):
            raise InputTypeError(
                f"{what} column names must be strings; got {name!r} ({type(name).__name__})."
            )
    if not names:
        raise InvalidInputError(f"{what} has no columns; pass at least one named column.")
    arrays = []
    for name in names:
        column = _numeric_array(columns[name], f"{what} column {name!r}")
        if column.ndim != 1:
            raise InvalidInputError(
                f"{what} column {name!r} must be one-dimensional; got shape {column.shape}."
            )
        arrays.append(column)
    lengths = {len(column) for column in arrays}
    if len(lengths) != 1:
        detail = ", ".join(f"{n}={len(c)}" for n, c in zip(names, arrays, strict=True))
        raise InvalidInputError(f"{what} columns have different lengths ({detail}); align them.")
    return np.ascontiguousarray(np.column_stack(arrays)), names


def as_table(X, what: str = "X") -> tuple[np.ndarray, list[str] | None]:
    """Convert X to a finite float64 2-D array and its column names (or None).

    Accepts a 2-D array-like, a mapping of column name to 1-D values, or a
    pandas DataFrame. Refuses booleans, text, objects, NaN/inf, empty tables
    and anything that is not two-dimensional.
    """
    if _is_dataframe(X):
        names = list(X.columns)
        if not all(isinstance(name, str) for name in names):
            raise InputTypeError(f"{what} DataFrame column names must all be strings.")
        if len(set(names)) != len(names):
            raise InvalidInputError(f"{what} DataFrame has repeated column names; rename them.")
        table = _numeric_array(X.to_numpy(), what)
    elif isinstance(X, Mapping):
        table, names = _from_mapping(X, what)
    elif isinstance(X, (np.ndarray, Sequence)) or hasattr(X, "__array__"):
        table, names = _numeric_array(X, what), None
    else:
        raise InputTypeError(
            f"{what} must be a 2-D array, a list of rows, a mapping of column name to "
            f"values or a pandas DataFrame; got {type(X).__name__}."
        )
    if table.ndim != 2:
        hint = (
            " For one feature use X.reshape(-1, 1); for one row use X.reshape(1, -1)."
            if table.ndim == 1
            else ""
        )
        raise InvalidInputError(
            f"{what} must be two-dimensional (rows × features); got {table.ndim} "
            f"dimension(s) with shape {table.shape}.{hint}"
        )
    if table.shape[0] == 0 or table.shape[1] == 0:
        raise InvalidInputError(
            f"{what} is empty (shape {table.shape}); pass at least one row and one column."
        )
    _check_finite(table, what)
    return table, names


def as_fit_table(X, what: str = "X") -> tuple[np.ndarray, list[str] | None]:
    """Like :func:`as_table`, and also require at least two rows."""
    table, names = as_table(X, what)
    if table.shape[0] < 2:
        raise InvalidInputError(
            f"{what} has {table.shape[0]} row; fitting needs at least 2 rows, since "
            "centring a single row leaves nothing to measure."
        )
    return table, names


def match_query(X, feature_names: list[str] | None, n_features: int, what: str = "X"):
    """Convert a query table and line its columns up with the fitted ones.

    Named fits match by name (order free; missing or extra names refused).
    Unnamed fits match by position and need the same column count.
    """
    table, names = as_table(X, what)
    if feature_names is None:
        if names is not None:
            raise FeatureMismatchError(
                f"{what} has named columns but the model was fitted on an unnamed array; "
                f"pass a plain array with the {n_features} columns in the fitted order."
            )
        if table.shape[1] != n_features:
            raise InvalidInputError(
                f"{what} has {table.shape[1]} columns but the model was fitted on "
                f"{n_features}; pass the same columns in the same order."
            )
        return table
    if names is None:
        raise FeatureMismatchError(
            f"the model was fitted on named columns {feature_names}; pass {what} as a "
            "mapping or DataFrame with those names so they can be matched."
        )
    missing = [name for name in feature_names if name not in names]
    if missing:
        raise FeatureMismatchError(
            f"{what} lacks the fitted column(s) {missing}; add them (fitted columns: "
            f"{feature_names})."
        )
    extra = [name for name in names if name not in feature_names]
    if extra:
        raise FeatureMismatchError(
            f"{what} has column(s) {extra} that the model was not fitted on; drop them "
            "so that no column is silently ignored."
        )
    order = [names.index(name) for name in feature_names]
    return np.ascontiguousarray(table[:, order])


def as_target(y, n_rows: int, what: str = "y") -> np.ndarray:
    """Convert y to a finite float64 1-D array of length n_rows; (n, 1) is raveled."""
    target = _numeric_array(y, what)
    if target.ndim == 2 and target.shape[1] == 1:
        target = target.ravel()
    if target.ndim != 1:
        raise InvalidInputError(
            f"{what} must be one-dimensional (one value per row) or a single column; "
            f"got shape {target.shape}."
        )
    if len(target) != n_rows:
        raise InvalidInputError(
            f"{what} has {len(target)} values but X has {n_rows} rows; give one target per row."
        )
    _check_finite(target, what)
    return np.ascontiguousarray(target)


def check_positive_real(value, name: str, hint: str = "") -> float:
    """Return value as a float if it is a finite real number greater than zero."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(
            f"{name} must be a real number; got {value!r} ({type(value).__name__}).{hint}"
        )
    value = float(value)
    if not math.isfinite(value) or value <= 0.0:
        raise InvalidParameterError(
            f"{name} must be finite and greater than zero; got {value!r}.{hint}"
        )
    return value


def check_finite_real(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(
            f"{name} must be a real number; got {value!r} ({type(value).__name__})."
        )
    value = float(value)
    if not math.isfinite(value):
        raise InvalidParameterError(f"{name} must be finite; got {value!r}.")
    return value


def check_positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidParameterError(
            f"{name} must be a positive whole number such as 2; got {value!r} "
            f"({type(value).__name__})."
        )
    if value < 1:
        raise InvalidParameterError(f"{name} must be at least 1; got {value}.")
    return int(value)


def check_penalty(penalty) -> float:
    return check_positive_real(
        penalty,
        "penalty",
        " A zero penalty leaves K̃ a = y_c (the centred table and target) with no unique "
        "solution whenever the table is "
        "singular (one centred feature already gives rank 1), and a tiny positive one leaves "
        "the system nearly singular and the fit chasing noise. Choose the penalty by "
        "held-out error (kreport.leave_one_out or kreport.grid_search over powers of ten).",
    )


def _not_fitted(model) -> NotFittedError:
    call = "fit(X, y)" if hasattr(model, "penalty") else "fit(X)"
    return NotFittedError(f"this {type(model).__name__} is not fitted yet; call {call} first.")


def require_fitted(model, attribute: str) -> None:
    """Raise NotFittedError unless ``fit`` has set ``attribute`` on the model."""
    if attribute not in vars(model):
        raise _not_fitted(model)


class FittedAttributeGuard:
    """Mixin: reading a fitted attribute (name ending in ``_``) before ``fit``
    raises NotFittedError rather than a bare AttributeError. A class lists in
    ``_NOT_PROVIDED`` the attributes a reader might expect but that it never
    has, each with the reason, so asking for one says why instead of "not
    fitted"."""

    _NOT_PROVIDED: ClassVar[dict[str, str]] = {}

    def __getattr__(self, name: str):
        # Only reached when normal lookup fails.
        if name in self._NOT_PROVIDED:
            raise AttributeError(f"{type(self).__name__} has no {name}: {self._NOT_PROVIDED[name]}")
        if name.endswith("_") and not name.startswith("__"):
            raise _not_fitted(self)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
