"""The notebook page: committed without outputs, executed by the build with an
output for every code cell and no error, its facts published and locked (see
test_regression.py), its prose filled from them."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

from kreport.pages import NOTEBOOKS
from kreport.site.checks import notebook_stray_digits

from .conftest import NOTEBOOKS as BUILT_NOTEBOOKS


@pytest.fixture(autouse=True)
def _skip_when_the_notebook_is_not_built(request):
    """With KREPORT_PAGES naming other pages, the session's site has no notebook."""
    if "site" in request.fixturenames and not BUILT_NOTEBOOKS:
        pytest.skip("the notebook is not among KREPORT_PAGES")


def test_the_three_clusters_notebook_is_listed():
    assert [notebook.slug for notebook in NOTEBOOKS] == ["three-clusters"]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda n: n.slug)
def test_source_notebook_has_no_outputs(notebook):
    document = nbformat.read(notebook.source, as_version=4)
    code = [cell for cell in document.cells if cell.cell_type == "code"]
    assert code, f"{notebook.source.name} has no code cells"
    for index, cell in enumerate(code):
        assert not cell.get("outputs"), f"{notebook.source.name}: code cell {index} has outputs"
        assert cell.get("execution_count") is None, f"{notebook.source.name}: cell {index} ran"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda n: n.slug)
def test_executed_notebook_has_outputs_and_no_errors(notebook, site):
    document = nbformat.reads(site.files[notebook.target].decode(), as_version=4)
    nbformat.validate(document)
    for index, cell in enumerate(cell for cell in document.cells if cell.cell_type == "code"):
        outputs = cell.get("outputs", [])
        errors = [output for output in outputs if output.output_type == "error"]
        assert not errors, f"code cell {index} raised {errors[0].get('ename')}"
        assert all(output.name == "stdout" for output in outputs
                   if output.output_type == "stream"), f"code cell {index} wrote to stderr"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda n: n.slug)
def test_the_prose_is_filled_from_published_facts(notebook, site):
    document = json.loads(site.files[notebook.target])
    markdown = "".join("".join(cell["source"]) for cell in document["cells"]
                       if cell["cell_type"] == "markdown")
    assert "{{" not in markdown and "{%" not in markdown
    assert site.outcomes[notebook.slug].result.facts, "the notebook publishes no facts"
    assert 'data-fact="' in markdown


# ---------------------------------------------------------------- the three-clusters notebook

CLUSTERS_CSV = Path(__file__).resolve().parents[1] / "kreport" / "data" / "three_clusters.csv"
THREE_CLUSTERS = next(notebook for notebook in NOTEBOOKS if notebook.slug == "three-clusters")


def _clusters():
    with CLUSTERS_CSV.open() as handle:
        records = list(csv.DictReader(handle))
    rows = np.array([[float(r["x1"]), float(r["x2"])] for r in records])
    return rows, np.array([int(r["cluster"]) for r in records])


def _centred_rbf(rows, gamma):
    squared = ((rows[:, None, :] - rows[None, :, :]) ** 2).sum(axis=2)
    table = np.exp(-gamma * squared)
    return table, table - table.mean(axis=0) - table.mean(axis=1)[:, None] + table.mean()


@pytest.fixture(scope="module")
def cluster_facts(site):
    if THREE_CLUSTERS.slug not in site.outcomes:
        pytest.skip("the notebook is not among KREPORT_PAGES")
    return site.outcomes[THREE_CLUSTERS.slug].result.facts


def test_the_markdown_types_no_digit_and_links_its_neighbours(site):
    document = json.loads(site.files[THREE_CLUSTERS.target])
    assert not notebook_stray_digits(document, THREE_CLUSTERS.target)
    markdown = "".join("".join(cell["source"]) for cell in document["cells"]
                       if cell["cell_type"] == "markdown")
    for target in ("kernel-pca.md", "kernel-pca-steps.md", "glossary.md", "preimages.md"):
        assert f"]({target}" in markdown, f"the notebook does not link {target}"


def test_features_are_not_named_like_rows():
    """On this site x_1, x_2 are rows; the notebook's axes name its two features in words."""
    document = nbformat.read(THREE_CLUSTERS.source, as_version=4)
    code = "\n".join(cell.source for cell in document.cells if cell.cell_type == "code")
    assert "$x_1$" not in code and "$x_2$" not in code
    assert 'set_xlabel("first feature")' in code and 'set_ylabel("second feature")' in code


def test_figures_fit_the_text_column(site):
    document = json.loads(site.files[THREE_CLUSTERS.target])
    widths = []
    for cell in document["cells"]:
        for output in cell.get("outputs", []):
            svg = "".join(output.get("data", {}).get("image/svg+xml", ""))
            if svg:
                widths.append(float(re.search(r'width="([\d.]+)pt"', svg).group(1)) / 72)
    assert len(widths) == 5
    assert max(widths) <= 7.5, f"a figure is {max(widths):.1f} in wide"


def test_published_numbers_agree_with_plain_numpy(cluster_facts):
    rows, _ = _clusters()
    gamma = cluster_facts["kernel"]["gamma"]
    assert gamma == 1 / (2 * cluster_facts["kernel"]["sigma"] ** 2) == 2.0
    table, centred = _centred_rbf(rows, gamma)
    assert cluster_facts["table"]["mean"] == pytest.approx(table.mean(), rel=1e-12)
    values = np.linalg.eigvalsh(centred)[::-1]
    fit = cluster_facts["fit"]
    assert fit["leading_share"] == pytest.approx(values[:2].sum() / values[values > 0].sum(),
                                                 rel=1e-9)
    assert fit["drop"] == pytest.approx(values[1] / values[2], rel=1e-9)
    assert fit["kept"] == 8 and fit["leading"] == 2
    cost = cluster_facts["cost"]
    assert cost["first_factor"] == pytest.approx(np.sqrt(values[0]), rel=1e-9)
    assert cost["last_factor"] == pytest.approx(np.sqrt(values[7]), rel=1e-9)
    assert cost["shrunk"] == int(np.sum(np.sqrt(values[:8]) < 1)) == 3
    source = cluster_facts["source"]
    assert source["root_n"] == pytest.approx(np.sqrt(len(rows)))
    assert source["length"] == pytest.approx(1 / np.sqrt(len(rows)))


def test_the_source_normalisation_gives_directions_of_length_one_over_root_n():
    rows, _ = _clusters()
    _, centred = _centred_rbf(rows, 2.0)
    values, vectors = np.linalg.eigh(centred)
    values, vectors = values[::-1][:8], vectors[:, ::-1][:, :8]
    coefficients = vectors / np.sqrt(len(rows) * values)
    lengths = np.sqrt(np.einsum("im,ij,jm->m", coefficients, centred, coefficients))
    assert np.allclose(lengths, 1 / np.sqrt(len(rows)), rtol=1e-9)


def test_the_reading_of_the_first_two_directions(cluster_facts):
    reading = cluster_facts["reading"]
    first, second = reading["first"], reading["second"]
    assert first[0] > 0 > max(first[1], first[2])
    assert second[1] > 0 > second[2] and abs(second[0]) < 0.25 * min(second[1], -second[2])
    denoise = cluster_facts["denoise"]
    assert denoise["after"] < 0.25 * denoise["before"]
