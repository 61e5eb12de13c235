"""kreport: kernel PCA and kernel ridge regression with stated semantics.

Public API::

    from kreport import kernels, PCA, KernelPCA, Ridge, KernelRidge

Each model's class docstring states exactly what it computes (centring,
ceilings, thresholds, sign convention, solver, refusals).
"""

from . import kernels
from .errors import (
    FeatureMismatchError,
    InputTypeError,
    InvalidInputError,
    InvalidParameterError,
    KreportError,
    KreportWarning,
    MercerConditionError,
    ModelFileError,
    NoInverseTransformError,
    NotFittedError,
    NotPositiveSemidefiniteWarning,
)
from .kpca import SIGN_CONVENTION, KernelPCA
from .krr import KernelRidge
from .pca import PCA
from .ridge import Ridge

__all__ = [
    "PCA",
    "SIGN_CONVENTION",
    "FeatureMismatchError",
    "InputTypeError",
    "InvalidInputError",
    "InvalidParameterError",
    "KernelPCA",
    "KernelRidge",
    "KreportError",
    "KreportWarning",
    "MercerConditionError",
    "ModelFileError",
    "NoInverseTransformError",
    "NotFittedError",
    "NotPositiveSemidefiniteWarning",
    "Ridge",
    "kernels",
]
