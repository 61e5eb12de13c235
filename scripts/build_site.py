"""Regenerate every page, figure, manifest and notebook into docs/, then build site/.

Usage: python scripts/build_site.py [--no-cache] [--no-mkdocs]

This is what `make docs` runs. A page whose inputs (the kreport sources it
imports, its template, the fixtures, the pinned versions) are unchanged is
taken from .cache/ instead of being recomputed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-cache", action="store_true", help="recompute every page")
    parser.add_argument("--no-mkdocs", action="store_true", help="regenerate docs/ only")
    options = parser.parse_args()

    from kreport.report.build import build_site

    started = time.perf_counter()
    print("regenerating docs/ from kreport", flush=True)
    build_site(use_cache=not options.no_cache, echo=lambda line: print(line, flush=True))
    if not options.no_mkdocs:
        print("building site/ with mkdocs --strict", flush=True)
        environment = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        mkdocs = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"]
        completed = subprocess.run(mkdocs, cwd=ROOT, env=environment, check=False)
        if completed.returncode != 0:
            print("mkdocs build failed", file=sys.stderr)
            return completed.returncode
    print(f"make docs finished in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
