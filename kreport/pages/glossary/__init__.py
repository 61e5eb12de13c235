"""The glossary: every symbol and term the site uses, in one place."""

from __future__ import annotations

from kreport.report import Page, claim

from .notation import SYMBOL_GROUPS, SYMBOLS, TERMS


def symbols() -> dict:
    """The notation, one table per topic, each in the order a reader meets it."""
    anchors = [s.anchor for s in SYMBOLS] + [t.anchor for t in TERMS]
    claim("every symbol and every term has an anchor of its own, so a link to the glossary "
          "lands on one entry", len(anchors) == len(set(anchors)))
    claim("no symbol is listed twice", len({s.tex for s in SYMBOLS}) == len(SYMBOLS))
    return {"groups": [{"title": title,
                        "rows": [{"tex": s.tex, "meaning": s.meaning, "anchor": s.anchor}
                                 for s in group]}
                       for title, group in SYMBOL_GROUPS]}


def terms() -> dict:
    """The terms, alphabetically, with the other spellings a reader may search for."""
    ordered = sorted(TERMS, key=lambda term: term.name.lower())
    return {"rows": [{"name": t.name, "meaning": t.meaning, "anchor": t.anchor,
                      "also": " / ".join(t.also)} for t in ordered]}


page = Page(slug="glossary", title="Glossary of symbols and terms", template="glossary.md.j2",
            summary="Every symbol and term the pages use, with its one meaning.",
            sections=[symbols, terms])
