"""Four points at the corners of a unit square, and their RBF kernel values."""

import numpy as np

from kreport import kernels
from kreport.report import claim

CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
NAMES = ["lower left", "lower right", "upper left", "upper right"]
GAMMA = 0.5


def kernel_values():
    """The kernel matrix of the corners: its diagonal, a side's value and a diagonal's."""
    matrix = kernels.rbf(GAMMA)(CORNERS, CORNERS)
    side, across = matrix[0, 1], matrix[0, 3]
    claim("two corners along a side are more alike than two across the diagonal",
          side > across, id="side_above_diagonal")
    return {"gamma": GAMMA, "points": len(CORNERS), "side": side, "across": across,
            "first_row": [{"corner": name, "value": value}
                          for name, value in zip(NAMES, matrix[0], strict=True)]}
