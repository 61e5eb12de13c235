"""Both builders build the committed site, --strict: MkDocs, and ProperDocs.

ProperDocs is the maintained continuation of MkDocs 1.x (MkDocs itself is
unmaintained, and its announced version 2 drops plugins and themes). It runs
in a virtual environment of its own, without mkdocs in it, made once from the
lock (``.cache/properdocs-venv``; made again when the lock changes): the site's
theme, plugins, Markdown extensions and hooks must work under it unchanged.
Each built site has every citation and reference list as its templates and
pybtex say (see tests/test_citations.py), and the two sites are the same page
for page but for the line naming the generator.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kreport.pages import NOTEBOOKS, all_pages

from .conftest import PATHS
from .test_citations import reference_problems, template_keys

ROOT = PATHS.root
PUBLISHED = "https://example.org/kreport/"  # as the publishing workflow sets it
VENV = PATHS.cache / "properdocs-venv"
#: What the ProperDocs environment holds (each at the lock's version, with the
#: lock's versions of what they need): the builder, the theme, the notebook
#: plugin, the Markdown extensions, and what the site's hooks import from kreport
#: (read from the repository through PYTHONPATH, not installed): the maths is
#: rendered at build time in mini-racer, and the notebook's style sheet pruned
#: with tinycss2.
PROPERDOCS_PACKAGES = ("properdocs", "mkdocs-material", "mkdocs-jupyter", "pymdown-extensions",
                       "numpy", "scipy", "matplotlib", "mini-racer", "tinycss2")
GENERATOR = re.compile(r'<meta name="generator" content="[^"]*">')


#: The lock's uv, beside this interpreter (make test installs it): it makes the
#: environment in seconds.
UV = Path(sys.executable).parent / "uv"


def _uv_pip(python: Path, *arguments: str) -> str:
    return subprocess.run([str(UV), "pip", *arguments, "--python", str(python)], check=True,
                          cwd=ROOT, capture_output=True, text=True).stdout


def properdocs_python() -> Path:
    """The ProperDocs environment's Python, made first if it is missing or stale."""
    python = VENV / "bin" / "python"
    stamp = VENV / "kreport-made-from"
    wanted = hashlib.sha256(PATHS.lock_file.read_bytes() + " ".join(PROPERDOCS_PACKAGES).encode()
                            + sys.version.encode()).hexdigest()
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    shutil.rmtree(VENV, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(VENV)], check=True)
    # No bytecode compiled ahead: the environment serves one build a run, which
    # imports a small part of what it holds (compiling all of it took 13 core-seconds
    # on a fresh clone; the build took 5.6 s either way).
    _uv_pip(python, "install", "--quiet", "--constraint", str(PATHS.lock_file),
            *PROPERDOCS_PACKAGES)
    # mkdocs-material and mkdocs-jupyter name mkdocs as a requirement; ProperDocs
    # answers every import of mkdocs itself, so mkdocs goes, to prove it is not used.
    _uv_pip(python, "uninstall", "--quiet", "mkdocs", "mkdocs-get-deps")
    stamp.write_text(wanted)
    return python


def _build(command: list[str], site: Path, environment: dict) -> None:
    """A strict build; any WARNING or ERROR line it logs fails it too."""
    completed = subprocess.run([*command, "build", "--strict", "--config-file", "mkdocs.yml",
                                "--site-dir", str(site)], cwd=ROOT, capture_output=True,
                               text=True, env=environment, check=False)
    output = completed.stdout + completed.stderr
    complaints = [line for line in output.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert completed.returncode == 0 and not complaints, output[-4000:]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """The committed docs/ built by each builder into a scratch folder."""
    sites = {name: tmp_path_factory.mktemp(name) for name in ("mkdocs", "properdocs")}
    base = dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true",
                KREPORT_SITE_URL=PUBLISHED)
    _build([sys.executable, "-m", "mkdocs"], sites["mkdocs"], base)
    _build([str(properdocs_python()), "-m", "properdocs"], sites["properdocs"],
           dict(base, PYTHONPATH=str(ROOT)))
    return sites


def test_the_properdocs_environment_is_the_lock_without_mkdocs():
    python = properdocs_python()
    frozen = _uv_pip(python, "freeze")
    pinned = dict(line.split("==") for line in PATHS.lock_file.read_text().split()
                  if "==" in line)
    pinned = {re.sub(r"[-_.]+", "-", name).lower(): version for name, version in pinned.items()}
    installed = dict(line.split("==") for line in frozen.split() if "==" in line)
    off_lock = {name: version for name, version in installed.items()
                if pinned.get(re.sub(r"[-_.]+", "-", name).lower()) != version}
    assert off_lock == {}, "installed at versions the lock does not pin"
    assert "properdocs" in installed and "mkdocs" not in installed


@pytest.mark.parametrize("builder", ["mkdocs", "properdocs"])
def test_every_page_cites_as_its_template_says(built, builder):
    problems = []
    for page in all_pages():
        target = built[builder] / ("" if page.slug == "index" else page.slug) / "index.html"
        cited = template_keys(page.template_path.read_text(encoding="utf-8"))
        problems += reference_problems(target.read_text(encoding="utf-8"), cited, page.slug)
    assert problems == []


def test_both_builders_build_the_same_site(built):
    def pages(site: Path) -> dict[str, str]:
        return {str(path.relative_to(site)): GENERATOR.sub("", path.read_text(encoding="utf-8"))
                for path in sorted(site.rglob("*.html"))}

    mkdocs, properdocs = pages(built["mkdocs"]), pages(built["properdocs"])
    assert sorted(mkdocs) == sorted(properdocs)
    assert [name for name in mkdocs if mkdocs[name] != properdocs[name]] == []
    assert ((built["mkdocs"] / "search" / "search_index.json").read_bytes()
            == (built["properdocs"] / "search" / "search_index.json").read_bytes())


@pytest.mark.parametrize("builder", ["mkdocs", "properdocs"])
def test_the_sitemap_lists_every_page_at_its_published_address(built, builder):
    sitemap = (built[builder] / "sitemap.xml").read_text(encoding="utf-8")
    listed = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    wanted = [PUBLISHED + ("" if page.slug == "index" else f"{page.slug}/")
              for page in [*all_pages(), *NOTEBOOKS]]
    assert sorted(set(wanted) - set(listed)) == []
    assert all(address.startswith(PUBLISHED) for address in listed)


@pytest.mark.parametrize("builder", ["mkdocs", "properdocs"])
def test_each_page_describes_itself_in_its_own_words(built, builder):
    # Before, every page carried the site's one-line description, so a search
    # result or a link preview said nothing about the page it pointed to.
    for page in all_pages():
        folder = built[builder] if page.slug == "index" else built[builder] / page.slug
        head = (folder / "index.html").read_text(encoding="utf-8").split("</head>")[0]
        described = re.search(r'<meta name="description" content="([^"]*)"', head)
        assert described, f"{page.slug} has no meta description"
        assert html.unescape(described.group(1)) == page.summary, page.slug
