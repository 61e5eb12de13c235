"""A table's eigenvalues: the measured four under the linear kernel."""

from __future__ import annotations

import numpy as np
from scipy.linalg import eigh

from kreport import data, kernels
from kreport.report import bound, claim, exact

from .common import rounding_floor

WHOLE = ("the measured four's heights and weights are whole numbers, so every product "
         "and sum in their table is a whole number below two to the fifty-third")


def table_eigenvalues():
    """The linear table of the measured four: two eigenvalues, two zeros, and rounding."""
    four = data.measured_four()
    rows = np.asarray(four.rows, dtype=float)
    n, p = rows.shape
    K = kernels.linear()(rows, rows)
    values, vectors = eigh(K)
    values, vectors = values[::-1], vectors[:, ::-1]
    largest, second = float(values[0]), float(values[1])
    rest = values[p:]
    # The eigenvalue is the squared length of a point of feature space: for the
    # linear kernel the feature map is the row itself, so λ₁ = ‖Xᵀu₁‖².
    lifted = rows.T @ vectors[:, 0]
    squared_length = float(lifted @ lifted)
    floor = rounding_floor(values)
    claim("the largest eigenvalue equals the squared length of the lifted rows weighted by "
          "its eigenvector, to a relative {tolerance}",
          lambda tolerance: abs(squared_length - largest) <= tolerance * largest,
          id="squared_length", tolerance=1e-12)
    claim("the table has no more non-zero eigenvalues than the rows have features ({p})",
          np.all(np.abs(rest) < floor), id="rank", p=p)
    claim("the eigenvalues beyond the first {p} are smaller in size than n ε λ₁ = {floor}",
          np.all(np.abs(rest) < floor), id="below_floor", p=p, floor=float(f"{floor:.2g}"))
    return {
        "n": n,
        "p": p,
        "rows": exact([[round(v) for v in row] for row in rows], WHOLE),
        "table": exact([[round(v) for v in row] for row in K], WHOLE),
        "largest": largest,
        "second": second,
        "first_share": largest / float(np.clip(values, 0.0, None).sum()),
        "rest": bound(rest / largest, -14),
        "rest_count": len(rest),
        "floor": floor,
        "epsilon": float(np.finfo(float).eps),
    }
