"""Kernel ridge regression: the short way in.

One motivating figure (the throws, a line against a curve), the method in a few
lines of numpy beside the kreport call (the page runs the very lines it prints),
the two settings that matter and how to choose them, and exercises whose answers
are facts like any other (``start``).
"""

from kreport.report import Figure, Page

from . import figures, start

page = Page(
    slug="kernel-ridge-start",
    title="Kernel ridge regression: the short way in",
    template="kernel_ridge_start.md.j2",
    summary="The short way in: one figure, the method in numpy, the two settings, exercises.",
    sections=[start.the_problem, start.numpy_route, start.the_two_settings, start.exercises],
    figures=[Figure("throws", figures.throws,
                    alt="Fifteen heights of a thrown ball against time, rising and falling in "
                        "an arc; a dashed straight line cuts across them, and a smooth curve "
                        "follows the arc")],
)
