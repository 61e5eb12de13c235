"""What the mkdocs hooks do to a page's HTML: maths rendered at build time,
numbers made controls, math-only links named, the notebook's style sheet cut.
These run on small pieces of HTML, without a build."""

from __future__ import annotations

import re

import pytest

from kreport.site import katex, mkdocs_hooks
from kreport.site.notebook_css import prune_styles


class _File:
    def __init__(self, src_path):
        self.src_path = src_path
        self.dest_path = src_path.rsplit(".", 1)[0] + "/index.html"


class _Page:
    def __init__(self, src_path):
        self.file = _File(src_path)


def _post_page(text, src_path="somepage.md"):
    return mkdocs_hooks.on_post_page(text, _Page(src_path), config=None)


def test_inline_and_display_maths_become_katex_html():
    out = _post_page('<p>a <span class="arithmatex">\\(x^2 &lt; y\\)</span></p>'
                     '<div class="arithmatex">\\[\\sum_i a_i\\]</div>')
    assert 'class="arithmatex"' in out and "\\(" not in out and "\\[" not in out
    assert out.count('class="katex"') == 2
    assert 'class="katex-display"' in out  # the display one
    assert "<mo>&lt;</mo>" in out  # the escaped < reached KaTeX as <


def test_a_number_in_maths_is_focusable_outside_hidden_content():
    out = katex.render(r"\htmlData{fact=fit.r2}{0.25} + 1", False)
    fact = re.search(r'<span class="enclosing fact fact--math" data-fact="fit.r2" ([^>]*)>', out)
    assert fact, out[:400]
    assert 'tabindex="0"' in fact.group(1) and 'role=' not in fact.group(1)
    # a focusable element may not sit inside aria-hidden content: the visual
    # HTML is read, the MathML hidden, in an expression that prints a number
    assert '<span class="katex-html" aria-hidden="true">' not in out
    assert '<span class="katex-mathml" aria-hidden="true">' in out
    plain = katex.render(r"x + 1", False)
    assert '<span class="katex-html" aria-hidden="true">' in plain


def test_bad_tex_stops_the_build_naming_the_page_and_the_formula():
    with pytest.raises(katex.MathError, match=r"somepage\.md.*\\frac\{1\}"):
        _post_page('<span class="arithmatex">\\(\\frac{1}\\)</span>')


def test_only_html_data_is_trusted():
    with pytest.raises(katex.MathError, match="href"):
        katex.render(r"\href{https://example.org}{x}", False)


def test_a_number_in_prose_becomes_a_control_and_keeps_its_tooltip_text():
    span = ('<span class="fact" data-fact="a.b" title="a.b &larr; f" tabindex="0">3</span>'
            '<span class="fact" data-fact="c" tabindex="0" title="c &larr; g">4</span>')
    out = _post_page(span)
    assert out.count('role="button"') == 2 and out.count('aria-expanded="false"') == 2
    assert out.count('title="') == 2 and out.count('tabindex="0"') == 2


def test_a_link_made_only_of_maths_is_named_in_words():
    out = _post_page('<a href="g/#r"><span class="arithmatex">\\(R^2\\)</span></a>')
    assert 'aria-label="R²"' in out and 'class="katex"' in out


def test_the_notebooks_dollar_maths_renders_but_not_in_code():
    cell = ('<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown" data-mime-type="text/markdown">'
            "<p>width $\\sigma$ and <code>price = $5 or $6</code></p></div>")
    out = _post_page(cell, "book.ipynb")
    assert out.count('class="katex"') == 1
    assert "<code>price = $5 or $6</code>" in out


def test_the_notebook_style_sheet_keeps_only_rules_the_page_uses():
    css = (".used { color: red } .unused { color: blue } .used .gone { x: y }"
           " @media (max-width: 10em) { .used { a: b } .unused { c: d } }"
           " .used:not(.absent) { e: f }" + " " * mkdocs_hooks.notebook_css.LARGE)
    page = f'<style>{css}</style><div class="used"></div>'
    out = prune_styles(page)
    assert ".used{color:red}" in out.replace(" ", "")
    assert ".unused" not in out and ".gone" not in out
    assert "@media" in out and "a:b" in out.replace(" ", "")
    assert ":not(.absent)" in out
