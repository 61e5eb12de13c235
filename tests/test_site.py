"""The committed docs/ is exactly what the code produces now, and the build's
checks all pass.

The site is recomputed with no cache (the `site` fixture). Every file it would
write must match the committed one by the one rule of kreport.site.compare
(markdown byte for byte, manifests by value within each fact's tolerance, SVG
figures structurally within a hundredth of a pixel, notebooks by sources and
outputs), and docs/ must hold nothing else but the declared hand-written
assets. `make docs` uses the same rule when it decides whether to rewrite a
file, so it leaves `git status` clean exactly where these tests pass. Run
`make docs` and commit to clear a failure, after checking that the change was
meant.
"""

from __future__ import annotations

import shutil

import pytest

from kreport.site import checks
from kreport.site.build import write
from kreport.site.compare import differences
from kreport.site.markdown import PROVENANCE_OPENING, printed_numbers
from kreport.site.moved import site_moves
from kreport.site.moved import table as moved_table
from kreport.site.paths import SitePaths

from .conftest import NOTEBOOKS, ONLY, PAGES, PATHS

SLUGS = [page.slug for page in PAGES] + [notebook.slug for notebook in NOTEBOOKS]


def test_the_build_reports_no_problem(site):
    """Claims, templates, stray digits, unchecked comparisons, the navigation and
    the stability check: everything `make docs` refuses to write over."""
    assert not site.problems, f"{len(site.problems)} problems:\n" + "\n".join(site.problems)


def _files_of(site, slug: str) -> list[str]:
    return sorted(name for name in site.files
                  if name in (f"{slug}.md", f"{slug}.ipynb", f"data/{slug}.json")
                  or name.startswith(f"figures/{slug}-"))


@pytest.mark.parametrize("slug", SLUGS)
def test_committed_files_match_a_fresh_build(site, slug):
    problems = []
    for relative in _files_of(site, slug):
        path = PATHS.docs / relative
        if not path.exists():
            problems.append(f"docs/{relative} is not committed")
            continue
        problems += [f"docs/{relative}: {problem}"
                     for problem in differences(relative, path.read_bytes(), site.files[relative])]
    moves = moved_table(site_moves({name: site.files[name] for name in _files_of(site, slug)},
                                   PATHS.docs)) if problems else ""
    assert not problems, ("run `make accept` if this change was meant:\n" + "\n".join(problems)
                          + "\n\nfacts that moved:\n" + moves)


@pytest.mark.skipif(bool(ONLY), reason="needs the whole site (KREPORT_PAGES is set)")
def test_docs_holds_only_what_the_build_writes_and_declared_assets(site):
    stale, unknown = checks.unaccounted_files(PATHS.docs, set(site.files), PATHS.assets_list)
    assert not stale, f"stale build output (run `make docs` to remove it): {stale}"
    assert not unknown, "\n".join(unknown)


@pytest.mark.skipif(bool(ONLY), reason="needs the whole site (KREPORT_PAGES is set)")
def test_make_docs_would_change_nothing(site, tmp_path):
    """The writer and this test share one rule: on a copy of docs/, writing the
    fresh build changes no file."""
    copy = tmp_path / "docs"
    shutil.copytree(PATHS.docs, copy)
    paths = SitePaths(root=PATHS.root, docs=copy, cache=tmp_path / "cache",
                      mkdocs_config=PATHS.mkdocs_config, lock_file=PATHS.lock_file,
                      assets_list=copy / PATHS.assets_list.name)
    assert write(site, paths) == []


@pytest.mark.skipif(bool(ONLY), reason="needs the whole site (KREPORT_PAGES is set)")
def test_every_page_is_in_the_navigation():
    built = [f"{page.slug}.md" for page in PAGES] + [nb.target for nb in NOTEBOOKS]
    assert checks.navigation_problems(PATHS.mkdocs_config, built) == []


@pytest.mark.parametrize("page", PAGES, ids=[page.slug for page in PAGES])
def test_each_foot_note_says_what_its_page_holds(site, page):
    """The note at a page's foot promises what holds for that page: a page of the
    timing study names the facts the regression lock leaves out, and a page that
    prints no number does not ask the reader to hover one."""
    text = site.files[f"{page.slug}.md"].decode()
    note = text[text.index(PROVENANCE_OPENING):].split("\n\n")[0]
    locked = note.split("`make test` fails if anything here moves")[1]
    if page.machine_specific:
        assert "`make timings`" in locked, note
        assert all(f"`{section}`" in locked for section in page.machine_specific), note
    else:
        assert locked.strip() == ".", note
    prints = printed_numbers(site.outcomes[page.slug].log) > 0
    assert ("Hover or focus a number" in note) == prints, note
    assert ("This page prints no number" in note) == (not prints), note
