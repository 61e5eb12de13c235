"""Shared work for the Kernel PCA page: the data, the cached fits, the gamma
sweep and the behaviour-table probes.

Kept apart from ``kernel_pca.py`` so that the page module reads as one section
per function. Nothing here formats text: probes return numbers, booleans and
the library's own messages.
"""

from __future__ import annotations

import warnings
from functools import cache

import numpy as np

from kreport import (
    PCA,
    SIGN_CONVENTION,
    FeatureMismatchError,
    InvalidInputError,
    KernelPCA,
    KernelRidge,
    MercerConditionError,
    NoInverseTransformError,
    NotPositiveSemidefiniteWarning,
    kernels,
    measure,
)
from kreport import data as fixtures
from kreport.report import bound, claim

# ----------------------------------------------------------------- page-wide parameters

RING_GAMMA = 0.005  # the ring's worked reach throughout the page
ARC_GAMMA = 0.002  # the arc's worked reach
KEPT = 2  # directions kept when asking what each person keeps

# ----------------------------------------------------------------- the data


@cache
def four() -> np.ndarray:
    """The measured four as measured (height cm, weight kg)."""
    return np.asarray(fixtures.measured_four().rows, dtype=float)


@cache
def arc_by_height() -> np.ndarray:
    """The arc of twelve, read by height (shortest first), as every arc table is."""
    rows = np.asarray(fixtures.arc().rows, dtype=float)
    return rows[np.argsort(rows[:, 0], kind="stable")]


@cache
def ring_set(name: str = "ring") -> tuple[np.ndarray, np.ndarray]:
    """(rows, inner mask) of the ring or the ideal ring."""
    loaded = fixtures.ring() if name == "ring" else fixtures.ideal_ring()
    return np.asarray(loaded.rows, dtype=float), np.asarray(loaded.mask("inner"), dtype=bool)


# ----------------------------------------------------------------- the fits


@cache
def fit(dataset: str, kernel_name: str, *params, n_components=None) -> KernelPCA:
    """A KernelPCA fit, cached by data set and kernel so sections share it."""
    rows = {"four": four, "arc": arc_by_height}.get(dataset)
    rows = rows() if rows else ring_set(dataset)[0]
    kernel = getattr(kernels, kernel_name)(*params)
    return KernelPCA(kernel, n_components=n_components).fit(rows)


@cache
def pca(dataset: str, n_components=None) -> PCA:
    rows = {"four": four, "arc": arc_by_height}.get(dataset)
    rows = rows() if rows else ring_set(dataset)[0]
    return PCA(n_components=n_components).fit(rows)


def split(coordinates, inner):
    """The separation of the inner group from the outer along one coordinate."""
    coordinates = np.asarray(coordinates, dtype=float)
    return measure.separation(coordinates[inner], coordinates[~inner])


def symmetric_eigen(table):
    """Eigenvalues (descending) and eigenvectors of a symmetric table, each
    vector signed like the library's: its largest-magnitude entry positive."""
    values, vectors = np.linalg.eigh(table)
    values, vectors = values[::-1], vectors[:, ::-1]
    largest_at = np.argmax(np.abs(vectors) >= np.abs(vectors).max(axis=0) * (1 - 1e-9), axis=0)
    signs = np.sign(vectors[largest_at, np.arange(vectors.shape[1])])
    return values, vectors * signs


# ----------------------------------------------------------------- the sweep

#: The E24 preferred numbers: 24 round values per decade, evenly spaced on a log scale.
E24 = (1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0,
       3.3, 3.6, 3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2, 9.1)
#: Round values the prose names that the E24 series skips.
SWEEP_EXTRAS = (0.0004, 0.0005, 0.004, 0.005, 0.04, 0.05)
SWEEP_DECADES = (-4, -3, -2)


@cache
def sweep_grid() -> np.ndarray:
    grid = [round(m * 10.0**d, 8) for d in SWEEP_DECADES for m in E24] + [0.1]
    return np.array(sorted(set(grid) | set(SWEEP_EXTRAS)))


@cache
def sweep(name: str) -> dict:
    """Per gamma on the grid: whether the groups split along the first
    direction, the gap (positive) or overlap, total lifted variance, first share."""
    rows, inner = ring_set(name)
    out = {"gamma": sweep_grid(), "separated": [], "gap": [], "overlap": [], "shift": [],
           "total": [], "first_share": []}
    for gamma in sweep_grid():
        fitted = KernelPCA(kernels.rbf(gamma)).fit(rows)
        result = split(fitted.scores_[:, 0], inner)
        out["separated"].append(result.separated)
        out["gap"].append(result.gap if result.separated else 0.0)
        out["overlap"].append(result.overlap)
        out["shift"].append(result.shift)
        out["total"].append(fitted.total_variance_)
        out["first_share"].append(fitted.shares_[0])
    return {key: np.asarray(value) for key, value in out.items()}


def band(name: str) -> dict:
    """The separating band on the grid and what lies just outside it."""
    swept = sweep(name)
    grid, separated = swept["gamma"], swept["separated"]
    edges = measure.separated_band(grid, separated)
    low, high = (int(np.flatnonzero(grid == edge)[0]) for edge in edges)
    widest = int(np.argmax(swept["gap"]))
    return {
        "low": grid[low], "high": grid[high],
        # the longest run is the only run: nowhere outside it do the groups split
        "contiguous": bool(np.count_nonzero(separated) == high - low + 1),
        "widest_gap": swept["gap"][widest], "widest_at": grid[widest],
        "below": grid[low - 1] if low > 0 else None,
        "overlap_below": swept["overlap"][low - 1] if low > 0 else None,
        "above": grid[high + 1] if high + 1 < len(grid) else None,
        "overlap_above": swept["overlap"][high + 1] if high + 1 < len(grid) else None,
    }


# ----------------------------------------------------------------- behaviour probes


def _caught(action):
    """Run ``action``; return (result, exception) so a probe records either."""
    try:
        return action(), None
    except Exception as error:
        return None, error


def probe_sigmoid(gamma: float, coef0: float) -> dict:
    """A kernel whose table breaks Mercer's condition: what is clamped, what is reported."""
    rows, _ = ring_set("ring")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fitted = KernelPCA(kernels.sigmoid(gamma, coef0)).fit(rows)
    ours = [w for w in caught if issubclass(w.category, NotPositiveSemidefiniteWarning)]
    full = np.linalg.eigvalsh(fitted.centred_table_)
    return {
        "gamma": gamma, "coef0": coef0,
        "warned": len(ours) == 1,
        "warning": ours[0].category.__name__ if ours else "",
        "clamped": len(fitted.clamped_eigenvalues_),
        "most_negative": float(fitted.clamped_eigenvalues_.min()),
        "negative_mass": float(-full[full < 0].sum() / np.abs(full).sum()),
        "first_share": fitted.shares_[0],
        "kept": fitted.n_components_,
    }


def probe_sigmoid_ridge(gamma: float, coef0: float, penalty: float) -> dict:
    """Kernel ridge handed the same sigmoid kernel on the ring (target: inner or not)."""
    rows, inner = ring_set("ring")
    _, error = _caught(lambda: KernelRidge(kernels.sigmoid(gamma, coef0), penalty)
                       .fit(rows, inner.astype(float)))
    return {"penalty": penalty, "refused": isinstance(error, MercerConditionError),
            "error": type(error).__name__}


def probe_strangers(gamma: float, strangers: np.ndarray) -> dict:
    """People far from every training person, placed by the ring's fit."""
    fitted = fit("ring", "rbf", gamma)
    placed = fitted.transform(strangers)
    # Every kernel value is zero, so the centred row is the training averages alone.
    fixed = (fitted.table_grand_mean_ - fitted.table_column_means_) @ fitted.coefficients_
    return {
        "count": len(strangers),
        "spread": float(np.abs(placed - placed[0]).max()),
        "from_fixed_spot": float(np.abs(placed - fixed).max()),
        "spot": fixed[:2],
        "nearest_distance": float(np.sqrt(
            ((strangers[:, None, :] - fitted.training_rows_[None]) ** 2).sum(-1)).min()),
    }


def probe_duplicates() -> dict:
    """The measured four, each person entered twice."""
    doubled = np.vstack([four(), four()])
    twice = KernelPCA(kernels.linear()).fit(doubled)
    once = fit("four", "linear")
    return {
        "kept": twice.n_components_,
        "shares": twice.shares_,
        "shares_change": float(np.abs(twice.shares_ - once.shares_).max()),
        "eigen_ratio": twice.eigenvalues_ / once.eigenvalues_,
        "copies_apart": float(np.abs(twice.scores_[:4] - twice.scores_[4:]).max()),
    }


def probe_constant_column(value: float, gamma: float) -> dict:
    """The ring with a third column that is the same for everyone."""
    rows, _ = ring_set("ring")
    widened = np.column_stack([rows, np.full(len(rows), value)])
    with_column = KernelPCA(kernels.rbf(gamma)).fit(widened)
    without = fit("ring", "rbf", gamma)
    return {
        "value": value,
        "eigen_change": float(np.abs(with_column.eigenvalues_ - without.eigenvalues_).max()),
        "score_change": float(np.abs(with_column.scores_ - without.scores_).max()),
    }


def probe_two_people(gamma: float) -> dict:
    fitted = KernelPCA(kernels.rbf(gamma)).fit(four()[:2])
    return {"gamma": gamma, "kept": fitted.n_components_, "share": fitted.shares_[0],
            "scores": fitted.scores_[:, 0]}


def probe_too_many() -> dict:
    rows, _ = ring_set("ring")
    _, error = _caught(lambda: KernelPCA(kernels.rbf(RING_GAMMA), n_components=len(rows)).fit(rows))
    return {"asked": len(rows), "refused": isinstance(error, InvalidInputError),
            "error": type(error).__name__, "message": str(error)}


def probe_nan() -> dict:
    rows = four().copy()
    rows[1, 1] = np.nan
    _, error = _caught(lambda: KernelPCA(kernels.rbf(RING_GAMMA)).fit(rows))
    return {"refused": isinstance(error, InvalidInputError),
            "error": type(error).__name__, "message": str(error)}


def probe_wrong_columns() -> dict:
    people = four()
    columns = {"height": people[:, 0], "weight": people[:, 1]}
    fitted = KernelPCA(kernels.rbf(RING_GAMMA)).fit(columns)
    _, error = _caught(lambda: fitted.transform({"height": [170.0], "age": [40.0]}))
    return {"refused": isinstance(error, FeatureMismatchError),
            "error": type(error).__name__, "message": str(error)}


def probe_inverse(kernel_name: str, *params) -> dict:
    fitted = fit("four", kernel_name, *params)
    _, error = _caught(lambda: fitted.inverse_transform(fitted.scores_))
    return {"refused": isinstance(error, NoInverseTransformError),
            "error": type(error).__name__, "message": str(error)}


# ----------------------------------------------------------------- the declaration and the table


def declaration_facts(gamma: float) -> dict:
    """Each point a complete implementation declares, read off kreport itself."""
    rows, _ = ring_set("ring")
    fitted = fit("ring", "rbf", gamma)
    ceiling = probe_too_many()
    fitted_state = ("training_rows_", "training_table_", "centred_table_", "kept_share_",
                    "clamped_eigenvalues_")
    claim("the fitted model keeps its training rows, raw table and centred table",
          all(hasattr(fitted, name) for name in fitted_state))
    claim("the directions come in descending order of variance",
          np.all(np.diff(fitted.eigenvalues_) <= 0))
    claim("the total variance is summed before truncation: keeping two directions leaves "
          "it unchanged",
          abs(fit("ring", "rbf", gamma, n_components=2).total_variance_
              - fitted.total_variance_) < 1e-12)
    claim("asking for n directions is refused", ceiling["refused"])
    return {
        "kernel": repr(fitted.kernel), "threshold": KernelPCA.ZERO_THRESHOLD,
        "sign_convention": SIGN_CONVENTION, "ceiling": len(rows) - 1, "n": len(rows),
        "ceiling_message": ceiling["message"], "ceiling_error": ceiling["error"],
        "state": list(fitted_state),
    }


SIGMOID = (0.0001, -1.0)  # gamma, coef0: a table with negative eigenvalues on the ring
RIDGE_PENALTY = 1.0  # kernel ridge's penalty when it is handed the same sigmoid kernel
STRANGERS = np.array([[400.0, 400.0], [0.0, 0.0], [1000.0, -200.0]])


def behaviour_facts(gamma: float) -> dict:
    """The behaviour table: every probe, with the claims the table states."""
    sigmoid = probe_sigmoid(*SIGMOID)
    ridge = probe_sigmoid_ridge(*SIGMOID, RIDGE_PENALTY)
    strangers = probe_strangers(gamma, STRANGERS)
    duplicates = probe_duplicates()
    constant = probe_constant_column(170.0, gamma)
    two = probe_two_people(gamma)
    nan, wrong = probe_nan(), probe_wrong_columns()
    claim("the sigmoid fit warns, clamps its negative eigenvalues and still reports shares",
          sigmoid["warned"] and sigmoid["clamped"] > 0)
    claim("kernel ridge refuses the same sigmoid kernel on the ring", ridge["refused"])
    claim("every stranger lands on the same fixed spot", strangers["from_fixed_spot"] < 1e-12)
    claim("duplicating every person leaves the shares unchanged and doubles the raw eigenvalues",
          duplicates["shares_change"] < 1e-12 and np.allclose(duplicates["eigen_ratio"], 2))
    claim("a constant column changes nothing under the RBF kernel",
          constant["eigen_change"] < 1e-12 and constant["score_change"] < 1e-9)
    claim("two people give one direction holding the whole spread",
          two["kept"] == 1 and abs(two["share"] - 1) < 1e-12)
    claim("NaN and wrong columns are refused with kreport errors",
          nan["refused"] and wrong["refused"])
    return {
        "sigmoid": {**sigmoid}, "sigmoid_ridge": ridge,
        "strangers": {**strangers, "spread": bound(strangers["spread"], -12),
                      "from_fixed_spot": bound(strangers["from_fixed_spot"], -12)},
        "duplicates": {**duplicates, "shares_change": bound(duplicates["shares_change"], -12),
                       "copies_apart": bound(duplicates["copies_apart"], -9)},
        "constant": {**constant, "eigen_change": bound(constant["eigen_change"], -12),
                     "score_change": bound(constant["score_change"], -9)},
        "two": two, "too_many": probe_too_many(), "nan": nan, "wrong_columns": wrong,
    }
