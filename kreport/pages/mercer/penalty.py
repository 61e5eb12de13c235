"""What a penalty does to a negative eigenvalue; kernel ridge refuses, kernel PCA clamps."""

from __future__ import annotations

import warnings
from itertools import pairwise

import numpy as np
from scipy.linalg import eigvalsh

from kreport import KernelPCA, KernelRidge, MercerConditionError, data, kernels
from kreport.measure import condition_number, r_squared
from kreport.pages._settings import PENALTY
from kreport.report import bound, claim, within

from .common import centred_rows, spectrum, table
from .settings import ABOVE_PENALTIES, MILD_SIGMOID, REFUSED_SIGMOID, ZERO_THRESHOLD


def _fit(kernel, penalty):
    """KernelRidge on the throws, with every warning it raises recorded."""
    throws = data.throws()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = KernelRidge(kernel, penalty).fit(throws.rows, throws.target)
    return model, caught


def penalty_shift():
    """Adding α to the diagonal moves every eigenvalue up by α; a small negative one is hidden."""
    mild = kernels.sigmoid(*MILD_SIGMOID)
    values = spectrum("throws", mild)
    penalised = table("throws", mild)
    penalised[np.diag_indices_from(penalised)] += PENALTY
    shifted = eigvalsh(penalised, check_finite=False)[::-1]
    moved = shifted - values - PENALTY
    model, caught = _fit(mild, PENALTY)
    throws = data.throws()
    smallest = float(values.min())
    claim("every eigenvalue of the penalised table is the table's own plus α, to within {limit}",
          lambda limit: np.all(np.abs(moved) < limit), id="shift", limit=1e-12)
    claim("the mild sigmoid table's smallest eigenvalue is negative but smaller in size than α, "
          "so the penalised table's smallest is positive",
          smallest < 0 < smallest + PENALTY, id="hidden")
    claim("kernel ridge fits the mild sigmoid at α without a warning", len(caught) == 0,
          id="silent")
    r2 = r_squared(throws.target, model.predict(throws.rows))
    claim("the mild sigmoid's training R² is below zero", r2 < 0, id="below_zero")
    # Why it shows here: the centred heights lie almost wholly along the one
    # direction whose eigenvalue is negative. Another target need not.
    vectors = np.linalg.eigh(table("throws", mild))[1]
    target = throws.target - throws.target.mean()
    negative_share = float((vectors[:, 0] @ target) ** 2 / (target @ target))
    claim("more than {share} of the centred heights' squared length lies along the eigenvector "
          "of the most negative eigenvalue", lambda share: negative_share > share,
          id="along_negative", share=0.9)
    # The largest eigenvalue's eigenvector is all but constant (the table is nearly
    # tanh(c₀) everywhere), and centring removes a constant target; the next one is the
    # first direction a centred target can lie along.
    constant_cosine = float(abs(vectors[:, -1].sum()) / np.sqrt(len(target)))
    claim("the eigenvector of the largest eigenvalue is all but constant: its cosine with the "
          "vector of ones is within {limit} of one", lambda limit: constant_cosine > 1 - limit,
          id="top_constant", limit=1e-3)
    other = throws.target.mean() + vectors[:, -2] * np.sqrt(target @ target)
    other_fit = KernelRidge(mild, PENALTY).fit(throws.rows, other)
    other_r2 = r_squared(other, other_fit.predict(throws.rows))
    claim("a target along the eigenvector of the second-largest eigenvalue is fitted with "
          "training R² above zero", other_r2 > 0, id="other_target")
    return {
        "gamma": MILD_SIGMOID[0],
        "coef0": MILD_SIGMOID[1],
        "kernel": repr(mild),
        "penalty": PENALTY,
        "smallest": within(smallest, 1e-5),
        "relative": within(smallest / float(np.abs(values).max()), 1e-5),
        "penalised_smallest": float(shifted.min()),
        "moved": bound(moved, -12),
        "warnings": len(caught),
        "r2": r2,
        "negative_share": negative_share,
        "second_eigenvalue": float(np.sort(values)[-2]),
        "other_r2": other_r2,
    }


def refusal():
    """Kernel ridge refuses a clearly negative table, with a message naming Mercer's condition."""
    sigmoid = kernels.sigmoid(*REFUSED_SIGMOID)
    values = spectrum("throws", sigmoid)
    smallest, largest = float(values.min()), float(values.max())
    try:
        _fit(sigmoid, PENALTY)
    except MercerConditionError as error:
        refused, message = True, str(error)
        carried = error.smallest_eigenvalue
    else:  # pragma: no cover - the claim below reports it
        refused, message, carried = False, "", 0.0
    throws = data.throws()
    above = []
    for penalty in ABOVE_PENALTIES:
        model, _ = _fit(sigmoid, penalty)
        above.append({"penalty": penalty,
                      "kappa": condition_number(values, penalty),
                      "r2": r_squared(throws.target, model.predict(throws.rows))})
    claim("kernel ridge refuses the sigmoid at α = {penalty}, whose table's smallest eigenvalue "
          "is below −α", lambda penalty: refused and smallest + penalty < 0, id="refused",
          penalty=PENALTY)
    claim("the error carries the table's smallest eigenvalue, to a relative {tolerance}",
          lambda tolerance: abs(carried - smallest) <= tolerance * abs(smallest), id="carried",
          tolerance=1e-9)
    claim("the condition number falls as the penalty rises above the negative eigenvalue's size",
          all(a["kappa"] > b["kappa"] for a, b in pairwise(above)), id="kappa_falls")
    claim("just above the negative eigenvalue's size the fit is worse than answering the mean "
          "(R² below {limit})", lambda limit: above[0]["r2"] < limit, id="worse_than_mean", limit=0)
    return {
        "kernel": repr(sigmoid),
        "gamma": REFUSED_SIGMOID[0],
        "coef0": REFUSED_SIGMOID[1],
        "penalty": PENALTY,
        "smallest": smallest,
        "largest": largest,
        "message": message,
        "error": "MercerConditionError",
        "above": above,
        "amplification": ABOVE_PENALTIES[0] / (smallest + ABOVE_PENALTIES[0]),
    }


def clamping():
    """Kernel PCA handed the same sigmoid table warns, clamps and carries on."""
    sigmoid = kernels.sigmoid(*REFUSED_SIGMOID)
    rows = centred_rows("throws")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = KernelPCA(sigmoid).fit(rows)
    with warnings.catch_warnings(record=True) as rbf_caught:
        warnings.simplefilter("always")
        KernelPCA(kernels.rbf(1.0)).fit(rows)
    clamped = fit.clamped_eigenvalues_
    n = len(rows)
    centring = np.eye(n) - np.full((n, n), 1.0 / n)
    centred = eigvalsh(centring @ table("throws", sigmoid) @ centring, check_finite=False)
    negative_mass = float(-centred[centred < 0].sum() / np.abs(centred).sum())
    kinds = sorted({type(w.message).__name__ for w in caught})
    claim("kernel PCA warns once, with a NotPositiveSemidefiniteWarning, and returns a fit",
          kinds == ["NotPositiveSemidefiniteWarning"] and len(caught) == 1, id="warns")
    claim("the RBF fit on the same rows raises no warning", len(rbf_caught) == 0, id="rbf_quiet")
    claim("the clamped eigenvalues are the negative eigenvalues of the centred table beyond "
          "−{limit} of its largest",
          lambda limit: len(clamped) == int(np.count_nonzero(centred < -limit * centred.max())),
          id="clamped_count", limit=ZERO_THRESHOLD)
    return {
        "warning": kinds[0] if kinds else "",
        "message": str(caught[0].message) if caught else "",
        "clamped": len(clamped),
        "most_negative": float(clamped.min()),
        "kept": int(fit.n_components_),
        "first_share": float(fit.shares_[0]),
        "negative_mass": negative_mass,
    }
