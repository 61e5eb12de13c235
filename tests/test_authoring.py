"""A page added exactly as kreport/pages/AUTHORING.md says builds in one build.

On a small copy of the repository (tests/small_copy.py), the test writes a
throw-away page as the guide describes it: a package whose ``__init__.py``
defines ``page = Page(...)``, a topic module with one function per section that
returns named facts and states its relation as a claim (the threshold written
once), and a template beside them that prints every number through a filter and
marks the compared sentence with its claim. It adds the page to ``nav:`` and
runs the build once. Nothing else may be needed: the build passes, writes the
page, its manifest and the facts it printed.
"""

from __future__ import annotations

import json
import subprocess
import sys

from .small_copy import KEPT, environment_for, small_copy

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
    Nothing; the symbols are in the [glossary](glossary.md).

## The heights

There are {{ summary.count | num }} throws. The tallest reached
{{ summary.tallest | num(2) }} m, above the mean height of
{{ summary.mean | num(3) }} m{{ checked("summary.tallest_above_mean") }}.

## Summary

- The ball went up and came down.

{{ provenance() }}
'''


def test_a_page_written_as_the_guide_says_builds_in_one_build(tmp_path):
    slugs = (*KEPT.values(), "scratch")
    copy = small_copy(tmp_path / "repo", slugs)
    package = copy / "kreport" / "pages" / "scratch"
    package.mkdir()
    (package / "__init__.py").write_text(PACKAGE)
    (package / "heights.py").write_text(TOPIC)
    (package / "scratch.md.j2").write_text(TEMPLATE)
    built = subprocess.run([sys.executable, "scripts/build_site.py", "--no-mkdocs"], cwd=copy,
                           env=environment_for(copy), capture_output=True, text=True,
                           check=False)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-3000:]
    page = (copy / "docs" / "scratch.md").read_text()
    manifest = json.loads((copy / "docs" / "data" / "scratch.json").read_text())
    facts = {fact["key"]: fact["value"] for fact in manifest["facts"]}
    assert facts["summary.count"] == 15
    assert f"{facts['summary.tallest']:.2g}" in page
    assert "the tallest throw is higher than the mean height" in json.dumps(manifest)
