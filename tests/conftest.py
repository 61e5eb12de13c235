"""Shared fixtures: the whole site computed afresh once per test session.

While working on one page, ``KREPORT_PAGES=kernel-pca pytest tests/...`` builds
and tests only the pages (and notebooks) named, comma-separated; the checks
that need the whole site (the navigation, docs/ holding nothing else) then wait
for a full run.
"""

from __future__ import annotations

import os

import pytest

from kreport.pages import NOTEBOOKS as ALL_NOTEBOOKS
from kreport.pages import all_pages
from kreport.site.build import build
from kreport.site.paths import REPOSITORY, SitePaths

ONLY = [slug for slug in os.environ.get("KREPORT_PAGES", "").split(",") if slug]
PAGES = [page for page in all_pages() if not ONLY or page.slug in ONLY]
NOTEBOOKS = [notebook for notebook in ALL_NOTEBOOKS if not ONLY or notebook.slug in ONLY]
PATHS = SitePaths.for_repository(REPOSITORY)
# `make accept` sets this to reuse the cache the build it just ran filled (every
# cached result is keyed by all of its inputs); a plain `make test` computes afresh.
USE_CACHE = os.environ.get("KREPORT_TEST_CACHE") == "1"


@pytest.fixture(scope="session")
def site():
    """Every page and notebook recomputed from the code with no cache, rendered and
    checked exactly as `make docs` does (stability check included), nothing written."""
    return build(PAGES, NOTEBOOKS, PATHS, use_cache=USE_CACHE, echo=lambda line: None,
                 partial=bool(ONLY))


def _work_group(item) -> str:
    """The unit of work pytest-xdist hands to one worker (``--dist loadgroup``).

    Whatever shares a costly fixture goes to one worker, so that it is computed
    once: every test of the computed site (about a minute and a half of pages and
    replicas), and every test of a module, whose module fixtures build sites
    and environments. The browser tests are the exception that makes the split
    worth having: each view of a page (one opening at one width, measured in both
    colour schemes by five tests each) is a unit of its own, and the views spread
    over the workers; the browser module's built site is shared between workers
    (see its ``site_url``).
    """
    if "site" in item.fixturenames:
        return "site"
    module = item.module.__name__.rpartition(".")[2]
    if module != "test_browser":
        return module
    params = getattr(item, "callspec", None) and item.callspec.params
    if params and {"source", "width", "scheme"} <= params.keys():
        return f"view-{params['source']}-{params['width']}"  # both schemes: one opening
    return item.nodeid


# First, before pytest-xdist's own hook reads the marks into each test's id.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        item.add_marker(pytest.mark.xdist_group(_work_group(item)))


def pytest_collection_finish(session):
    # pytest-xdist marks a grouped test by its id; if it stops doing so (as it
    # did on pytest 9.2), the costly fixtures are computed once per worker and
    # the run is slower than no split at all, so say so instead.
    items = session.items
    if (os.environ.get("PYTEST_XDIST_WORKER") and session.config.getvalue("loadgroup")
            and items and "@" not in items[0].nodeid):
        raise pytest.UsageError(
            "pytest-xdist did not group the tests (pytest-xdist#1386 on pytest 9.2): "
            "install the lock's pytest (make test does), or run with -n 0")
