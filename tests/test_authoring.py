"""A page added exactly as kreport/pages/AUTHORING.md says builds in one build.

On a small copy of the repository (tests/small_copy.py), the test writes a
throw-away page as the guide describes it: a package whose ``__init__.py``
defines ``page = Page(...)``, a topic module with one function per section that
returns named facts and states its relation as a claim (the threshold written
once), and a template beside them that prints every number through a filter and
marks the compared sentence with its claim. It adds the page to ``nav:``, runs
the build once (``make docs``: it passes, and writes the page, its manifest and
the facts it printed) and the accept command once (``make accept``: the page's
facts are locked, and the regression test then passes). Nothing else may be needed.
"""

from __future__ import annotations

import json
import subprocess
import sys

from .small_copy import environment_for, small_copy

PACKAGE = '''"""A throw-away page: the throws' heights, summarised."""

from kreport.report import Page

from . import heights

page = Page(
    slug="scratch", title="The throws in brief", template="scratch.md.j2",
    summary="How high the ball went.",
    sections=[heights.summary],
)
'''

TOPIC = '''"""The heights of the throws."""

import numpy as np

from kreport import data
from kreport.report import claim


def summary():
    """How many throws there are, their mean height and the tallest."""
    heights = np.asarray(data.throws().target, dtype=float)
    claim("the tallest throw is higher than the mean height", heights.max() > heights.mean(),
          id="tallest_above_mean")
    return {"count": len(heights), "mean": heights.mean(), "tallest": heights.max()}
'''

TEMPLATE = '''# {{ title }}

!!! abstract "What you will learn"
    * How high the ball went.

!!! info "What this page assumes"
    Nothing; the site starts on its [home page](index.md).

## The heights

There are {{ summary.count | num }} throws. The tallest reached
{{ summary.tallest | num(2) }} m, above the mean height of
{{ summary.mean | num(3) }} m{{ checked("summary.tallest_above_mean") }}.

## Summary

- The ball went up and came down.

{{ provenance() }}
'''


def _run(copy, script: str):
    return subprocess.run([sys.executable, script], cwd=copy, env=environment_for(copy),
                          capture_output=True, text=True, check=False)


def test_a_page_written_as_the_guide_says_takes_one_build_and_one_accept(tmp_path):
    copy = small_copy(tmp_path / "repo", also=("scratch",))
    package = copy / "kreport" / "pages" / "scratch"
    package.mkdir()
    (package / "__init__.py").write_text(PACKAGE)
    (package / "heights.py").write_text(TOPIC)
    (package / "scratch.md.j2").write_text(TEMPLATE)
    built = _run(copy, "scripts/build_site.py")  # `make docs`
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-3000:]
    page = (copy / "docs" / "scratch.md").read_text()
    manifest = json.loads((copy / "docs" / "data" / "scratch.json").read_text())
    facts = {fact["key"]: fact["value"] for fact in manifest["facts"]}
    assert facts["summary.count"] == 15
    assert f"{facts['summary.tallest']:.2g}" in page
    assert "the tallest throw is higher than the mean height" in json.dumps(manifest)
    assert (copy / "site" / "scratch" / "index.html").exists()

    # `make accept`, once: the new page's facts are locked, and the lock holds.
    accepted = _run(copy, "scripts/accept.py")
    assert accepted.returncode == 0, accepted.stdout[-3000:] + accepted.stderr[-3000:]
    baselines = copy / "tests" / "test_regression"
    locked = {path.name for path in baselines.iterdir()}
    assert {"test_facts_are_locked_scratch_.yml", "test_facts_are_locked_scratch_.csv"} <= locked
    assert "the tallest throw is higher than the mean height" in \
        (baselines / "test_facts_are_locked_scratch_.yml").read_text()
    lock = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p",
                           "no:cacheprovider", "tests/test_regression.py"], cwd=copy,
                          env=dict(environment_for(copy), KREPORT_TEST_CACHE="1"),
                          capture_output=True, text=True, check=False)
    assert lock.returncode == 0, lock.stdout[-3000:]
