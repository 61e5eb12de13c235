"""Kernel methods at scale: Nyström features, random Fourier features, and
kernel ridge regression on m centres that never forms an n × n table.

Public API::

    from kreport.approx import Nystroem, RandomFourierFeatures, NystroemKernelRidge
    Nystroem(kernel, n_components, landmarks="uniform", seed=0).fit(X).transform(Xq)
    RandomFourierFeatures(kernels.rbf(gamma), n_components, seed=0).fit(X).transform(Xq)
    NystroemKernelRidge(kernel, penalty, n_components, seed=0).fit(X, y).predict(Xq)

    from kreport.approx.distributed import fit_distributed, random_rows  # needs Dask
    fit_distributed(NystroemKernelRidge(...), X_dask, y_dask)

The feature maps return plain (n, m) arrays, ready for ``kreport.PCA`` and
``kreport.Ridge``. Landmarks and random draws follow stated rules that
reproduce scikit-learn's ``Nystroem`` and ``RBFSampler`` for the same seed
(``LANDMARK_RULE``; ``RandomFourierFeatures`` states its draw). Dask is an
optional dependency (``pip install kreport[scale]``), imported only by the
functions of ``kreport.approx.distributed``.
"""

from ..errors import MissingDependencyError
from ._common import LANDMARK_RULE, RANK_TOLERANCE_RULE
from .nystroem import Nystroem
from .nystroem_ridge import NystroemKernelRidge
from .random_features import RandomFourierFeatures

__all__ = [
    "LANDMARK_RULE",
    "RANK_TOLERANCE_RULE",
    "MissingDependencyError",
    "Nystroem",
    "NystroemKernelRidge",
    "RandomFourierFeatures",
]
