"""`make audit` judges a page by its median Lighthouse run (scripts/audit.py)."""

from __future__ import annotations

from .scripts import load

median_run = load("audit").median_run


def _run(performance: int, accessibility: int = 100, failures=()) -> dict:
    return {"performance": performance, "accessibility": accessibility, "tbt_ms": performance,
            "accessibility_failures": list(failures)}


def test_the_median_run_is_judged_and_no_accessibility_failure_is_lost():
    judged = median_run([_run(95), _run(84, 92, ["link-name"]), _run(91)])
    assert judged["performance"] == 91 and judged["tbt_ms"] == 91  # that run's metrics
    assert judged["accessibility"] == 92 and judged["accessibility_failures"] == ["link-name"]
    assert median_run([_run(88), _run(93)])["performance"] == 88  # an even count: the lower
    assert median_run([_run(97)])["performance"] == 97
