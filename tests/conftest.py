"""Shared fixtures: the whole site computed afresh once per test run.

While working on one page, ``KREPORT_PAGES=kernel-pca pytest tests/...`` builds
and tests only the pages (and notebooks) named, comma-separated; the checks
that need the whole site (the navigation, docs/ holding nothing else) then wait
for a full run.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from kreport.pages import NOTEBOOKS as ALL_NOTEBOOKS
from kreport.pages import all_pages
from kreport.report.page import Page, PageResult
from kreport.site import executor
from kreport.site.build import build, facts_key
from kreport.site.cache import CacheStore
from kreport.site.executor import Failed, Job
from kreport.site.paths import REPOSITORY, SitePaths

ONLY = [slug for slug in os.environ.get("KREPORT_PAGES", "").split(",") if slug]
PAGES = [page for page in all_pages() if not ONLY or page.slug in ONLY]
NOTEBOOKS = [notebook for notebook in ALL_NOTEBOOKS if not ONLY or notebook.slug in ONLY]
PATHS = SitePaths.for_repository(REPOSITORY)
# `make accept` sets this to reuse the cache the build it just ran filled (every
# cached result is keyed by all of its inputs); a plain `make test` computes afresh.
USE_CACHE = os.environ.get("KREPORT_TEST_CACHE") == "1"


@pytest.fixture(scope="session")
def run_cache(tmp_path_factory) -> Path:
    """Where this run keeps what it computed: the repository's cache for `make
    accept`; else a folder of this run's own, which every worker shares (the
    computed site and the page tests then compute each page once between them,
    and nothing computed before the run is used)."""
    if USE_CACHE:
        return PATHS.cache
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return tmp_path_factory.getbasetemp().parent / "cache"
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def site(run_cache):
    """Every page and notebook computed from the code in this run, rendered and
    checked exactly as `make docs` does (stability check included), nothing written."""
    return build(PAGES, NOTEBOOKS, dataclasses.replace(PATHS, cache=run_cache),
                 echo=lambda line: None, partial=bool(ONLY))


@pytest.fixture(scope="session")
def computed(run_cache):
    """A page's result on the committed data, as the build computes it (in a process
    of its own), shared through this run's cache with the computed site."""
    store = CacheStore(run_cache)

    def compute(page: Page) -> PageResult:
        job = Job(page, 0, facts_key(page, PATHS))
        value = executor.run([job], store, PATHS.root, echo=lambda line: None)[0][job]
        if isinstance(value, Failed):
            pytest.fail(f"{page.slug} does not compute: {value.message}")
        return value

    return compute


def _work_group(item) -> str:
    """The unit of work pytest-xdist hands to one worker (``--dist loadgroup``).

    Whatever shares a costly fixture goes to one worker, so that it is computed
    once: every test of the computed site (about a minute and a half of pages and
    replicas) and of a page computed as the site computes it (the same cache
    entries: on another worker, at the same time, the page would be computed
    twice), and every test of a module, whose module fixtures build sites
    and environments. The browser tests are the exception that makes the split
    worth having: each view of a page (one opening at one width, measured in both
    colour schemes by five tests each) is a unit of its own, and the views spread
    over the workers; the browser module's built site is shared between workers
    (see its ``site_url``).
    """
    if {"site", "computed"} & set(item.fixturenames):
        return "site"  # a page computed once, by the site, then read from the run's cache
    module = item.module.__name__.rpartition(".")[2]
    if module != "test_browser":
        return module
    if "search_page" in item.fixturenames:
        return "search"  # the queries share one open page and its built search index
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
