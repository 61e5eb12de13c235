"""What kreport's KernelRidge declares, and how it behaves at the edges.

Both sections of the page's closing part are probes run through the public API
while the page builds: nothing in the table is written down by hand, and a
change in the library's behaviour changes (or fails) the page.
"""

from __future__ import annotations

import tempfile
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
from kreport.pages._kernel_ridge_fits import dataset
from kreport.report import claim

PENALTY = 1.0


def refusal(action) -> KreportError | None:
    """Run ``action``; return the kreport error it raised, or None if it succeeded."""
    try:
        action()
    except KreportError as error:
        return error
    return None


def _refused(probe: str, action, expected: type) -> dict:
    """A behaviour-table row for a probe that must be refused with ``expected``."""
    error = refusal(action)
    claim(f"{probe}: refused with {expected.__name__}", isinstance(error, expected))
    return {"probe": probe, "outcome": f"refused: {type(error).__name__}", "message": str(error)}


def _named_throws() -> dict:
    """The throws as named columns: time and its square, so order can be shuffled."""
    times = dataset("throws").rows[:, 0]
    return {"time": times, "time_squared": times**2}


def declarations():
    """Point by point, what the implementation declares, read off the library."""
    people = dataset("three_people")
    model = KernelRidge(kernels.rbf(1.0), PENALTY).fit(people.rows, people.target)
    copy = model.dual_weights_
    copy[:] = 0.0
    rows_copy = model.training_rows_
    rows_copy[:] = 0.0
    claim("the solver is scipy's Cholesky factorisation", krr.cho_factor is linalg.cho_factor)
    claim("changing the exposed weights and rows does not change the model",
          np.any(model.dual_weights_ != 0) and np.any(model.training_rows_ != 0))
    claim("the fitted model keeps the feature means and the target mean",
          np.allclose(model.feature_means_, people.rows.mean(axis=0))
          and model.target_mean_ == people.target.mean())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.npz"
        model.save(path)
        with np.load(path, allow_pickle=False) as stored:
            saved_rows = np.array_equal(stored["training_rows"], people.rows)
            entries = sorted(stored.files)
    claim("the saved file holds the training rows", saved_rows)
    tiny = KernelRidge(kernels.linear(), 1e-300).penalty
    claim("any positive penalty is accepted, however small", tiny == 1e-300)
    return {"model": repr(model), "solver": f"scipy.linalg.{linalg.cho_factor.__name__}",
            "saved_entries": ", ".join(entries), "tiny_penalty": tiny}


def _constant_column() -> tuple[dict, dict]:
    crowd = dataset("crowd")
    constant = np.full((len(crowd.target), 1), 5.0)
    model = KernelRidge(kernels.rbf(1.0), PENALTY).fit(constant, crowd.target)
    answers = model.predict([[1.0], [5.0], [100.0]])
    claim("with a constant column the kernel model answers the target mean everywhere",
          np.max(np.abs(answers - crowd.target.mean())) < 1e-12)
    kernel_row = {"probe": "a constant column (kernel ridge)",
                  "outcome": "accepted: answers the target mean at every query", "message": ""}
    ridge_row = _refused("a constant column (the Ridge control)",
                         lambda: Ridge(PENALTY).fit(constant, crowd.target), InvalidInputError)
    return kernel_row, ridge_row


def _save_and_tamper() -> tuple[dict, dict]:
    throws = dataset("throws")
    model = KernelRidge(kernels.rbf(1.0), PENALTY).fit(throws.rows, throws.target)
    queries = np.linspace(0.0, 4.0, 41)[:, None]
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
    claim("the reloaded model answers bit for bit as the original", same)
    saved = {"probe": "saved and reloaded",
             "outcome": "accepted: identical answers, bit for bit", "message": ""}
    return saved, row


def behaviour():
    """Each row a probe through the public API, run as the page builds."""
    throws = dataset("throws")
    named = _named_throws()
    fitted = KernelRidge(kernels.linear(), PENALTY).fit(named, throws.target)
    reordered = {"time_squared": named["time_squared"], "time": named["time"]}
    same_order = np.array_equal(fitted.predict(reordered), fitted.predict(named))
    claim("a query with its columns reordered gets the same answers", same_order)
    with_nan = {"time": np.array([1.0, np.nan]), "time_squared": np.array([1.0, 4.0])}
    kernel_constant, ridge_constant = _constant_column()
    saved, tampered = _save_and_tamper()
    rows = [
        kernel_constant,
        ridge_constant,
        _refused("NaN in a query row", lambda: fitted.predict(with_nan), InvalidInputError),
        _refused("a query missing a named feature",
                 lambda: fitted.predict({"time": named["time"]}), FeatureMismatchError),
        _refused("a query with an extra named feature",
                 lambda: fitted.predict({**named, "wind": named["time"]}), FeatureMismatchError),
        {"probe": "a query with its named features reordered",
         "outcome": "accepted: matched by name, identical answers", "message": ""},
        _refused("one training row",
                 lambda: KernelRidge(kernels.linear(), PENALTY).fit([[2.0]], [12.0]),
                 InvalidInputError),
        _refused("a zero penalty", lambda: KernelRidge(kernels.linear(), 0.0),
                 InvalidParameterError),
        _refused("a negative penalty", lambda: KernelRidge(kernels.linear(), -1.0),
                 InvalidParameterError),
        _refused("a sigmoid table with a negative eigenvalue",
                 lambda: KernelRidge(kernels.sigmoid(1.0, -0.5), PENALTY)
                 .fit(throws.rows, throws.target), MercerConditionError),
        saved,
        tampered,
    ]
    return {"rows": rows, "named_columns": ", ".join(named), "penalty": PENALTY}
