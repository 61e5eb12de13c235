"""The five-steps page: it computes, and its numbers agree with a plain-numpy (and
scipy) computation that shares no code with kreport, and with the numbers the source
documents fix for the measured four.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import brentq

from kreport.report.facts import Bound
from kreport.report.page import PageResult

FOUR = np.array([[180.0, 78.0], [160.0, 58.0], [175.0, 63.0], [165.0, 73.0]])
RING_CSV = Path(__file__).resolve().parents[1] / "kreport" / "data" / "ring.csv"


@pytest.fixture(scope="module")
def result(computed) -> PageResult:
    from kreport.pages.kernel_pca_steps import page

    return computed(page)


@pytest.fixture(scope="module")
def facts(result):
    return result.facts


def numbers(columns):
    """Fact vectors (one per direction) as an n × l array, noise bounds read as zero."""
    return np.array([[0.0 if isinstance(x, Bound) else x for x in column]
                     for column in columns]).T


def centre(table):
    return table - table.mean(axis=0) - table.mean(axis=1)[:, None] + table.mean()


def rbf_table(gamma, rows=FOUR):
    squared = ((rows[:, None, :] - rows[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-gamma * squared)


def test_the_page_computes_its_sections_claims_and_figures(result):
    assert len(result.claims) >= 50
    wide = {"kernel-pca-steps-four.svg", "kernel-pca-steps-reach.svg"}
    assert wide <= set(result.figures)
    for data in result.figures.values():
        assert data.startswith(b"<?xml")


def test_the_fixture_is_the_measured_four(facts):
    assert np.array_equal(np.array(facts["four_data"]["people"]), FOUR)
    assert facts["four_data"]["mean"] == [170, 68]
    assert facts["four_data"]["n"] == 4 and facts["four_data"]["p"] == 2


def test_the_whole_number_tables_are_ints_declared_exact(result):
    for key in ("step_table.table", "step_centre.centred", "step_centre.column_means",
                "query.raw", "query.centred"):
        assert key in result.exact
    table = result.facts["step_table"]["table"]
    assert all(isinstance(entry, int) for row in table for entry in row)


def test_raw_table_and_its_averages(facts):
    table = FOUR @ FOUR.T
    assert table[0, 0] == 38484 and table[0, 1] == 33324
    assert np.array_equal(np.array(facts["step_table"]["table"]), table)
    assert facts["step_centre"]["column_means"] == table.mean(axis=0).tolist()
    assert facts["step_centre"]["grand_mean"] == 33524


def test_centred_table_is_the_two_blocks(facts):
    expected = np.array([[200, -200, 0, 0], [-200, 200, 0, 0], [0, 0, 50, -50], [0, 0, -50, 50]])
    assert np.array_equal(np.array(facts["step_centre"]["centred"]), expected)
    n = len(FOUR)
    averaging = np.full((n, n), 1 / n)
    identity = np.eye(n)
    table = FOUR @ FOUR.T
    assert np.allclose((identity - averaging) @ table @ (identity - averaging), expected)


def test_eigenvalues_vectors_coefficients_coordinates(facts):
    decompose = facts["step_decompose"]
    assert decompose["eigenvalues"][:2] == pytest.approx([400.0, 100.0], rel=1e-12)
    assert all(isinstance(value, Bound) for value in decompose["eigenvalues"][2:])
    assert decompose["zeros"] == 2
    half = 1 / math.sqrt(2)
    vectors = numbers(decompose["vectors"])
    assert np.allclose(vectors, [[half, 0], [-half, 0], [0, half], [0, -half]], atol=1e-12)
    coefficients = numbers(facts["step_rescale"]["coefficients"])
    assert np.allclose(coefficients[:, 0], [half / 20, -half / 20, 0, 0], atol=1e-12)
    assert np.allclose(coefficients[:, 1], [0, 0, half / 10, -half / 10], atol=1e-12)
    assert coefficients[0, 0] == pytest.approx(0.0353553, rel=1e-5)
    coordinates = numbers(facts["step_coordinates"]["coordinates"])
    root = math.sqrt(200.0)
    assert np.allclose(coordinates, [[root, 0], [-root, 0], [0, root / 2], [0, -root / 2]],
                       atol=1e-12)
    assert coordinates[0, 0] == pytest.approx(14.1421356, rel=1e-8)


def test_variances_and_shares(facts):
    coordinates = facts["step_coordinates"]
    assert coordinates["variances"] == pytest.approx([400 / 3, 100 / 3], rel=1e-12)
    assert coordinates["shares"] == pytest.approx([0.8, 0.2], rel=1e-12)
    assert coordinates["total_variance"] == pytest.approx(500 / 3, rel=1e-12)


def test_ordinary_pca_by_plain_numpy_gives_the_same_coordinates(facts):
    deviations = FOUR - FOUR.mean(axis=0)
    _, singular, rows_t = np.linalg.svd(deviations, full_matrices=False)
    assert singular**2 == pytest.approx([400.0, 100.0], rel=1e-12)
    scores = deviations @ rows_t.T
    kernel = numbers(facts["step_coordinates"]["coordinates"])
    # signs are the solver's here; compare up to sign per column
    assert np.allclose(np.abs(scores), np.abs(kernel), atol=1e-12)
    directions = numbers(facts["written_out"]["directions"])
    assert np.allclose(np.abs(directions), np.abs(rows_t.T), atol=1e-12)


def test_the_new_person(facts):
    query = facts["query"]
    person = np.array(facts["four_data"]["query"], dtype=float)
    assert np.array_equal(np.array(query["raw"]), FOUR @ person)
    deviations = FOUR - FOUR.mean(axis=0)
    assert np.array_equal(query["centred"], deviations @ (person - FOUR.mean(axis=0)))
    shift = person - FOUR.mean(axis=0)
    expected = [shift.sum() / math.sqrt(2), (shift[0] - shift[1]) / math.sqrt(2)]
    assert np.allclose(numbers([query["coordinates"]])[:, 0], expected, atol=1e-12)
    assert query["back_centred"] == [200, -200, 0, 0]


def test_uncentred_table(facts):
    table = FOUR @ FOUR.T
    largest = np.linalg.eigvalsh(table)[-1]
    assert facts["step_uncentred"]["largest"] == pytest.approx(largest, rel=1e-12)
    assert largest == pytest.approx(134449.5, abs=0.05)
    assert facts["step_uncentred"]["share"] == pytest.approx(largest / np.trace(table))
    assert round(facts["step_uncentred"]["share"], 4) == 0.9989


def test_rbf_table(facts):
    run = facts["rbf_run"]
    gamma = run["gamma"]
    table = rbf_table(gamma)
    assert np.allclose(run["table"], table, rtol=1e-14)
    values = np.linalg.eigvalsh(centre(table))[::-1]
    assert run["eigenvalues"][:3] == pytest.approx(values[:3].tolist(), rel=1e-10)
    assert run["variances"] == pytest.approx((values[:3] / 3).tolist(), rel=1e-10)
    assert run["kept"] == 3 and run["squared_12"] == 800 and run["squared_34"] == 200
    assert run["squared_13"] == 250


def test_reach_ends_and_crossings(facts):
    reach = facts["reach"]
    assert reach["narrow_shares"] == pytest.approx([1 / 3] * 3, rel=1e-12)
    wide = np.linalg.eigvalsh(centre(rbf_table(reach["wide_gamma"])))[::-1]
    assert (wide[:2] / wide[wide > 0].sum()) == pytest.approx([0.8, 0.2], abs=1e-3)

    # The three directions are fixed by symmetry; their eigenvalues in closed form.
    def eigenvalues(gamma):
        a, b, c = np.exp(-800 * gamma), np.exp(-200 * gamma), np.exp(-250 * gamma)
        return 1 - a, 1 - b, 1 + (a + b) / 2 - 2 * c

    def difference(log_gamma, other):
        values = eigenvalues(10.0**log_gamma)
        return values[2] - values[other]

    first = 10.0 ** brentq(difference, -6, -1, args=(1,), xtol=1e-14)
    second = 10.0 ** brentq(difference, -6, -1, args=(0,), xtol=1e-14)
    assert reach["first_crossing"] == pytest.approx(first, rel=1e-7)
    assert reach["second_crossing"] == pytest.approx(second, rel=1e-7)
    assert 0.005 < first < 0.006 and 0.025 < second < 0.03


def test_squared_kernel_on_the_ring(facts):
    with RING_CSV.open() as handle:
        records = list(csv.DictReader(handle))
    rows = np.array([[float(r["height_cm"]), float(r["weight_kg"])] for r in records])
    inner = np.array([r["group"] == "inner" for r in records])
    choosing = facts["choosing"]
    for coef0, count, separating in ((choosing["coef0"], choosing["directions"], [4]),
                                     (choosing["no_coef0"], choosing["directions_without"], [])):
        table = (choosing["gamma"] * rows @ rows.T + coef0) ** choosing["degree"]
        values, vectors = np.linalg.eigh(centre(table))
        values, vectors = values[::-1], vectors[:, ::-1]
        kept = int(np.sum(values > 1e-10 * values[0]))
        assert kept == count
        scores = vectors[:, :kept] * np.sqrt(values[:kept])
        found = [j for j in range(kept)
                 if scores[inner, j].max() < scores[~inner, j].min()
                 or scores[inner, j].min() > scores[~inner, j].max()]
        assert found == separating
        if separating:
            share = values[kept - 1] / values[values > 0].sum()
            assert choosing["last_share"] == pytest.approx(share, rel=1e-6)


def test_the_exercises_answers_agree_with_scikit_learn_and_numpy():
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    from kreport.data import measured_four
    from kreport.pages.kernel_pca_steps import exercises

    answers = exercises.exercises()
    rows = np.asarray(measured_four().rows, dtype=float)
    centred = rows - rows.mean(axis=0)
    eigenvalues = np.sort(np.linalg.eigvalsh(centred @ centred.T))[::-1][:2]
    assert answers["shares"] == pytest.approx(eigenvalues / eigenvalues.sum(), rel=1e-12)
    # At the first crossing the second and third eigenvalues of the centred RBF table tie.
    fitted = SklearnKernelPCA(kernel="rbf", gamma=answers["crossing"]).fit(rows)
    second, third = np.sort(fitted.eigenvalues_)[::-1][1:3]
    assert second == pytest.approx(third, rel=1e-7)
