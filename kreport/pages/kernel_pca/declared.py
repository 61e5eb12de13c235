"""What a complete implementation declares, and how kreport behaves at the edges.

Every probe runs kreport's public API while the page is built and returns what
came back: numbers, yes/no answers and the library's own messages.
"""

from __future__ import annotations

import warnings

import numpy as np

from kreport import (
    SIGN_CONVENTION,
    FeatureMismatchError,
    InvalidInputError,
    KernelPCA,
    KernelRidge,
    MercerConditionError,
    NotPositiveSemidefiniteWarning,
    kernels,
)
from kreport.report import bound, claim

from .fits import inner, kernel_fit, rbf_fit, rows
from .limits import _refused
from .settings import CONSTANT_COLUMN, PENALTY, RING_GAMMA, SIGMOID, STRANGERS, TIE_RTOL

# Every attribute a fit sets, results first, then what transform needs; the
# declaration claim fails if the library gains or loses one without this list.
FITTED_STATE = ("n_components_", "eigenvalues_", "variances_", "shares_", "total_variance_",
                "kept_share_", "coefficients_", "scores_", "clamped_eigenvalues_",
                "training_rows_", "training_table_", "centred_table_", "table_column_means_",
                "table_grand_mean_", "feature_names_", "n_features_in_")


def _caught(action):
    """Run ``action``; return (result, exception) so a probe records either."""
    try:
        return action(), None
    except Exception as error:  # a probe records whatever the library raises
        return None, error


def _too_many() -> dict:
    data = rows("ring")
    _, error = _caught(lambda: KernelPCA(kernels.rbf(RING_GAMMA),
                                         n_components=len(data)).fit(data))
    return {"asked": len(data), "refused": isinstance(error, InvalidInputError),
            "error": type(error).__name__, "message": str(error)}


def declaration():
    """Each point a complete implementation declares, read off kreport itself."""
    data = rows("ring")
    fitted = rbf_fit("ring", RING_GAMMA)
    ceiling = _too_many()
    claim("the list of fitted state is every attribute a fit sets, no more and no fewer",
          {name for name in vars(fitted) if name.endswith("_")} == set(FITTED_STATE),
          id="state")
    claim("the directions come in descending order of variance",
          np.all(np.diff(fitted.eigenvalues_) <= 0), id="order")
    claim("the total variance is summed before truncation: keeping two directions leaves it "
          "unchanged", abs(rbf_fit("ring", RING_GAMMA, n_components=2).total_variance_
                           - fitted.total_variance_) < 1e-12, id="total")
    claim("asking for n directions is refused", ceiling["refused"], id="ceiling")
    # The zero threshold on the measured four: one zero from centring, one from rank.
    four = kernel_fit("four", "linear")
    four_values = np.linalg.eigvalsh(four.centred_table_)
    zeros = int(np.count_nonzero(np.abs(four_values)
                                 <= KernelPCA.ZERO_THRESHOLD * four_values.max()))
    claim("on the measured four the linear kernel leaves two zero eigenvalues, because four "
          "people in a plane span two directions",
          zeros == 2 and four.n_components_ == 2, id="zeros")
    return {
        "kernel": repr(fitted.kernel), "threshold": KernelPCA.ZERO_THRESHOLD,
        "sign_convention": SIGN_CONVENTION, "ceiling": len(data) - 1, "n": len(data),
        "ceiling_message": ceiling["message"], "ceiling_error": ceiling["error"],
        "state": list(FITTED_STATE), "four_zeros": zeros, "tie_tolerance": TIE_RTOL,
    }


# ---------------------------------------------------------------- probes


def probe_sigmoid(gamma: float, coef0: float) -> dict:
    """A kernel whose table breaks Mercer's condition: what is clamped, what is reported."""
    data = rows("ring")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fitted = KernelPCA(kernels.sigmoid(gamma, coef0)).fit(data)
    ours = [w for w in caught if issubclass(w.category, NotPositiveSemidefiniteWarning)]
    full = np.linalg.eigvalsh(fitted.centred_table_)
    negative = float(-full[full < 0].sum() / np.abs(full).sum())
    return {
        "gamma": gamma, "coef0": coef0, "warnings": len(ours),
        "warning": ours[0].category.__name__ if ours else "",
        "clamped": len(fitted.clamped_eigenvalues_),
        "most_negative": float(fitted.clamped_eigenvalues_.min()),
        # The clamped eigenvalues larger in size than a thousandth of the most negative.
        "clamped_large": int(np.sum(np.abs(fitted.clamped_eigenvalues_)
                                    >= 1e-3 * np.abs(fitted.clamped_eigenvalues_).max())),
        "negative_mass": negative, "remaining": 1 - negative,
        "first_share": fitted.shares_[0], "first_of_whole": fitted.shares_[0] * (1 - negative),
        "kept": fitted.n_components_,
        # Neither clamped nor kept: below the zero threshold, the centring zero among them.
        "zeros": len(full) - len(fitted.clamped_eigenvalues_) - fitted.n_components_,
    }


def probe_sigmoid_ridge(gamma: float, coef0: float, penalty: float) -> dict:
    """Kernel ridge handed the same sigmoid kernel on the ring (target: inner or not)."""
    _, error = _caught(lambda: KernelRidge(kernels.sigmoid(gamma, coef0), penalty)
                       .fit(rows("ring"), inner("ring").astype(float)))
    return {"penalty": penalty, "refused": isinstance(error, MercerConditionError),
            "error": type(error).__name__}


def probe_strangers(gamma: float, strangers: np.ndarray) -> dict:
    """People far from every training person, placed by the ring's fit."""
    fitted = rbf_fit("ring", gamma)
    placed = fitted.transform(strangers)
    # Every kernel value is zero, so the centred row is the training averages alone.
    fixed = (fitted.table_grand_mean_ - fitted.table_column_means_) @ fitted.coefficients_
    nearest = np.sqrt(((strangers[:, None, :] - fitted.training_rows_[None]) ** 2).sum(-1)).min()
    return {"count": len(strangers), "spread": float(np.abs(placed - placed[0]).max()),
            "from_fixed_spot": float(np.abs(placed - fixed).max()), "spot": fixed[:2],
            "nearest_distance": float(nearest)}


def probe_duplicates() -> dict:
    """The measured four, each person entered twice."""
    doubled = np.vstack([rows("four"), rows("four")])
    twice = KernelPCA(kernels.linear()).fit(doubled)
    once = kernel_fit("four", "linear")
    return {"kept": twice.n_components_, "shares": twice.shares_,
            "shares_change": float(np.abs(twice.shares_ - once.shares_).max()),
            "eigen_ratio": twice.eigenvalues_ / once.eigenvalues_,
            "copies_apart": float(np.abs(twice.scores_[:4] - twice.scores_[4:]).max())}


def probe_constant_column(value: float, gamma: float) -> dict:
    """The ring with a third column that is the same for everyone."""
    data = rows("ring")
    widened = np.column_stack([data, np.full(len(data), value)])
    with_column = KernelPCA(kernels.rbf(gamma)).fit(widened)
    without = rbf_fit("ring", gamma)
    return {"value": value,
            "eigen_change": float(np.abs(with_column.eigenvalues_ - without.eigenvalues_).max()),
            "score_change": float(np.abs(with_column.scores_ - without.scores_).max())}


def probe_two_people(gamma: float) -> dict:
    fitted = KernelPCA(kernels.rbf(gamma)).fit(rows("four")[:2])
    return {"gamma": gamma, "kept": fitted.n_components_, "share": fitted.shares_[0],
            "scores": fitted.scores_[:, 0]}


def probe_nan() -> dict:
    data = np.array(rows("four"))
    data[1, 1] = np.nan
    _, error = _caught(lambda: KernelPCA(kernels.rbf(RING_GAMMA)).fit(data))
    return {"refused": isinstance(error, InvalidInputError),
            "error": type(error).__name__, "message": str(error)}


def probe_wrong_columns() -> dict:
    people = rows("four")
    fitted = KernelPCA(kernels.rbf(RING_GAMMA)).fit({"height": people[:, 0],
                                                     "weight": people[:, 1]})
    _, error = _caught(lambda: fitted.transform({"height": [170.0], "age": [40.0]}))
    return {"refused": isinstance(error, FeatureMismatchError),
            "error": type(error).__name__, "message": str(error)}


#: The sigmoid fit's reported first share describes less than this fraction of the table.
QUARTER = 0.25


def behaviour():
    """The behaviour table: every probe, with the claims the table states."""
    sigmoid = probe_sigmoid(*SIGMOID)
    ridge = probe_sigmoid_ridge(*SIGMOID, PENALTY)
    strangers = probe_strangers(RING_GAMMA, STRANGERS)
    duplicates = probe_duplicates()
    constant = probe_constant_column(CONSTANT_COLUMN, RING_GAMMA)
    two = probe_two_people(RING_GAMMA)
    nan, wrong = probe_nan(), probe_wrong_columns()
    claim("the sigmoid fit warns once, clamps its negative eigenvalues and still reports shares",
          sigmoid["warnings"] == 1 and sigmoid["clamped"] > 0, id="sigmoid")
    claim("the positive eigenvalues the shares describe are less than {limit} of the "
          "eigenvalues' total size", lambda limit: sigmoid["remaining"] < limit, id="quarter",
          limit=QUARTER)
    claim("kernel ridge refuses the same sigmoid kernel on the ring", ridge["refused"],
          id="ridge")
    claim("every stranger lands on the same fixed spot", strangers["from_fixed_spot"] < 1e-12,
          id="strangers")
    claim("duplicating every person leaves the shares unchanged and doubles the raw eigenvalues",
          duplicates["shares_change"] < 1e-12 and np.allclose(duplicates["eigen_ratio"], 2),
          id="duplicates")
    claim("a constant column changes nothing under the RBF kernel",
          constant["eigen_change"] < 1e-12 and constant["score_change"] < 1e-9, id="constant")
    claim("two people give one direction holding the whole spread",
          two["kept"] == 1 and abs(two["share"] - 1) < 1e-12, id="two")
    claim("NaN and wrong columns are refused with kreport errors",
          nan["refused"] and wrong["refused"], id="refused")
    return {
        "sigmoid": sigmoid, "sigmoid_ridge": ridge,
        "strangers": {**strangers, "spread": bound(strangers["spread"], -12),
                      "from_fixed_spot": bound(strangers["from_fixed_spot"], -12)},
        "duplicates": {**duplicates, "eigen_ratio": None,
                       "shares_change": bound(duplicates["shares_change"], -12),
                       "copies_apart": bound(duplicates["copies_apart"], -9)},
        "constant": {**constant, "eigen_change": bound(constant["eigen_change"], -12),
                     "score_change": bound(constant["score_change"], -9)},
        "two": two, "too_many": _too_many(), "nan": nan, "wrong_columns": wrong,
        "gamma": RING_GAMMA,
        "inverse": _refused(kernel_fit("four", "linear")),
    }
