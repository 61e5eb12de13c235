"""Citations are plain Markdown footnotes that the build writes (kreport.site.citations).

A template cites with ``[@key]``; the generated page holds ``[^key]`` and one
footnote definition per cited entry, formatted by pybtex. These tests render
Markdown through the extensions mkdocs.yml enables (what MkDocs and ProperDocs
do), so they show what a reader gets: every citation a footnote reference,
every reference list complete, in the order of first citation, with the text
and links pybtex gives; a paragraph that opens with a citation stays a
paragraph; an unknown key stops the build, naming it.
"""

from __future__ import annotations

import re
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
import yaml

from kreport.pages import all_pages
from kreport.site import checks, citations
from kreport.site.build import BuildFailed, _render_key, build_site, facts_key
from kreport.site.citations import CitationError, cite
from kreport.site.paths import SitePaths

from .conftest import PATHS

BIB = PATHS.bibliography
#: A citation as a template writes it (read independently of the module under test).
TEMPLATE_CITATION = re.compile(r"\[(@[\w-]+(?:\s*;\s*@[\w-]+)*)\]")


def mkdocs_markdown() -> markdown.Markdown:
    """Python-Markdown with the extensions and settings of mkdocs.yml."""
    config = yaml.load(PATHS.mkdocs_config.read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    names, settings = [], {}
    for entry in config["markdown_extensions"]:
        if isinstance(entry, dict):
            (name, options), = entry.items()
            names.append(name)
            settings[name] = {key: value == "true" if value in ("true", "false") else value
                              for key, value in (options or {}).items()}
        else:
            names.append(entry)
    return markdown.Markdown(extensions=names, extension_configs=settings)


def to_html(text: str) -> str:
    return mkdocs_markdown().convert(text)


def template_keys(source: str) -> list[str]:
    """The keys a template cites, once each, in the order of first citation."""
    keys: dict[str, None] = {}
    for block in TEMPLATE_CITATION.findall(source):
        keys.update((key.strip().lstrip("@"), None) for key in block.split(";"))
    return list(keys)


class _References(HTMLParser):
    """The footnote references and the reference list of a page's HTML."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cited: list[str] = []  # fnref: ids, in page order
        self.listed: list[str] = []  # fn: ids of the list, in order
        self.text: dict[str, str] = {}
        self.links: dict[str, list[str]] = {}
        self._item: str | None = None
        self._backref = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        ident = attrs.get("id") or ""
        if tag == "sup" and ident.startswith("fnref"):
            self.cited.append(ident.split(":", 1)[1])
        elif tag == "li" and ident.startswith("fn:"):
            self._item = ident[3:]
            self.listed.append(self._item)
            self.text[self._item], self.links[self._item] = "", []
        elif tag == "a" and self._item:
            self._backref = "footnote-backref" in (attrs.get("class") or "")
            if not self._backref:
                self.links[self._item].append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "li":
            self._item = None
        elif tag == "a":
            self._backref = False

    def handle_data(self, data):
        if self._item and not self._backref:
            self.text[self._item] += data


def references_of(html: str) -> _References:
    parser = _References()
    parser.feed(html)
    return parser


def pybtex_reference(key: str) -> tuple[str, list[str]]:
    """pybtex's own rendering of an entry in the plain style: its text and its links.
    A field's ``\\url{address}`` (which the plain style would print as TeX) reads as the
    address, linked."""
    from pybtex.database import parse_file
    from pybtex.plugin import find_plugin

    entry = parse_file(str(BIB)).entries[key]
    addresses = []
    for name, value in list(entry.fields.items()):
        addresses += re.findall(r"\\url\{([^{}]*)\}", str(value))
        entry.fields[name] = re.sub(r"\\url\{([^{}]*)\}", r"\1", str(value))
    formatted = find_plugin("pybtex.style.formatting", "plain")().format_entry("", entry).text
    text = formatted.render(find_plugin("pybtex.backends", "text")())
    html = formatted.render(find_plugin("pybtex.backends", "html")())
    return " ".join(text.split()), re.findall(r'href="([^"]+)"', html) + addresses


def reference_problems(html: str, cited: list[str], where: str) -> list[str]:
    """How a page's HTML differs from what its template cites and what pybtex gives."""
    found = references_of(html)
    problems = []
    if set(found.cited) != set(cited):
        problems.append(f"{where}: footnote references {sorted(set(found.cited))}, "
                        f"the template cites {sorted(cited)}")
    if found.listed != cited:
        problems.append(f"{where}: reference list {found.listed}, order of first citation "
                        f"{cited}")
    for key in found.listed:
        text, links = pybtex_reference(key)
        shown = " ".join(found.text[key].replace("\xa0", " ").split())
        if shown != text:
            problems.append(f"{where}: [{key}] reads {shown!r}, pybtex gives {text!r}")
        if found.links[key] != links:
            problems.append(f"{where}: [{key}] links {found.links[key]}, pybtex gives {links}")
    return problems


# ---------------------------------------------------------------- every page, as built


@pytest.mark.parametrize("page", all_pages(), ids=lambda page: page.slug)
def test_every_citation_and_reference_list_renders_as_pybtex_formats_it(page):
    cited = template_keys(page.template_path.read_text(encoding="utf-8"))
    published = (PATHS.docs / f"{page.slug}.md").read_text(encoding="utf-8")
    assert "[@" not in published
    assert reference_problems(to_html(published), cited, page.slug) == []


def test_the_site_cites_something():
    # the test above must not pass by finding no citation anywhere
    assert sum(bool(template_keys(page.template_path.read_text())) for page in all_pages()) > 5


# ---------------------------------------------------------------- the conversion


def test_a_citation_becomes_a_footnote_and_the_list_follows_first_citation():
    text = "Ridge [@hoerl_ridge]. Both [@mercer_1909; @hastie_elements]. Again [@hoerl_ridge].\n"
    written = cite(text, BIB, "page.md.j2")
    body, references = citations.split_references(written)
    assert body == ("Ridge [^hoerl_ridge]. Both [^mercer_1909][^hastie_elements]. "
                    "Again [^hoerl_ridge].\n\n")
    assert [line.split("]:")[0][2:] for line in references.splitlines()] == [
        "hoerl_ridge", "mercer_1909", "hastie_elements"]
    assert reference_problems(to_html(written), ["hoerl_ridge", "mercer_1909",
                                                 "hastie_elements"], "page") == []


def test_a_page_that_cites_nothing_is_left_alone(tmp_path):
    text = "No citation, an email a@b.org and a matrix product $X @ w$.\n"
    assert cite(text, tmp_path / "no-such.bib", "page.md.j2") == text


def test_a_paragraph_that_opens_with_a_citation_stays_a_paragraph():
    # mkdocs-bibtex once made such a line a footnote definition: the paragraph vanished
    text = ("Before.\n\n[@hoerl_ridge] introduced ridge regression, and\n"
            "[@hastie_elements] derives its shrinkage.\n\nAfter.\n")
    html = to_html(cite(text, BIB, "page.md.j2"))
    assert re.search(r'<p><sup id="fnref:hoerl_ridge"><a class="footnote-ref" '
                     r'href="#fn:hoerl_ridge">1</a></sup> introduced ridge regression, and\n'
                     r'<sup id="fnref:hastie_elements">.*</sup> derives its shrinkage\.</p>',
                     html), html
    assert "<p>Before.</p>" in html and "<p>After.</p>" in html


def test_a_citation_followed_by_a_colon_at_a_line_start_is_refused_by_the_build():
    text = "The iteration of Mika and colleagues\n[@mika_denoising]: start somewhere.\n"
    written = cite(text, BIB, "page.md.j2")
    assert checks.definition_lines(written, "page.md")
    assert checks.definition_lines(cite("Fine [@mika_denoising].\n", BIB, "p"), "p.md") == []


def test_an_unknown_key_names_the_page_the_key_and_the_keys_that_exist():
    with pytest.raises(CitationError) as failure:
        cite("As shown [@hoerl_ridge; @no_such_paper].\n", BIB, "ridge.md.j2")
    message = str(failure.value)
    assert "ridge.md.j2 cites ['no_such_paper']" in message
    assert "hoerl_ridge" in message and "mercer_1909" in message and "references.bib" in message


@pytest.mark.parametrize("text", ["See [@hoerl_ridge, p. 3].", "See [@ hoerl_ridge].",
                                  "See [@hoerl_ridge and more"])
def test_a_malformed_citation_is_refused(text):
    with pytest.raises(CitationError, match="malformed citation"):
        cite(text, BIB, "page.md.j2")


def test_a_template_writes_no_footnote_of_its_own():
    with pytest.raises(CitationError, match="footnote"):
        cite("A note[^mine].\n\n[^mine]: typed 0.5\n", BIB, "page.md.j2")


def test_the_escaped_parentheses_of_pybtex_do_not_become_math():
    # pybtex's Markdown writes 12\(1\):55; arithmatex would read \( … \) as TeX
    reference = citations.load(BIB).references["hoerl_ridge"]
    assert "12(1):55–67" in reference and "\\(" not in reference
    assert "arithmatex" not in to_html(cite("Ridge [@hoerl_ridge].\n", BIB, "p"))


def test_a_url_in_an_entry_is_a_link_not_tex():
    # pybtex's plain style passes howpublished = {\url{…}} through as text
    reference = citations.load(BIB).references["sklearn_user_guide"]
    assert "url" not in reference.replace("https://", "").lower(), reference
    html = to_html(cite("The guide [@sklearn_user_guide].\n", BIB, "p"))
    assert '<a href="https://scikit-learn.org/stable/user_guide.html">' in html, html


def test_the_bibliography_is_parsed_once_and_again_after_a_save(tmp_path):
    bib = tmp_path / "references.bib"
    bib.write_text(BIB.read_text(encoding="utf-8"), encoding="utf-8")
    first = citations.load(bib)
    assert citations.load(bib) is first
    bib.write_text(bib.read_text().replace("{Technometrics}", "{Technometrics Journal}"))
    assert "*Technometrics Journal*" in citations.load(bib).references["hoerl_ridge"]


# ---------------------------------------------------------------- the build


def _page_citing(tmp_path: Path, monkeypatch, body: str):
    module = tmp_path / "citing_page.py"
    module.write_text(textwrap.dedent("""
        from kreport.report import Page

        def ring():
            return {"gap": 0.5}

        page = Page(slug="index", title="C", template="citing.md.j2", sections=[ring])
    """))
    (tmp_path / "citing.md.j2").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("citing_page", None)
    import citing_page

    return citing_page.page


def test_the_build_reports_an_unknown_key_without_a_traceback(tmp_path, monkeypatch):
    page = _page_citing(tmp_path, monkeypatch, "# C\n\nSee [@no_such_paper].\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "references.bib").write_text(BIB.read_text(encoding="utf-8"), encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"nav": ["index.md"]}))
    paths = SitePaths(root=PATHS.root, docs=docs, cache=tmp_path / "cache", mkdocs_config=config,
                      lock_file=PATHS.lock_file, assets_list=docs / "ASSETS")
    with pytest.raises(BuildFailed) as failure:
        build_site([page], [], paths, use_cache=False, echo=lambda line: None)
    message = str(failure.value)
    assert "index: citing.md.j2: PageError: citing.md.j2 cites ['no_such_paper']" in message
    assert "hoerl_ridge" in message and "Traceback" not in message
    assert not (docs / "index.md").exists()


def test_editing_the_bibliography_renders_the_citing_pages_again(tmp_path, monkeypatch):
    bib = tmp_path / "references.bib"
    bib.write_text(BIB.read_text(encoding="utf-8"), encoding="utf-8")
    citing = _page_citing(tmp_path, monkeypatch, "# C\n\nSee [@hoerl_ridge].\n")
    plain = next(page for page in all_pages() if page.slug == "glossary")
    before = {page.slug: _render_key(page, "facts", bib) for page in (citing, plain)}
    bib.write_text(bib.read_text().replace("Technometrics", "Technometrika"))
    after = {page.slug: _render_key(page, "facts", bib) for page in (citing, plain)}
    assert after[citing.slug] != before[citing.slug]
    assert after[plain.slug] == before[plain.slug]  # it cites nothing


def test_the_bibliography_is_not_an_input_of_the_facts(tmp_path):
    ridge = next(page for page in all_pages() if page.slug == "ridge")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "references.bib").write_text("@misc{other, title={Other}, year={2000}}\n")
    elsewhere = SitePaths(root=PATHS.root, docs=docs, cache=tmp_path / "cache",
                          mkdocs_config=PATHS.mkdocs_config, lock_file=PATHS.lock_file,
                          assets_list=docs / "ASSETS")
    assert facts_key(ridge, elsewhere) == facts_key(ridge, PATHS)


def test_no_citation_plugin_is_configured():
    config = yaml.load(PATHS.mkdocs_config.read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    plugins = [next(iter(entry)) if isinstance(entry, dict) else entry
               for entry in config["plugins"]]
    assert "bibtex" not in plugins
    assert "footnotes" in config["markdown_extensions"]
    assert "mkdocs-bibtex" not in PATHS.lock_file.read_text().lower()


def test_a_notebook_cannot_cite():
    notebook = {"cells": [{"cell_type": "markdown", "source": ["As shown [@hoerl_ridge]."]},
                          {"cell_type": "code", "source": ["x[^1]"]},
                          {"cell_type": "markdown", "source": ["No citation."]}]}
    problems = checks.notebook_citations(notebook, "docs/n.ipynb")
    assert len(problems) == 1 and problems[0].startswith("docs/n.ipynb cell 0:")
