"""The stability check: is every printed digit significant on every machine?

Another machine (another BLAS kernel, another CPU) rounds differently in the
last bit. The algorithms here are backward stable, so such a difference acts
like a perturbation of the inputs by a few units in the last place (ulps).
The check emulates it: it recomputes every page and notebook on fixtures whose
every value is multiplied by ``1 + k·ε`` (k drawn from ``−ULPS..ULPS`` with a
fixed seed, :data:`REPLICAS` replicas; see ``kreport.data``), and measures each
number's *spread*, the largest distance from its unperturbed value. Then:

* a printed number must print the same in every replica, and must keep
  printing the same when moved by :data:`MARGIN` times its spread either way
  (so a value sitting on a rounding boundary, whose printed form another
  machine could flip, fails even if the replicas happened not to flip it);
* a locked number must have ``MARGIN × spread ≤ rtol × |value|``, its lock
  tolerance (the default, or the one its section declared with ``within``);
  a value whose spread is as large as itself is noise and must be a bound;
* a bound must hold with room: ``MARGIN × measured < limit`` in every replica;
* counts, yes/no answers and strings must not change at all; nor may any
  claim fail or any section raise on perturbed fixtures;
* what a figure plots (its sketch, :func:`kreport.report.figures.sketch`: data,
  limits and labels, read before layout; replicas draw no files) must move by
  at most its tolerance times the largest value of that array, and its words
  not at all;
* a playground's grid (every setting a reader can reach) follows the same
  rules: what its charts draw (float arrays) as a figure's drawn data at the
  playground's tolerance; each number it shows as text (``shown(...)``, alone
  or in a ``phrase(...)``) as a printed number (the same text in every replica
  and when moved by the margin) and as a locked one (at its own ``rtol``);
  its words, whole numbers and yes/no values must not change;
* a notebook's published facts follow the rules above, and its printed text
  outputs must be identical in every replica.

Facts and claims declared exact (``exact(...)``, ``claim(..., exact=...)``)
are of exact data with exact arithmetic; they are checked on the committed
fixtures only, and a printed exact number must not sit on a rounding tie (moved
by :data:`EXACT_NUDGE`, it prints the same). Timings (a page's ``machine_specific``
sections) are measured on one machine by design and are left out.

The factor :data:`MARGIN` stands for what a few-ulp perturbation cannot show:
another machine's rounding may be larger than ours by a small factor (longer
sums, a different blocking), so a printed digit needs that much room.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

import numpy as np

from kreport.report.facts import DEFAULT_RTOL, Bound
from kreport.report.numbers import format_number, format_tex
from kreport.report.page import Notebook, Page, PageResult
from kreport.report.playground import Phrase, Shown
from kreport.report.render import ZERO_TO_ROUNDING, RenderLog

from .cache import CacheStore, driver_digest
from .compare import SVG_TOLERANCE_PX, svg_differences
from .executor import REPLICAS, SEEDS, ULPS, Failed
from .markdown import render_markdown
from .notebooks import collect, fill_markdown
from .results import exact_reason, flat_facts, is_number, tolerance_of

MARGIN = 10.0
#: How far (relatively) an exact fact is moved to see that its printed form does not
#: sit on a rounding tie: thousands of ulps, far less than any digit printed. It
#: catches a value within this distance of a tie; a solve's result is held to its
#: hand-worked value only by its claim's tolerance, which may be looser (How this
#: site is built says so).
EXACT_NUDGE = 1e-12


# ---------------------------------------------------------------- one replica


@dataclass
class Outcome:
    """What one run of one page or notebook produced, as plain data."""

    result: PageResult
    markdown: str | None  # None when the page could not be rendered
    log: RenderLog = field(default_factory=RenderLog)
    outputs: list[str] = field(default_factory=list)  # a notebook's printed text, per output
    svgs: list[bytes] = field(default_factory=list)  # a notebook's SVG outputs
    render_error: str = ""


def page_outcome(page: Page, result: PageResult) -> Outcome:
    """A replica's result rendered through the page's current template, leniently."""
    log = RenderLog()
    try:
        markdown, error = render_markdown(page, result, log), ""
    except Exception as problem:  # a failed section leaves the template a fact short
        markdown, error = None, f"{type(problem).__name__}: {problem}"
    return Outcome(result=result, markdown=markdown, log=log, render_error=error)


def _notebook_texts(executed: dict) -> tuple[list[str], list[bytes]]:
    texts, svgs = [], []
    for index, cell in enumerate(executed["cells"]):
        for output in cell.get("outputs", []):
            if "text" in output:
                texts.append(f"cell {index}: " + "".join(output["text"]))
            data = output.get("data", {})
            if "text/plain" in data and "image/svg+xml" not in data:
                texts.append(f"cell {index}: " + "".join(data["text/plain"]))
            if "image/svg+xml" in data:
                svgs.append("".join(data["image/svg+xml"]).encode())
    return texts, svgs


def notebook_outcome(notebook: Notebook, executed: dict) -> Outcome:
    """A replica's executed notebook, its facts collected and its prose filled."""
    cleaned, result = collect(notebook, executed)
    log = RenderLog()
    try:
        fill_markdown(notebook, cleaned, result, log)
        error = ""
    except Exception as problem:
        error = f"{type(problem).__name__}: {problem}"
    texts, svgs = _notebook_texts(cleaned)
    return Outcome(result=result, markdown=None, log=log, outputs=texts, svgs=svgs,
                   render_error=error)


# ---------------------------------------------------------------- comparing


def printed_unit(value: float, options: dict) -> float:
    """The value of one unit in the last printed place."""
    if options.get("dec") is not None:
        return 10.0 ** -options["dec"]
    if isinstance(value, int) or (float(value).is_integer() and options.get("sig") is None):
        return 1.0
    sig = options.get("sig") or 3
    if value == 0:
        return 0.0
    return 10.0 ** (Decimal(repr(float(value))).adjusted() - sig + 1)


def _format(filter_name: str, value, options: dict) -> str:
    if options.get("zero"):
        return ZERO_TO_ROUNDING
    if filter_name == "tex":
        return format_tex(value, **options)
    return format_number(value, **options)


@dataclass
class Report:
    """The check's findings: problems (each fails the check) and what was measured."""

    problems: list[str] = field(default_factory=list)
    facts_checked: int = 0
    printed_checked: int = 0
    figure_arrays_checked: int = 0
    playground_values_checked: int = 0
    exact_facts: int = 0
    largest_printed_ratio: float = 0.0  # spread over one unit of the last printed digit
    largest_printed_key: str = ""
    largest_locked_ratio: float = 0.0  # MARGIN·spread over the lock tolerance
    largest_locked_key: str = ""

    def merge(self, other: Report) -> None:
        """Add another item's findings to these (counts add, the largest ratio wins)."""
        self.problems += other.problems
        for name in ("facts_checked", "printed_checked", "figure_arrays_checked",
                     "playground_values_checked", "exact_facts"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for ratio, key in (("largest_printed_ratio", "largest_printed_key"),
                           ("largest_locked_ratio", "largest_locked_key")):
            if getattr(other, ratio) > getattr(self, ratio):
                setattr(self, ratio, getattr(other, ratio))
                setattr(self, key, getattr(other, key))

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, stored: dict) -> Report:
        return cls(**stored)

    def summary(self) -> dict:
        return {
            "replicas": REPLICAS, "ulps": ULPS, "margin": MARGIN, "exact_nudge": EXACT_NUDGE,
            "facts_checked": self.facts_checked, "printed_checked": self.printed_checked,
            "figure_arrays_checked": self.figure_arrays_checked,
            "playground_values_checked": self.playground_values_checked,
            "exact_facts": self.exact_facts, "problems": len(self.problems),
            "largest_printed_ratio": self.largest_printed_ratio,
            "largest_printed_key": self.largest_printed_key,
            "largest_locked_ratio": self.largest_locked_ratio,
            "largest_locked_key": self.largest_locked_key,
        }


def _spread(base: float, others: list[float]) -> float:
    return max((abs(other - base) for other in others), default=0.0)


def _compare_facts(slug: str, baseline: PageResult, replicas: list[PageResult],
                   skip: tuple, report: Report) -> dict[str, float]:
    """Check every fact leaf; return each number's spread by key."""
    base = flat_facts(baseline, skip)
    others = [flat_facts(replica, skip) for replica in replicas]
    spreads: dict[str, float] = {}
    for key, value in base.items():
        if exact_reason(baseline, key):
            report.exact_facts += 1
            continue
        values = [other[key] for other in others if key in other]
        report.facts_checked += 1
        where = f"{slug}: fact {key}"
        if isinstance(value, Bound):
            measured = [value.measured] + [v.measured for v in values if isinstance(v, Bound)]
            if max(measured) * MARGIN >= value.limit:
                report.problems.append(
                    f"{where} is printed as 'below 1e{value.exponent}' but measures up to "
                    f"{max(measured):.2g} on perturbed fixtures, less than a factor of "
                    f"{MARGIN:g} of room: raise the bound's exponent")
        elif isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool) \
                and any(isinstance(v, float) for v in values)):
            numbers = [float(v) for v in values if is_number(v)]
            spread = _spread(float(value), numbers)
            spreads[key] = spread
            rtol = tolerance_of(baseline, key)
            allowed = rtol * abs(value)
            ratio = MARGIN * spread / allowed if allowed else (math.inf if spread else 0.0)
            if ratio > report.largest_locked_ratio:
                report.largest_locked_ratio, report.largest_locked_key = ratio, f"{slug}:{key}"
            if ratio > 1:
                advice = ("it is rounding noise: print it as a bound (bound(value, exponent))"
                          if value == 0 or spread >= 0.01 * abs(value) else
                          "if the question is ill-posed (one direction of a tied pair, a ratio "
                          "of noise) measure a well-posed quantity instead; if it is only "
                          "ill-conditioned, declare its tolerance with within(value, rtol) and "
                          "print fewer digits")
                report.problems.append(
                    f"{where} = {value!r} moves by {spread:.3g} on perturbed fixtures, more "
                    f"than its lock tolerance {rtol:g} allows with a margin of {MARGIN:g}: "
                    f"{advice}")
        elif any(v != value for v in values):
            changed = next(v for v in values if v != value)
            report.problems.append(
                f"{where} = {value!r} became {changed!r} on perturbed fixtures: a count, a "
                "yes/no or a string that depends on rounding is not a property of the data")
    return spreads


def _compare_printed(slug: str, baseline: Outcome, replicas: list[PageResult],
                     spreads: dict, report: Report) -> None:
    others = [flat_facts(replica) for replica in replicas]
    base = flat_facts(baseline.result)
    for printed in baseline.log.printed:
        if printed.filter not in ("num", "tex"):
            continue
        value = base.get(printed.key)
        if not is_number(value):
            continue
        reason = exact_reason(baseline.result, printed.key)
        if reason:
            problem = _exact_on_a_tie(slug, printed, value, reason)
            if problem:
                report.problems.append(problem)
            continue
        report.printed_checked += 1
        spread = spreads.get(printed.key, 0.0)
        unit = printed_unit(value, printed.options)
        ratio = spread / unit if unit else (math.inf if spread else 0.0)
        if ratio > report.largest_printed_ratio:
            report.largest_printed_ratio, report.largest_printed_key = ratio, \
                f"{slug}:{printed.key}"
        shifted = [value + MARGIN * spread, value - MARGIN * spread] if spread else []
        forms = {_format(printed.filter, v, printed.options)
                 for v in [*(o[printed.key] for o in others if printed.key in o), *shifted]}
        if forms - {printed.text}:
            options = {k: v for k, v in printed.options.items() if v not in (None, False)}
            report.problems.append(
                f"{slug}: {printed.key} is printed as {printed.text!r} ({options or 'default'})"
                f" but its spread on perturbed fixtures is {spread:.3g}, so another machine "
                f"may print {sorted(forms - {printed.text})}: print fewer digits (or, if it "
                "sits on a rounding boundary, one more or one fewer)")


def _exact_on_a_tie(slug: str, printed, value: float, reason: str) -> str | None:
    """An exact fact is not perturbed (its data and arithmetic are exact), but if it
    was computed in floating point its last bit is not: printed on a rounding tie
    (0.125 to two places; a whole number to significant digits, where 0.99999…
    prints as 1.0), that bit would choose the digit."""
    if isinstance(value, int) or value == 0:  # a count is not computed in floating point
        return None
    nudged = {_format(printed.filter, value * (1 + sign * EXACT_NUDGE), printed.options)
              for sign in (1, -1)}
    if nudged == {printed.text}:
        return None
    advice = ("print it as the whole number it is (dec=0)" if value.is_integer() else
              "print one more or one fewer digit")
    return (f"{slug}: {printed.key} is exact ({reason}) but printed as {printed.text!r} on a "
            f"rounding tie: moved by one part in {1 / EXACT_NUDGE:.0e} it prints "
            f"{sorted(nudged - {printed.text})}; {advice}")


def _compare_figures(slug: str, page: Page, baseline: PageResult, replicas: list[PageResult],
                     report: Report) -> None:
    tolerances = {spec.filename(slug): spec.rtol for spec in page.figures}
    for filename, drawn in baseline.figure_sketches.items():
        rtol = tolerances.get(filename, 0.0)
        for key, value in drawn.items():
            report.figure_arrays_checked += 1
            where = f"{slug}: figure {filename}, {key}"
            for replica in replicas:
                other = replica.figure_sketches.get(filename, {}).get(key)
                if other is None:
                    report.problems.append(f"{where}: not drawn on perturbed fixtures")
                    continue
                if isinstance(value, str) or isinstance(other, str):
                    if value != other:
                        report.problems.append(f"{where}: text {value!r} became {other!r}")
                    continue
                if value.shape != other.shape or not np.array_equal(
                        np.isnan(value), np.isnan(other)):
                    report.problems.append(f"{where}: shape or gaps changed "
                                           f"({value.shape} → {other.shape})")
                    continue
                finite = ~np.isnan(value)
                if not finite.any():
                    continue
                scale = float(np.max(np.abs(value[finite]))) or 1.0
                spread = float(np.max(np.abs(value[finite] - other[finite])))
                if MARGIN * spread > rtol * scale:
                    report.problems.append(
                        f"{where} moves by {spread:.3g} (of a largest value {scale:.3g}) on "
                        f"perturbed fixtures, more than the figure's tolerance {rtol:g} allows "
                        f"with a margin of {MARGIN:g}: draw a well-posed quantity, or declare "
                        "the figure's tolerance (Figure(rtol=…))")
                    break


def _shown_problem(where: str, value: Shown, others: list, report: Report) -> str | None:
    """A shown number's problem on perturbed fixtures, or None."""
    report.playground_values_checked += 1
    if isinstance(value.value, Bound):
        measured = [value.value.measured] + [o.value.measured for o in others
                                             if isinstance(o, Shown)
                                             and isinstance(o.value, Bound)]
        if max(measured) * MARGIN >= value.value.limit:
            return (f"{where} is shown as 'below 1e{value.value.exponent}' but measures up to "
                    f"{max(measured):.2g}: raise the bound's exponent")
        return None
    numbers = [o.value for o in others if isinstance(o, Shown) and is_number(o.value)]
    spread = _spread(float(value.value), [float(number) for number in numbers])
    text = value.text()
    moved = [value.value + MARGIN * spread, value.value - MARGIN * spread] if spread else []
    forms = {format_number(v, **value.options()) for v in [*numbers, *moved]}
    if forms - {text}:
        return (f"{where} is shown as {text!r} but its spread on perturbed fixtures is "
                f"{spread:.3g}, so another machine may show {sorted(forms - {text})}: show "
                "fewer digits, or leave the setting's number out where it is not determined")
    if MARGIN * spread > value.rtol * abs(value.value):
        return (f"{where} = {value.value!r} moves by {spread:.3g} on perturbed fixtures, more "
                f"than its lock tolerance {value.rtol:g} allows with a margin of {MARGIN:g}: "
                "declare shown(..., rtol=…) for an ill-conditioned number")
    return None


def _playground_problems(where: str, base, others: list, rtol: float, report: Report,
                         problems: list[str], limit: int = 20) -> None:
    """Walk a playground's tree beside its replicas' (see the module docstring)."""
    if len(problems) >= limit:
        return
    if isinstance(base, dict):
        for other in others:
            if not isinstance(other, dict) or set(other) != set(base):
                extra = sorted(set(base) ^ set(other)) if isinstance(other, dict) else other
                problems.append(f"{where}: the settings or their parts changed ({extra!r:.200})")
                return
        for key, item in base.items():
            _playground_problems(f"{where}.{key}", item, [o[key] for o in others], rtol, report,
                                 problems, limit)
        return
    if isinstance(base, list):
        for other in others:
            if not isinstance(other, list) or len(other) != len(base):
                problems.append(f"{where}: {len(base)} entries changed in number")
                return
        for index, item in enumerate(base):
            _playground_problems(f"{where}[{index}]", item, [o[index] for o in others], rtol,
                                 report, problems, limit)
        return
    if isinstance(base, np.ndarray) and base.dtype.kind == "f":
        report.playground_values_checked += 1
        scale = float(np.max(np.abs(base))) if base.size else 0.0
        for other in others:
            if not isinstance(other, np.ndarray) or other.shape != base.shape:
                problems.append(f"{where}: the drawn array changed shape")
                return
            spread = float(np.max(np.abs(other - base))) if base.size else 0.0
            if MARGIN * spread > rtol * scale:
                problems.append(
                    f"{where}: a drawn value moves by {spread:.3g} (of a largest value "
                    f"{scale:.3g}) on perturbed fixtures, more than the playground's tolerance "
                    f"{rtol:g} allows with a margin of {MARGIN:g}: draw a well-posed quantity, "
                    "or leave it out where it is not determined")
                return
        return
    if isinstance(base, Shown):
        problem = _shown_problem(where, base, others, report)
        if problem:
            problems.append(problem)
        return
    if isinstance(base, Phrase):
        for other in others:
            if not isinstance(other, Phrase) or other.template != base.template:
                problems.append(f"{where}: the words {base.text()!r} changed")
                return
        for index, (name, item) in enumerate(base.values):
            _playground_problems(f"{where}{{{name}}}", item,
                                 [o.values[index][1] for o in others], rtol, report, problems,
                                 limit)
        return
    if isinstance(base, float):
        report.playground_values_checked += 1
        numbers = [float(o) for o in others if is_number(o)]
        spread = _spread(base, numbers)
        if len(numbers) != len(others) or MARGIN * spread > DEFAULT_RTOL * abs(base):
            problems.append(f"{where} = {base!r} moves by {spread:.3g} on perturbed fixtures")
        return
    if isinstance(base, np.ndarray):
        base_list = base.tolist()
        if any(not isinstance(o, np.ndarray) or o.tolist() != base_list for o in others):
            problems.append(f"{where}: labels changed on perturbed fixtures")
        return
    changed = [o for o in others if o != base]
    if changed:
        problems.append(f"{where} = {base!r} became {changed[0]!r} on perturbed fixtures: a "
                        "count, a yes/no or a word that depends on rounding is not a property "
                        "of the data")


def _compare_playgrounds(slug: str, page: Page, baseline: PageResult,
                         replicas: list[PageResult], report: Report) -> None:
    for spec in page.playgrounds:
        base = baseline.playgrounds.get(spec.name)
        others = [replica.playgrounds.get(spec.name) for replica in replicas]
        if base is None or any(other is None for other in others):
            continue  # a failing playground is reported with the replica's failures
        problems: list[str] = []
        _playground_problems(f"{slug}: playground {spec.name}", base, others, spec.rtol,
                             report, problems)
        report.problems += problems


def _first_change(before: list[str], after: list[str]) -> tuple[str, str]:
    """The first output that differs, or the first one only one side has."""
    for old, new in zip(before, after, strict=False):
        if old != new:
            return old, new
    if len(after) > len(before):
        return "(no output)", after[len(before)]
    return before[len(after)], "(no output)"


def _compare_notebook(slug: str, baseline: Outcome, replicas: list[Outcome],
                      report: Report) -> None:
    for number, replica in enumerate(replicas):
        if replica.outputs != baseline.outputs:
            changed = _first_change(baseline.outputs, replica.outputs)
            report.problems.append(
                f"{slug}: a printed output differs on perturbed fixtures (replica {number + 1})"
                f": {changed[0][:160]!r} became {changed[1][:160]!r}; print rounded values "
                "whose digits are significant")
        for index, (svg, other) in enumerate(zip(baseline.svgs, replica.svgs, strict=False)):
            moved = svg_differences(svg, other, tolerance=SVG_TOLERANCE_PX / MARGIN, limit=1)
            if moved:
                report.problems.append(f"{slug}: figure output {index} moves on perturbed "
                                       f"fixtures: {moved[0]}")


def _check_page(page: Page, baseline: Outcome, results: list[PageResult],
                report: Report) -> None:
    slug = page.slug
    broken = [(seed, result) for seed, result in zip(SEEDS, results, strict=True)
              if isinstance(result, Failed)]
    for seed, result in broken:
        report.problems.append(f"{slug}: on perturbed fixtures (seed {seed}): {result.message}")
    if broken:
        return
    outcomes = [page_outcome(page, result) for result in results]
    for seed, outcome in zip(SEEDS, outcomes, strict=True):
        for failure in outcome.result.failures:
            report.problems.append(f"{slug}: on perturbed fixtures (seed {seed}), "
                                   f"{failure.section}: {failure.message}")
        if outcome.render_error:
            report.problems.append(f"{slug}: the template could not be rendered on "
                                   f"perturbed fixtures (seed {seed}): {outcome.render_error}")
    spreads = _compare_facts(slug, baseline.result, results, page.machine_specific, report)
    _compare_printed(slug, baseline, results, spreads, report)
    _compare_figures(slug, page, baseline.result, results, report)
    _compare_playgrounds(slug, page, baseline.result, results, report)
    for seed, outcome in zip(SEEDS, outcomes, strict=True):
        if outcome.markdown is not None and baseline.markdown is not None \
                and outcome.markdown != baseline.markdown and not report.problems:
            report.problems.append(f"{slug}: the rendered page differs on perturbed "
                                   f"fixtures (seed {seed}) for a reason none of the "
                                   "fact checks names; compare the two renders")


def _check_notebook(notebook: Notebook, baseline: Outcome, executed: list,
                    report: Report) -> None:
    slug = notebook.slug
    outcomes = []
    for replica in executed:
        if isinstance(replica, Failed):
            report.problems.append(f"{slug}: on perturbed fixtures: {replica.message}")
            continue
        try:
            outcomes.append(notebook_outcome(notebook, replica))
        except Exception as problem:
            report.problems.append(f"{slug}: on perturbed fixtures: "
                                   f"{type(problem).__name__}: {problem}")
    if len(outcomes) != len(executed):
        return
    for outcome in outcomes:
        report.problems += [f"{slug}: on perturbed fixtures, {f.message}"
                            for f in outcome.result.failures]
    results = [outcome.result for outcome in outcomes]
    spreads = _compare_facts(slug, baseline.result, results, (), report)
    _compare_printed(slug, baseline, results, spreads, report)
    _compare_notebook(slug, baseline, outcomes, report)


def _verdict_key(facts_key: str, baseline: Outcome) -> str:
    """The verdict on one item depends on its facts (through their key) and on
    what its template printed (the rendered page)."""
    digest = hashlib.sha256(facts_key.encode() + b"\0")
    # the rules of the check, and how a replica is rendered, are inputs too
    digest.update(driver_digest("stability.py", "markdown.py", "compare.py").encode())
    digest.update((baseline.markdown or "").encode())
    return digest.hexdigest()[:32]


def check(pages: list[Page], baselines: dict[str, Outcome], notebooks: list[Notebook],
          keys: dict[str, str], store: CacheStore, replicas: Callable[[str], list]) -> Report:
    """Compare every page and notebook with its perturbed replicas.

    ``baselines`` holds the unperturbed outcome of every item that computed
    (an item missing from it failed, and is left out: its failure is the
    problem to report); ``keys`` holds each item's facts key, and
    ``replicas(slug)`` gives its replicas in seed order (see
    :mod:`kreport.site.executor`), asked for only when its verdict is not cached.
    """
    items = [page for page in pages if not page.reads_site and page.slug in baselines]
    items += [notebook for notebook in notebooks if notebook.slug in baselines]
    total = Report()
    for item in items:
        key = _verdict_key(keys[item.slug], baselines[item.slug])
        stored = store.get("stability", item.slug, key)
        if stored is not None:
            total.merge(Report.from_json(stored))
            continue
        report = Report()
        if isinstance(item, Page):
            _check_page(item, baselines[item.slug], replicas(item.slug), report)
        else:
            _check_notebook(item, baselines[item.slug], replicas(item.slug), report)
        store.put("stability", item.slug, key, report.to_json())
        total.merge(report)
    return total
