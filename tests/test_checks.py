"""Every route by which a wrong or stale number could reach the site fails,
naming the file and what to do.

Each test builds the adversarial case on purpose (a hand-written file in
docs/, a page missing from the navigation, a digit typed into a template, a
broken link, a failing build) and checks that the site's own checks refuse it.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from kreport.report import Page, claim
from kreport.site import checks
from kreport.site.build import BuildFailed, build_site
from kreport.site.paths import SitePaths

from .conftest import PATHS

# ---------------------------------------------------------------- docs/ holds nothing stray


def _docs(tmp_path: Path, files: dict[str, str], assets: str = "") -> Path:
    docs = tmp_path / "docs"
    for relative, text in files.items():
        (docs / relative).parent.mkdir(parents=True, exist_ok=True)
        (docs / relative).write_text(text)
    (docs / "ASSETS").write_text(assets)
    return docs


def test_a_hand_written_page_in_docs_is_refused_by_name(tmp_path):
    docs = _docs(tmp_path, {"index.md": "", "notes.md": "gap 0.634"})
    stale, problems = checks.unaccounted_files(docs, {"index.md"}, docs / "ASSETS")
    assert stale == []
    assert len(problems) == 1 and "docs/notes.md" in problems[0] and "ASSETS" in problems[0]


def test_a_page_left_behind_by_a_renamed_module_is_refused(tmp_path):
    docs = _docs(tmp_path, {"kernel-pca.md": "", "kernel-pca-old.md": ""})
    _, problems = checks.unaccounted_files(docs, {"kernel-pca.md"}, docs / "ASSETS")
    assert "docs/kernel-pca-old.md is not written by any page" in problems[0]


def test_stale_figures_are_build_output_and_removed(tmp_path):
    docs = _docs(tmp_path, {"figures/ring-old.svg": "<svg/>", "data/gone.json": "{}"})
    stale, problems = checks.unaccounted_files(docs, set(), docs / "ASSETS")
    assert stale == ["data/gone.json", "figures/ring-old.svg"] and problems == []


def test_declared_assets_are_kept_and_a_dead_declaration_is_refused(tmp_path):
    docs = _docs(tmp_path, {"stylesheets/extra.css": ""}, "stylesheets/*\nimages/*\n")
    _, problems = checks.unaccounted_files(docs, set(), docs / "ASSETS")
    assert problems == ["docs/ASSETS declares 'images/*', which matches no file; remove the line"]


# ---------------------------------------------------------------- the navigation


def test_navigation_must_list_exactly_the_pages(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"nav": ["index.md", {"Part": ["a.md", "gone.md"]}]}))
    problems = checks.navigation_problems(config, ["index.md", "a.md", "b.md"])
    assert any("b.md is built but not in the navigation" in p for p in problems)
    assert any("gone.md, which no page or notebook builds" in p for p in problems)


# ---------------------------------------------------------------- no digit outside a fact


FACT = '<span class="fact" data-fact="ring.gap" title="x" tabindex="0">0.634</span>'


@pytest.mark.parametrize("text", [
    "The gap is 0.634 wide.",  # prose
    "## 12. Sweeping gamma",  # a heading
    "| gamma | 0.005 |",  # a table
    "![the arc at gamma 0.002](figures/arc.svg)",  # alt text
    "with a penalty of $10^{-9}$ the weights",  # math: 10 is not notation
    "the matrix is $2I$ here",  # math
    "<figcaption>At gamma 0.005 the groups split.</figcaption>",  # a caption
    "call `KernelRidge(kernels.rbf(1.0), 1e-9)` to see",  # code
    "the weights are −2, 0 and 2",  # a claim typed with numbers
])
def test_a_typed_number_is_found_wherever_it_hides(text):
    assert checks.stray_digits(text, "page.md"), text


@pytest.mark.parametrize("text", [
    f"The gap is {FACT} wide.",
    r"$K_c = (I - J) K (I - J)$ and $\lambda_m / (n - 1)$ and $\lVert a \rVert^2 = \frac{1}{n}$",
    r"$x_{12}$, $e^{-1}$, $\mathbf 1^\top$, $\alpha > 0$, $\pm 1/\sqrt{2}$",
    r"$\gamma = \htmlData{fact=ring.gamma}{0.005}$",
    "1. a numbered list item",
    "see [the ring](kernel-pca.md#the-ring) and `float64` in `E24` and `x2` "
    "[^scholkopf_kernel_pca] [^mercer_1909]",
    # the reference list the build appends: volumes, pages and years come from the bib
    "Mercer's theorem[^mercer_1909].\n\n[^mercer_1909]: James Mercer. Functions of positive "
    "and negative type. *Philosophical Transactions*, 209:415–446, 1909.\n",
])
def test_notation_and_printed_facts_are_not_typed_numbers(text):
    assert checks.stray_digits(text, "page.md") == []


# ---------------------------------------------------------------- comparisons need a claim


SECOND = FACT.replace("ring.gap", "ring.width").replace("0.634", "0.500")


def test_a_comparison_between_printed_facts_needs_a_claim_or_a_reason():
    sentence = f"The gap of {FACT} is wider than the inner group's width of {SECOND}."
    assert checks.unchecked_comparisons(sentence, "page.md")
    marked = sentence[:-1] + '<a class="claim-mark" href="#claim-ring-wider">✓</a>.'
    assert checks.unchecked_comparisons(marked, "page.md") == []
    exempt = sentence + "<!-- unchecked: both numbers are definitions, not measurements -->"
    assert checks.unchecked_comparisons(exempt, "page.md") == []
    assert checks.unchecked_comparisons(f"The gap is {FACT} and the width {SECOND}.",
                                        "page.md") == []



def test_a_marker_that_opens_a_line_would_cut_its_sentence_in_two():
    cut = "rather than (10, 10)\n<!-- unchecked: the same person twice -->,\nand every entry"
    (problem,) = checks.comments_opening_lines(cut, "page.md")
    assert "page.md:2" in problem and "line before" in problem
    joined = "rather than (10, 10) <!-- unchecked: the same person twice -->,\nand every entry"
    assert checks.comments_opening_lines(joined, "page.md") == []
    assert checks.comments_opening_lines("<!-- a comment on its own -->\ntext", "page.md") == []
    in_a_list = "* the gap is 1e-12 m\n  <!-- unchecked: a bound -->;\n* both score"
    assert checks.comments_opening_lines(in_a_list, "page.md")

# ---------------------------------------------------------------- mkdocs refuses broken links


# ---------------------------------------------------------------- a failed build writes nothing


def test_a_failing_build_leaves_docs_untouched(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(PATHS.docs, docs)
    before = {path: path.read_bytes() for path in docs.rglob("*") if path.is_file()}

    def broken():
        claim("the data support this", False)
        return {}

    paths = SitePaths(root=PATHS.root, docs=docs, cache=tmp_path / "cache",
                      mkdocs_config=PATHS.mkdocs_config, lock_file=PATHS.lock_file,
                      assets_list=docs / "ASSETS")
    page = Page(slug="index", title="Broken", template="home.md.j2", sections=[broken],
                module="kreport.pages.home")
    with pytest.raises(Exception, match="the data support this"):
        build_site([page], [], paths, use_cache=False, echo=lambda line: None)
    after = {path: path.read_bytes() for path in docs.rglob("*") if path.is_file()}
    assert after == before


def test_problems_stop_the_build_before_anything_is_written(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    shutil.copytree(PATHS.docs, docs)
    (docs / "index.md").write_text("edited by hand")
    module = tmp_path / "typed_page.py"
    module.write_text(textwrap.dedent("""
        from kreport.report import Page

        def ring():
            return {"gap": 0.5}

        page = Page(slug="index", title="T", template="typed.md.j2", sections=[ring])
    """))
    (tmp_path / "typed.md.j2").write_text("# T\n\nThe gap is 0.5, not {{ ring.gap | num }}.\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("typed_page", None)
    import typed_page

    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"nav": ["index.md"]}))
    paths = SitePaths(root=PATHS.root, docs=docs, cache=tmp_path / "cache",
                      mkdocs_config=config, lock_file=PATHS.lock_file,
                      assets_list=docs / "ASSETS")
    with pytest.raises(BuildFailed, match=r"0\.5 typed, not printed from a fact"):
        build_site([typed_page.page], [], paths, use_cache=False, echo=lambda line: None)
    assert (docs / "index.md").read_text() == "edited by hand"


def test_a_citation_that_opens_a_line_with_a_colon_is_refused():
    # Written as a footnote, this line is a footnote definition, and the paragraph
    # describing Mika's iteration vanished from the pre-images page (it did under
    # mkdocs-bibtex too).
    text = ("which suggests the iteration of Mika and colleagues\n"
            "[^mika_denoising]: start somewhere\n\n[^mika_denoising]: Sebastian Mika.\n")
    assert checks.definition_lines(text, "page.md")
    assert not checks.definition_lines("colleagues [^mika_denoising]. Start\n", "page.md")
    assert not checks.definition_lines("[^jolliffe_pca] covers PCA.\n", "page.md")
    # the reference list the build appends is not a problem
    assert not checks.definition_lines("[^jolliffe_pca] covers PCA.\n\n"
                                       "[^jolliffe_pca]: Ian T. Jolliffe.\n", "page.md")


def test_a_table_row_split_over_lines_is_refused():
    broken = "| a | b |\n| --- | --- |\n| x | $\\begin{bmatrix}\n1 \\\\\n2\n\\end{bmatrix}$ |\n"
    assert checks.broken_table_rows(broken, "page.md")
    assert not checks.broken_table_rows("| a | b |\n| --- | --- |\n| x | y |\n", "page.md")


def test_within_followed_by_a_bound_is_refused():
    bound = '<span class="fact bound" data-fact="s.gap">below 10⁻¹²</span>'
    assert checks.within_a_bound(f"agree to within {bound}.", "page.md")
    assert not checks.within_a_bound(f"differ by {bound}.", "page.md")


def test_a_library_change_that_breaks_claims_is_reported_by_page_and_sentence(
        tmp_path, monkeypatch):
    # A deliberately broken kernel: the RBF scales gamma by 1.001. Two small pages
    # whose claims rest on the RBF's exact values both break; the build must name
    # each page and quote every failing sentence, and raise nothing but BuildFailed.
    import numpy as np

    from kreport import kernels

    module = tmp_path / "two_broken_pages.py"
    module.write_text(textwrap.dedent("""
        import numpy as np
        from kreport import kernels
        from kreport.report import Page, claim

        ROWS = np.array([[0.0], [1.0]])

        def one_unit():
            value = kernels.rbf(1.0)(ROWS, ROWS)[0, 1]
            claim("two rows one unit apart have kernel value e to the minus one",
                  abs(value - np.exp(-1.0)) < 1e-12)
            claim("the diagonal is one", kernels.rbf(1.0)(ROWS, ROWS)[0, 0] == 1.0)
            claim("the kernel value two units apart is e to the minus four",
                  abs(kernels.rbf(1.0)(2 * ROWS, 2 * ROWS)[0, 1] - np.exp(-4.0)) < 1e-12)
            return {"value": value}

        def half_unit():
            value = kernels.rbf(4.0)(ROWS / 2, ROWS / 2)[0, 1]
            claim("rows half a unit apart at gamma four also give e to the minus one",
                  abs(value - np.exp(-1.0)) < 1e-12)
            return {"value": value}

        first = Page(slug="first", title="First", template="t.md.j2", sections=[one_unit])
        second = Page(slug="second", title="Second", template="t.md.j2", sections=[half_unit])
    """))
    (tmp_path / "t.md.j2").write_text("# {{ title }}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("two_broken_pages", None)
    import two_broken_pages

    exact_rbf = kernels.rbf

    def broken_rbf(gamma):
        return exact_rbf(gamma * 1.001)

    monkeypatch.setattr(kernels, "rbf", broken_rbf)
    docs = tmp_path / "docs"
    docs.mkdir()
    paths = SitePaths(root=PATHS.root, docs=docs, cache=tmp_path / "cache",
                      mkdocs_config=PATHS.mkdocs_config, lock_file=PATHS.lock_file,
                      assets_list=docs / "ASSETS")
    with pytest.raises(BuildFailed) as failure:
        build_site([two_broken_pages.first, two_broken_pages.second], [], paths,
                   use_cache=False, echo=lambda line: None, partial=True)
    message = str(failure.value)
    assert "first: ClaimFailed" in message and "second: ClaimFailed" in message
    # every failing sentence of the first page, not only the one that raised first
    assert "kernel value e to the minus one" in message
    assert "two units apart is e to the minus four" in message
    assert "half a unit apart at gamma four" in message
    assert "the diagonal is one" not in message  # it still holds
    assert "Traceback" not in message and "KeyError" not in message
    assert not any(docs.iterdir())
    assert np.isclose(exact_rbf(1.0)(np.zeros((1, 1)), np.ones((1, 1)))[0, 0], np.exp(-1.0))


def test_an_unknown_fact_names_the_template_line_and_the_facts_that_exist(tmp_path,
                                                                        monkeypatch):
    from kreport.site.markdown import PageError, render_markdown

    module = tmp_path / "unknown_fact_page.py"
    module.write_text(textwrap.dedent("""
        from kreport.report import Page

        def ring():
            return {"gap": 0.5, "count": 3}

        page = Page(slug="u", title="U", template="u.md.j2", sections=[ring])
    """))
    (tmp_path / "u.md.j2").write_text(
        "# U\n\nFine.\n\nThe overlap is {{ ring.overlap | num(2) }}.\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("unknown_fact_page", None)
    import unknown_fact_page

    result = unknown_fact_page.page.compute()
    with pytest.raises(PageError, match=r"u\.md\.j2, line 5: .*overlap.*ring \(count, gap\)"):
        render_markdown(unknown_fact_page.page, result)


def test_a_symbol_missing_from_the_glossary_stops_the_build_not_only_the_tests():
    assert checks.unknown_symbols("the weights $a = G^{-1} y_c$.", "page.md") == []
    problems = checks.unknown_symbols("a new symbol $\\zeta_i$ appears.", "page.md")
    assert problems and "zeta" in problems[0] and "notation.py" in problems[0]


def test_a_number_run_into_the_next_word_is_found():
    # mercer printed "0, 0.5, 1 and 2and γ = 1": the endfor closing the list ended a
    # template line, and trim_blocks removed the newline that separated the words.
    assert checks.glued_words("c0 each of 0, 0.5, 1 and 2and gamma\n", "page.md")
    assert not checks.glued_words("c0 each of 0, 0.5, 1 and 2 and gamma\n", "page.md")
    assert not checks.glued_words('<span data-fact="a2">4</span> and 10⁻⁶ of\n', "page.md")


def test_a_number_printed_as_html_inside_maths_is_refused():
    printed = '<span class="fact" data-fact="s.gamma" tabindex="0">0.5</span>'
    problems = checks.markup_in_maths(f"Prose {printed}.\n\nWith $\\gamma = {printed}$.",
                                      "page.md")
    assert len(problems) == 1 and "line 3" in problems[0] and "s.gamma" in problems[0]
    assert "| tex" in problems[0]
    assert checks.markup_in_maths(f"Prose {printed}, then $\\gamma = \\htmlData{{fact=s.gamma}}"
                                  "{0.5}$.", "page.md") == []
