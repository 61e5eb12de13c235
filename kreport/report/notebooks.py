"""Notebook pages: executed at build time, written with their outputs into docs/.

The source notebook lives beside the page modules without outputs. The build
runs every cell in a fresh kernel (a raising cell stops the build, naming the
cell), strips what differs between machines and runs (timings, the patch
version of Python), and writes the executed notebook to docs/, where
mkdocs-jupyter renders it without executing it again. The result is cached
under the same kind of key as a page: the notebook's bytes, every kreport
source file, the fixtures and the pinned versions.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import cache

MACHINE_SPECIFIC = re.compile(r" at 0x[0-9a-f]+")


class NotebookFailed(RuntimeError):
    """A notebook cell raised, or printed something that differs between runs."""


def _all_kreport_sources() -> list[Path]:
    sources = cache.PACKAGE_ROOT.rglob("*.py")
    return sorted(path for path in sources if "__pycache__" not in path.parts)


def notebook_key(source: Path) -> str:
    import hashlib

    digest = hashlib.sha256(cache.environment_fingerprint().encode())
    for path in [source, *_all_kreport_sources(), *cache.fixture_files(), cache.LOCK_FILE]:
        if path.exists():
            digest.update(str(path.relative_to(cache.REPOSITORY_ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def execute_notebook(source: Path) -> bytes:
    import nbclient
    import nbformat

    notebook = nbformat.read(source, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=600,
        allow_errors=False,
        record_timing=False,
        resources={"metadata": {"path": str(cache.REPOSITORY_ROOT)}},
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        raise NotebookFailed(f"{source.name}: a cell raised while executing:\n{error}") from None
    language = notebook.metadata.get("language_info", {})
    language.pop("version", None)
    for index, cell in enumerate(notebook.cells):
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            text = str(output.get("text", "")) + str(output.get("data", {}).get("text/plain", ""))
            if MACHINE_SPECIFIC.search(text):
                raise NotebookFailed(
                    f"{source.name}, cell {index}: the output shows a memory address, which "
                    "differs on every run; end the cell with ';' or close the figure"
                )
    return (nbformat.writes(notebook) + "\n").encode()


def build_notebooks(docs: Path, use_cache: bool = True, echo=print) -> dict[str, bytes]:
    from kreport.pages import NOTEBOOKS

    written = {}
    for source_name, target_name in NOTEBOOKS:
        source = cache.PACKAGE_ROOT / "pages" / source_name
        key = notebook_key(source)
        stored = cache.REPOSITORY_ROOT / ".cache" / "notebooks" / f"{source.stem}-{key}.ipynb"
        if use_cache and stored.exists():
            data, origin = stored.read_bytes(), "cached"
        else:
            data, origin = execute_notebook(source), "executed"
            if use_cache:
                stored.parent.mkdir(parents=True, exist_ok=True)
                for old in stored.parent.glob(f"{source.stem}-*.ipynb"):
                    old.unlink()
                stored.write_bytes(data)
        target = docs / target_name
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)
        written[target_name] = data
        echo(f"  {target_name:<22} notebook {origin}")
    return written
