"""The tiny site's second page: a small fit and its figure."""

from kreport.report import Figure, Page

from . import line

page = Page(slug="fit", title="A tiny fit", template="fit.md.j2",
            summary="A ridge fit of three points, drawn.",
            sections=[line.fit],
            figures=[Figure("line", line.drawing,
                            alt="Three points rising from left to right and a straight line "
                                "through them")])
