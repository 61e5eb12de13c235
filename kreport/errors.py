"""Exception and warning classes raised by kreport.

Every exception derives from :class:`KreportError` and also from the builtin
class a caller would naturally catch (``ValueError`` or ``TypeError``), so
``except ValueError`` keeps working for code that does not know kreport.
Messages say what was wrong and what to do about it.
"""

from __future__ import annotations


class KreportError(Exception):
    """Base class of every error raised on purpose by kreport."""


class InvalidInputError(KreportError, ValueError):
    """The data passed to fit, predict or transform cannot be used.

    Raised for NaN or infinite entries, an empty table, a single row at fit
    time, a table that is not two-dimensional, the wrong number of columns,
    and a target whose length does not match the rows.
    """


class InputTypeError(KreportError, TypeError):
    """The data have the wrong type: text, objects, booleans, complex numbers,
    or a container kreport does not read (a set, a scalar, None)."""


class InvalidParameterError(KreportError, ValueError):
    """A constructor argument (kernel parameter, penalty, component count) is
    out of range or of the wrong type."""


class FeatureMismatchError(InvalidInputError):
    """Query columns do not match the columns the model was fitted on."""


class NotFittedError(KreportError, ValueError, AttributeError):
    """A fitted attribute or method was used before ``fit``.

    Also an ``AttributeError`` so that ``hasattr(model, "scores_")`` answers
    False on an unfitted model instead of raising.
    """


class MercerConditionError(KreportError, ValueError):
    """The Cholesky factorisation of ``K + penalty·I`` met a non-positive pivot.

    Attributes
    ----------
    smallest_eigenvalue : float
        Smallest eigenvalue of the kernel table K (without the penalty).
    penalty : float
        The penalty that was added to every diagonal entry.
    """

    def __init__(self, message: str, *, smallest_eigenvalue: float, penalty: float):
        super().__init__(message)
        self.smallest_eigenvalue = float(smallest_eigenvalue)
        self.penalty = float(penalty)


class NoInverseTransformError(KreportError, TypeError):
    """Kernel PCA coordinates cannot be mapped back to input rows."""


class PreimageError(KreportError, ValueError):
    """The fixed-point pre-image iteration cannot take its next step.

    Raised when the step's denominator Σᵢ γᵢ k(z, xᵢ) vanishes (every kernel
    value underflowed, or the weights cancel), where the next point would be
    a division by zero.

    Attributes
    ----------
    row : int
        Index of the query row whose iteration stopped.
    iteration : int
        The step (1-based) that could not be taken.
    denominator : float
        The value of Σᵢ γᵢ k(z, xᵢ) at that step.
    """

    def __init__(self, message: str, *, row: int, iteration: int, denominator: float):
        super().__init__(message)
        self.row = int(row)
        self.iteration = int(iteration)
        self.denominator = float(denominator)


class ModelFileError(KreportError, ValueError):
    """A file given to ``KernelRidge.load`` is not a valid kreport model file."""


class MissingDependencyError(KreportError, ImportError):
    """An optional dependency (Dask, for kreport.approx.distributed) is not installed;
    the message names the extra to install (``pip install kreport[scale]``)."""


class KreportWarning(UserWarning):
    """Base class of warnings issued by kreport."""


class NotPositiveSemidefiniteWarning(KreportWarning):
    """The centred kernel table had negative eigenvalues, which were clamped."""


class NotConvergedWarning(KreportWarning):
    """An iteration stopped at its step limit before meeting its tolerance; the
    result flags the rows concerned (``converged`` is False for them)."""


__all__ = [
    "FeatureMismatchError",
    "InputTypeError",
    "InvalidInputError",
    "InvalidParameterError",
    "KreportError",
    "KreportWarning",
    "MercerConditionError",
    "MissingDependencyError",
    "ModelFileError",
    "NoInverseTransformError",
    "NotConvergedWarning",
    "NotFittedError",
    "NotPositiveSemidefiniteWarning",
    "PreimageError",
]
