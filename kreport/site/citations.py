"""Citations: a template's ``[@key]`` becomes a plain Markdown footnote.

A template cites with ``[@key]`` (or ``[@a; @b]``), keys from
``docs/references.bib``. When its markdown is finalised, every citation is
written as the footnote reference ``[^key]`` and the page gains one footnote
definition per cited entry, ``[^key]: <reference>``, in the order of first
citation, formatted by pybtex's ``plain`` style through its Markdown backend.

Why here and not in an mkdocs plugin: the plugin that did this (mkdocs-bibtex)
is unmaintained, and it rewrote the text after the build's checks had seen it
(its syntax once turned a paragraph that opened with a citation into a
footnote definition, and the paragraph vanished). Done by the generator,
``docs/*.md`` is plain Markdown that any MkDocs-compatible builder renders
with the ``footnotes`` extension, the checks see what the reader gets, an
unknown key fails the build naming the page, and the bibliography is an input
of the rendered text's cache key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

#: One cited key: what mkdocs-bibtex accepted, so every existing key still parses.
_KEY = r"[\w-]+"
#: ``[@key]`` or ``[@a; @b]``.
CITATION = re.compile(rf"\[(@{_KEY}(?:\s*;\s*@{_KEY})*)\]")
#: Anything that starts like a citation; what :data:`CITATION` leaves of it is malformed.
CITATION_LIKE = re.compile(r"\[@[^\]\n]*\]?")
#: A footnote reference, as written here: ``[^key]``.
FOOTNOTE_REFERENCE = re.compile(rf"\[\^{_KEY}\]")
#: A footnote definition line, as written here.
FOOTNOTE_DEFINITION = re.compile(rf"^\[\^({_KEY})\]: ")
#: BibTeX's ``\url{…}`` in a field, which pybtex's plain style passes through as text.
URL_COMMAND = re.compile(r"\\url\{([^{}]*)\}")
#: A bare web address in pybtex's Markdown (its punctuation escaped), up to a space or
#: comma; one that is already a link's text or target (a DOI) is left alone.
WEB_ADDRESS = re.compile(r"(?<![\[(<])https?://[^\s,\[\]()]+")


class CitationError(ValueError):
    """A template cites a key the bibliography lacks, or writes a footnote itself."""


@dataclass(frozen=True)
class Bibliography:
    """The formatted reference of every entry of one ``.bib`` file, by key."""

    path: Path
    references: dict[str, str]


#: Parsed bibliographies by (path, modification time, size): every page of a
#: build cites from the same file, which is parsed once per process.
_PARSED: dict[tuple, Bibliography] = {}


def load(path: Path) -> Bibliography:
    """The bibliography in ``path``, parsed and formatted once per process (and
    again only after the file is saved)."""
    path = Path(path)
    try:
        status = path.stat()
    except FileNotFoundError:
        raise CitationError(f"there is no bibliography at {path}") from None
    stamp = (str(path.resolve()), status.st_mtime_ns, status.st_size)
    if stamp not in _PARSED:
        _PARSED[stamp] = Bibliography(path=path, references=_format_all(path))
    return _PARSED[stamp]


def _format_all(path: Path) -> dict[str, str]:
    # pybtex is imported here: a page that cites nothing never needs it.
    from pybtex.database import parse_file
    from pybtex.exceptions import PybtexError
    from pybtex.plugin import find_plugin

    style = find_plugin("pybtex.style.formatting", "plain")()
    backend = find_plugin("pybtex.backends", "markdown")()
    try:
        data = parse_file(str(path), bib_format="bibtex")
    except PybtexError as error:
        raise CitationError(f"{path.name} does not parse: {error}") from None
    references = {}
    for key, entry in data.entries.items():
        for name, value in list(entry.fields.items()):
            entry.fields[name] = URL_COMMAND.sub(r"\1", str(value))
        try:
            references[key] = _as_one_line(style.format_entry("", entry).text.render(backend))
        except PybtexError as error:  # a field the style needs is missing
            raise CitationError(f"{path.name}: entry {key!r} cannot be formatted: {error}") \
                from None
    return references


def _as_one_line(text: str) -> str:
    """pybtex's Markdown, on the one line a footnote definition takes.

    Its backend escapes every punctuation mark. The escaped parentheses must go:
    ``\\(`` and ``\\)`` open and close inline math for the arithmatex extension
    (``10\\(5\\):1299`` would be typeset as TeX). The escaped full stops are
    unescaped too, as mkdocs-bibtex did; the other escapes Markdown removes itself.
    """
    text = text.replace("\n", " ")
    text = text.replace("\\(", "(").replace("\\)", ")").replace("\\.", ".")
    return WEB_ADDRESS.sub(_autolink, text)


def _autolink(match: re.Match) -> str:
    """A web address as a Markdown autolink, its escapes removed (a full stop that
    ends the sentence stays outside)."""
    address = match.group(0)
    stop = "." if address.endswith(".") else ""
    return "<" + address.rstrip(".").replace("\\", "") + ">" + stop


def cited_keys(text: str) -> list[str]:
    """The keys ``text`` cites, each once, in the order of first citation."""
    keys: dict[str, None] = {}
    for match in CITATION.finditer(text):
        keys.update((key.strip().lstrip("@"), None) for key in match.group(1).split(";"))
    return list(keys)


def cite(text: str, bibliography: Path | Bibliography, where: str) -> str:
    """``text`` with its citations as footnote references and the definitions of
    the cited entries appended, in order of first citation.

    ``where`` names the page in errors. Raises :class:`CitationError` for an
    unknown key, a malformed citation, or a footnote the template wrote itself
    (every footnote on a page is a citation, so the checks may trust them).
    """
    if "[^" in text:
        raise CitationError(f"{where} writes a footnote ('[^…]') itself; footnotes are "
                            "citations, written [@key] with a key from docs/references.bib")
    keys = cited_keys(text)
    malformed = sorted({match.group(0) for match in CITATION_LIKE.finditer(CITATION.sub("", text))})
    if malformed:
        raise CitationError(f"{where} has a malformed citation {malformed}; write [@key] or "
                            "[@first; @second] with keys from docs/references.bib")
    if not keys:
        return text
    if not isinstance(bibliography, Bibliography):
        bibliography = load(bibliography)
    unknown = [key for key in keys if key not in bibliography.references]
    if unknown:
        raise CitationError(f"{where} cites {unknown}, which {bibliography.path.name} does not "
                            f"hold; its keys are {sorted(bibliography.references)}")
    body = CITATION.sub(lambda match: "".join(f"[^{key}]" for key in cited_keys(match.group(0))),
                        text)
    definitions = "\n".join(f"[^{key}]: {bibliography.references[key]}" for key in keys)
    return body.rstrip("\n") + "\n\n" + definitions + "\n"


def split_references(text: str) -> tuple[str, str]:
    """A page's markdown as (its text, the footnote definitions :func:`cite` appended).

    The definitions are the run of footnote-definition lines that ends the page;
    one anywhere else is text that Markdown would remove (see
    :func:`kreport.site.checks.definition_lines`)."""
    lines = text.splitlines(keepends=True)
    start = len(lines)
    while start and FOOTNOTE_DEFINITION.match(lines[start - 1]):
        start -= 1
    return "".join(lines[:start]), "".join(lines[start:])
