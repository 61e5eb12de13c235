"""Notebook pages: executed at build time, their facts collected, their prose filled.

The source notebook lives beside the page packages without outputs. The build
runs every cell in a fresh kernel (a raising cell stops the build, naming the
cell), strips what differs between runs (timings, the patch version of
Python), collects the facts and claims the notebook published
(:mod:`kreport.report.notebook`), fills its markdown cells from those facts
through the same sandboxed filters as a page template, and hands back the
notebook to write into docs/ (where mkdocs-jupyter renders it without
executing it again) and a :class:`PageResult` for its manifest, its lock and
the stability check.
"""

from __future__ import annotations

import copy
import html
import json
import os
import re
from pathlib import Path

from kreport.report.facts import Bound, Claim
from kreport.report.figures import LAYOUT_VARIABLE, number_svg_ids
from kreport.report.notebook import MIMETYPE
from kreport.report.page import Notebook, PageResult
from kreport.report.printed_bounds import broken_bounds
from kreport.report.render import RenderLog, fact_views, make_environment

from .cache import imported_project_modules

SPACE_BEFORE_TICK = re.compile(r'(?<=\S)(?:[ \t]+|[ \t]*\n[ \t]*)(?=<span class="claim-mark")')
MACHINE_SPECIFIC = re.compile(r" at 0x[0-9a-f]+")
MAGIC = re.compile(r"^\s*[%!].*$", re.M)


class NotebookFailed(RuntimeError):
    """A notebook cell raised, or printed something that differs between runs."""


def notebook_modules(notebook: Notebook) -> list[str]:
    """The kreport modules a notebook's code cells import (the cache follows them)."""
    document = json.loads(notebook.source.read_text(encoding="utf-8"))
    found: set[str] = set()
    for cell in document["cells"]:
        if cell["cell_type"] == "code":
            code = MAGIC.sub("", "".join(cell["source"]))
            found |= imported_project_modules(code, "kreport.pages", str(notebook.source))
    return sorted(found)


def execute(notebook: Notebook, root: Path, layout: str = "wide") -> dict:
    """Run every cell in a fresh kernel; return the executed notebook as JSON data.

    ``layout="narrow"`` runs it with its figures laid out for a phone's column
    (:func:`kreport.report.figures.current_layout`).
    """
    import nbclient
    import nbformat

    document = nbformat.read(notebook.source, as_version=4)
    client = nbclient.NotebookClient(
        document, kernel_name="python3", timeout=600, allow_errors=False,
        record_timing=False, resources={"metadata": {"path": str(root)}},
        # nbclient otherwise waits 4 s for a cell's last outputs and then goes on
        # without them, a silent loss on a loaded machine (seen once as a
        # replica with one output fewer); wait longer, and fail rather than lose one.
        iopub_timeout=60, raise_on_iopub_timeout=True,
        # A cell's prints reach the notebook in as many stream messages as the kernel
        # happened to flush, more of them on a loaded machine; merged, a cell's output
        # is the same whatever the load (a replica once had one output more).
        coalesce_streams=True,
    )
    try:
        client.execute(env={**os.environ, LAYOUT_VARIABLE: layout})
    except nbclient.exceptions.CellExecutionError as error:
        raise NotebookFailed(f"{notebook.source.name}: a cell raised while executing:\n"
                             f"{error}") from None
    document.metadata.get("language_info", {}).pop("version", None)
    for index, cell in enumerate(document.cells):
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            text = str(output.get("text", "")) + str(output.get("data", {}).get("text/plain", ""))
            if MACHINE_SPECIFIC.search(text):
                raise NotebookFailed(
                    f"{notebook.source.name}, cell {index}: the output shows a memory address, "
                    "which differs on every run; end the cell with ';' or close the figure"
                )
    return json.loads(nbformat.writes(document))


#: Where an SVG output keeps its phone variant (the output's metadata; the
#: notebook's own viewers ignore it, the site serves it to narrow screens).
NARROW_KEY = "kreport_narrow_svg"


def execute_with_narrow_figures(notebook: Notebook, root: Path) -> dict:
    """The notebook executed as written, each SVG output carrying the same figure
    drawn for a phone (from a second run in the narrow layout) in its metadata."""
    executed = execute(notebook, root)
    narrow = execute(notebook, root, layout="narrow")
    for index, (cell, narrow_cell) in enumerate(
            zip(executed["cells"], narrow["cells"], strict=True)):
        wide_svgs = _svg_outputs(cell)
        narrow_svgs = _svg_outputs(narrow_cell)
        if len(wide_svgs) != len(narrow_svgs):
            raise NotebookFailed(
                f"{notebook.source.name}, cell {index}: it draws {len(wide_svgs)} figures "
                f"in the wide layout and {len(narrow_svgs)} in the narrow one; a cell must "
                "draw the same figures whatever the screen")
        for output, narrow_output in zip(wide_svgs, narrow_svgs, strict=True):
            svg = "".join(narrow_output["data"]["image/svg+xml"]).encode()
            output.setdefault("metadata", {})[NARROW_KEY] = number_svg_ids(svg).decode()
    return executed


def _svg_outputs(cell: dict) -> list[dict]:
    return [output for output in cell.get("outputs", [])
            if "image/svg+xml" in output.get("data", {})]


def _decode(value):
    if isinstance(value, dict):
        if "__bound__" in value:
            return Bound(value["__bound__"], measured=value["measured"])
        return {key: _decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return value


def collect(notebook: Notebook, executed: dict) -> tuple[dict, PageResult]:
    """Take the published facts out of the outputs; return (notebook, result)."""
    cleaned = copy.deepcopy(executed)
    facts, sources, claims, exact, rtol, failures = {}, {}, [], {}, {}, []
    for index, cell in enumerate(cleaned["cells"]):
        kept = []
        for output in cell.get("outputs", []):
            payload = output.get("data", {}).get(MIMETYPE)
            if payload is None:
                kept.append(output)
                continue
            section = payload["section"]
            if section in facts:
                raise NotebookFailed(f"{notebook.source.name}: section {section!r} published "
                                     "twice; give each Section its own name")
            facts[section] = _decode(payload["facts"])
            sources[section] = f"{notebook.source.name}, cell {index}"
            claims += [Claim(template=c["template"], section=section,
                             values=tuple((name, value) for name, value in c["values"]),
                             exact_reason=c["exact_reason"], id=c.get("id"))
                       for c in payload["claims"]]
            exact.update(payload["exact"])
            rtol.update(payload["rtol"])
            failures += payload.get("failures", [])
        if cell["cell_type"] == "code":
            for output in kept:
                _number_ids(output)
            cell["outputs"] = kept
    from kreport.report.facts import Failure

    result = PageResult(slug=notebook.slug, facts=facts, sources=sources, claims=claims,
                        figures={}, exact=exact, rtol=rtol,
                        failures=[Failure("notebook", message) for message in failures])
    return cleaned, result


def _number_ids(output: dict) -> None:
    """matplotlib names clip paths and images by hashes of their (noisy) coordinates;
    number them in order instead, as the page figures do."""
    data = output.get("data", {})
    if "image/svg+xml" in data:
        svg = "".join(data["image/svg+xml"]).encode()
        data["image/svg+xml"] = number_svg_ids(svg).decode()


def notebook_claim_mark(ref: str, sentence: str) -> str:
    """A page's tick links to its claim in the page's audit block; a notebook has no
    such block, so its tick names the claim in its tooltip and links nowhere."""
    return (f'<span class="claim-mark" tabindex="0" '
            f'title="Checked by the build: {html.escape(sentence, quote=True)}" '
            f'aria-label="checked by the build: {html.escape(ref, quote=True)}">✓</span>')


def fill_markdown(notebook: Notebook, cleaned: dict, result: PageResult,
                  log: RenderLog | None = None) -> bytes:
    """The notebook with each markdown cell rendered from the published facts.

    As in a page template, ``{{ checked("section.id") }}`` marks a sentence that a
    claim states and ``{{ unchecked("why") }}`` exempts one from the comparison check."""
    log = log if log is not None else RenderLog()
    environment = make_environment(notebook.source.parent, log)
    views = fact_views(result.facts, result.sources)
    claims = {claim.ref: claim for claim in result.claims if claim.ref}

    def checked(ref: str) -> str:
        if ref not in claims:
            raise NotebookFailed(f"{notebook.source.name} marks a sentence as checked by claim "
                                 f"{ref!r}, which no cell makes; its claims with ids are "
                                 f"{sorted(claims)}")
        return notebook_claim_mark(ref, claims[ref].sentence)

    def unchecked(reason: str) -> str:
        if len(reason.split()) < 3:
            raise NotebookFailed(f"{notebook.source.name}: unchecked({reason!r}) needs a "
                                 "reason in words")
        return f"<!-- unchecked: {html.escape(reason)} -->"

    environment.globals.update(checked=checked, unchecked=unchecked)
    filled = copy.deepcopy(cleaned)
    for cell in filled["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        if "{{" in source or "{%" in source:
            text = environment.from_string(source).render(views)
            text = SPACE_BEFORE_TICK.sub("", text)
            cell["source"] = text.splitlines(keepends=True)
            broken = broken_bounds(text, log.values)
            if broken:
                raise NotebookFailed(f"{notebook.source.name} prints a bound its value breaks: "
                                     + "; ".join(broken))
    return (json.dumps(filled, indent=1, ensure_ascii=False, sort_keys=True) + "\n").encode()
