"""The glossary: every symbol and term the site uses, in one place."""

from __future__ import annotations

from kreport.report import Page

from .notation import SYMBOLS, TERMS


def symbols() -> dict:
    """The notation table, in the order a reader meets it."""
    return {"rows": [{"tex": s.tex, "meaning": s.meaning, "anchor": s.anchor} for s in SYMBOLS]}


def terms() -> dict:
    """The terms, alphabetically, with the other spellings a reader may search for."""
    ordered = sorted(TERMS, key=lambda term: term.name.lower())
    return {"rows": [{"name": t.name, "meaning": t.meaning, "anchor": t.anchor,
                      "also": " / ".join(t.also)} for t in ordered]}


page = Page(slug="glossary", title="Glossary of symbols and terms", template="glossary.md.j2",
            summary="Every symbol and term the pages use, with its one meaning.",
            sections=[symbols, terms])
