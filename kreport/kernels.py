"""Kernel functions as small immutable objects.

Each kernel is called as ``k(A, B)`` and returns the ``len(A) × len(B)`` table
of kernel values between the rows of A and the rows of B, computed without a
Python loop over rows. Each has a ``repr`` naming every parameter, a ``params``
dict that is plain JSON, and :func:`from_params` rebuilds it from that dict.

Formulas (a, b are rows):

* ``linear()``                         k(a, b) = ⟨a, b⟩
* ``polynomial(degree, gamma, coef0)`` k(a, b) = (gamma·⟨a, b⟩ + coef0)^degree
* ``rbf(gamma)``                       k(a, b) = exp(−gamma·‖a − b‖²)
* ``sigmoid(gamma, coef0)``            k(a, b) = tanh(gamma·⟨a, b⟩ + coef0)

Squared distances for ``rbf`` come from ``scipy.spatial.distance.cdist`` with
``"sqeuclidean"``, which subtracts before squaring: a row compared with itself
gives a distance of exactly 0 and a kernel value of exactly 1, with none of the
cancellation of the ‖a‖² + ‖b‖² − 2⟨a, b⟩ shortcut.

Each kernel also states two properties: ``positive_semidefinite`` (Mercer's
condition holds for every choice of rows) and ``translation_invariant``
(k(a, b) depends only on a − b: true for ``rbf`` only).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.spatial.distance import cdist

from ._validation import (
    as_table,
    check_finite_real,
    check_positive_int,
    check_positive_real,
)
from .errors import InvalidInputError, InvalidParameterError


class Kernel:
    """Common behaviour: input checking, ``params`` and ``repr``."""

    name: str = ""

    def __call__(self, A, B) -> np.ndarray:
        A, _ = as_table(A, "A")
        B, _ = as_table(B, "B")
        if A.shape[1] != B.shape[1]:
            raise InvalidInputError(
                f"A has {A.shape[1]} columns and B has {B.shape[1]}; a kernel compares rows "
                "with the same features, so pass tables with the same columns."
            )
        return self._finite_table(A, B)

    def _finite_table(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """Kernel table of validated arrays, refusing overflow instead of returning inf/NaN."""
        with np.errstate(over="ignore", invalid="ignore"):
            table = self._table(A, B)
            # One summing pass, no temporary: the sum is finite only when every
            # entry is, and a table whose sum overflows could not be centred anyway.
            total = table.sum()
        if not np.isfinite(total):
            raise InvalidInputError(
                f"{self!r} gave kernel values that overflow float64 on these rows; rescale "
                "the features (or lower gamma or the degree) so kernel values stay finite."
            )
        return table

    def _table(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """Kernel table for already validated float64 2-D arrays."""
        raise NotImplementedError

    @property
    def positive_semidefinite(self) -> bool:
        """True when every table this kernel makes is positive semidefinite
        (Mercer's condition holds for every choice of rows)."""
        raise NotImplementedError

    @property
    def translation_invariant(self) -> bool:
        """True when k(a, b) depends only on the difference a − b, so moving
        every row by the same vector (centring, for one) leaves every table
        unchanged. KernelRidge's leave-one-out shortcut relies on it."""
        raise NotImplementedError

    @property
    def params(self) -> dict:
        """The kernel's name and parameters as a JSON-serialisable dict."""
        return {"name": self.name, **{key: getattr(self, key) for key in self._param_names()}}

    def _param_names(self) -> tuple[str, ...]:
        return tuple(self.__dataclass_fields__)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        inner = ", ".join(f"{key}={getattr(self, key)!r}" for key in self._param_names())
        return f"{self.name}({inner})"


@dataclass(frozen=True, repr=False)
class Linear(Kernel):
    """k(a, b) = ⟨a, b⟩. Always positive semidefinite."""

    name = "linear"

    def _table(self, A, B):
        return A @ B.T

    @property
    def positive_semidefinite(self) -> bool:
        return True

    @property
    def translation_invariant(self) -> bool:
        return False


@dataclass(frozen=True, repr=False)
class Polynomial(Kernel):
    """k(a, b) = (gamma·⟨a, b⟩ + coef0)^degree.

    Positive semidefinite when coef0 ≥ 0 (gamma is always positive here).
    """

    degree: int
    gamma: float = 1.0
    coef0: float = 1.0
    name = "polynomial"

    def __post_init__(self):
        object.__setattr__(self, "degree", check_positive_int(self.degree, "degree"))
        object.__setattr__(self, "gamma", check_positive_real(self.gamma, "gamma"))
        object.__setattr__(self, "coef0", check_finite_real(self.coef0, "coef0"))

    def _table(self, A, B):
        table = A @ B.T
        table *= self.gamma
        table += self.coef0
        # pow(x, 1) is exact, so degree 1 reproduces the affine table bit for bit.
        return np.power(table, self.degree)

    @property
    def positive_semidefinite(self) -> bool:
        return self.coef0 >= 0.0

    @property
    def translation_invariant(self) -> bool:
        return False


@dataclass(frozen=True, repr=False)
class RBF(Kernel):
    """k(a, b) = exp(−gamma·‖a − b‖²). Always positive semidefinite."""

    gamma: float
    name = "rbf"

    def __post_init__(self):
        object.__setattr__(self, "gamma", check_positive_real(self.gamma, "gamma"))

    def _table(self, A, B):
        table = cdist(A, B, "sqeuclidean")
        table *= -self.gamma
        return np.exp(table, out=table)

    @property
    def positive_semidefinite(self) -> bool:
        return True

    @property
    def translation_invariant(self) -> bool:
        return True


@dataclass(frozen=True, repr=False)
class Sigmoid(Kernel):
    """k(a, b) = tanh(gamma·⟨a, b⟩ + coef0).

    Not positive semidefinite in general: tables built with it can have
    negative eigenvalues, which KernelPCA clamps and KernelRidge refuses.
    """

    gamma: float
    coef0: float
    name = "sigmoid"

    def __post_init__(self):
        object.__setattr__(self, "gamma", check_positive_real(self.gamma, "gamma"))
        object.__setattr__(self, "coef0", check_finite_real(self.coef0, "coef0"))

    def _table(self, A, B):
        table = A @ B.T
        table *= self.gamma
        table += self.coef0
        return np.tanh(table, out=table)

    @property
    def positive_semidefinite(self) -> bool:
        return False

    @property
    def translation_invariant(self) -> bool:
        return False


def linear() -> Linear:
    """The linear kernel ⟨a, b⟩."""
    return Linear()


def polynomial(degree: int, gamma: float = 1.0, coef0: float = 1.0) -> Polynomial:
    """The polynomial kernel (gamma·⟨a, b⟩ + coef0)^degree; degree a positive integer."""
    return Polynomial(degree, gamma, coef0)


def rbf(gamma: float) -> RBF:
    """The radial (Gaussian) kernel exp(−gamma·‖a − b‖²); gamma finite and > 0."""
    return RBF(gamma)


def sigmoid(gamma: float, coef0: float) -> Sigmoid:
    """The sigmoid kernel tanh(gamma·⟨a, b⟩ + coef0); gamma > 0, coef0 finite."""
    return Sigmoid(gamma, coef0)


_BUILDERS = {"linear": Linear, "polynomial": Polynomial, "rbf": RBF, "sigmoid": Sigmoid}


def from_params(params) -> Kernel:
    """Rebuild a kernel from its ``params`` dict, e.g. ``{"name": "rbf", "gamma": 0.5}``."""
    if not isinstance(params, dict) or not isinstance(params.get("name"), str):
        raise InvalidParameterError(
            f"kernel params must be a dict with a 'name' string; got {params!r}."
        )
    name = params["name"]
    if name not in _BUILDERS:
        raise InvalidParameterError(
            f"unknown kernel name {name!r}; choose one of {sorted(_BUILDERS)}."
        )
    builder = _BUILDERS[name]
    expected = set(builder.__dataclass_fields__)
    given = set(params) - {"name"}
    if given != expected:
        raise InvalidParameterError(
            f"kernel {name!r} takes parameters {sorted(expected)}; got {sorted(given)}."
        )
    return builder(**{key: params[key] for key in expected})


__all__ = [
    "RBF",
    "Kernel",
    "Linear",
    "Polynomial",
    "Sigmoid",
    "from_params",
    "linear",
    "polynomial",
    "rbf",
    "sigmoid",
]


def check_kernel(kernel) -> Kernel:
    """Refuse anything that is not one of this module's kernel objects."""
    if not isinstance(kernel, Kernel):
        raise InvalidParameterError(
            f"kernel must be a kreport kernel such as kernels.rbf(gamma=0.5); got {kernel!r}."
        )
    return kernel
