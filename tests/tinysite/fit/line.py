"""A straight line through three points, by kernel ridge with a linear kernel."""

import numpy as np

from kreport import KernelRidge, kernels
from kreport.report import claim, new_figure

ROWS = np.array([[0.0], [1.0], [2.0]])
TARGET = np.array([0.0, 1.1, 1.9])
PENALTY = 0.1


def _model():
    return KernelRidge(kernels.linear(), PENALTY).fit(ROWS, TARGET)


def fit():
    """The fitted value at the middle point; the penalty pulls the slope down."""
    model = _model()
    slope = (model.predict(ROWS[2:]) - model.predict(ROWS[:1]))[0] / 2
    least_squares = np.polyfit(ROWS[:, 0], TARGET, 1)[0]
    claim("the penalty makes the slope smaller than least squares'", slope < least_squares,
          id="shrunk")
    return {"middle": model.predict(ROWS[1:2])[0], "slope": slope, "penalty": PENALTY}


def drawing():
    grid = np.linspace(0.0, 2.0, 5)[:, None]
    figure, axes = new_figure(width=4.0, height=3.0)
    axes.scatter(ROWS[:, 0], TARGET, color="black", label="the points")
    axes.plot(grid[:, 0], _model().predict(grid), label="the fit")
    axes.set_xlabel("input")
    axes.set_ylabel("target")
    axes.legend()
    return figure
