"""kreport: kernel PCA and kernel ridge regression with stated semantics.

Public API::

    from kreport import kernels, PCA, KernelPCA, Ridge, KernelRidge
    from kreport import leave_one_out, cross_validate, grid_search    # choosing settings
    from kreport import fixed_point_preimage, LearnedPreimage         # back from kernel PCA
    from kreport.approx import Nystroem, RandomFourierFeatures, NystroemKernelRidge  # at scale

Each model's class docstring states exactly what it computes (centring,
ceilings, thresholds, sign convention, solver, refusals). ``SIGN_CONVENTION``
and ``ZERO_THRESHOLD_RULE`` hold the two KernelPCA rules as printable text.
``kreport.selection`` scores settings on held-out rows (leave-one-out in closed
form, k-fold, a grid); ``kreport.preimage`` maps kernel PCA coordinates back to
rows (PreimageError when the fixed point's denominator vanishes,
NotConvergedWarning when it does not settle).

Input, the same for every model:

* X is a 2-D array-like of numbers, a mapping of column name (str) to 1-D
  values, or a pandas DataFrame with string column names (pandas is only
  used if the caller has imported it). Values become float64.
* Refused with InvalidInputError: NaN or infinite values, an empty table,
  a table that is not 2-D (a 1-D array is ambiguous: reshape it), fewer than
  2 rows at fit time, the wrong column count at query time. Refused with
  InputTypeError: text, objects, booleans (convert them to 0.0/1.0 on purpose),
  complex numbers, containers such as sets, strings or None, and sparse
  matrices (scipy.sparse): the kernel tables are dense n × n, so densify the
  input on purpose (``X.toarray()``) if it fits in memory.
* Names are remembered at fit time. A query to a model fitted on names must
  be named; columns are matched by name in any order, and a missing or an
  extra name raises FeatureMismatchError naming it. A model fitted on a plain
  array takes plain arrays with the same column count, in the same order.
* y (Ridge, KernelRidge) is one number per row: 1-D, or an (n, 1) column
  that is flattened.
"""

from . import approx, kernels, preimage, selection
from .errors import (
    FeatureMismatchError,
    InputTypeError,
    InvalidInputError,
    InvalidParameterError,
    KreportError,
    KreportWarning,
    MercerConditionError,
    MissingDependencyError,
    ModelFileError,
    NoInverseTransformError,
    NotConvergedWarning,
    NotFittedError,
    NotPositiveSemidefiniteWarning,
    PreimageError,
)
from .kpca import SIGN_CONVENTION, ZERO_THRESHOLD_RULE, KernelPCA
from .krr import KernelRidge
from .pca import PCA
from .preimage import LearnedPreimage, fixed_point_preimage
from .ridge import Ridge
from .selection import (
    cross_validate,
    grid_search,
    hat_matrix_residuals,
    kfold_indices,
    leave_one_out,
)

__all__ = [
    "PCA",
    "SIGN_CONVENTION",
    "ZERO_THRESHOLD_RULE",
    "FeatureMismatchError",
    "InputTypeError",
    "InvalidInputError",
    "InvalidParameterError",
    "KernelPCA",
    "KernelRidge",
    "KreportError",
    "KreportWarning",
    "LearnedPreimage",
    "MercerConditionError",
    "MissingDependencyError",
    "ModelFileError",
    "NoInverseTransformError",
    "NotConvergedWarning",
    "NotFittedError",
    "NotPositiveSemidefiniteWarning",
    "PreimageError",
    "Ridge",
    "approx",
    "cross_validate",
    "fixed_point_preimage",
    "grid_search",
    "hat_matrix_residuals",
    "kernels",
    "kfold_indices",
    "leave_one_out",
    "preimage",
    "selection",
]
