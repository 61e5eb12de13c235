"""How long a page takes to read: prose words at 120 a minute, plus a minute for
each table and each figure (the measure issue 17 of the project set for a page
a class can be assigned: no teaching page over about 35 minutes)."""

from __future__ import annotations

import re

from .markdown import PROVENANCE_OPENING

WORDS_PER_MINUTE = 120
#: The longest reading a class can be assigned in one go; the how-built page claims
#: that no page is longer, so a page that grows past it fails the build.
ASSIGNABLE_MINUTES = 35
FENCED_CODE = re.compile(r"^```.*?^```", re.M | re.S)
#: A script is for the browser (a split page's redirect of its moved anchors), not read.
SCRIPT = re.compile(r"<script\b.*?</script>", re.S)
DISPLAY_MATH = re.compile(r"\$\$.+?\$\$", re.S)
INLINE_MATH = re.compile(r"\$[^$\n]+\$")
TAG = re.compile(r"<[^>]+>")
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")  # its alt text is for a screen reader
LINK_TARGET = re.compile(r"\]\([^)]*\)")
TABLE_RULE = re.compile(r"^\|(?:\s*:?-{3,}:?\s*\|)+\s*$", re.M)
FIGURE = re.compile(r"<figure\b")
#: The front matter (the page's meta description) is for search results, not read.
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
#: The audit block at a page's foot is for whoever checks the build, not read.
PROVENANCE = re.compile("^" + re.escape(PROVENANCE_OPENING) + ".*", re.M | re.S)
WORD = re.compile(r"[A-Za-z\u00C0-\u024F]+(?:['’-][A-Za-z]+)*|\d[\d,.]*")


def reading_minutes(markdown: str) -> dict:
    """Words, tables, figures and the minutes they take, for one page's markdown."""
    tables = len(TABLE_RULE.findall(markdown))
    figures = len(FIGURE.findall(markdown))
    text = PROVENANCE.sub("", FRONT_MATTER.sub("", markdown))
    text = SCRIPT.sub(" ", text)
    text = FENCED_CODE.sub(" ", text)
    text = DISPLAY_MATH.sub(" ", text)
    text = INLINE_MATH.sub(" x ", text)  # a symbol reads as a word
    text = TAG.sub(" ", text)
    text = IMAGE.sub(" ", text)
    text = LINK_TARGET.sub("]", text)
    # table rows are counted as tables, not as prose
    prose = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("|"))
    words = len(WORD.findall(prose))
    return {"words": words, "tables": tables, "figures": figures,
            "minutes": words / WORDS_PER_MINUTE + tables + figures}
