"""The site's pages: one package (or module) per page, its template beside it.

A module or package here that defines ``page = Page(...)`` is a page of the
site; :func:`all_pages` finds them all (names starting with ``_`` are a page's
private helpers and are skipped). :data:`NOTEBOOKS` lists the notebook pages,
whose sources sit in this folder.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from kreport.report.page import Notebook, Page

HERE = Path(__file__).resolve().parent

NOTEBOOKS: list[Notebook] = [
    Notebook(slug="three-clusters", title="Notebook: three clusters",
             source=HERE / "three_clusters.ipynb"),
]


def all_pages() -> list[Page]:
    """Every page defined here, sorted by slug."""
    found = []
    for info in pkgutil.iter_modules([str(HERE)]):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        page = getattr(module, "page", None)
        if isinstance(page, Page):
            found.append(page)
    slugs = [page.slug for page in found]
    repeated = sorted({slug for slug in slugs if slugs.count(slug) > 1})
    if repeated:
        raise ValueError(f"two pages share a slug: {repeated}")
    return sorted(found, key=lambda page: page.slug)
