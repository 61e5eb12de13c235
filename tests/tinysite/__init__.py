"""The tiny site: two small pages and a notebook, built by the real machinery.

The tests of the machinery (the cache, the checks, the stability check, the
writers, the mkdocs hooks) run on this site, as sphinx-gallery's tests run on
its ``tinybuild``: it builds from nothing in seconds, where the production
site takes a minute and a half. The production site is built once per run, for
the drift and regression tests only (tests/test_site.py, tests/test_regression.py).

- ``index`` (``.ring``): numbers in prose and in maths, a claim with its
  tick, a table, a citation and the provenance list.
- ``fit`` (``.fit``): a figure (both layouts) and a number a solve computes.
- ``tiny-notebook``: a notebook whose code cells publish facts its text prints.

:func:`make` lays out a repository for them in a scratch folder: docs/ holding
only the hand-written assets, and the site's own mkdocs.yml with the tiny
navigation (the theme and the hooks are the real ones, through a link).
"""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path

from kreport.report.page import Notebook
from kreport.site.paths import REPOSITORY, SitePaths

HERE = Path(__file__).resolve().parent


def pages() -> list:
    """The two pages, sorted by slug as ``all_pages()`` gives them. Imported by name,
    as kreport.pages finds its pages: an import statement here would make each page's
    cache key follow the other's code (a page is keyed by its packages' imports)."""
    return [importlib.import_module(f"{__name__}.{name}").page for name in ("fit", "ring")]


NOTEBOOKS = [Notebook(slug="tiny-notebook", title="Notebook: a tiny one",
                      source=HERE / "tiny_notebook.ipynb")]
NAVIGATION = ["index.md", "fit.md", "tiny-notebook.ipynb"]


def lay_out(root: Path, navigation: list[str]) -> None:
    """A repository's docs/ (the hand-written assets only) and its mkdocs.yml (the
    site's own, listing ``navigation``) in ``root``."""
    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    for asset in ("assets", "javascripts", "stylesheets"):
        shutil.copytree(REPOSITORY / "docs" / asset, docs / asset, dirs_exist_ok=True)
    for asset in ("ASSETS", "facts.html", "references.bib"):
        shutil.copy(REPOSITORY / "docs" / asset, docs / asset)
    config = (REPOSITORY / "mkdocs.yml").read_text()
    start = config.index("nav:\n")
    end = config.index("\ntheme:", start)
    (root / "mkdocs.yml").write_text(
        config[:start] + "nav:\n" + "".join(f"  - {name}\n" for name in navigation)
        + config[end:])


def make(root: Path) -> SitePaths:
    """The tiny site's repository in ``root`` (made if missing); its paths."""
    lay_out(root, NAVIGATION)
    link = root / "kreport"
    if not link.exists():
        link.symlink_to(REPOSITORY / "kreport")  # the theme's override and the hooks
    return SitePaths(root=root, docs=root / "docs", cache=root / ".cache",
                     mkdocs_config=root / "mkdocs.yml",
                     lock_file=REPOSITORY / "requirements.lock",
                     assets_list=root / "docs" / "ASSETS")
