"""The Kernel PCA page: it computes, it asserts enough, and its key numbers
agree with an independent computation in plain numpy.

The independent checks deliberately avoid kreport's models: the tables are
built, centred and decomposed here by hand, so a mistake shared by the page
and the library would still be caught.
"""

from __future__ import annotations

import numpy as np
import pytest

from kreport.data import arc, measured_four, ring
from kreport.pages.kernel_pca import ARC_GAMMA, RING_GAMMA, page
from kreport.report.build import render_markdown


@pytest.fixture(scope="module")
def result():
    return page.compute()


@pytest.fixture(scope="module")
def facts(result):
    return result.facts


def _centred(table: np.ndarray) -> np.ndarray:
    n = len(table)
    ones = np.full((n, n), 1.0 / n)
    return table - ones @ table - table @ ones + ones @ table @ ones


def _rbf(rows: np.ndarray, gamma: float) -> np.ndarray:
    squared = ((rows[:, None, :] - rows[None, :, :]) ** 2).sum(axis=-1)
    return np.exp(-gamma * squared)


def _first_coordinates(table: np.ndarray) -> np.ndarray:
    values, vectors = np.linalg.eigh(_centred(table))
    return _centred(table) @ vectors[:, -1] / np.sqrt(values[-1])


def test_the_page_computes_and_renders(result):
    markdown = render_markdown(page, result)
    assert markdown.startswith("# Kernel PCA")
    assert len(result.figures) >= 5
    assert all(data.startswith(b"<?xml") for data in result.figures.values())


def test_the_page_asserts_at_least_25_claims(result):
    assert len(result.claims) >= 25
    sections = {claim.section for claim in result.claims}
    assert len(sections) >= 15  # claims spread over the page, not bunched in one place


def test_measured_four_numbers_are_exact(facts):
    rows = np.asarray(measured_four().rows, dtype=float)
    centred = rows - rows.mean(axis=0)
    gram = centred @ centred.T
    assert np.round(np.linalg.eigvalsh(gram)[::-1][:2], 9).tolist() == [400.0, 100.0]
    assert facts["gram_route"]["eigenvalues"] == [400.0, 100.0]
    assert facts["gram_route"]["centred_table"][0] == [200.0, -200.0, 0.0, 0.0]
    assert round(facts["recipe"]["coordinate"], 2) == 14.14
    assert [round(w, 4) for w in facts["recipe"]["weights"]] == [0.0354, -0.0354, 0.0, 0.0]
    assert facts["uncentred"]["table"][0][:2] == [38484.0, 33324.0]
    assert round(facts["uncentred"]["largest"], 1) == 134449.5
    assert round(facts["uncentred"]["share"], 4) == 0.9989
    raw = rows @ rows.T
    assert round(np.linalg.eigvalsh(raw)[-1] / np.trace(raw), 4) == 0.9989
    assert round(facts["two_scales"]["variances"][0], 2) == 133.33


def test_ring_gap_recomputed_in_plain_numpy(facts):
    loaded = ring()
    rows, inner = np.asarray(loaded.rows, dtype=float), np.asarray(loaded.mask("inner"), dtype=bool)
    first = _first_coordinates(_rbf(rows, RING_GAMMA))
    low, high = sorted([first[inner], first[~inner]], key=np.mean)
    gap = high.min() - low.max()
    assert gap > 0
    assert facts["ring_problem"]["kernel_gap"] == pytest.approx(gap, rel=1e-9)


def test_arc_reversals_recomputed_in_plain_numpy(facts):
    rows = np.asarray(arc().rows, dtype=float)
    rows = rows[np.argsort(rows[:, 0], kind="stable")]
    first = _first_coordinates(_rbf(rows, ARC_GAMMA))
    steps = np.sign(np.diff(first))
    steps = steps[steps != 0]
    assert int(np.count_nonzero(steps[1:] != steps[:-1])) == facts["arc_fold"]["turns"]
    # signs aside, the page's coordinates are these
    assert np.allclose(np.abs(facts["arc_fold"]["first"]), np.abs(first), atol=1e-9)


def test_ring_shares_recomputed_in_plain_numpy(facts):
    rows = np.asarray(ring().rows, dtype=float)
    values = np.clip(np.linalg.eigvalsh(_centred(_rbf(rows, RING_GAMMA)))[::-1], 0, None)
    assert facts["ring_shares"]["shares"] == pytest.approx(values[:2] / values.sum(), rel=1e-9)
    assert facts["ring_shares"]["total"] == pytest.approx(values.sum() / (len(rows) - 1), rel=1e-9)


def test_ring_resemblance_is_over_pairs_of_different_people(facts):
    loaded = ring()
    rows, inner = np.asarray(loaded.rows, dtype=float), np.asarray(loaded.mask("inner"), dtype=bool)
    table = _rbf(rows, RING_GAMMA)
    for mask, key in ((inner, "within_inner"), (~inner, "within_outer")):
        block = table[np.ix_(mask, mask)]
        count = len(block)
        # the ones of each person with themselves are left out
        by_hand = (block.sum() - np.trace(block)) / (count * (count - 1))
        assert facts["ring_shares"][key] == pytest.approx(by_hand, rel=1e-12)
