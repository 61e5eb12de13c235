"""The build's machinery, end to end, on the tiny site (tests/tinysite).

A copy of the tiny site's pages is built from nothing into a scratch
repository: computed across processes, checked (the stability check included),
written to docs/ and built by mkdocs --strict with the site's own theme and
hooks. Then it is edited as a maintainer edits: nothing, a template, a page's
helper module, a broken link. Each edit must cost what it reaches and no more,
and say what it did.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import re
import shutil
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from kreport.site.build import BuildFailed, build_site

from . import tinysite
from .scripts import load

run_mkdocs = load("build_site").run_mkdocs

COPY = "tinysite_under_test"


class TinySite:
    """A copy of the tiny site's package (edited freely) and its scratch repository."""

    def __init__(self, folder: Path):
        self.package = folder / "packages" / COPY
        shutil.copytree(Path(tinysite.__file__).parent, self.package,
                        ignore=shutil.ignore_patterns("__pycache__"))
        sys.path.insert(0, str(self.package.parent))  # the build's processes inherit it
        sys.modules.pop(COPY, None)
        self.module = importlib.import_module(COPY)
        self.paths = self.module.make(folder / "repo")

    def build(self) -> list[str]:
        """``make docs`` on the copy: what the build said, line by line."""
        said: list[str] = []
        build_site(self.module.pages(), self.module.NOTEBOOKS, self.paths,
                   echo=lambda text: said.extend(text.splitlines()))
        return said

    @contextlib.contextmanager
    def edited(self, relative: str, old: str, new: str):
        """The copy with ``old`` replaced by ``new`` in one file, put back after."""
        path = self.package / relative
        text = path.read_text()
        assert old in text, f"{relative} does not say {old!r}"
        path.write_text(text.replace(old, new))
        try:
            yield
        finally:
            path.write_text(text)

    def docs(self) -> dict[str, bytes]:
        return {str(path.relative_to(self.paths.docs)): path.read_bytes()
                for path in sorted(self.paths.docs.rglob("*")) if path.is_file()}

    def close(self) -> None:
        sys.path.remove(str(self.package.parent))
        for name in [name for name in sys.modules if name.partition(".")[0] == COPY]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    site = TinySite(tmp_path_factory.mktemp("tiny"))
    site.first_build = site.build()
    yield site
    site.close()


def _status(said: list[str], slug: str) -> str:
    line = next(line for line in said if re.match(rf"\s+{re.escape(slug)}(\.ipynb)?\s", line))
    return "cached" if line.rstrip().endswith("cached") else "computed"


def test_a_fresh_build_computes_checks_and_writes_every_page(tiny):
    said = tiny.first_build
    assert {_status(said, slug) for slug in ("index", "fit", "tiny-notebook")} == {"computed"}
    stability = next(line for line in said if "stability check:" in line)
    assert "on 3 perturbed replicas, 0 problems" in stability
    written = tiny.docs()
    for name in ("index.md", "fit.md", "tiny-notebook.ipynb", "data/index.json",
                 "data/fit.json", "data/tiny-notebook.json", "figures/fit-line.svg",
                 "figures/fit-line-narrow.svg"):
        assert name in written, f"the build did not write {name}"
    page = written["index.md"].decode()
    assert 'data-fact="kernel_values.side"' in page and "[^scholkopf_kernel_pca]:" in page


def test_mkdocs_renders_the_maths_the_numbers_and_the_figures(tiny, tmp_path):
    assert run_mkdocs(tiny.paths.root, tmp_path / "site") == 0
    home = BeautifulSoup((tmp_path / "site" / "index.html").read_text(), "html.parser")
    # maths rendered at build time (its TeX kept only as the MathML annotation), with
    # each printed number inside it still a control
    display = home.select_one(".katex-display .katex-html")
    assert display.select_one('[data-fact="kernel_values.side"]') is not None
    for annotation in home.select("annotation"):
        annotation.decompose()
    article = home.select_one("article").get_text()
    assert "$" not in article and "\\gamma" not in article and "htmlData" not in article
    assert len(home.select('article .fact[tabindex="0"]')) >= 10
    # each table comes in the theme's scrolling box, marked so that the theme's script
    # leaves it where it is (no table without a class for it to move at start-up)
    tables = home.select("article table")
    assert tables and all(table.get("class") == ["kr-table"] for table in tables)
    assert len(home.select(".md-typeset__scrollwrap > .md-typeset__table > table")) == len(tables)
    fit = (tmp_path / "site" / "fit" / "index.html").read_text()
    assert "fit-line-narrow.svg" in fit and "fit-line.svg" in fit
    notebook = (tmp_path / "site" / "tiny-notebook" / "index.html").read_text()
    assert 'data-fact="data.mean"' in notebook


def test_a_rebuild_with_nothing_changed_computes_nothing_and_writes_nothing(tiny):
    before = tiny.docs()
    said = tiny.build()
    assert {_status(said, slug) for slug in ("index", "fit", "tiny-notebook")} == {"cached"}
    assert not any(line.startswith("  computing") for line in said), said
    assert "0 files changed in docs/" in said[-1]
    assert tiny.docs() == before


def _search_index(site: Path) -> dict[str, str]:
    index = json.loads((site / "search" / "search_index.json").read_text())
    return {doc["location"]: doc["text"] for doc in index["docs"]}


def test_a_template_edit_recomputes_nothing_and_changes_only_its_page(tiny, tmp_path):
    assert run_mkdocs(tiny.paths.root, tmp_path / "before") == 0
    before = tiny.docs()
    with tiny.edited("ring/ring.md.j2", "## Kernel values\n",
                     "## Kernel values\n\nA sentence added by the test.\n"):
        said = tiny.build()
    assert not any(line.startswith("  computing") for line in said), said
    after = tiny.docs()
    assert "A sentence added by the test." in after["index.md"].decode()
    assert {name for name in after if after[name] != before.get(name)} == {"index.md"}
    # The site's search index: the unchanged pages' entries come from the cache, as
    # they were; the edited page's are made again, with the new sentence.
    assert run_mkdocs(tiny.paths.root, tmp_path / "after") == 0
    searched, edited = _search_index(tmp_path / "before"), _search_index(tmp_path / "after")
    changed = {location for location in edited if edited[location] != searched.get(location)}
    assert changed and all(location.partition("#")[0] == "" for location in changed), changed
    assert any("A sentence added by the test." in edited[location] for location in changed)
    assert (tiny.paths.cache / "search-entries").is_dir()
    tiny.build()
    assert tiny.docs() == before


def test_a_helper_module_edit_recomputes_its_page_only_and_lists_what_moved(tiny):
    before = tiny.docs()
    with tiny.edited("ring/square.py", "GAMMA = 0.5\n", "GAMMA = 0.25\n"):
        said = tiny.build()
    assert _status(said, "index") == "computed"
    assert _status(said, "fit") == "cached" and _status(said, "tiny-notebook") == "cached"
    report = "\n".join(said)
    # the moved facts, old -> new, with the sentence that prints each
    assert "facts moved against the committed docs/" in report
    moved = report[report.index("facts moved"):]
    assert "kernel_values.gamma" in moved and "0.5" in moved and "0.25" in moved
    assert "kernel_values.side" in moved and "along a side" in moved
    assert "fit." not in moved
    tiny.build()
    assert tiny.docs() == before


def test_a_claim_the_data_stop_supporting_stops_the_build_naming_its_sentence(tiny):
    before = tiny.docs()
    with tiny.edited("ring/square.py", "side > across", "side < across"), \
            pytest.raises(BuildFailed) as failure:
        tiny.build()
    message = str(failure.value)
    assert "index: ClaimFailed" in message and "more alike than two across" in message
    assert "Traceback" not in message
    assert tiny.docs() == before


@pytest.mark.parametrize("extra", [
    "See [a page that does not exist](no-such-page.md).",
    "![a figure that was never drawn](figures/no-such-figure.svg)",
    "See [a missing section](fit.md#no-such-heading).",
])
def test_mkdocs_fails_on_a_broken_link_or_a_missing_image(tiny, tmp_path, extra, capsys):
    root = tmp_path / "repo"
    shutil.copytree(tiny.paths.root, root, symlinks=True,
                    ignore=shutil.ignore_patterns(".cache", "site"))
    page = root / "docs" / "index.md"
    page.write_text(page.read_text() + "\n" + extra + "\n")
    assert run_mkdocs(root, tmp_path / "site") != 0
    said = capsys.readouterr().err
    # failed for the broken reference, and for nothing else (the copy itself builds)
    assert "no-such-" in said and "Config value" not in said, said
