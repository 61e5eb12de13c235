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
