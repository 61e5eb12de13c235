"""The stability check: every printed digit significant, every lock wider than
the noise, every bound with room, no count or yes/no that flips.

The site-wide run is part of `test_site.py::test_the_build_reports_no_problem`
(the `site` fixture runs it); here its rules are tried one by one on made-up
results, so each can be seen to fail.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kreport.report.facts import Bound
from kreport.report.page import PageResult
from kreport.report.render import Printed, RenderLog
from kreport.site import stability
from kreport.site.stability import Outcome, Report, printed_unit


def _result(facts: dict, exact=None, rtol=None) -> PageResult:
    return PageResult(slug="p", facts={"s": facts}, sources={"s": "m.s"}, claims=[], figures={},
                      exact=exact or {}, rtol=rtol or {})


def _check(base: dict, replicas: list[dict], printed=(), exact=None, rtol=None) -> Report:
    report = Report()
    baseline = Outcome(result=_result(base, exact, rtol), markdown="", log=RenderLog(
        printed=[Printed(key, "num", options, text) for key, options, text in printed]))
    results = [_result(replica, exact, rtol) for replica in replicas]
    spreads = stability._compare_facts("p", baseline.result, results, (), report)
    stability._compare_printed("p", baseline, results, spreads, report)
    return report


def test_a_well_conditioned_number_passes_and_is_measured():
    report = _check({"gap": 0.634120000000001}, [{"gap": 0.634120000000002}],
                    printed=[("s.gap", {"sig": 3}, "0.634")])
    assert report.problems == []
    assert report.printed_checked == 1 and report.facts_checked == 1
    assert 0 < report.largest_printed_ratio < 1e-9


def test_a_value_on_a_rounding_boundary_is_flagged_even_if_no_replica_flips_it():
    # 0.00125 prints as 0.0012 (half to even); a spread of 1e-18 is enough for
    # another machine to print 0.0013
    report = _check({"x": 0.00125}, [{"x": 0.00125 + 1e-18}],
                    printed=[("s.x", {"sig": 2, "sci": False}, "0.0012")])
    assert any("another machine may print ['0.0013']" in p for p in report.problems)


def test_too_many_printed_digits_are_flagged():
    report = _check({"x": 8.057695280761958e-09}, [{"x": 8.057695349e-09}],
                    printed=[("s.x", {"sig": 9}, "8.05769528 × 10⁻⁹")])
    assert any("print fewer digits" in p for p in report.problems)


def test_a_lock_tighter_than_the_spread_is_flagged_unless_declared():
    base, moved = {"condition": 623812281.1}, [{"condition": 623812291.4}]
    assert any("lock tolerance" in p for p in _check(base, moved).problems)
    assert _check(base, moved, rtol={"s.condition": 1e-4}).problems == []


def test_noise_printed_as_a_number_must_become_a_bound():
    report = _check({"zero": 0.0}, [{"zero": 2.8e-14}])
    assert any("print it as a bound" in p for p in report.problems)


def test_an_ill_posed_number_is_named_as_such():
    report = _check({"overlap": 0.283559}, [{"overlap": 0.283419}])
    assert any("ill-posed" in p and "s.overlap" in p for p in report.problems)


def test_counts_and_answers_must_not_flip():
    report = _check({"turns": 5, "separated": True}, [{"turns": 4, "separated": False}])
    assert len(report.problems) == 2


def test_a_bound_needs_room():
    tight = _check({"noise": Bound(-11, measured=1.2e-12)}, [{"noise": Bound(-11, 2e-11)}])
    assert any("raise the bound's exponent" in p for p in tight.problems)
    roomy = _check({"noise": Bound(-11, measured=1e-14)}, [{"noise": Bound(-11, 3e-14)}])
    assert roomy.problems == []


def test_exact_facts_are_left_alone():
    report = _check({"mean": 170.0}, [{"mean": 170.00000000000003}],
                    printed=[("s.mean", {}, "170")], exact={"s.mean": "whole numbers"})
    assert report.problems == [] and report.exact_facts == 1


def test_an_exact_fact_printed_on_a_rounding_tie_is_flagged():
    # 0.125 to two places: the last bit of a solve that gave it would pick the digit
    tie = _check({"share": 0.125}, [{"share": 0.125}], printed=[("s.share", {"dec": 2}, "0.12")],
                 exact={"s.share": "a ratio of whole numbers"})
    assert len(tie.problems) == 1 and "rounding tie" in tie.problems[0]
    assert "0.13" in tie.problems[0]
    clear = _check({"share": 0.125}, [{"share": 0.125}],
                   printed=[("s.share", {"dec": 3}, "0.125")],
                   exact={"s.share": "a ratio of whole numbers"})
    assert clear.problems == []
    # a whole number printed to one significant digit: just below it, 1 becomes 1.0
    whole = _check({"step": 1.0}, [{"step": 1.0}], printed=[("s.step", {"sig": 1}, "1")],
                   exact={"s.step": "a whole number"})
    assert len(whole.problems) == 1 and "dec=0" in whole.problems[0]
    assert _check({"step": 1.0}, [{"step": 1.0}], printed=[("s.step", {"dec": 0}, "1")],
                  exact={"s.step": "a whole number"}).problems == []


@pytest.mark.parametrize(("value", "options", "unit"), [
    (0.634, {"sig": 3}, 0.001),
    (134449.5, {"dec": 1}, 0.1),
    (12, {}, 1.0),
    (8.05e-9, {"sig": 3}, 1e-11),
    (0.0, {"sig": 3}, 0.0),
])
def test_the_printed_unit_is_the_last_printed_place(value, options, unit):
    assert math.isclose(printed_unit(value, options), unit, rel_tol=1e-12)


def test_a_notebook_output_more_or_less_is_named_not_counted():
    assert stability._first_change(["cell 1: a", "cell 2: b"], ["cell 1: a", "cell 2: c"]) == \
        ("cell 2: b", "cell 2: c")
    assert stability._first_change(["cell 1: a"], ["cell 1: a", "cell 1: more"]) == \
        ("(no output)", "cell 1: more")
    assert stability._first_change(["cell 1: a", "cell 3: gone"], ["cell 1: a"]) == \
        ("cell 3: gone", "(no output)")


def _figure_check(base: dict, replica: dict) -> Report:
    from kreport.report.page import Figure, Page

    page = Page(slug="p", title="P", template="p.md.j2", module="m",
                figures=[Figure("f", lambda: None, alt="a", rtol=1e-6)])
    report = Report()
    sketches = [{"p-f.svg": drawn} for drawn in (base, replica)]
    results = [PageResult(slug="p", facts={}, sources={}, claims=[], figures={},
                          figure_sketches=sketch) for sketch in sketches]
    stability._compare_figures("p", page, results[0], results[1:], report)
    return report


def test_a_figure_is_compared_by_its_sketch_and_a_moved_or_missing_array_is_flagged():
    line = np.array([[0.0, 1.0], [1.0, 2.0]])
    assert _figure_check({"axes0.line0": line}, {"axes0.line0": line + 1e-12}).problems == []
    moved = _figure_check({"axes0.line0": line}, {"axes0.line0": line + 1e-3})
    assert any("axes0.line0" in problem for problem in moved.problems)
    missing = _figure_check({"axes0.line0": line, "axes0.title": "T"}, {"axes0.title": "T"})
    assert missing.problems == ["p: figure p-f.svg, axes0.line0: not drawn on perturbed fixtures"]
    relabelled = _figure_check({"axes0.yticks": "0.1 0.2"}, {"axes0.yticks": "0.1 0.3"})
    assert any("text '0.1 0.2' became '0.1 0.3'" in p for p in relabelled.problems)
