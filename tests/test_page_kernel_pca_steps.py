"""The five-steps page: it computes, and its measured-four numbers agree with a
plain-numpy computation that shares no code with kreport.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kreport.report.facts import Bound
from kreport.report.page import PageResult

FOUR = np.array([[180.0, 78.0], [160.0, 58.0], [175.0, 63.0], [165.0, 73.0]])


@pytest.fixture(scope="module")
def result() -> PageResult:
    from kreport.pages.kernel_pca_steps import page

    return page.compute()


@pytest.fixture(scope="module")
def facts(result):
    return result.facts


def numbers(matrix):
    """A fact matrix with noise bounds read as zero (they were asserted below 1e-12)."""
    return np.array([[0.0 if isinstance(x, Bound) else x for x in row] for row in matrix])


def test_the_page_computes_its_sections_claims_and_figures(result):
    assert len(result.claims) >= 12
    assert set(result.figures) == {"kernel-pca-steps-four.svg", "kernel-pca-steps-reach.svg"}
    for data in result.figures.values():
        assert data.startswith(b"<?xml")


def test_the_fixture_is_the_measured_four(facts):
    assert np.array_equal(np.array(facts["four_data"]["people"]), FOUR)
    assert facts["four_data"]["mean"] == [170.0, 68.0]


def test_raw_table_and_its_averages(facts):
    table = FOUR @ FOUR.T
    assert table[0, 0] == 38484 and table[0, 1] == 33324
    assert np.array_equal(np.array(facts["step_table"]["table"]), table)
    assert facts["step_centre"]["column_means"] == table.mean(axis=0).tolist()
    assert facts["step_centre"]["grand_mean"] == 33524.0


def test_centred_table_is_the_two_blocks(facts):
    expected = np.array([[200, -200, 0, 0], [-200, 200, 0, 0], [0, 0, 50, -50], [0, 0, -50, 50]])
    assert np.array_equal(np.array(facts["step_centre"]["centred"]), expected)
    n = len(FOUR)
    ones = np.full((n, n), 1 / n)
    table = FOUR @ FOUR.T
    assert np.allclose(table - ones @ table - table @ ones + ones @ table @ ones, expected)


def test_eigenvalues_vectors_coefficients_coordinates(facts):
    decompose = facts["step_decompose"]
    assert decompose["eigenvalues"][:2] == pytest.approx([400.0, 100.0], rel=1e-12)
    assert all(isinstance(value, Bound) for value in decompose["eigenvalues"][2:])
    half = 1 / math.sqrt(2)
    vectors = numbers(decompose["vectors"])
    assert np.allclose(vectors, [[half, 0], [-half, 0], [0, half], [0, -half]], atol=1e-12)
    coefficients = numbers(facts["step_rescale"]["coefficients"])
    assert np.allclose(coefficients[:, 0], [half / 20, -half / 20, 0, 0], atol=1e-12)
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


def test_the_new_person(facts):
    query = facts["query"]
    person = np.array(facts["four_data"]["query"])
    assert np.array_equal(np.array(query["raw"]), FOUR @ person)
    deviations = FOUR - FOUR.mean(axis=0)
    assert np.allclose(query["centred"], deviations @ (person - FOUR.mean(axis=0)))
    shift = person - FOUR.mean(axis=0)
    expected = [shift.sum() / math.sqrt(2), (shift[0] - shift[1]) / math.sqrt(2)]
    assert np.allclose(numbers([query["coordinates"]])[0], expected, atol=1e-12)
    assert query["back_centred"] == [200.0, -200.0, 0.0, 0.0]


def test_uncentred_table(facts):
    table = FOUR @ FOUR.T
    largest = np.linalg.eigvalsh(table)[-1]
    assert facts["step_uncentred"]["largest"] == pytest.approx(largest, rel=1e-12)
    assert largest == pytest.approx(134449.5, abs=0.05)
    assert facts["step_uncentred"]["share"] == pytest.approx(largest / np.trace(table))


def test_rbf_table(facts):
    run = facts["rbf_run"]
    gamma = run["gamma"]
    squared = ((FOUR[:, None, :] - FOUR[None, :, :]) ** 2).sum(axis=2)
    table = np.exp(-gamma * squared)
    assert np.allclose(run["table"], table, rtol=1e-14)
    centred = table - table.mean(axis=0) - table.mean(axis=1)[:, None] + table.mean()
    values = np.linalg.eigvalsh(centred)[::-1]
    assert run["eigenvalues"][:3] == pytest.approx(values[:3].tolist(), rel=1e-10)
    assert run["variances"] == pytest.approx((values[:3] / 3).tolist(), rel=1e-10)
