"""Every page's facts, claims and figure data, locked by pytest-regressions.

Each number is compared at its own tolerance: the default (rtol 1e-7, no
absolute slack, so a small number is locked as tightly as a large one) or the
one its section declared with `within`; the stability check guarantees that
no number's last-bit spread comes near it. Strings, yes/no facts, bounds,
claims (with the values in their sentences), the reasons facts are exact and
the list of numeric keys are locked exactly. What each figure draws (lines,
points, bars, images, ticks, labels) is locked too, at the figure's tolerance
relative to the largest value of each drawn array, so a figure cannot change
or be rescaled unnoticed. Notebooks are locked like pages.

A failure names the key. After an intended change: `make accept` (docs/ and
every baseline together), and say why in the commit message.
"""

from __future__ import annotations

import csv

import numpy as np
import pytest

from kreport import data
from kreport.report.facts import DEFAULT_RTOL, Bound
from kreport.report.playground import Phrase, Shown
from kreport.site.results import flat_facts, is_number, tolerance_of

from .conftest import NOTEBOOKS, PAGES
from .scripts import write_fixtures_as_made

MACHINE_SPECIFIC = {page.slug: tuple(page.machine_specific) for page in PAGES}
# A figure of machine-specific facts (the timing study) is drawn from them and is
# locked, like them, by its shape in tests of its own, not by its values.
FIGURE_TOLERANCE = {page.slug: {spec.filename(page.slug): spec.rtol for spec in page.figures
                                if spec.name not in page.machine_specific}
                    for page in PAGES}
SLUGS = [page.slug for page in PAGES] + [notebook.slug for notebook in NOTEBOOKS]


def _split(result, skip) -> tuple[dict, dict, dict]:
    numbers, tolerances, others = {}, {}, {}
    for key, value in flat_facts(result, skip).items():
        if isinstance(value, Bound):
            others[key] = f"below 1e{value.exponent}"
        elif is_number(value):
            numbers[key] = np.array([float(value)])
            rtol = tolerance_of(result, key)
            if rtol != DEFAULT_RTOL:
                tolerances[key] = {"rtol": rtol, "atol": 0.0}
        else:
            others[key] = value
    return numbers, tolerances, others


@pytest.mark.parametrize("slug", SLUGS)
def test_facts_are_locked(slug, site, num_regression, data_regression):
    # A page that failed to build has no outcome: say why, not KeyError.
    assert slug in site.outcomes, f"{slug} did not build:\n  " + "\n  ".join(site.problems)
    result = site.outcomes[slug].result
    skip = MACHINE_SPECIFIC.get(slug, ())
    numbers, tolerances, others = _split(result, skip)
    others["claims"] = [f"{claim.section}: {claim.sentence}"
                        + (f" [exact: {claim.exact_reason}]" if claim.exact_reason else "")
                        for claim in result.claims if claim.section not in skip]
    others["exact"] = dict(sorted(result.exact.items()))
    others["declared_tolerances"] = dict(sorted(result.rtol.items()))
    # num_regression ignores expected columns it is no longer given, so the
    # list of numeric keys is locked here: a number that disappears fails too.
    others["numeric_keys"] = sorted(numbers)
    try:
        data_regression.check(others)
        if numbers:
            num_regression.check(numbers, default_tolerance={"rtol": DEFAULT_RTOL, "atol": 0.0},
                                 tolerances=tolerances)
    except AssertionError as failure:
        moved = _moved_against_baseline(slug, site, numbers, tolerances)
        raise AssertionError(f"{failure}\n\nfacts that moved against the locked values "
                             f"(if meant, `make accept` locks them):\n{moved}") from None


def _moved_against_baseline(slug, site, numbers, tolerances) -> str:
    """The moved numeric facts, old (the locked CSV) -> new, with their sentences."""
    import csv
    from pathlib import Path

    from kreport.site.moved import Moved, sentences_printing, table

    baseline = Path(__file__).with_name("test_regression") / \
        f"test_facts_are_locked_{slug.replace('-', '_')}_.csv"
    if not baseline.exists():
        return "(no locked values yet)"
    header, values = list(csv.reader(baseline.read_text().splitlines()))[:2]
    locked = dict(zip(header[1:], values[1:], strict=True))
    markdown = site.files.get(f"{slug}.md", b"").decode()
    rows = []
    for key in sorted(set(locked) | set(numbers)):
        old = float(locked[key]) if key in locked and locked[key] != "" else None
        new = float(numbers[key][0]) if key in numbers else None
        rtol = tolerances.get(key, {}).get("rtol", DEFAULT_RTOL)
        if old is not None and new is not None and abs(new - old) <= rtol * abs(old):
            continue
        rows.append(Moved(slug, key, old, new, rtol, sentences_printing(markdown, key)))
    return table(rows)


@pytest.mark.parametrize("slug", [page.slug for page in PAGES if page.figures])
def test_what_the_figures_draw_is_locked(slug, site, ndarrays_regression, data_regression):
    result = site.outcomes[slug].result
    arrays, tolerances, texts = {}, {}, {}
    for filename, drawn in sorted(result.figure_data.items()):
        if filename not in FIGURE_TOLERANCE[slug]:
            continue
        rtol = FIGURE_TOLERANCE[slug][filename]
        for key, value in drawn.items():
            name = f"{filename}:{key}"
            if isinstance(value, str):
                texts[name] = value
                continue
            arrays[name] = value
            finite = value[~np.isnan(value)]
            scale = float(np.max(np.abs(finite))) if finite.size else 0.0
            tolerances[name] = {"rtol": rtol, "atol": rtol * scale}
    texts["arrays"] = {name: list(value.shape) for name, value in arrays.items()}
    data_regression.check(texts)
    ndarrays_regression.check(arrays, tolerances=tolerances)


def _playground_leaves(value, key: str, rtol: float, arrays: dict, tolerances: dict,
                       texts: dict, shown_values: dict) -> None:
    if isinstance(value, dict):
        for name, item in value.items():
            _playground_leaves(item, f"{key}.{name}", rtol, arrays, tolerances, texts,
                               shown_values)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _playground_leaves(item, f"{key}[{index}]", rtol, arrays, tolerances, texts,
                               shown_values)
    elif isinstance(value, np.ndarray) and value.dtype.kind == "f":
        name = key.replace("/", "|")
        arrays[name] = value
        scale = float(np.max(np.abs(value))) if value.size else 0.0
        tolerances[name] = {"rtol": rtol, "atol": rtol * scale}
    elif isinstance(value, Shown | Phrase):
        texts[key] = value.text()
        numbers = [value] if isinstance(value, Shown) else \
            [item for _, item in value.values if isinstance(item, Shown)]
        for index, number in enumerate(numbers):
            if isinstance(number.value, Bound):
                continue
            # shown numbers go into one array per lock tolerance, in key order
            shown_values.setdefault(number.rtol, []).append((f"{key}#{index}",
                                                             float(number.value)))
    elif isinstance(value, np.ndarray):
        texts[key] = value.tolist()
    elif isinstance(value, float):
        name = key.replace("/", "|")
        arrays[name] = np.array([value])
        tolerances[name] = {"rtol": DEFAULT_RTOL, "atol": 0.0}
    else:
        texts[key] = value


@pytest.mark.parametrize("slug", [page.slug for page in PAGES if page.playgrounds])
def test_what_the_playgrounds_show_is_locked(slug, site, ndarrays_regression, data_regression):
    page = next(page for page in PAGES if page.slug == slug)
    result = site.outcomes[slug].result
    arrays, tolerances, texts, shown_values = {}, {}, {}, {}
    for spec in page.playgrounds:
        _playground_leaves(result.playgrounds[spec.name], spec.name, spec.rtol, arrays,
                           tolerances, texts, shown_values)
    texts["arrays"] = {name: list(value.shape) for name, value in arrays.items()}
    for rtol, entries in sorted(shown_values.items()):
        name = f"shown numbers, rtol {rtol:g}"
        arrays[name] = np.array([number for _, number in entries])
        tolerances[name] = {"rtol": rtol, "atol": 0.0}
        texts[name] = [key for key, _ in entries]
    data_regression.check(texts)
    ndarrays_regression.check(arrays, tolerances=tolerances)


def _departures(documents: str, committed: str) -> list[str]:
    """Every cell where the committed CSV differs from the documents' version."""
    theirs = list(csv.reader(documents.splitlines()))
    ours = list(csv.reader(committed.splitlines()))
    if theirs[:1] != ours[:1] or len(theirs) != len(ours):
        return [f"columns {ours[:1]} and {len(ours) - 1} rows, "
                f"the documents' version has {theirs[:1]} and {len(theirs) - 1}"]
    header = ours[0]
    return [f"line {line}, {header[j]}: {cell} (the documents' version has {theirs[line - 1][j]})"
            for line, row in enumerate(ours[1:], start=2)
            for j, cell in enumerate(row) if cell != theirs[line - 1][j]]


def test_where_the_fixtures_depart_from_the_documents_is_locked(tmp_path, data_regression):
    # tests/test_fixtures.py holds each fixture as scripts/make_fixtures.py writes it to
    # the source documents' statistics. The committed files are those unless moved on
    # purpose; every moved cell is locked here, so the move shows in review and
    # `make accept` records it like any other intended change.
    as_made = write_fixtures_as_made(tmp_path)
    departures = {}
    for committed in data.FIXTURE_FILES:
        moved = _departures((as_made / committed.name).read_text("utf-8"),
                            committed.read_text("utf-8"))
        if moved:
            departures[committed.name] = moved
    data_regression.check(departures)
