"""One notation: every symbol a page's mathematics uses is in the glossary, the
glossary gives each symbol one meaning, and every page links to it."""

from __future__ import annotations

import json

import pytest

from kreport.pages.glossary.notation import SYMBOLS, TERMS
from kreport.site.checks import known_symbols, math_symbols

from .conftest import NOTEBOOKS, PAGES

KNOWN = known_symbols()  # the build's own list (make docs refuses an unknown symbol too)


def _page_text(site, slug: str) -> str:
    if f"{slug}.md" in site.files:
        return site.files[f"{slug}.md"].decode()
    document = json.loads(site.files[f"{slug}.ipynb"])
    return "\n".join("".join(cell["source"]) for cell in document["cells"]
                     if cell["cell_type"] == "markdown")


SLUGS = [page.slug for page in PAGES] + [notebook.slug for notebook in NOTEBOOKS]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_symbol_on_the_page_is_in_the_glossary(site, slug):
    unknown = sorted(math_symbols(_page_text(site, slug)) - KNOWN)
    assert not unknown, (f"{slug} writes {unknown}, which the glossary does not list; add each "
                         "to kreport/pages/glossary/notation.py (or write it with a listed one)")


@pytest.mark.parametrize("slug", [slug for slug in SLUGS if slug != "glossary"])
def test_every_page_links_to_the_glossary(site, slug):
    assert "glossary.md" in _page_text(site, slug), f"{slug} does not link to the glossary"


def test_each_symbol_and_term_has_one_entry():
    for attribute, entries in (("tex", SYMBOLS), ("anchor", SYMBOLS), ("name", TERMS)):
        values = [getattr(entry, attribute) for entry in entries]
        assert len(values) == len(set(values)), f"a {attribute} is listed twice"


def test_spelling_tags_need_the_term_itself_not_its_first_letter():
    # The stems were compared case-sensitively, so "Cholesky factorization" shared no
    # prefix with "cholesky factorisation" and its stem was the single letter "c":
    # 165 of 166 sections were tagged with it.
    from kreport.site.mkdocs_hooks import spelling_tags

    assert "Cholesky factorization" not in spelling_tags("a section about the penalty, in cm")
    assert "Cholesky factorization" in spelling_tags("one Cholesky factorisation of G")
    assert "centering" in spelling_tags("centring the rows")
    assert "centering" not in spelling_tags("a cluster of points")
