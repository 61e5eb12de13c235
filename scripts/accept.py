"""Accept an intended change: regenerate docs/ and every regression baseline together.

Usage: python scripts/accept.py      (what `make accept` runs)

1. The site is rebuilt exactly as `make docs` does; if any claim or check fails,
   nothing is written and nothing is accepted.
2. The regression baselines in tests/test_regression/ are rewritten from that
   build. pytest-regressions stops a test at its first failing check and fails
   every check that rewrote a baseline, so the passes run until one passes: that
   one found every baseline equal to what the build gives, which is the lock
   holding (a new page, or one whose numbers and texts both moved, takes two
   rewriting passes and the passing one).
3. All or nothing: if the lock still fails, the baselines are restored to what
   they were (docs/ then holds a build that passes every check, which `git diff`
   shows; the lock is left as it was, and the command says so).

The tests reuse the cache `make docs` just filled (KREPORT_TEST_CACHE=1): a cached
result is keyed by every input it depends on, so this is the same build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINES = ROOT / "tests" / "test_regression"
PASSES = 4


def _pytest(*extra: str) -> int:
    environment = dict(os.environ, KREPORT_TEST_CACHE="1")
    command = [sys.executable, "-m", "pytest", "tests/test_regression.py", "-q",
               "-p", "no:cacheprovider", "-n", "0", *extra]
    return subprocess.run(command, cwd=ROOT, env=environment, check=False).returncode


def main() -> int:
    build = subprocess.run([sys.executable, "scripts/build_site.py"], cwd=ROOT, check=False)
    if build.returncode:
        print("accept: the build failed, so nothing was accepted", file=sys.stderr)
        return build.returncode
    with tempfile.TemporaryDirectory() as scratch:
        backup = Path(scratch) / "baselines"
        shutil.copytree(BASELINES, backup)
        for _ in range(PASSES):
            # A pass fails wherever it rewrote a baseline; one that passes found every
            # baseline equal to what the build gives, so the lock holds as it stands.
            if _pytest("--force-regen") == 0:
                break
        else:
            shutil.rmtree(BASELINES)
            shutil.copytree(backup, BASELINES)
            print("accept: the regression lock still fails after regenerating; the baselines "
                  "were restored", file=sys.stderr)
            return 1
    changed = subprocess.run(["git", "status", "--short", "docs", "tests/test_regression"],
                             cwd=ROOT, capture_output=True, text=True, check=False).stdout
    print("accepted; commit these with the reason for the change:\n" + (changed or "  nothing"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
