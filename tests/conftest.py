"""Shared fixtures: every page computed afresh once per test session."""

from __future__ import annotations

import pytest

from kreport.report.build import discover_pages, page_outputs

PAGES = discover_pages()


@pytest.fixture(scope="session")
def fresh_outputs():
    """Each page's files and facts, recomputed from the code with no cache."""
    computed = {}

    def outputs(slug: str):
        if slug not in computed:
            page = next(page for page in PAGES if page.slug == slug)
            computed[slug] = page_outputs(page, use_cache=False)
        return computed[slug]

    return outputs
