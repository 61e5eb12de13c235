"""The timing file of the kernel-ridge page: complete, stated, and the right shape.

The times are machine-specific and outside the drift check; what is locked is
their shape. An n × n Cholesky solve plus an n × n table grows like n² to n³ at
these sizes (fitted exponent measured near 2.7); ridge's only n-sized work is
one pass to form XᵀX, so its fit grows far slower (measured near 0.5, with
fixed per-call costs still visible at these small sizes).
"""

from __future__ import annotations

import json

from kreport.pages import _kernel_ridge_timing as timing

KERNEL_BAND = (1.5, 3.5)
RIDGE_BAND = (0.0, 1.2)


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


def test_kernel_fit_grows_between_square_and_cube():
    low, high = KERNEL_BAND
    assert low < timing.exponents()["kernel_ridge"] < high


def test_ridge_fit_grows_slowly_with_rows():
    low, high = RIDGE_BAND
    assert low <= timing.exponents()["ridge"] < high


def test_growth_exponent_recovers_a_known_power():
    sizes = [200, 400, 800, 1600]
    assert abs(timing.growth_exponent(sizes, [n**3 * 1e-9 for n in sizes]) - 3) < 1e-9
