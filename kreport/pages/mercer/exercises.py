"""Answers to the Mercer page's exercises, each worked by the route the exercise asks for
(one product of a table with a vector, the shift of one eigenvalue, a count against the
rounding floor) and checked against kreport's kernels and ``KernelRidge``."""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge, MercerConditionError, data, kernels
from kreport.pages._settings import RING_GAMMA
from kreport.report import bound, claim, exact

from .common import rounding_floor
from .settings import MILD_SIGMOID, NEGATIVE_POLYNOMIAL

#: The three people's table: the degree-two polynomial with a negative constant, gamma one.
DEGREE, COEF0 = NEGATIVE_POLYNOMIAL
GAMMA = 1.0
#: A penalty too small to cover the negative eigenvalue, and one that covers it.
REFUSED_PENALTY = 2.0
FITTED_PENALTY = 8.0
#: An eigenvalue counts as real when it is this many times the rounding floor or more.
CLEAR = 1000.0
#: The linear table's eigenvalues that should be zero are rounding below this power of ten.
REST_EXPONENT = -10

WHOLE = ("the three people's centred heights are whole numbers, so every entry of the "
         "squared table, of its product with them, and the linear table's one non-zero "
         "eigenvalue (the sum of their squares) is a small whole number")
WHOLE_WEIGHTS = "the three people's weights are whole numbers with a whole mean"


def _three_people():
    fixture = data.three_people()
    return np.array(fixture.rows), np.array(fixture.target)


def _negative_table() -> dict:
    """Exercise one: the table of the centred heights, and the vector of centred heights."""
    X, _ = _three_people()
    h = X[:, 0] - X[:, 0].mean()
    table = (GAMMA * np.outer(h, h) + COEF0) ** DEGREE
    product = table @ h
    eigenvalue = float(product @ h / (h @ h))
    claim("the table times the centred heights is a multiple of the centred heights",
          np.allclose(product, eigenvalue * h, rtol=0, atol=1e-12), id="eigenvector")
    linear = float(h @ h)
    claim("the eigenvalue is twice c₀ times the linear table's eigenvalue",
          abs(eigenvalue - 2 * COEF0 * linear) < 1e-12 * linear, id="twice")
    library = kernels.polynomial(int(DEGREE), gamma=GAMMA, coef0=COEF0)(X - X.mean(axis=0),
                                                                      X - X.mean(axis=0))
    claim("kreport's polynomial table is the table written out, and its smallest eigenvalue "
          "is the one found", np.array_equal(library, table)
          and abs(np.linalg.eigvalsh(library).min() - eigenvalue) < 1e-12, id="library")
    return {"centred_heights": exact(np.rint(h).astype(int).tolist(), WHOLE),
            "degree": int(DEGREE), "coef0": COEF0,
            "table": exact(np.rint(table).astype(int).tolist(), WHOLE),
            "product": exact(np.rint(product).astype(int).tolist(), WHOLE),
            "eigenvalue": eigenvalue, "linear_eigenvalue": exact(round(linear), WHOLE)}


def _penalised() -> dict:
    """Exercise two: kernel ridge with that table, at a penalty below and above its size."""
    X, y = _three_people()
    kernel = kernels.polynomial(int(DEGREE), gamma=GAMMA, coef0=COEF0)
    h = X[:, 0] - X[:, 0].mean()
    yc = y - y.mean()
    eigenvalue = float((GAMMA * np.outer(h, h) + COEF0) ** DEGREE @ h @ h / (h @ h))
    try:
        KernelRidge(kernel, REFUSED_PENALTY).fit(X, y)
        refused = False
    except MercerConditionError:
        refused = True
    claim("at the smaller penalty kernel ridge refuses the table", refused, id="refused")
    factor = FITTED_PENALTY / (eigenvalue + FITTED_PENALTY)
    claim("the centred weights lie along the centred heights",
          abs(abs(yc @ h) - np.linalg.norm(yc) * np.linalg.norm(h)) < 1e-12 * (yc @ yc),
          id="along")
    residuals = factor * yc
    r2 = 1.0 - factor**2
    model = KernelRidge(kernel, FITTED_PENALTY).fit(X, y)
    claim("kreport's training residuals are the factor times the centred weights, and its "
          "training R² is one minus the factor squared",
          np.allclose(y - model.predict(X), residuals, rtol=0, atol=1e-10)
          and abs(model.score(X, y) - r2) < 1e-12, id="r2")
    claim("the training R² is below zero", r2 < 0, id="below_zero")
    return {"refused_penalty": REFUSED_PENALTY, "refused_shifted": eigenvalue + REFUSED_PENALTY,
            "fitted_penalty": FITTED_PENALTY, "fitted_shifted": eigenvalue + FITTED_PENALTY,
            "centred_weights": exact(np.rint(yc).astype(int).tolist(), WHOLE_WEIGHTS),
            "factor": factor,
            "residuals": [float(residuals[0]), bound(residuals[1], -10), float(residuals[2])],
            "r2": r2}


def _ring_floor() -> dict:
    """Exercise three (code): three tables of the centred ring against the rounding floor."""
    rows = np.array(data.ring().rows)
    rows = rows - rows.mean(axis=0)
    n = len(rows)
    epsilon = float(np.finfo(float).eps)
    found = {}
    for name, kernel in (("linear", kernels.linear()), ("rbf", kernels.rbf(RING_GAMMA)),
                         ("sigmoid", kernels.sigmoid(*MILD_SIGMOID))):
        values = np.linalg.eigvalsh(kernel(rows, rows))
        floor = rounding_floor(values)
        found[name] = {"floor": floor, "smallest": float(values.min()),
                       "relative": float(values.min() / np.abs(values).max()),
                       "positive": int(np.sum(values > floor)),
                       "negative": int(np.sum(values < -floor)),
                       "nearest": float(np.sort(np.abs(values))[0]),
                       "rest": float(np.sort(np.abs(values))[-rows.shape[1] - 1])}
    p = rows.shape[1]
    linear, rbf, sigmoid = found["linear"], found["rbf"], found["sigmoid"]
    claim("the linear table has exactly {p} eigenvalues beyond the floor, all positive",
          linear["positive"] == p and linear["negative"] == 0, id="linear_rank", p=p)
    claim("the RBF table's smallest eigenvalue is positive and over {clear} times the floor",
          lambda clear: rbf["smallest"] > clear * rbf["floor"], id="rbf_real", clear=CLEAR)
    claim("every eigenvalue of the sigmoid table is over {clear} times the floor in size, and "
          "some are negative", lambda clear: sigmoid["nearest"] > clear * sigmoid["floor"]
          and sigmoid["negative"] > 0, id="sigmoid_real", clear=CLEAR)
    throws = np.array(data.throws().rows)
    throws = throws - throws.mean(axis=0)
    on_throws = np.linalg.eigvalsh(kernels.sigmoid(*MILD_SIGMOID)(throws, throws))
    throws_relative = float(on_throws.min() / np.abs(on_throws).max())
    claim("relative to its largest eigenvalue, the sigmoid's table is more negative on the ring "
          "than on the throws", sigmoid["relative"] < throws_relative, id="ring_worse")
    return {"ring_n": n, "rest_count": n - p, "throws_relative": throws_relative,
            "ring_gamma": RING_GAMMA, "sigmoid_gamma": MILD_SIGMOID[0],
            "sigmoid_coef0": MILD_SIGMOID[1], "epsilon": epsilon,
            "linear_floor": linear["floor"], "linear_rest": bound(linear["rest"], REST_EXPONENT),
            "rbf_floor": rbf["floor"], "rbf_smallest": rbf["smallest"],
            "rbf_positive": rbf["positive"], "sigmoid_positive": sigmoid["positive"],
            "sigmoid_negative": sigmoid["negative"], "sigmoid_relative": sigmoid["relative"],
            "sigmoid_floor": sigmoid["floor"]}


def exercises() -> dict:
    """Three exercises: a table with a negative eigenvalue (pencil), the penalty against it
    (pencil), the rounding floor on the ring (code)."""
    return {"gamma": GAMMA, **_negative_table(), **_penalised(), **_ring_floor()}
