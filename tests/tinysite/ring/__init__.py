"""The tiny site's home page: four points on a square, their kernel values."""

from kreport.report import Page

from . import square

page = Page(slug="index", title="A tiny site", template="ring.md.j2",
            summary="Four points, their kernel values, one claim.",
            sections=[square.kernel_values])
