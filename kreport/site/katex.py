"""The site's maths, rendered once, when the site is built.

Every ``\\( … \\)`` and ``\\[ … \\]`` that pymdownx.arithmatex marks on a page
(and every ``$ … $`` in the notebook's text cells) is turned into KaTeX's HTML
here, by the KaTeX copy in this directory run in an embedded V8 engine
(mini-racer, pinned in requirements.lock). The reader's browser then only
lays out finished HTML: no KaTeX script, no render pass, no layout jump when
the maths appears. A phone spent seconds of its start-up on that pass.

Why mini-racer and not the machine's Node.js: it is a wheel, so the version
is pinned in the lock like every other dependency, and a fresh clone renders
the same bytes without anything installed outside the venv.

KaTeX is strict here: anything outside plain TeX other than ``\\htmlData``
(which carries a printed number's fact key, kreport.report.render.tex_key)
is an error, and so is TeX KaTeX cannot parse. Either stops the build with
the page and the expression, instead of a red formula on the published page.

A printed number inside maths becomes a focusable control like one in prose
(docs/javascripts/reader.js opens its provenance; kreport.site.mkdocs_hooks
marks the ones in prose). KaTeX marks its visual HTML ``aria-hidden`` and
gives screen readers its MathML; a focusable number must not sit inside
hidden content, so in an expression that prints a number the roles swap:
the visual HTML is read and the MathML is hidden.
"""

from __future__ import annotations

import html
import re
from functools import cache, lru_cache
from pathlib import Path

#: The vendored KaTeX (scripts/refresh_katex.sh fetches it, pinned by checksum).
KATEX_JS = Path(__file__).with_name("vendored") / "katex.min.js"

_RENDER = r"""
function krRender(tex, display) {
  return katex.renderToString(tex, {
    displayMode: display,
    throwOnError: true,
    // KaTeX draws a command it will not run (untrusted, unsupported) in this
    // colour instead of throwing; render() refuses any output that holds it.
    errorColor: "#cc0001",
    trust: function (context) { return context.command === "\\htmlData"; },
    strict: function (code) { return code === "htmlExtension" ? "ignore" : "error"; },
  });
}
"""

#: What arithmatex (generic mode) writes: the TeX, HTML-escaped, in its own
#: delimiters inside a span (inline) or a div (display).
ARITHMATEX = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">(?:\\\((?P<inline>.*?)\\\)|\\\[(?P<display>.*?)\\\])'
    r"</(?P=tag)>",
    re.S,
)

#: The notebook's text cells keep ``$…$`` and ``$$…$$`` as text (mkdocs-jupyter
#: leaves maths to the browser). Only text outside tags, inside a rendered
#: Markdown cell, is looked at; code cells never are.
NOTEBOOK_CELL = re.compile(
    r'(<div class="[^"]*jp-RenderedMarkdown[^"]*"[^>]*>)(?P<body>.*?)(</div>)', re.S)
DOLLARS = re.compile(r"\$\$(?P<display>.+?)\$\$|(?<![\\$])\$(?P<inline>[^$\n]+?)\$", re.S)

#: A number inside rendered maths: KaTeX writes ``\htmlData{fact=…}`` as a span.
MATH_FACT = re.compile(r'<span class="enclosing" data-fact="(?P<key>[^"]*)">')
UNSUPPORTED_COLOUR = "#cc0001"
KATEX_HTML_HIDDEN = '<span class="katex-html" aria-hidden="true">'
KATEX_MATHML = '<span class="katex-mathml">'


class MathError(ValueError):
    """A formula KaTeX refuses; the message names the page and the TeX."""


@lru_cache(maxsize=1)
def _engine():
    from py_mini_racer import MiniRacer

    engine = MiniRacer()
    engine.eval(KATEX_JS.read_text(encoding="utf-8"))
    engine.eval(_RENDER)
    return engine


@cache
def render(tex: str, display: bool) -> str:
    """KaTeX's HTML for one formula, with its printed numbers made focusable."""
    try:
        rendered = _engine().call("krRender", tex, display)
    except Exception as error:  # mini-racer's JSEvalException carries KaTeX's message
        raise MathError(f"KaTeX cannot render {tex!r}: {error}") from None
    if UNSUPPORTED_COLOUR in rendered:
        raise MathError(f"KaTeX will not run a command in {tex!r} (only \\htmlData is "
                        "trusted; everything else must be plain TeX)")
    if 'data-fact="' not in rendered:
        return rendered
    rendered = rendered.replace(KATEX_HTML_HIDDEN, '<span class="katex-html">', 1)
    rendered = rendered.replace(KATEX_MATHML, '<span class="katex-mathml" aria-hidden="true">', 1)
    return MATH_FACT.sub(
        lambda match: ('<span class="enclosing fact fact--math" '
                       f'data-fact="{match.group("key")}" {MATH_FACT_CONTROL}>'),
        rendered,
    )


#: What makes a printed number a control that opens its provenance
#: (docs/javascripts/reader.js), written into the page instead of being
#: added to thousands of elements by script at load.
FACT_CONTROL = 'tabindex="0" role="button" aria-haspopup="dialog" aria-expanded="false"'
#: A number inside maths is focusable (and opens its popover) but is not
#: declared a button: entries of a matrix sit closer than the 24 px a touch
#: control must have (WCAG 2.2, target size), an exception that holds for
#: text, not for controls; announced as the number it is, it still tells a
#: screen reader where its popover is through aria-describedby.
MATH_FACT_CONTROL = 'tabindex="0"'


def _render_match(match: re.Match, where: str, tag: str) -> str:
    """One formula a pattern found (groups ``display`` or ``inline``), rendered in
    its arithmatex element. The inner span is what KaTeX's auto-render made, and
    what the theme's and the site's style sheets were written for (Material
    sizes ``div.arithmatex > *`` to its content, which must not be the
    scrolling .katex-display itself)."""
    display = match.group("display") is not None
    tex = html.unescape(match.group("display") if display else match.group("inline"))
    try:
        rendered = render(tex.strip(), display)
    except MathError as error:
        raise MathError(f"{where}: {error}") from None
    return f'<{tag} class="arithmatex"><span>{rendered}</span></{tag}>'


def render_page(page_html: str, where: str) -> str:
    """``page_html`` with every arithmatex formula replaced by its KaTeX HTML."""
    if 'class="arithmatex"' not in page_html:
        return page_html
    return ARITHMATEX.sub(lambda match: _render_match(match, where, match.group("tag")),
                          page_html)


def render_notebook_text(page_html: str, where: str) -> str:
    """The notebook's ``$…$`` maths in its text cells, rendered."""

    def in_text(text: str) -> str:
        return DOLLARS.sub(lambda match: _render_match(match, where, "span"), text)

    def cell(match: re.Match) -> str:
        # Tags are kept as they are; only the text between them holds maths,
        # and never the text of code (a dollar in code is a dollar).
        pieces, in_code = [], 0
        for piece in re.split(r"(<[^>]+>)", match.group("body")):
            if piece.startswith("<"):
                if re.match(r"<(code|pre)\b", piece):
                    in_code += 1
                elif re.match(r"</(code|pre)>", piece):
                    in_code = max(0, in_code - 1)
                pieces.append(piece)
            else:
                pieces.append(piece if in_code else in_text(piece))
        return match.group(1) + "".join(pieces) + match.group(3)

    return NOTEBOOK_CELL.sub(cell, page_html)
