"""Model selection for KernelRidge: leave-one-out, k-fold cross-validation, a grid.

Every held-out number here is defined by refitting :class:`kreport.KernelRidge`
(with its semantics: rows and target centred by the means of the rows it is
fitted on, the target mean added back) on the rows that are not held out, and
predicting the held-out rows. Shortcuts are used only where they give that
number exactly (up to rounding), and the result says which route was taken.

* :func:`leave_one_out` -- the n leave-one-out residuals, their mean square and
  the leave-one-out R²; a closed form for kernels that depend only on
  differences (``kernel.translation_invariant``), n refits otherwise.
* :func:`hat_matrix_residuals` -- the textbook shortcut (y − ŷ)/(1 − H_ii),
  for teaching: it is NOT the leave-one-out residual of KernelRidge.
* :func:`kfold_indices` -- contiguous folds, as scikit-learn's
  ``KFold(n_splits=k, shuffle=False)``.
* :func:`cross_validate` -- one score per fold and their mean.
* :func:`grid_search` -- a kernel × penalty table of held-out scores beside the
  training R², and the setting each one picks.

Inputs are checked at this boundary as everywhere in kreport: X as for
``KernelRidge.fit`` (array, mapping of name → column, DataFrame; names are not
needed here and are not kept), y one number per row, a kreport kernel, a
positive penalty. Bad input raises a kreport error that says what to do.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy.linalg import cho_solve, solve_triangular

from ._centring import centre_rows_and_target
from ._validation import as_fit_table, as_target, check_penalty
from .errors import InvalidInputError, InvalidParameterError, KreportError
from .kernels import Kernel, check_kernel, rbf
from .krr import KernelRidge
from .measure import r_squared, r_squared_from_residuals

__all__ = [
    "CrossValidation",
    "Fold",
    "GridPoint",
    "GridSearch",
    "LeaveOneOut",
    "cross_validate",
    "grid_search",
    "hat_matrix_residuals",
    "kfold_indices",
    "leave_one_out",
]

CLOSED_FORM = "closed form"
REFIT = "refit"
SCORINGS = ("mse", "r2")
HELD_OUT_ROUTES = ("loo", "kfold")


# --------------------------------------------------------------- leave-one-out
class LeaveOneOut(NamedTuple):
    """Leave-one-out result.

    residuals : (n,) y_i minus the prediction at row i of the KernelRidge
        fitted on the other n − 1 rows.
    mse : float, mean of the squared residuals.
    r2 : float, 1 − Σ residuals² / Σ (y − ȳ)² (ȳ the mean of all n targets).
    method : "closed form" or "refit", the route that computed the residuals.
    """

    residuals: np.ndarray
    mse: float
    r2: float
    method: str


def leave_one_out(kernel: Kernel, penalty: float, X, y) -> LeaveOneOut:
    """Leave-one-out residuals of ``KernelRidge(kernel, penalty)`` on (X, y).

    Semantics
    ---------
    * The residual of row i is y_i − f₋ᵢ(x_i), f₋ᵢ the KernelRidge fitted on
      the other n − 1 rows: its target mean is ȳ₋ᵢ = (nȳ − y_i)/(n − 1), and
      for kernels that are not translation invariant its rows are centred by
      the means of those n − 1 rows.
    * Closed form (``method == "closed form"``), used when
      ``kernel.translation_invariant`` (rbf): centring the rows changes no
      kernel value, so every refit uses the same table K. With
      A = (K + penalty·I)⁻¹ and y_c = y − ȳ, the block-inverse identity
      k_{i,−i}(K₋ᵢ + penalty·I)⁻¹ = −A_{i,−i}/A_ii gives exactly
      e_i = [(A y)_i − ȳ₋ᵢ (A 1)_i] / A_ii
          = [(A y_c)_i + y_c,i (A 1)_i / (n − 1)] / A_ii,
      the second form (used) free of cancellation against a large target mean.
      One Cholesky factorisation of K + penalty·I (as KernelRidge's, refused
      with MercerConditionError at a non-positive pivot), two solves, and the
      diagonal of A from the triangular inverse of the factor: O(n³) once,
      no n × n inverse of K + penalty·I formed.
    * Refit (``method == "refit"``) for every other kernel: the row means
      depend on the held-out row, so the table changes with i; KernelRidge is
      fitted n times on n − 1 rows. O(n⁴).
    * The closed form equals refitting up to rounding amplified by the
      condition number of K + penalty·I (tests: within 1e-9 of the largest
      residual on the fixtures at penalties ≥ 1e-3; measured ≤ 7e-13).
    * The textbook shortcut (y_i − ŷ_i)/(1 − H_ii) is not this quantity; see
      :func:`hat_matrix_residuals`.

    Refused: fewer than 3 rows (each refit needs 2), a constant y (the R² is
    undefined), and every input KernelRidge refuses (InvalidInputError,
    InputTypeError, InvalidParameterError, MercerConditionError).
    """
    model, rows, target = _checked_problem(kernel, penalty, X, y, min_rows=3)
    _require_varying(target, "leave_one_out reports the leave-one-out R², which")
    if model.kernel.translation_invariant:
        residuals, method = _closed_form_residuals(model, rows, target), CLOSED_FORM
    else:
        residuals, method = _refit_residuals(model, rows, target), REFIT
    mse = float(residuals @ residuals) / len(residuals)
    return LeaveOneOut(residuals, mse, r_squared_from_residuals(target, residuals), method)


def hat_matrix_residuals(kernel: Kernel, penalty: float, X, y) -> np.ndarray:
    """The textbook shortcut (y_i − ŷ_i) / (1 − H_ii), for teaching only.

    ŷ are the fitted values of ``KernelRidge(kernel, penalty)`` on all n rows
    and H its whole hat matrix (ŷ = H y), mean part included: with K̃ the
    kernel table of the rows centred by the means of all n rows,
    A = (K̃ + penalty·I)⁻¹ and J the n × n matrix of 1/n, the fitted values are
    ȳ + K̃ A y_c, so H = J + K̃ A (I − J) and I − H = penalty · A (I − J).
    The shortcut is therefore (A y_c)_i / (A_ii − (A 1)_i / n).

    For the linear kernel it equals the leave-one-out residual: centring the
    rows and the target is ridge regression with an unpenalised intercept, a
    penalised least-squares fit for which the identity is exact. For a kernel
    that depends only on differences of rows (rbf) centring the rows leaves the
    table as it is, the offset ȳ is the target mean rather than a fitted
    intercept, and the shortcut is close to :func:`leave_one_out` but not equal
    to it. Use :func:`leave_one_out` for the residuals of KernelRidge.

    Same checks and refusals as :func:`leave_one_out`, except that a constant
    y is accepted (every value is then 0).
    """
    model, rows, target = _checked_problem(kernel, penalty, X, y, min_rows=3)
    n = len(target)
    centred = centre_rows_and_target(rows, target)
    factor = model._factorise(centred.rows)
    weights = cho_solve(factor, centred.target, check_finite=False)  # A y_c
    ones = cho_solve(factor, np.ones(n), check_finite=False)  # A 1
    return _finite(weights / (_inverse_diagonal(factor) - ones / n))


def _closed_form_residuals(model: KernelRidge, rows: np.ndarray, target: np.ndarray):
    n = len(target)
    centred = centre_rows_and_target(rows, target)
    factor = model._factorise(centred.rows)
    weights = cho_solve(factor, centred.target, check_finite=False)  # A y_c
    ones = cho_solve(factor, np.ones(n), check_finite=False)  # A 1
    return _finite((weights + centred.target * ones / (n - 1)) / _inverse_diagonal(factor))


def _finite(residuals: np.ndarray) -> np.ndarray:
    if not np.isfinite(residuals).all():
        raise KreportError(
            "the leave-one-out residuals overflowed; K + penalty·I is too ill-conditioned at "
            "this penalty. Raise the penalty or rescale the features."
        )
    return residuals


def _inverse_diagonal(factor) -> np.ndarray:
    """diag(A) for A = (L Lᵀ)⁻¹: column sums of squares of L⁻¹ (A_ii = ‖L⁻¹ e_i‖²)."""
    lower, _ = factor  # cho_factor(..., lower=True): L is the lower triangle
    inverse = solve_triangular(lower, np.eye(len(lower)), lower=True, check_finite=False)
    return np.einsum("ij,ij->j", inverse, inverse)


def _refit_residuals(model: KernelRidge, rows: np.ndarray, target: np.ndarray):
    n = len(target)
    residuals = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        fitted = KernelRidge(model.kernel, model.penalty).fit(rows[keep], target[keep])
        residuals[i] = target[i] - fitted.predict(rows[i : i + 1])[0]
    return residuals


# ---------------------------------------------------------------------- k-fold
class Fold(NamedTuple):
    """Row indices of one fold: ``train`` (fitted on) and ``test`` (held out)."""

    train: np.ndarray
    test: np.ndarray


def kfold_indices(n: int, k: int) -> tuple[Fold, ...]:
    """k contiguous folds of rows 0..n−1, as ``sklearn.model_selection.KFold(k)``
    without shuffling: fold j holds the next n // k rows in order, the first
    n % k folds one row more. Each fold's ``train`` is every other row, in order.

    Refused (InvalidParameterError): n or k not a whole number, n < 2, k < 2
    (one fold holds nothing out), k > n (a fold would be empty).
    """
    n = _whole(n, "n")
    k = _whole(k, "k")
    if n < 2:
        raise InvalidParameterError(f"n={n}: folds need at least 2 rows.")
    _check_fold_count(k, n)
    sizes = np.full(k, n // k, dtype=np.intp)
    sizes[: n % k] += 1
    stops = np.cumsum(sizes)
    everything = np.arange(n)
    return tuple(
        Fold(np.r_[everything[: stop - size], everything[stop:]], everything[stop - size : stop])
        for size, stop in zip(sizes, stops, strict=True)
    )


class CrossValidation(NamedTuple):
    """k-fold result: ``scores`` (k,) one per fold in fold order, ``mean`` their
    plain mean, ``scoring`` "mse" or "r2", ``k`` the number of folds."""

    scores: np.ndarray
    mean: float
    scoring: str
    k: int


def cross_validate(
    kernel: Kernel, penalty: float, X, y, k: int, scoring: str = "mse"
) -> CrossValidation:
    """Score ``KernelRidge(kernel, penalty)`` on k contiguous folds.

    For each fold of :func:`kfold_indices` (n, k), KernelRidge is fitted on the
    other folds' rows (centred by their own means) and predicts the fold.
    ``scoring="mse"``: the fold's mean squared error (lower is better; the
    negative of scikit-learn's "neg_mean_squared_error"). ``scoring="r2"``:
    the fold's R², 1 − Σ e² / Σ (y − ȳ_fold)², ȳ_fold the held-out rows' mean
    (scikit-learn's "r2"). Returns a :class:`CrossValidation`; ``mean`` is the
    unweighted mean over folds, as scikit-learn's ``cross_val_score(...).mean()``.

    Refused: k < 2, k > n, a fold split that leaves fewer than 2 rows to fit
    on, an unknown scoring, and for "r2" a held-out fold whose targets are all
    equal (R² undefined; the message names the fold: use fewer folds or
    "mse"); plus everything KernelRidge refuses.
    """
    scoring = _choice(scoring, SCORINGS, "scoring")
    model, rows, target = _checked_problem(kernel, penalty, X, y, min_rows=2)
    k = _whole(k, "k")
    folds = _folds_for(len(target), k)
    scores = np.empty(k)
    for j, fold in enumerate(folds):
        fitted = KernelRidge(model.kernel, model.penalty).fit(rows[fold.train], target[fold.train])
        predicted = fitted.predict(rows[fold.test])
        held_out = target[fold.test]
        if scoring == "mse":
            residual = held_out - predicted
            scores[j] = float(residual @ residual) / len(residual)
        else:
            where = f"rows {fold.test[0]}–{fold.test[-1]}"
            _require_varying(held_out, f"the R² of held-out fold {j} ({where}), which")
            scores[j] = r_squared(held_out, predicted)
    return CrossValidation(scores, float(np.mean(scores)), scoring, k)


# ------------------------------------------------------------------ the grid
class GridPoint(NamedTuple):
    """One cell of a grid search: the setting and its two scores."""

    kernel: Kernel
    penalty: float
    held_out: float
    training_r2: float

    @property
    def gamma(self) -> float | None:
        """The kernel's gamma (None for the linear kernel)."""
        return self.kernel.params.get("gamma")


@dataclass(frozen=True, eq=False)
class GridSearch:
    """Held-out scores and training R² over kernels (rows) × penalties (columns).

    Attributes
    ----------
    kernels : tuple of Kernel, the rows of the tables, in the order given.
    penalties : tuple of float, the columns, in the order given.
    score : "loo" or "kfold", how ``held_out`` was computed; k : int or None.
    scoring : "mse" (lower is better) or "r2" (higher is better).
    held_out : (len(kernels), len(penalties)) array. "loo": leave_one_out's
        ``mse`` or ``r2``; "kfold": cross_validate's ``mean`` with that scoring.
    training_r2 : same shape, R² of the fit on all rows scored on those rows.
    best_held_out : GridPoint with the best held-out score.
    best_training : GridPoint with the highest training R².

    Ties go to the first cell in row order (kernels outer, penalties inner).
    """

    kernels: tuple[Kernel, ...]
    penalties: tuple[float, ...]
    score: str
    k: int | None
    scoring: str
    held_out: np.ndarray
    training_r2: np.ndarray
    best_held_out: GridPoint
    best_training: GridPoint

    def cell(self, row: int, column: int) -> GridPoint:
        """The setting and scores of one cell."""
        return GridPoint(
            self.kernels[row],
            self.penalties[column],
            float(self.held_out[row, column]),
            float(self.training_r2[row, column]),
        )

    def cells(self) -> list[GridPoint]:
        """Every cell, kernels outer and penalties inner."""
        return [
            self.cell(i, j) for i in range(len(self.kernels)) for j in range(len(self.penalties))
        ]


def grid_search(
    kernels: Sequence,
    penalties: Sequence,
    X,
    y,
    *,
    score: str = "loo",
    k: int | None = None,
    scoring: str = "mse",
) -> GridSearch:
    """Held-out score and training R² for every kernel × penalty, and the pick of each.

    Parameters
    ----------
    kernels : sequence of kreport kernels or of positive numbers; a number g
        stands for ``kernels.rbf(g)``, so ``grid_search([0.1, 1, 10], ...)``
        searches the radial kernel's gamma.
    penalties : sequence of positive numbers.
    X, y : the data, as for ``KernelRidge.fit``.
    score : "loo" (:func:`leave_one_out`) or "kfold" (:func:`cross_validate`
        with ``k`` folds; ``k`` is then required and otherwise refused).
    scoring : "mse" or "r2" (for "loo", the leave-one-out R²; for "kfold",
        the mean of the folds' R²).

    Returns a :class:`GridSearch`. A page can say "held-out picks gamma
    ``result.best_held_out.gamma``, penalty ``result.best_held_out.penalty``;
    the training score picks ``result.best_training.gamma``, ...". Each cell
    equals calling leave_one_out / cross_validate and KernelRidge directly.

    Refused: empty or non-sequence ``kernels`` / ``penalties``, an entry that
    is neither a kreport kernel nor a positive number, a penalty ≤ 0, an
    unknown ``score`` or ``scoring``, ``k`` missing for "kfold" or given for
    "loo", a constant y (the training R² is undefined), and whatever
    leave_one_out or cross_validate refuse.
    """
    score = _choice(score, HELD_OUT_ROUTES, "score")
    scoring = _choice(scoring, SCORINGS, "scoring")
    settings = tuple(_as_kernel(entry) for entry in _non_empty(kernels, "kernels"))
    lambdas = tuple(check_penalty(p) for p in _non_empty(penalties, "penalties"))
    if score == "kfold" and k is None:
        raise InvalidParameterError("score='kfold' needs the number of folds, e.g. k=5.")
    if score == "loo" and k is not None:
        raise InvalidParameterError(
            f"k={k!r} was given with score='loo', which has no folds; drop k or use score='kfold'."
        )
    rows, _ = as_fit_table(X)
    target = as_target(y, rows.shape[0])
    _require_varying(target, "grid_search reports the training R², which")

    held_out = np.empty((len(settings), len(lambdas)))
    training = np.empty_like(held_out)
    for i, kernel in enumerate(settings):
        for j, penalty in enumerate(lambdas):
            if score == "loo":
                result = leave_one_out(kernel, penalty, rows, target)
                held_out[i, j] = result.mse if scoring == "mse" else result.r2
            else:
                held_out[i, j] = cross_validate(kernel, penalty, rows, target, k, scoring).mean
            training[i, j] = KernelRidge(kernel, penalty).fit(rows, target).score(rows, target)

    pick = np.argmin if scoring == "mse" else np.argmax
    best = np.unravel_index(int(pick(held_out)), held_out.shape)
    best_fit = np.unravel_index(int(np.argmax(training)), training.shape)

    def point(i, j) -> GridPoint:
        return GridPoint(settings[i], lambdas[j], float(held_out[i, j]), float(training[i, j]))

    return GridSearch(
        kernels=settings,
        penalties=lambdas,
        score=score,
        k=k if score == "kfold" else None,
        scoring=scoring,
        held_out=held_out,
        training_r2=training,
        best_held_out=point(*best),
        best_training=point(*best_fit),
    )


# ------------------------------------------------------------------ checking
def _checked_problem(kernel, penalty, X, y, *, min_rows: int):
    """(KernelRidge carrying the checked kernel and penalty, rows, target)."""
    model = KernelRidge(kernel, penalty)
    rows, _ = as_fit_table(X)
    target = as_target(y, rows.shape[0])
    if rows.shape[0] < min_rows:
        raise InvalidInputError(
            f"X has {rows.shape[0]} rows; this needs at least {min_rows}, so that every "
            "fit on the rows not held out has 2 rows to centre. Pass more rows."
        )
    return model, rows, target


def _require_varying(target: np.ndarray, what: str) -> None:
    if target.max() == target.min():
        raise InvalidInputError(
            f"{what} is undefined here because y is constant (its total sum of squares "
            "is 0); use targets that vary (for k-fold R², fewer folds or scoring='mse')."
        )


def _whole(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidParameterError(
            f"{name} must be a whole number such as 5; got {value!r} ({type(value).__name__})."
        )
    return int(value)


def _check_fold_count(k: int, n: int) -> None:
    if k < 2:
        raise InvalidParameterError(
            f"k={k}: cross-validation needs at least 2 folds (one fold holds nothing out)."
        )
    if k > n:
        raise InvalidParameterError(
            f"k={k} folds for {n} rows would leave a fold empty; use at most k={n} "
            "(k = n is leave-one-out)."
        )


def _folds_for(n: int, k: int) -> tuple[Fold, ...]:
    _check_fold_count(k, n)
    largest = -(-n // k)
    if n - largest < 2:
        raise InvalidInputError(
            f"with {n} rows and k={k}, a fold holds out {largest} rows and leaves "
            f"{n - largest} to fit on; KernelRidge needs 2. Use more rows or more folds."
        )
    return kfold_indices(n, k)


def _choice(value, allowed: tuple[str, ...], name: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidParameterError(f"{name} must be one of {allowed}; got {value!r}.")
    return value


def _non_empty(values, name: str) -> list:
    if isinstance(values, (str, bytes, Kernel)) or not isinstance(values, (Sequence, np.ndarray)):
        raise InvalidParameterError(
            f"{name} must be a list of values, e.g. [0.1, 1.0, 10.0]; got {values!r}."
        )
    values = list(np.ravel(values)) if isinstance(values, np.ndarray) else list(values)
    if not values:
        raise InvalidParameterError(f"{name} is empty; give at least one value.")
    return values


def _as_kernel(entry) -> Kernel:
    if isinstance(entry, Kernel):
        return entry
    if isinstance(entry, numbers.Real) and not isinstance(entry, bool):
        return rbf(entry)
    return check_kernel(entry)  # raises, naming what a kernel should be
