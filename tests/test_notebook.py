"""The notebook page: committed without outputs, executed by the build with an
output for every code cell and no error, its facts published and locked (see
test_regression.py), its prose filled from them."""

from __future__ import annotations

import json

import nbformat
import pytest

from kreport.pages import NOTEBOOKS


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
