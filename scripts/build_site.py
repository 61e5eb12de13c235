"""Regenerate every page, figure, manifest and notebook into docs/, then build site/.

Usage: python scripts/build_site.py [--no-cache] [--no-mkdocs] [--only SLUG ...]

This is what `make docs` runs. It hands the pages and notebooks of
kreport.pages and the repository's paths to the driver (kreport.site.build),
which computes and checks everything (facts, claims, the stability check,
stray digits, docs/ contents, the navigation) before writing anything. A page
whose inputs are unchanged is taken from .cache/ instead of being recomputed.
Then mkdocs builds site/, and any warning it prints fails the build.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_mkdocs(root: Path, site_dir: Path | None = None) -> int:
    """``mkdocs build --strict``, in this process (whose imports it shares: about a
    second of a template edit's rebuild); any WARNING or ERROR it logs fails the
    build too, and is printed."""
    import logging

    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    complaints: list[str] = []

    class Complaints(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            complaints.append(f"{record.levelname} -  {record.getMessage()}")

    logger = logging.getLogger("mkdocs")
    handler, propagate = Complaints(level=logging.WARNING), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False  # said once, below, not also by Python's last-resort handler
    try:
        config = load_config(str(root / "mkdocs.yml"), strict=True,
                             site_dir=str(site_dir) if site_dir is not None else None)
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()
    except (MkDocsException, SystemExit) as error:
        complaints.append(f"ERROR -  {error}")
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
    for line in dict.fromkeys(complaints):
        print(line, file=sys.stderr)
    return 1 if complaints else 0


def site_key(root: Path) -> str:
    """What site/ is built from: every file in docs/, mkdocs.yml, the theme's
    override, the hooks' code (and the kreport modules they import), the KaTeX
    they render the maths with, the published address and the pinned versions."""
    from kreport.site.cache import cache_key

    docs = sorted(path for folder in ("docs", "kreport/site/theme", "kreport/site/vendored")
                  for path in (root / folder).rglob("*") if path.is_file())
    # The hooks read the glossary's spellings inside a function: named here.
    return cache_key(["kreport.site.mkdocs_hooks", "kreport.pages.glossary.notation"],
                     [root / "mkdocs.yml", *docs],
                     root / "requirements.lock", also=["mkdocs build --strict",
                           os.environ.get("KREPORT_SITE_URL", "")])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-cache", action="store_true", help="recompute every page")
    parser.add_argument("--no-mkdocs", action="store_true", help="regenerate docs/ only")
    parser.add_argument("--only", nargs="+", metavar="SLUG",
                        help="build and write only these pages or notebooks (while working on "
                             "them; the site-wide checks wait for a full build)")
    options = parser.parse_args()

    from kreport.pages import NOTEBOOKS, all_pages
    from kreport.site.build import BuildFailed, build_site
    from kreport.site.paths import SitePaths

    started = time.perf_counter()
    pages, notebooks = all_pages(), NOTEBOOKS
    if options.only:
        known = {item.slug for item in [*pages, *notebooks]}
        unknown = sorted(set(options.only) - known)
        if unknown:
            print(f"no page or notebook {unknown}; known: {sorted(known)}", file=sys.stderr)
            return 2
        pages = [page for page in pages if page.slug in options.only]
        notebooks = [notebook for notebook in notebooks if notebook.slug in options.only]
    print("regenerating docs/ from kreport", flush=True)
    try:
        build_site(pages, notebooks, SitePaths.for_repository(ROOT),
                   use_cache=not options.no_cache, echo=lambda line: print(line, flush=True),
                   partial=bool(options.only))
    except BuildFailed as failure:
        print(f"make docs failed: {failure}", file=sys.stderr)
        return 1
    if not options.no_mkdocs and not options.only:
        # site/ is rebuilt only when what it is built from changed since the last
        # successful build (the stamp lives in .cache/, never in the published site/).
        stamp = ROOT / ".cache" / "site-key"
        key = site_key(ROOT)
        if (ROOT / "site" / "index.html").exists() and stamp.exists() \
                and stamp.read_text() == key:
            print("site/ is up to date with docs/ (mkdocs not rerun)", flush=True)
        else:
            print("building site/ with mkdocs --strict", flush=True)
            stamp.unlink(missing_ok=True)
            status = run_mkdocs(ROOT)
            if status:
                print("mkdocs build failed (every warning is an error)", file=sys.stderr)
                return status
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(key)
    print(f"make docs finished in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
