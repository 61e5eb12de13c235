"""The site's pages: one module per page, its template beside it.

A module here that defines ``page = Page(...)`` is built by ``make docs``; the
build finds it by itself. ``NOTEBOOKS`` lists the notebooks (source beside
these modules, executed copy written into docs/).
"""

NOTEBOOKS: list[tuple[str, str]] = [("three_clusters.ipynb", "three-clusters.ipynb")]
