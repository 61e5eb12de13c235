"""The notebook page: the source is committed without outputs, and the executed
copy in docs/ has an output for every code cell and no error.

(That the executed copy matches a fresh execution byte for byte is checked in
test_drift.py.)
"""

from __future__ import annotations

import nbformat
import pytest

from kreport.pages import NOTEBOOKS
from kreport.report.build import DOCS
from kreport.report.cache import PACKAGE_ROOT


def test_the_three_clusters_notebook_is_listed():
    assert ("three_clusters.ipynb", "three-clusters.ipynb") in NOTEBOOKS


@pytest.mark.parametrize(("source", "target"), NOTEBOOKS)
def test_source_notebook_has_no_outputs(source, target):
    notebook = nbformat.read(PACKAGE_ROOT / "pages" / source, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, f"{source} has no code cells"
    for index, cell in enumerate(code):
        assert not cell.get("outputs"), f"{source}: code cell {index} has committed outputs"
        assert cell.get("execution_count") is None, f"{source}: code cell {index} was run"


@pytest.mark.parametrize(("source", "target"), NOTEBOOKS)
def test_executed_notebook_has_outputs_and_no_errors(source, target):
    notebook = nbformat.read(DOCS / target, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    for index, cell in enumerate(code):
        outputs = cell.get("outputs", [])
        errors = [output for output in outputs if output.output_type == "error"]
        assert not errors, f"{target}: code cell {index} raised {errors[0].get('ename')}"
        streams = [output for output in outputs if output.output_type == "stream"]
        assert all(output.name == "stdout" for output in streams), (
            f"{target}: code cell {index} wrote to stderr"
        )
    # every cell that computes something shows it; the two configuration cells
    # at the top (magics and imports) legitimately print nothing
    silent = [index for index, cell in enumerate(code) if not cell.get("outputs")]
    assert silent == [0, 1], f"{target}: code cells without output: {silent}"


def test_executed_notebook_draws_and_states_its_comparison():
    notebook = nbformat.read(DOCS / "three-clusters.ipynb", as_version=4)
    figures = [output for cell in notebook.cells if cell.cell_type == "code"
               for output in cell.outputs if "image/svg+xml" in output.get("data", {})]
    assert len(figures) == 3  # the clusters, the right maps, the source's maps
    text = "".join(output.get("text", "") for cell in notebook.cells
                   if cell.cell_type == "code" for output in cell.outputs)
    assert "sigma 0.5 -> gamma 2.0" in text
    assert "90 of 90" in text
