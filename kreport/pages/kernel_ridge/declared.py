"""What ridge reports that the dual cannot, Mercer's condition, what kreport's
KernelRidge declares, and how it behaves at the edges.

The declaration and behaviour sections are probes run through the public API
while the page builds: nothing in their tables is written down by hand, and a
change in the library's behaviour changes (or fails) the page.
"""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

import numpy as np
from scipy import linalg

from kreport import (
    FeatureMismatchError,
    InvalidInputError,
    InvalidParameterError,
    KernelRidge,
    KreportError,
    MercerConditionError,
    ModelFileError,
    Ridge,
    kernels,
    krr,
)
from kreport.report import bound, claim

from .fits import (
    LINEAR,
    RBF_WORKED,
    condition_number,
    dataset,
    kernel_fit,
    r_squared,
    ridge_fit,
    slope_from_dual,
    spectrum,
)
from .settings import (
    PENALTY,
    SIGMOID_COEF0,
    SIGMOID_GAMMA,
    SIGMOID_PLAIN_COEF0,
    TINY_PENALTY,
)

#: A value typed in code for the constant-column probe (any value would do).
CONSTANT = 5.0


def refusal(action) -> KreportError | None:
    """Run ``action``; return the kreport error it raised, or None if it succeeded."""
    try:
        action()
    except KreportError as error:
        return error
    return None


def _quietly(action) -> tuple[object, list]:
    """Run ``action``, returning its result and every warning it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = action()
    return result, list(caught)


def what_ridge_reports():
    """Coefficients and an intercept from ridge; a target mean from the dual."""
    ridge, dual = ridge_fit("crowd", PENALTY), kernel_fit("crowd", LINEAR, PENALTY)
    slope = slope_from_dual(dual)
    rebuilt_intercept = dual.target_mean_ - dual.feature_means_ @ slope
    claim("an intercept rebuilt from the dual's means and weights is ridge's intercept "
          "(to {tol} relative)", lambda tol: abs(rebuilt_intercept / ridge.intercept_ - 1) < tol,
          id="rebuilt", tol=1e-9)
    claim("the kernel model reports neither coefficients nor an intercept",
          not hasattr(dual, "coef_") and not hasattr(dual, "intercept_"), id="neither")
    return {"slope": ridge.coef_[0], "intercept": ridge.intercept_, "mean": dual.target_mean_}


def mercer():
    """The sigmoid kernel on the throws: refused below its negative eigenvalue's size,
    badly conditioned just above it; a milder one passes without a warning."""
    sigmoid = kernels.sigmoid(SIGMOID_GAMMA, SIGMOID_COEF0)
    values = spectrum("throws", sigmoid)
    smallest = float(values[-1])
    size = abs(smallest)
    below = [0.5, 1.0, 2.0, np.floor(size * 10) / 10]
    above = [np.ceil(size * 100) / 100, np.ceil(size * 10) / 10, 5.0, 10.0, 100.0]
    refusals = [refusal(lambda p=p: kernel_fit("throws", sigmoid, p)) for p in below]
    claim("every penalty below the negative eigenvalue's size is refused",
          all(isinstance(error, MercerConditionError) for error in refusals), id="refused")
    claim("the refusal carries the table's smallest eigenvalue (to {tol})",
          lambda tol: all(abs(error.smallest_eigenvalue - smallest) < tol for error in refusals),
          id="carries", tol=1e-9)
    accepted = [{"penalty": p, "r2": r_squared("throws", kernel_fit("throws", sigmoid, p)),
                 "condition": condition_number("throws", sigmoid, p)} for p in above]
    claim("every fit just above the threshold does far worse than answering the mean",
          accepted[0]["r2"] < -1 and accepted[1]["r2"] < -1, id="far_worse")
    claim("the training R² climbs with every larger penalty tried",
          np.all(np.diff([row["r2"] for row in accepted]) > 0), id="climbs")
    claim("the condition number falls with every larger penalty tried",
          np.all(np.diff([row["condition"] for row in accepted]) < 0), id="kappa_falls")
    claim("just above the threshold the condition number is above {limit}",
          lambda limit: accepted[0]["condition"] > limit, id="nearly_singular", limit=1000)
    claim("only at the largest penalty tried does the training R² reach zero or above",
          accepted[-1]["r2"] >= 0 and all(row["r2"] < 0 for row in accepted[:-1]),
          id="only_largest")
    plain = kernels.sigmoid(SIGMOID_GAMMA, SIGMOID_PLAIN_COEF0)
    plain_smallest = float(spectrum("throws", plain)[-1])
    plain_fit, caught = _quietly(lambda: KernelRidge(plain, PENALTY).fit(
        dataset("throws").rows, dataset("throws").target))
    claim("the sigmoid with the plain constant also has a negative eigenvalue",
          plain_smallest < 0, id="plain_negative")
    claim("the worked penalty is larger than its size", abs(plain_smallest) < PENALTY,
          id="hidden")
    claim("kreport fits it without a warning", not caught, id="no_warning")
    return {"gamma": sigmoid.gamma, "coef0": sigmoid.coef0, "smallest": smallest,
            "largest": float(values[0]),
            "below": below, "above": accepted, "message": str(refusals[1]),
            "message_penalty": below[1], "plain_coef0": plain.coef0,
            "plain_smallest": plain_smallest, "penalty": PENALTY,
            "plain_r2": r_squared("throws", plain_fit)}


def declarations():
    """Point by point, what the implementation declares, read off the library."""
    people = dataset("three_people")
    model = KernelRidge(RBF_WORKED, PENALTY).fit(people.rows, people.target)
    copy = model.dual_weights_
    copy[:] = 0.0
    rows_copy = model.training_rows_
    rows_copy[:] = 0.0
    claim("the solver is scipy's Cholesky factorisation", krr.cho_factor is linalg.cho_factor,
          id="solver")
    claim("changing the exposed weights and rows does not change the model",
          np.any(model.dual_weights_ != 0) and np.any(model.training_rows_ != 0), id="copies")
    claim("the fitted model keeps the feature means and the target mean",
          np.allclose(model.feature_means_, people.rows.mean(axis=0))
          and model.target_mean_ == people.target.mean(), id="means")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.npz"
        model.save(path)
        with np.load(path, allow_pickle=False) as stored:
            saved_rows = np.array_equal(stored["training_rows"], people.rows)
            entries = sorted(stored.files)
    claim("the saved file holds the training rows", saved_rows, id="saved")
    tiny = KernelRidge(LINEAR, TINY_PENALTY).penalty
    claim("any positive penalty is accepted at construction, however small",
          tiny == TINY_PENALTY, id="tiny")
    return {"model": repr(model), "solver": f"scipy.linalg.{linalg.cho_factor.__name__}",
            "saved_entries": ", ".join(entries), "tiny_penalty": tiny}


def _refused(probe: str, action, expected: type) -> dict:
    """A behaviour-table row for a probe that must be refused with ``expected``."""
    error = refusal(action)
    claim(f"{probe}: refused with {expected.__name__}", isinstance(error, expected))
    return {"probe": probe, "outcome": f"refused: {type(error).__name__}", "message": str(error)}


def _named_throws() -> dict:
    """The throws as named columns: time and its square, so order can be shuffled."""
    times = dataset("throws").rows[:, 0]
    return {"time": times, "time_squared": times**2}


def constant_column() -> dict:
    """A column with no spread under the RBF: every row looks the same."""
    crowd = dataset("crowd")
    constant = np.full((len(crowd.target), 1), CONSTANT)
    model, caught = _quietly(lambda: KernelRidge(RBF_WORKED, PENALTY).fit(constant,
                                                                           crowd.target))
    table = RBF_WORKED(constant - constant.mean(), constant - constant.mean())
    answers = model.predict([[1.0], [CONSTANT], [100.0]])
    weights = model.dual_weights_
    centred = crowd.target - crowd.target.mean()
    claim("with a constant column every entry of the RBF table is one", np.all(table == 1.0),
          id="ones")
    claim("the fitted weights are the centred weights over the penalty (to {tol} kg)",
          lambda tol: np.max(np.abs(weights - centred / PENALTY)) < tol, id="weights", tol=1e-9)
    claim("the weights cancel in every prediction: the model answers the target mean at "
          "every query (to {tol} kg)",
          lambda tol: np.max(np.abs(answers - crowd.target.mean())) < tol,
          id="mean", tol=1e-12)
    claim("kreport accepts the constant column without a warning", not caught, id="silent")
    return {"largest_weight": float(np.max(np.abs(weights))),
            "weights_sum": bound(weights.sum(), -11)}


def _save_and_tamper() -> tuple[dict, dict]:
    throws = dataset("throws")
    model = KernelRidge(RBF_WORKED, PENALTY).fit(throws.rows, throws.target)
    queries = np.linspace(throws.rows.min(), throws.rows.max(), 41)[:, None]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.npz"
        model.save(path)
        reloaded = KernelRidge.load(path)
        same = np.array_equal(reloaded.predict(queries), model.predict(queries))
        with np.load(path, allow_pickle=False) as stored:
            arrays = {key: stored[key] for key in stored.files}
        arrays["dual_weights"] = arrays["dual_weights"].copy()
        arrays["dual_weights"][0] += 1.0
        tampered = Path(folder) / "tampered.npz"
        with open(tampered, "wb") as handle:
            np.savez(handle, **arrays)
        row = _refused("a tampered model file (one dual weight changed)",
                       lambda: KernelRidge.load(tampered), ModelFileError)
        # The temporary folder differs on every run; the page shows the file's name only.
        row["message"] = row["message"].replace(f"{folder}/", "")
    # Reloading copies the same float64 arrays and runs the same arithmetic.
    claim("the reloaded model answers exactly as the original, to the last bit", same)
    saved = {"probe": "saved and reloaded",
             "outcome": "accepted: identical answers, to the last bit", "message": ""}
    return saved, row


def behaviour():
    """Each row a probe through the public API, run as the page builds."""
    throws = dataset("throws")
    named = _named_throws()
    fitted = KernelRidge(LINEAR, PENALTY).fit(named, throws.target)
    reordered = {"time_squared": named["time_squared"], "time": named["time"]}
    same_order = np.array_equal(fitted.predict(reordered), fitted.predict(named))
    claim("a query with its columns reordered gets the same answers", same_order)
    with_nan = {"time": np.array([1.0, np.nan]), "time_squared": np.array([1.0, 4.0])}
    constant = constant_column()
    crowd = dataset("crowd")
    saved, tampered = _save_and_tamper()
    rows = [
        {"probe": "a constant column (kernel ridge)",
         "outcome": "accepted without a warning: answers the target mean at every query",
         "message": ""},
        _refused("a constant column (the Ridge control)",
                 lambda: Ridge(PENALTY).fit(np.full((len(crowd.target), 1), CONSTANT),
                                            crowd.target), InvalidInputError),
        _refused("NaN in a query row", lambda: fitted.predict(with_nan), InvalidInputError),
        _refused("a query missing a named feature",
                 lambda: fitted.predict({"time": named["time"]}), FeatureMismatchError),
        _refused("a query with an extra named feature",
                 lambda: fitted.predict({**named, "wind": named["time"]}), FeatureMismatchError),
        {"probe": "a query with its named features reordered",
         "outcome": "accepted: matched by name, identical answers", "message": ""},
        _refused("one training row",
                 lambda: KernelRidge(LINEAR, PENALTY).fit([[2.0]], [12.0]),
                 InvalidInputError),
        _refused("a zero penalty", lambda: KernelRidge(LINEAR, 0.0), InvalidParameterError),
        _refused("a negative penalty", lambda: KernelRidge(LINEAR, -1.0),
                 InvalidParameterError),
        _refused("a sigmoid table with a negative eigenvalue",
                 lambda: KernelRidge(kernels.sigmoid(SIGMOID_GAMMA, SIGMOID_COEF0), PENALTY)
                 .fit(throws.rows, throws.target), MercerConditionError),
        saved,
        tampered,
    ]
    return {"rows": rows, "named_columns": ", ".join(named), "penalty": PENALTY,
            "constant_largest_weight": constant["largest_weight"],
            "constant_weights_sum": constant["weights_sum"],
            "constant_gamma": RBF_WORKED.gamma, "constant_penalty": PENALTY}
