"""Shared fixtures: the whole site computed afresh once per test session."""

from __future__ import annotations

import pytest

from kreport.pages import NOTEBOOKS, all_pages
from kreport.site.build import build
from kreport.site.paths import REPOSITORY, SitePaths

PAGES = all_pages()
PATHS = SitePaths.for_repository(REPOSITORY)


@pytest.fixture(scope="session")
def site():
    """Every page and notebook recomputed from the code with no cache, rendered and
    checked exactly as `make docs` does (stability check included), nothing written."""
    return build(PAGES, NOTEBOOKS, PATHS, use_cache=False, echo=lambda line: None)
