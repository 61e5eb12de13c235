"""The timing file of the kernel-ridge page: complete, stated, and the right shape.

The times are machine-specific: the page prints them with the machine they came
from, as the facts of its ``machine_specific`` section, which the stability
check and the regression lock leave out. What is locked is their shape. An
n × n Cholesky solve plus an n × n table grows like n² to n³ at these sizes
(fitted exponent measured between 2 and 3); a ridge fit at these sizes is mostly
the fixed cost of a call, its one pass to form XᵀX too cheap to show, so it
grows far slower (measured near 0.4).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from kreport.pages.kernel_ridge import page, timing

KERNEL_BAND = (1.5, 3.5)
RIDGE_BAND = (0.0, 1.2)
SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "refresh_timings.py"


def test_the_timing_file_states_the_machine_and_the_method():
    study = json.loads(timing.TIMINGS.read_text())
    for key in ("platform", "processor", "cores", "python", "numpy", "measured_on"):
        assert study["machine"][key] not in (None, "")
    assert study["repeats"] >= 5
    assert [e["rows"] for e in study["rows_study"]] == [50, 100, 200, 400, 800, 1600]
    assert {e["features"] for e in study["rows_study"]} == {2}
    assert [e["features"] for e in study["features_study"]] == [2, 4, 8, 16, 32, 64]
    assert {e["rows"] for e in study["features_study"]} == {200}
    assert study["query_rows"] == 100
    for entry in study["rows_study"] + study["features_study"]:
        assert all(seconds > 0 for seconds in entry["fit_seconds"].values())


def test_the_refresh_script_is_what_writes_the_file_the_page_reads():
    spec = importlib.util.spec_from_file_location("refresh_timings", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.OUTPUT.resolve() == timing.TIMINGS.resolve()


def test_timings_are_machine_specific_and_an_input_of_the_page():
    assert page.machine_specific == ("timings",)
    assert timing.timings.__name__ in page.machine_specific
    assert timing.TIMINGS in page.extra_inputs


def test_kernel_fit_grows_between_square_and_cube():
    low, high = KERNEL_BAND
    assert low < timing.exponents()["kernel_ridge"] < high


def test_ridge_fit_grows_slowly_with_rows():
    low, high = RIDGE_BAND
    assert low <= timing.exponents()["ridge"] < high


def test_growth_exponent_recovers_a_known_power():
    sizes = [200, 400, 800, 1600]
    assert abs(timing.growth_exponent(sizes, [n**3 * 1e-9 for n in sizes]) - 3) < 1e-9
