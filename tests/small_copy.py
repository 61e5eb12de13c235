"""A repository whose pages are the tiny site's, for tests that run the project's
own commands on a site and edit it (the preview, a page added as AUTHORING.md
says, then accepted) without touching the working tree.

The copy holds the library, the driver, the scripts, the regression test with its
conftest and the helper that imports a script, and docs/ with the hand-written
assets only. Its list of pages is the
tiny site's two (tests/tinysite, moved into ``kreport/pages`` as ``tiny_ring`` and
``tiny_fit``), with any named in ``also``, and no notebook (a notebook's kernel
is the slowest part of a small build, and these tests edit pages;
tests/test_tinysite.py builds the tiny notebook).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from . import tinysite

ROOT = Path(__file__).resolve().parents[1]
#: Where each tiny page lives in the copy.
TINY_PACKAGES = {"ring": "tiny_ring", "fit": "tiny_fit"}


def small_copy(target: Path, also: tuple[str, ...] = ()) -> Path:
    """The repository with the tiny site's pages (and the pages ``also`` names, which
    the caller writes into ``kreport/pages``) in ``target``."""
    shutil.copytree(ROOT / "kreport", target / "kreport",
                    ignore=shutil.ignore_patterns("__pycache__"))
    pages = target / "kreport" / "pages"
    shutil.rmtree(pages / "home")  # the tiny site has a home page of its own
    for source, name in TINY_PACKAGES.items():
        shutil.copytree(tinysite.HERE / source, pages / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    # The other page packages stay (the library's tests and pages import them); the
    # copy's list of pages names only the tiny ones and those asked for.
    slugs = sorted({"index", "fit", *also})
    listing = pages / "__init__.py"
    text = listing.read_text()
    start = text.index("NOTEBOOKS: list[Notebook] = [")
    end = text.index("]\n", start) + 2
    listing.write_text(
        text[:start] + "NOTEBOOKS: list[Notebook] = []\n" + text[end:]
        + "\n\n_every_page = all_pages\n\n\ndef all_pages() -> list[Page]:\n"
        + f"    return [page for page in _every_page() if page.slug in {slugs!r}]\n")
    shutil.copytree(ROOT / "scripts", target / "scripts",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("requirements.lock", "pyproject.toml"):
        shutil.copy(ROOT / name, target / name)
    (target / "tests").mkdir()
    for name in ("__init__.py", "conftest.py", "scripts.py", "test_regression.py"):
        shutil.copy(ROOT / "tests" / name, target / "tests" / name)
    (target / "tests" / "test_regression").mkdir()
    tinysite.lay_out(target, ["index.md", "fit.md", *(f"{slug}.md" for slug in also)])
    return target


def environment_for(copy: Path) -> dict:
    """The copy's commands' environment: its own kreport (not the one the venv's
    editable install points at), and none of this test run's pytest-xdist settings
    (a pytest the copy runs is a run of its own)."""
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith(("PYTEST_XDIST", "PYTEST_CURRENT_TEST"))}
    return dict(environment, PYTHONPATH=str(copy), NO_MKDOCS_2_WARNING="1", PYTHONHASHSEED="0")
