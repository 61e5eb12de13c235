"""The three-clusters notebook's exercises: every answer recomputed here with numpy,
scipy and scikit-learn from the data file (not from kreport), and compared with
the facts the notebook locked; and the answers folded away in the built notebook."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import numpy as np
import pytest
import scipy.linalg
from sklearn.decomposition import KernelPCA as SklearnKernelPCA
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import KernelCenterer

from kreport.pages import NOTEBOOKS
from kreport.site.checks import notebook_unchecked_comparisons

CLUSTERS_CSV = Path(__file__).resolve().parents[1] / "kreport" / "data" / "three_clusters.csv"
THREE_CLUSTERS = next(notebook for notebook in NOTEBOOKS if notebook.slug == "three-clusters")
GAMMA = 2.0  # the source's width 0.5, as a rate
SLIPPED_GAMMA = 0.5  # its kernel function's default width 1
TOP_CENTRE, RIGHT_CENTRE = np.array([0.0, 0.6]), np.array([0.5, 0.0])
TOP, RIGHT = 1, 2


@pytest.fixture(scope="module")
def answers(site):
    if THREE_CLUSTERS.slug not in site.outcomes:
        pytest.skip("the notebook is not among KREPORT_PAGES")
    return site.outcomes[THREE_CLUSTERS.slug].result.facts


@pytest.fixture(scope="module")
def data():
    with CLUSTERS_CSV.open() as handle:
        records = list(csv.DictReader(handle))
    rows = np.array([[float(r["x1"]), float(r["x2"])] for r in records])
    labels = np.array([int(r["cluster"]) for r in records])
    table = rbf_kernel(rows, gamma=GAMMA)
    return rows, labels, table, KernelCenterer().fit_transform(table)


def _block_means(table, labels):
    names = np.unique(labels)
    return np.array([[table[np.ix_(labels == a, labels == b)].mean() for b in names]
                     for a in names])


def test_two_centres_and_the_width_slip(answers, data):
    _, labels, table, _ = data
    facts = answers["exercises"]
    squared = float(((TOP_CENTRE - RIGHT_CENTRE) ** 2).sum())
    at_gamma = rbf_kernel(TOP_CENTRE[None], RIGHT_CENTRE[None], gamma=GAMMA)[0, 0]
    at_slip = rbf_kernel(TOP_CENTRE[None], RIGHT_CENTRE[None], gamma=SLIPPED_GAMMA)[0, 0]
    assert facts["squared_gap"] == pytest.approx(squared, rel=1e-12)
    assert facts["at_gamma"] == pytest.approx(at_gamma, rel=1e-12)
    assert facts["at_default"] == pytest.approx(at_slip, rel=1e-12)
    # doubling the width quarters the rate, so every value is raised to the power 1/4
    assert answers["kernel"]["rate_ratio"] == pytest.approx(GAMMA / SLIPPED_GAMMA, rel=1e-12)
    assert at_slip == pytest.approx(at_gamma ** (SLIPPED_GAMMA / GAMMA), rel=1e-12)
    block = table[np.ix_(labels == TOP, labels == RIGHT)].mean()
    assert facts["block"] == pytest.approx(block, rel=1e-9)
    assert abs(at_gamma - block) < facts["near"] * block
    same = (labels[:, None] == labels[None, :]) & ~np.eye(len(labels), dtype=bool)
    assert at_gamma < table[same].mean()


def test_what_denoising_with_two_directions_discards(answers, data):
    rows, labels, table, centred = data
    facts = answers["exercises"]
    values = scipy.linalg.eigh(centred, eigvals_only=True)[::-1]
    assert facts["trace"] == pytest.approx(np.trace(centred), rel=1e-12)
    residual = (np.trace(centred) - values[:2].sum()) / len(rows)
    assert facts["residual"] == pytest.approx(residual, rel=1e-9)
    # the same, point by point: each lifted point's squared distance to the plane
    scores = SklearnKernelPCA(n_components=2, kernel="rbf", gamma=GAMMA).fit_transform(rows)
    assert residual == pytest.approx(np.mean(np.diag(centred) - (scores**2).sum(axis=1)),
                                     rel=1e-9)
    # each lifted point's squared distance to its cluster's lifted mean, averaged
    distances = []
    for k in np.unique(labels):
        block = table[np.ix_(labels == k, labels == k)]
        distances += list(1 - 2 * block.mean(axis=1) + block.mean())
    assert facts["spread"] == pytest.approx(np.mean(distances), rel=1e-9)
    assert facts["removed"] == pytest.approx(residual / np.mean(distances), rel=1e-9)
    assert residual < np.mean(distances)


def test_the_clusters_as_three_points(answers, data):
    _, labels, table, centred = data
    facts = answers["exercises"]
    size = np.sum(labels == 0)
    small = np.linalg.eigvalsh(size * _block_means(centred, labels))[::-1]
    values = scipy.linalg.eigh(centred, eigvals_only=True)[::-1]
    assert facts["eigenvalues"] == pytest.approx(values[:2], rel=1e-9)
    assert facts["as_points"] == pytest.approx(small[:2], rel=1e-9)
    assert np.all(small[:2] < values[:2])
    assert np.all(small[:2] > (1 - facts["close"]) * values[:2])
    assert abs(small[2]) < 1e-12
    raw = _block_means(table, labels)
    assert facts["top_right"] == pytest.approx(raw[TOP, RIGHT], rel=1e-9)
    assert raw[TOP, RIGHT] == max(raw[0, 1], raw[0, 2], raw[1, 2])


def test_the_maps_far_from_the_data(answers, data):
    rows, _, _, _ = data
    facts = answers["exercises"]
    far = np.array(facts["far"], dtype=float)
    assert rbf_kernel(far[None], rows, gamma=GAMMA).max() < 1e-30
    fit = SklearnKernelPCA(n_components=2, kernel="rbf", gamma=GAMMA).fit(rows)
    sizes = np.abs(fit.transform(far[None])[0]) / np.abs(fit.transform(rows)).max(axis=0)
    assert facts["far_sizes"] == pytest.approx(sizes, rel=1e-7)
    assert np.all(sizes < facts["small"])
    # the far point's coordinates are the centring terms alone: any other far point
    # gets the same ones
    farther = 2 * far
    assert np.allclose(np.abs(fit.transform(farther[None])), np.abs(fit.transform(far[None])),
                       rtol=1e-12, atol=0)


def test_the_answers_are_folded_away_and_every_comparison_is_marked(site):
    if THREE_CLUSTERS.slug not in site.outcomes:
        pytest.skip("the notebook is not among KREPORT_PAGES")
    document = json.loads(site.files[THREE_CLUSTERS.target])
    cells = ["".join(cell["source"]) for cell in document["cells"]
             if cell["cell_type"] == "markdown"]
    headings = [re.match(r"## (\w+)", cell).group(1) for cell in cells
                if cell.startswith("## ")]
    assert headings.index("Exercises") == headings.index("Summary") - 1
    questions = [cell for cell in cells if cell.startswith('<details class="question"')]
    assert len(questions) >= 3
    for question in questions:
        assert re.match(r'<details class="question" markdown="1">\n<summary>Exercise '
                        r"\((pencil|code)\): ", question), question[:80]
        assert question.count('<details class="success" markdown="1">\n<summary>Answer'
                              "</summary>") == 1
        assert question.count("<details") == question.count("</details>") == 2
        assert " open" not in question.split(">", 1)[0]
        answer = question.split("<summary>Answer</summary>", 1)[1]
        assert 'class="claim-mark"' in answer, "an answer states no checked relation"
    assert not notebook_unchecked_comparisons(document, THREE_CLUSTERS.target)
