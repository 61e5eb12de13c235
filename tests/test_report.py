"""The report machinery: claims, bounds, templates, figures and cache keys."""

import subprocess
import sys
import textwrap

import jinja2
import numpy as np
import pytest

from kreport.report import Bound, ClaimFailed, Page, bound, cache, claim, new_figure
from kreport.report.build import manifest, render_markdown
from kreport.report.figures import render_figure


def test_a_false_claim_stops_the_build_quoting_the_sentence():
    page = Page(slug="t", title="T", template="unused")

    @page.section
    def groups():
        claim("the inner group lies wholly inside the outer one", np.array([True, False]))
        return {}

    with pytest.raises(ClaimFailed, match="the inner group lies wholly inside the outer one"):
        page.compute()


def test_true_claims_are_listed_with_their_section():
    page = Page(slug="t", title="T", template="unused")

    @page.section
    def gap():
        claim("the gap is positive", 0.6 > 0)
        return {"gap": np.float64(0.6), "count": np.int64(3), "row": np.array([1.0, 2.0])}

    result = page.compute()
    assert [(c.section, c.sentence) for c in result.claims] == [("gap", "the gap is positive")]
    assert result.facts == {"gap": {"gap": 0.6, "count": 3, "row": [1.0, 2.0]}}
    assert type(result.facts["gap"]["count"]) is int


def test_bound_asserts_and_prints_the_limit_not_the_noise():
    assert bound([1e-15, -3e-14], -12) == Bound(-12)
    with pytest.raises(ClaimFailed, match="below 1e-12"):
        bound(2e-12, -12)
    with pytest.raises(ClaimFailed):
        bound(np.nan, -12)


def test_a_section_that_returns_nan_is_refused():
    page = Page(slug="t", title="T", template="unused")

    @page.section
    def broken():
        return {"value": np.nan}

    with pytest.raises(ValueError, match="NaN"):
        page.compute()


def _page_with_template(tmp_path, monkeypatch, template_text):
    module = tmp_path / "fake_page.py"
    module.write_text(textwrap.dedent("""
        from kreport.report import Page, claim, bound
        page = Page(slug="fake", title="Fake", template="fake.md.j2")

        @page.section
        def ring():
            claim("the gap is positive", True)
            return {"gap": 0.63412, "shares": [0.516, 0.484], "noise": bound(1e-16, -12),
                    "message": "penalty must be > 0"}
    """))
    (tmp_path / "fake.md.j2").write_text(template_text)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("fake_page", None)
    import fake_page

    return fake_page.page


def test_template_prints_facts_with_their_keys(tmp_path, monkeypatch):
    page = _page_with_template(
        tmp_path, monkeypatch,
        "gap {{ ring.gap | num(3) }}, second {{ ring.shares[1] | num(3) }}, "
        "noise {{ ring.noise | num }}, says {{ ring.message | text }}; "
        "$g = {{ ring.gap | tex(2) }}$\n{{ provenance() }}",
    )
    markdown = render_markdown(page, page.compute())
    assert '<span class="fact" title="ring.gap \u2190 fake_page.ring">0.634</span>' in markdown
    assert 'title="ring.shares[1] \u2190 fake_page.ring">0.484</span>' in markdown
    assert ">below 10\u207b\u00b9\u00b2</span>" in markdown
    assert "penalty must be &gt; 0" in markdown
    assert r"\htmlData{fact=ring.gap}{0.63}" in markdown
    assert "the gap is positive" in markdown and "make docs" in markdown


@pytest.mark.parametrize(
    ("template", "complaint"),
    [
        ("{{ ring.gap }}", "without a filter"),
        ("{{ ring.missing | num }}", "missing"),
        ("{{ 0.5 | num }}", "not a fact"),
        ("{{ ring.gap | text }}", "not text"),
    ],
)
def test_templates_cannot_print_what_a_page_did_not_compute(tmp_path, monkeypatch, template,
                                                             complaint):
    page = _page_with_template(tmp_path, monkeypatch, template)
    with pytest.raises(jinja2.TemplateError, match=complaint):
        render_markdown(page, page.compute())


def test_manifest_names_the_function_behind_every_fact(tmp_path, monkeypatch):
    page = _page_with_template(tmp_path, monkeypatch, "")
    facts = {entry["key"]: entry for entry in manifest(page, page.compute())["facts"]}
    assert facts["ring.gap"] == {"key": "ring.gap", "value": 0.63412, "source": "fake_page.ring"}
    assert facts["ring.noise"]["value"] == {"below": "1e-12"}


def _draw():
    figure, axes = new_figure()
    axes.plot([0, 1, 2], [0.5, 0.25, 1.0], marker="o")
    axes.set_xlabel("time (s)")
    axes.set_ylabel("height (m)")
    return figure


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_figures_are_byte_identical_across_processes(fmt):
    here = render_figure(_draw(), fmt)
    script = (
        "import sys; sys.path.insert(0, 'tests');"
        "from test_report import _draw; from kreport.report.figures import render_figure;"
        f"sys.stdout.buffer.write(render_figure(_draw(), {fmt!r}))"
    )
    there = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True,
                           cwd=cache.REPOSITORY_ROOT).stdout
    assert here == there
    if fmt == "svg":
        assert b"<dc:date>" not in here


def test_cache_key_follows_library_and_data_files(tmp_path, monkeypatch):
    fixture = tmp_path / "fixture.csv"
    fixture.write_text("x\n1\n")
    monkeypatch.setattr(cache, "fixture_files", lambda: [fixture])
    module = "kreport.report.build"
    before = cache.cache_key(module, [])
    assert cache.cache_key(module, []) == before
    fixture.write_text("x\n2\n")
    assert cache.cache_key(module, []) != before


def test_cache_inputs_follow_imports_transitively():
    sources = {path.name for path in cache.kreport_sources("kreport.report.build")}
    # build imports page, which imports figures: both must be part of the key
    assert {"build.py", "page.py", "figures.py", "facts.py", "numbers.py"} <= sources


def test_hashed_svg_ids_are_numbered_in_order_of_appearance():
    from kreport.report.figures import _number_svg_ids

    first = (b'<clipPath id="p0ede49c062"/><use xlink:href="#m8d1d0a6ea1"/>'
             b'<g clip-path="url(#p0ede49c062)"/>')
    second = first.replace(b"0ede49c062", b"c023c84c7e")
    assert _number_svg_ids(first) == _number_svg_ids(second)
    assert _number_svg_ids(first) == (b'<clipPath id="p1"/><use xlink:href="#m1"/>'
                                      b'<g clip-path="url(#p1)"/>')
