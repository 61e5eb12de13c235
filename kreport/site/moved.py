"""What a change did to the site: the facts that moved, from what to what, and
the sentences that print them.

:func:`moved_facts` compares a committed manifest with a fresh one by the same
rule as :mod:`kreport.site.compare` (each fact within its own tolerance) and
lists every fact whose value moved beyond it, appeared or disappeared, with the
sentences of the fresh page that print it. ``make docs`` ends with this table,
and the drift test fails with it, so a reviewer sees what a change did without
reading a diff of JSON.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass

from kreport.report.render import tex_key

from .compare import _numbers_close

TAG = re.compile(r"<[^>]+>")
HTMLDATA = re.compile(r"\\htmlData\{fact=[^}]*\}")
ADMONITION = re.compile(r'^\s*(?:\?\?\?|!!!)\+?\s+\w+(?:\s+"[^"]*")?\s*', re.M)
PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


@dataclass(frozen=True)
class Moved:
    """One fact that moved: its page, key, old and new value, tolerance, sentences."""

    page: str
    key: str
    old: object
    new: object
    rtol: float
    sentences: tuple[str, ...]

    def line(self) -> str:
        where = (" | ".join(self.sentences) if self.sentences
                 else "(removed)" if self.new is None else "(not printed)")
        return (f"{self.page} | {self.key} | {_short(self.old)} → {_short(self.new)} | "
                f"rtol {self.rtol:g} | {where}")


def _short(value) -> str:
    if value is None:
        return "(none)"
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


def _plain(text: str) -> str:
    text = ADMONITION.sub("", HTMLDATA.sub("", text))
    text = html.unescape(TAG.sub("", text))
    return " ".join(text.split())


def sentences_printing(markdown: str, key: str, limit: int = 3) -> tuple[str, ...]:
    """The sentences of a page that print fact ``key`` (as text or in maths)."""
    markers = (f'data-fact="{key}"', f"\\htmlData{{fact={tex_key(key)}}}")
    found = []
    for paragraph in PARAGRAPH_BREAK.split(markdown):
        if not any(marker in paragraph for marker in markers):
            continue
        # a table's unit is its row, prose's the sentence
        pieces = paragraph.splitlines() if paragraph.lstrip().startswith("|") \
            else SENTENCE_END.split(paragraph)
        for sentence in pieces:
            if any(marker in sentence for marker in markers):
                plain = _plain(sentence)
                found.append(plain if len(plain) <= 160 else plain[:157] + "...")
        if len(found) >= limit:
            break
    return tuple(found[:limit])


def _moved(old, new, rtol: float) -> bool:
    if isinstance(old, int | float) and isinstance(new, int | float) \
            and not isinstance(old, bool) and not isinstance(new, bool):
        return not _numbers_close(old, new, rtol)
    return old != new


def moved_facts(page: str, committed: bytes, fresh: bytes, markdown: str = "") -> list[Moved]:
    """Every fact of a page's manifest that moved beyond its tolerance."""
    old, new = json.loads(committed), json.loads(fresh)
    default = new.get("default_rtol", 0.0)
    old_facts = {fact["key"]: fact for fact in old.get("facts", [])}
    new_facts = {fact["key"]: fact for fact in new.get("facts", [])}
    rows = []
    for key in sorted(set(old_facts) | set(new_facts)):
        before, after = old_facts.get(key), new_facts.get(key)
        rtol = (after or before).get("rtol", default)
        if before is not None and after is not None \
                and not _moved(before.get("value"), after.get("value"), rtol):
            continue
        rows.append(Moved(page, key, before and before.get("value"), after and after.get("value"),
                          rtol, sentences_printing(markdown, key) if after else ()))
    return rows


def table(rows: list[Moved]) -> str:
    """The moved facts as lines a terminal shows well."""
    return "\n".join(["page | fact | old → new | tolerance | printed in",
                      *(row.line() for row in rows)])


def notebook_text(notebook: bytes) -> str:
    """A built notebook's markdown cells, one paragraph apart, to search like a page."""
    cells = json.loads(notebook).get("cells", [])
    return "\n\n".join("".join(cell.get("source", [])) for cell in cells
                        if cell.get("cell_type") == "markdown")


def site_moves(files: dict[str, bytes], docs) -> list[Moved]:
    """Every moved fact of every page and notebook in ``files`` (a build's output,
    relative to docs/) against the manifests committed in ``docs``."""
    rows: list[Moved] = []
    for relative in sorted(files):
        if not relative.startswith("data/") or relative.count("/") != 1:
            continue
        slug = relative[len("data/"):-len(".json")]
        page_file = f"{slug}.md"
        if page_file not in files and f"{slug}.ipynb" not in files:
            continue  # a playground's data file, not a manifest
        committed = docs / relative
        if not committed.exists() or committed.read_bytes() == files[relative]:
            continue
        if page_file in files:
            markdown = files[page_file].decode()
        else:  # a notebook: its text is in its markdown cells
            markdown = notebook_text(files[f"{slug}.ipynb"])
        rows += moved_facts(slug, committed.read_bytes(), files[relative], markdown)
    return rows
