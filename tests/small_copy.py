"""A small copy of the repository, for tests that edit a site without touching
the working tree (the preview, a page added as AUTHORING.md says)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The pages of the copy (package name → slug).
KEPT = {"home": "index", "glossary": "glossary", "kernel_ridge_start": "kernel-ridge-start"}


def small_copy(target: Path, slugs: tuple[str, ...] = tuple(KEPT.values())) -> Path:
    """The repository with only the pages ``slugs`` (the home page, the glossary and
    the ten-minute kernel ridge page unless told): its library, driver, scripts
    and docs/. Nothing of the working tree is touched."""
    shutil.copytree(ROOT / "kreport", target / "kreport",
                    ignore=shutil.ignore_patterns("__pycache__"))
    # The other page packages stay (the kept pages import their fits); the copy's
    # list of pages names only the kept ones, and no notebook.
    listing = target / "kreport" / "pages" / "__init__.py"
    text = listing.read_text()
    start = text.index("NOTEBOOKS: list[Notebook] = [")
    end = text.index("]\n", start) + 2
    listing.write_text(text[:start] + "NOTEBOOKS: list[Notebook] = []\n" + text[end:]
                       + "\n\n_every_page = all_pages\n\n\ndef all_pages() -> list[Page]:\n"
                       + "    return [page for page in _every_page() if page.slug in "
                       + f"{sorted(slugs)!r}]\n")
    shutil.copytree(ROOT / "scripts", target / "scripts")
    for name in ("requirements.lock", "pyproject.toml"):
        shutil.copy(ROOT / name, target / name)
    config_text = (ROOT / "mkdocs.yml").read_text()
    nav_start = config_text.index("nav:\n")
    nav_end = config_text.index("\ntheme:", nav_start)
    config_text = (config_text[:nav_start] + "nav:\n"
                   + "".join(f"  - {slug}.md\n" for slug in slugs) + config_text[nav_end:])
    (target / "mkdocs.yml").write_text(config_text)
    shutil.copytree(ROOT / "docs", target / "docs")
    kept = {f"{slug}.md" for slug in slugs}
    for page in (target / "docs").glob("*.*"):
        if page.suffix in (".md", ".ipynb") and page.name not in kept:
            page.unlink()
    return target


def environment_for(copy: Path) -> dict:
    # The copy's kreport, not the one the venv's editable install points at.
    return dict(os.environ, PYTHONPATH=str(copy), NO_MKDOCS_2_WARNING="1", PYTHONHASHSEED="0")
