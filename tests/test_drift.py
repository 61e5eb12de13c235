"""The committed docs/ is exactly what the code produces now.

Each page is recomputed with no cache and rendered; its markdown and figures
must equal the committed files byte for byte and its manifest must match
within the regression tolerance (the manifest keeps twelve digits, the last
of which may differ between BLAS builds). The executed notebook is compared
byte for byte too. Run `make docs` and commit to clear a failure, after
checking that the change was meant.
"""

from __future__ import annotations

import difflib
import json
import math

import pytest

from kreport.pages import NOTEBOOKS
from kreport.report.build import DOCS
from kreport.report.cache import PACKAGE_ROOT
from kreport.report.notebooks import execute_notebook

from .conftest import PAGES


def _first_difference(committed: bytes, fresh: bytes) -> str:
    old = committed.decode(errors="replace").splitlines()
    new = fresh.decode(errors="replace").splitlines()
    diff = list(difflib.unified_diff(old, new, "committed", "fresh", n=0, lineterm=""))
    return "\n".join(diff[:12]) if diff else "(the files differ in bytes only)"


def _same_within_tolerance(a, b, where="") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        problems = [f"{where}: keys differ: {sorted(set(a) ^ set(b))}"] if set(a) != set(b) else []
        for key in set(a) & set(b):
            problems += _same_within_tolerance(a[key], b[key], f"{where}.{key}")
        return problems
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: length {len(a)} became {len(b)}"]
        problems = []
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            problems += _same_within_tolerance(x, y, f"{where}[{index}]")
        return problems
    if isinstance(a, float | int) and isinstance(b, float | int) and not isinstance(a, bool):
        return [] if math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) else [f"{where}: {a} → {b}"]
    return [] if a == b else [f"{where}: {a!r} → {b!r}"]


def _manifest_problems(committed: bytes, fresh: bytes) -> list[str]:
    old, new = json.loads(committed), json.loads(fresh)
    old_facts = {fact["key"]: fact for fact in old.pop("facts")}
    new_facts = {fact["key"]: fact for fact in new.pop("facts")}
    problems = _same_within_tolerance(old, new, "manifest")
    for key in sorted(set(old_facts) | set(new_facts)):
        if key not in old_facts or key not in new_facts:
            problems.append(f"fact {key} {'appeared' if key in new_facts else 'disappeared'}")
        else:
            problems += _same_within_tolerance(old_facts[key], new_facts[key], key)
    return problems


@pytest.mark.parametrize("slug", [page.slug for page in PAGES])
def test_committed_page_matches_a_fresh_render(slug, fresh_outputs):
    problems = []
    for relative, fresh in sorted(fresh_outputs(slug).files.items()):
        path = DOCS / relative
        if not path.exists():
            problems.append(f"docs/{relative} is not committed")
            continue
        committed = path.read_bytes()
        if relative.endswith(".json"):
            problems += [f"docs/{relative}: {p}" for p in _manifest_problems(committed, fresh)]
        elif committed != fresh:
            problems.append(f"docs/{relative} moved:\n{_first_difference(committed, fresh)}")
    assert not problems, "run `make docs` if this change was meant:\n" + "\n".join(problems)


def test_no_stale_figures_are_committed(fresh_outputs):
    drawn = {name for page in PAGES for name in fresh_outputs(page.slug).files
             if name.startswith("figures/")}
    committed = {f"figures/{path.name}" for path in (DOCS / "figures").glob("*")}
    assert committed <= drawn, f"figures no page draws: {sorted(committed - drawn)}"


@pytest.mark.parametrize(("source", "target"), NOTEBOOKS)
def test_executed_notebook_matches_a_fresh_execution(source, target):
    fresh = execute_notebook(PACKAGE_ROOT / "pages" / source)
    committed = (DOCS / target).read_bytes()
    assert committed == fresh, (
        f"docs/{target} differs from a fresh execution of {source}; run `make docs`:\n"
        + _first_difference(committed, fresh)
    )
