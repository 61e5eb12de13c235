"""The page-facing machinery: claims, bounds, exact and tolerant facts, the
sandboxed templates, figures and their drawn data, and the cache key."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import jinja2
import numpy as np
import pytest

from kreport.report import Bound, ClaimFailed, Page, bound, claim, exact, new_figure, within
from kreport.report.drawn import drawn_data
from kreport.report.figures import number_svg_ids, render_figure
from kreport.site import cache
from kreport.site.markdown import PageError, manifest, render_markdown
from kreport.site.paths import REPOSITORY


def test_a_false_claim_stops_the_build_quoting_the_sentence():
    def groups():
        claim("the inner group lies wholly inside the outer one", np.array([True, False]))
        return {}

    with pytest.raises(ClaimFailed, match="the inner group lies wholly inside the outer one"):
        Page(slug="t", title="T", template="unused", sections=[groups]).compute()


def test_a_claim_prints_its_threshold_from_the_value_it_checks():
    def gap():
        limit = 0.05
        claim("R² stays below {limit}", 0.01 < limit, id="small", limit=limit)
        return {}

    result = Page(slug="t", title="T", template="unused", sections=[gap]).compute()
    (recorded,) = result.claims
    assert recorded.sentence == "R² stays below 0.05"
    assert recorded.ref == "gap.small" and recorded.values == (("limit", 0.05),)


@pytest.mark.parametrize("values", [{}, {"limit": 0.05, "extra": 1}])
def test_a_claim_must_name_exactly_the_values_it_prints(values):
    with pytest.raises(TypeError, match="placeholder"):
        claim("R² stays below {limit}", True, **values)


def test_bound_asserts_and_prints_the_limit_not_the_noise():
    assert bound([1e-15, -3e-14], -12) == Bound(-12)
    assert bound([1e-15, -3e-14], -12).measured == pytest.approx(3e-14)
    with pytest.raises(ClaimFailed, match="below 1e-12"):
        bound(2e-12, -12)
    with pytest.raises(ClaimFailed):
        bound(np.nan, -12)


def test_exact_and_within_are_recorded_under_the_fact_key():
    def table():
        return {"mean": exact(170.0, "the heights are whole numbers"),
                "rows": [1.0, within(2.0, 1e-4)]}

    result = Page(slug="t", title="T", template="unused", sections=[table]).compute()
    assert result.facts == {"table": {"mean": 170.0, "rows": [1.0, 2.0]}}
    assert result.exact == {"table.mean": "the heights are whole numbers"}
    assert result.rtol == {"table.rows[1]": 1e-4}
    with pytest.raises(ValueError):
        within(1.0, 1e-12)  # tighter than the default lock is not "within"
    with pytest.raises(ValueError):
        exact(1.0, " ")


def test_a_section_that_returns_nan_is_refused():
    def broken():
        return {"value": np.nan}

    with pytest.raises(ValueError, match="NaN"):
        Page(slug="t", title="T", template="unused", sections=[broken]).compute()


def test_a_lenient_run_records_failures_instead_of_raising():
    def shaky():
        claim("one is two", False)
        claim("exact relations are not checked leniently", False, exact="whole numbers")
        return {"noise": bound(1e-3, -12)}

    def raises():
        raise ValueError("6.999999999999999 is not in list")

    result = Page(slug="t", title="T", template="unused", sections=[shaky, raises]).compute(
        lenient=True)
    messages = [failure.message for failure in result.failures]
    assert any("one is two" in message for message in messages)
    assert any("below 1e-12" in message for message in messages)
    assert any("not in list" in message for message in messages)
    assert not any("exact relations" in message for message in messages)
    # still listed, so a perturbed render marks and lists the same sentences
    assert "exact relations are not checked leniently" in [c.sentence for c in result.claims]


def _page_with_template(tmp_path, monkeypatch, template_text):
    module = tmp_path / "fake_page.py"
    module.write_text(textwrap.dedent("""
        from kreport.report import Page, bound, claim

        def ring():
            claim("the gap is positive", True, id="positive")
            return {"gap": 0.63412, "shares": [0.516, 0.484], "noise": bound(1e-16, -12),
                    "message": "penalty must be > 0", "turns": 2, "count": 3}

        page = Page(slug="fake", title="Fake", template="fake.md.j2", sections=[ring])
    """))
    (tmp_path / "fake.md.j2").write_text(template_text)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("fake_page", None)
    import fake_page

    return fake_page.page


def test_template_prints_facts_with_their_keys(tmp_path, monkeypatch):
    page = _page_with_template(
        tmp_path, monkeypatch,
        "gap {{ ring.gap | num(3) }}{{ checked('ring.positive') }}, second "
        "{{ ring.shares[1] | num(3) }}, noise {{ ring.noise | num }}, says "
        "{{ ring.message | text }}; {{ ring.turns | num(words=True) }} turning "
        "{{ ring.turns | plural('point', 'points') }}; $g = {{ ring.gap | tex(2) }}$\n"
        "{{ provenance() }}",
    )
    markdown = render_markdown(page, page.compute())
    assert ('<span class="fact" data-fact="ring.gap" title="ring.gap \u2190 fake_page.ring" '
            'tabindex="0">0.634</span>') in markdown
    assert 'data-fact="ring.shares[1]"' in markdown and ">0.484</span>" in markdown
    assert ">below 10\u207b\u00b9\u00b2</span>" in markdown
    assert "penalty must be &gt; 0" in markdown
    assert "two</span> turning points" in markdown
    assert r"\htmlData{fact=ring.gap}{0.63}" in markdown
    assert 'class="claim-mark" href="#claim-ring-positive"' in markdown
    assert 'id="claim-ring-positive"' in markdown and "make docs" in markdown


def test_a_bound_reads_as_zero_to_rounding_where_the_page_says_once_what_that_means(
        tmp_path, monkeypatch):
    page = _page_with_template(
        tmp_path, monkeypatch,
        "{{ rounding() }}\n\nThe noise is {{ ring.noise | num(zero=True) }}.\n")
    markdown = render_markdown(page, page.compute())
    assert 'data-fact="ring.noise"' in markdown and ">zero to rounding</span>." in markdown
    # the statement's power of ten is the bound's own (noise is bound(1e-16, -12))
    statement = markdown[markdown.index("*Zero to rounding*"):]
    assert ">10\u207b\u00b9\u00b2</span>, in the quantity's own units" in statement


@pytest.mark.parametrize(("template", "complaint"), [
    ("The noise is {{ ring.noise | num(zero=True) }}.", "must say once what that means"),
    ("{{ rounding() }} {{ rounding() }} {{ ring.noise | num(zero=True) }}", "placed 2 times"),
    ("{{ rounding() }} The gap is {{ ring.gap | num(3) }}.", "prints nothing as zero"),
    ("{{ rounding() }} {{ ring.gap | num(zero=True) }}", "only a bound"),
])
def test_zero_to_rounding_is_refused_unless_stated_once_and_a_bound(tmp_path, monkeypatch,
                                                                   template, complaint):
    page = _page_with_template(tmp_path, monkeypatch, template)
    with pytest.raises((jinja2.TemplateError, PageError), match=complaint):
        render_markdown(page, page.compute())


def test_an_entry_counted_from_the_end_is_keyed_as_the_manifest_holds_it(tmp_path, monkeypatch):
    page = _page_with_template(tmp_path, monkeypatch, "{{ ring.shares[-1] | num(3) }}")
    result = page.compute()
    assert 'data-fact="ring.shares[1]"' in render_markdown(page, result)
    assert "ring.shares[1]" in {entry["key"] for entry in manifest(page, result)["facts"]}
    page = _page_with_template(tmp_path, monkeypatch, "{{ ring.shares[-3] | num(3) }}")
    with pytest.raises((jinja2.TemplateError, PageError, KeyError), match="no element -3"):
        render_markdown(page, page.compute())


def test_a_split_page_sends_its_moved_anchors_on(tmp_path, monkeypatch):
    page = _page_with_template(tmp_path, monkeypatch, "# {{ title }}\n")
    assert render_markdown(page, page.compute()).startswith("# Fake")
    page.moved_anchors = {"the-penalty": "fake-penalty", "old-name": "fake-traps#new-name"}
    markdown = render_markdown(page, page.compute())
    script, _ = markdown.split("</script>\n\n")
    # straight after the title (mkdocs reads the title from the first line), so
    # nothing is drawn before the reader is sent on
    assert script.startswith("# Fake\n<script>")
    assert ('{"old-name": "../fake-traps/#new-name", "the-penalty": "../fake-penalty/#the-penalty"}'
            in script)
    assert "location.replace" in script
    # the build's own mark-up, digits and all, is not mistaken for a typed number
    from kreport.site.checks import stray_digits

    assert re.search(r"[0-9]", script) and not stray_digits(markdown, "fake.md")
    with pytest.raises(ValueError, match="to itself"):
        Page(slug="fake", title="Fake", template="fake.md.j2", moved_anchors={"a": "fake"})


@pytest.mark.parametrize(
    ("template", "complaint"),
    [
        ("{{ ring.gap }}", "without a filter"),
        ("{{ ring.missing | num }}", "missing"),
        ("{{ 0.5 | num }}", "not a fact"),
        ("{{ ring.gap | text }}", "not text"),
        ("{% if ring.gap %}x{% endif %}", "never on a number"),
        ("{% if ring.turns == 2 %}x{% endif %}", "compared in a template"),
        ("{{ ring.gap._value }}", "unsafe|_value"),
        ("{{ ring.shares | length }}", "No filter named 'length'"),
        ("{{ range(3) | list }}", "undefined|No filter"),
        ("{{ checked('ring.nothing') }}", "does not make"),
        ("{{ unchecked('no') }}", "reason in words"),
        ("{{ ring.gap | num(bare=True) }}", "mark-up"),
    ],
)
def test_templates_cannot_print_or_compute_what_a_page_did_not(tmp_path, monkeypatch, template,
                                                               complaint):
    page = _page_with_template(tmp_path, monkeypatch, template)
    with pytest.raises((jinja2.TemplateError, PageError), match=complaint):
        render_markdown(page, page.compute())


def test_manifest_names_the_function_behind_every_fact(tmp_path, monkeypatch):
    page = _page_with_template(tmp_path, monkeypatch, "")
    facts = {entry["key"]: entry for entry in manifest(page, page.compute())["facts"]}
    assert facts["ring.gap"] == {"key": "ring.gap", "value": 0.63412, "source": "fake_page.ring"}
    assert facts["ring.noise"]["value"] == {"below": "1e-12"}
    assert facts["ring.shares[1]"]["value"] == 0.484


def _draw(scale: float = 1.0):
    figure, axes = new_figure()
    axes.plot([0, 1, 2], np.array([0.5, 0.25, 1.0]) * scale, marker="o")
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
                           cwd=REPOSITORY).stdout
    assert here == there
    if fmt == "svg":
        assert b"<dc:date>" not in here


def test_drawn_data_sees_a_rescaled_curve():
    """Figure data are facts: scaling what is plotted changes what is locked."""
    plain, scaled = drawn_data(_draw()), drawn_data(_draw(1.001))
    assert plain["axes0.xlabel"] == "time (s)" and plain["axes0.ylabel"] == "height (m)"
    np.testing.assert_array_equal(plain["axes0.line0"][:, 1], [0.5, 0.25, 1.0])
    assert not np.allclose(plain["axes0.line0"], scaled["axes0.line0"], rtol=1e-7, atol=0)


def test_cache_key_follows_library_and_data_files(tmp_path, monkeypatch):
    fixture = tmp_path / "fixture.csv"
    fixture.write_text("x\n1\n")
    monkeypatch.setattr(cache, "fixture_files", lambda: [fixture])
    lock = REPOSITORY / "requirements.lock"
    before = cache.cache_key(["kreport.pages.home"], [], lock)
    assert cache.cache_key(["kreport.pages.home"], [], lock) == before
    fixture.write_text("x\n2\n")
    assert cache.cache_key(["kreport.pages.home"], [], lock) != before


def test_cache_inputs_follow_imports_transitively():
    sources = {path.name for path in cache.kreport_sources(["kreport.pages.home"])}
    # home imports kreport.data and kreport.report; the page machinery and the driver
    # modules facts depend on are always in, the rest of the driver never is (what it
    # acts on is keyed where it is cached: see test_driver_edits_rekey_only_what_they_act_on)
    assert {"page.py", "figures.py", "facts.py", "numbers.py", "results.py",
            "executor.py"} <= sources
    assert not {"build.py", "compare.py", "stability.py", "preview.py"} & sources
    assert "__init__.py" in sources


def test_driver_edits_rekey_only_what_they_act_on(monkeypatch):
    contents = dict(cache._CONTENTS)
    before = {name: cache.driver_digest(name) for name in ("markdown.py", "stability.py")}
    for stamp in list(cache._CONTENTS):
        if stamp[0].endswith("markdown.py"):
            cache._CONTENTS[stamp] = cache._CONTENTS[stamp] + b"# edited"
    try:
        assert cache.driver_digest("markdown.py") != before["markdown.py"]
        assert cache.driver_digest("stability.py") == before["stability.py"]
    finally:
        cache._CONTENTS.clear()
        cache._CONTENTS.update(contents)


def test_a_notebook_key_follows_the_imports_of_its_code_cells():
    from kreport.site.notebooks import notebook_modules

    modules = notebook_modules(__import__("kreport.pages", fromlist=["NOTEBOOKS"]).NOTEBOOKS[0])
    assert "kreport.data" in modules or any(name.startswith("kreport.data") for name in modules)


def test_hashed_svg_ids_are_numbered_in_order_of_appearance():
    first = (b'<clipPath id="p0ede49c062"/><use xlink:href="#m8d1d0a6ea1"/>'
             b'<g clip-path="url(#p0ede49c062)"/><image id="imagedb987c77e6"/>')
    second = first.replace(b"0ede49c062", b"c023c84c7e").replace(b"db987c77e6", b"913c2498e1")
    assert number_svg_ids(first) == number_svg_ids(second)
    assert number_svg_ids(first) == (b'<clipPath id="p1"/><use xlink:href="#m1"/>'
                                     b'<g clip-path="url(#p1)"/><image id="image1"/>')


def test_the_environment_chooses_the_figure_layout_and_a_bad_value_is_refused(monkeypatch):
    from kreport.report.figures import LAYOUT_VARIABLE, current_layout, narrow_layout

    monkeypatch.delenv(LAYOUT_VARIABLE, raising=False)
    assert current_layout() == "wide"
    monkeypatch.setenv(LAYOUT_VARIABLE, "narrow")
    assert current_layout() == "narrow"
    monkeypatch.setenv(LAYOUT_VARIABLE, "phone")
    with pytest.raises(ValueError, match=r"KREPORT_FIGURE_LAYOUT='phone'.*wide, narrow"):
        current_layout()
    with narrow_layout():  # the build's own switch wins over the environment
        assert current_layout() == "narrow"


def test_a_figure_the_environment_made_narrow_fits_itself_once_when_drawn(monkeypatch):
    import matplotlib.pyplot as plt

    from kreport.report import figures

    monkeypatch.setenv(figures.LAYOUT_VARIABLE, "narrow")
    fits = []
    real_fit = figures.fit_narrow
    monkeypatch.setattr(figures, "fit_narrow", lambda figure: fits.append(real_fit(figure)))
    figure, axes = new_figure(columns=2, width=7.5, height=3.0)
    assert isinstance(figure, figures.NarrowFigure)
    assert figure.get_figwidth() == pytest.approx(figures.NARROW_WIDTH_INCHES)
    axes[0].plot([0, 1], [0, 1], label="a line")
    axes[0].legend()
    first = render_figure(figure)
    second = render_figure(figure)
    assert len(fits) == 1 and figure.kreport_fitted
    assert first == second  # a second draw does not move the legend again
    plt.close(figure)
