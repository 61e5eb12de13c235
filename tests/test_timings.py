"""The timing file of the kernel-ridge study, printed on the traps page (part three):
complete, stated, and the right shape.

The times are machine-specific: the page prints them with the machine they came
from, as the facts of its ``machine_specific`` section, which the stability
check and the regression lock leave out. What is locked is their shape. An
n × n Cholesky solve plus an n × n table grows like n² to n³ at these sizes
(fitted exponent measured between 2 and 3); a ridge fit at these sizes is mostly
the fixed cost of a call, its one pass to form XᵀX too cheap to show, so it
grows far slower (measured near 0.4).
"""

from __future__ import annotations

import json

import pytest

from kreport.pages.kernel_ridge import timing
from kreport.pages.kernel_ridge_traps import page

from .scripts import load

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


def _refresh_script():
    return load("refresh_timings")


def test_the_refresh_script_is_what_writes_the_file_the_page_reads():
    script = _refresh_script()
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


# ---------------------------------------------------------------- the at-scale page's study
# Its timing file (kreport/pages/at_scale/timings/at-scale.json) is read by the machine-
# specific sections of the page's second part, at-scale-large (the wall, the million-row
# fits, the streamed fit on Dask).
# Locked here: that it is complete and states its machine, and the shape of what it
# measured. An exact fit builds an n × n table (memory like n², measured near 2) and
# factorises it (time between n² and n³); Nyström kernel ridge at fixed M is linear in the
# rows and, at fixed rows, between linear and quadratic in the centres (the n·M kernel
# values and the n·M² sums); the Dask fit reproduces the in-memory one to rounding.

from kreport.pages.at_scale import cost as scale_cost  # noqa: E402
from kreport.pages.at_scale import large as scale_large  # noqa: E402
from kreport.pages.at_scale import measured as scale_measured  # noqa: E402
from kreport.pages.at_scale import settings as scale_settings  # noqa: E402
from kreport.pages.at_scale_large import page as scale_page  # noqa: E402


def _scale_study() -> dict:
    return json.loads(scale_measured.TIMINGS.read_text())


def test_the_scale_timing_file_is_complete_and_states_its_machine():
    study = _scale_study()
    assert "trial_shrink" not in study, "a trial run's file, not the study the page reports"
    for key in ("platform", "processor", "cores", "memory_bytes", "blas_threads", "python",
                "numpy", "scipy", "scikit_learn", "measured_on", "load_average"):
        assert study["machine"][key] not in (None, "")
    assert study["machine"]["memory_bytes"] > 2**30
    assert study["repeats"] >= 3
    settings = study["settings"]
    assert settings["gamma"] == scale_settings.GAMMA
    assert settings["penalty"] == scale_settings.PENALTY
    assert settings["directions"] == scale_settings.DIRECTIONS
    assert settings["rows_seed"] == scale_settings.ROWS_SEED
    assert settings["block_rows"] == scale_settings.BLOCK_ROWS
    assert [e["rows"] for e in study["wall"]["sizes"]] == list(scale_settings.WALL_SIZES)
    assert study["wall"]["fit_from"] == scale_settings.WALL_FIT_FROM
    nystroem = study["nystroem"]
    assert nystroem["centres"] == scale_settings.LARGE_CENTRES
    assert [e["rows"] for e in nystroem["by_rows"]] == list(scale_settings.ROW_COUNTS)
    assert [e["centres"] for e in nystroem["by_centres"]] == list(scale_settings.CENTRE_COUNTS)
    assert {e["rows"] for e in nystroem["by_centres"]} == {scale_settings.CENTRE_STUDY_ROWS}
    assert study["sklearn"]["rows"] == scale_settings.SKLEARN_ROWS
    assert study["nystroem_pca"]["rows"] == scale_settings.MILLION
    assert [fit["rows"] for fit in study["dask"]["fits"]] == [scale_settings.MILLION,
                                                              scale_settings.STREAMED_ROWS]
    measured_fits = ([e["kernel_ridge"] for e in study["wall"]["sizes"]]
                     + [e["kernel_pca"] for e in study["wall"]["sizes"]]
                     + nystroem["by_rows"] + nystroem["by_centres"]
                     + [study["sklearn"], study["nystroem_pca"]])
    for fit in measured_fits:
        assert fit["seconds"] > 0 and fit["peak_mib"] > 0 and fit["added_mib"] >= 0
        assert len(fit["all_seconds"]) == study["repeats"]
    million = nystroem["by_rows"][-1]
    assert million["held_out_rows"] == scale_settings.HELD_OUT_ROWS
    assert "predictions" not in million


def test_the_refresh_script_writes_the_file_the_scale_page_reads():
    script = _refresh_script()
    assert script.SCALE_OUTPUT.resolve() == scale_measured.TIMINGS.resolve()


def test_scale_timings_are_machine_specific_and_an_input_of_the_page():
    assert scale_page.machine_specific == ("wall", "million", "streamed")
    assert scale_measured.TIMINGS in scale_page.extra_inputs
    # Figures drawn from the timings carry a machine-specific section's name, so the
    # regression lock leaves them out as it leaves out those sections' facts.
    assert {"wall", "million"} <= {figure.name for figure in scale_page.figures}


def test_exact_fits_grow_like_the_table():
    study = _scale_study()["wall"]
    fitted = [e for e in study["sizes"] if e["rows"] >= study["fit_from"]]
    sizes = [e["rows"] for e in fitted]
    exponent = scale_measured.growth_exponent
    low, high = scale_cost.RIDGE_TIME_BAND
    assert low < exponent(sizes, [e["kernel_ridge"]["seconds"] for e in fitted]) < high
    low, high = scale_cost.MEMORY_BAND
    for model in ("kernel_ridge", "kernel_pca"):
        assert low < exponent(sizes, [e[model]["added_mib"] for e in fitted]) < high


def test_nystroem_fit_is_linear_in_rows_and_at_most_quadratic_in_centres():
    study = _scale_study()["nystroem"]
    exponent = scale_measured.growth_exponent
    low, high = scale_large.ROWS_BAND
    assert low < exponent([e["rows"] for e in study["by_rows"]],
                          [e["seconds"] for e in study["by_rows"]]) < high
    low, high = scale_large.CENTRES_BAND
    assert low < exponent([e["centres"] for e in study["by_centres"]],
                          [e["seconds"] for e in study["by_centres"]]) < high


def test_the_dask_fit_reproduces_the_in_memory_fit():
    dask = _scale_study()["dask"]
    assert dask["agreement"]["rows"] == scale_settings.MILLION
    assert dask["agreement"]["relative_difference"] < scale_large.AGREEMENT
    assert dask["workers"] >= 1 and dask["threads_per_worker"] == 1
    for fit in dask["fits"]:
        assert fit["seconds"] > 0 and fit["client_peak_mib"] > 0
        assert fit["chunks"] == -(-fit["rows"] // fit["block_rows"])


# ---------------------------------------------------------------- the seal

from kreport.report.timings import TimingsError, read_timings, sealed  # noqa: E402


def test_both_committed_timing_files_are_sealed_and_consistent():
    for path in (timing.TIMINGS, scale_measured.TIMINGS):
        assert read_timings(path)["seal"]["command"].startswith("make timings")


def test_a_hand_edited_median_is_refused_naming_the_file(tmp_path):
    study = json.loads(scale_measured.TIMINGS.read_text())
    entry = study["nystroem"]["by_rows"][0]
    edited = tmp_path / "at-scale.json"
    # The runs and the median disagree: refused even with a fresh seal.
    entry["seconds"] = entry["seconds"] / 2
    edited.write_text(json.dumps(sealed(study)))
    with pytest.raises(TimingsError, match=r"at-scale\.json.*median of its runs.*make timings"):
        read_timings(edited)
    # A consistent edit (runs and median halved together) breaks the seal instead.
    entry["all_seconds"] = [value / 2 for value in entry["all_seconds"]]
    resealed = sealed(study)
    resealed["nystroem"]["by_rows"][0]["seconds"] = entry["seconds"]
    study_with_old_seal = {**resealed, "seal": json.loads(
        scale_measured.TIMINGS.read_text())["seal"]}
    edited.write_text(json.dumps(study_with_old_seal))
    with pytest.raises(TimingsError, match=r"at-scale\.json: .*not written by `make timings`"):
        read_timings(edited)


def test_a_timing_file_without_a_seal_is_refused(tmp_path):
    study = json.loads(timing.TIMINGS.read_text())
    del study["seal"]
    unsealed = tmp_path / "kernel-ridge.json"
    unsealed.write_text(json.dumps(study))
    with pytest.raises(TimingsError, match=r"kernel-ridge\.json"):
        read_timings(unsealed)
