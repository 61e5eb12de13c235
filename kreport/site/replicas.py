"""Perturbed replicas of pages and notebooks, computed once per input and cached.

The stability check (:mod:`kreport.site.stability`) compares every page with
copies of itself computed on fixtures perturbed by a few ulps. A replica's
facts depend on exactly what the page's unperturbed facts depend on (its code,
the fixtures, the pinned versions), never on its template, so a replica is
stored under the same key as the page's facts: a template edit re-renders the
stored replicas, and only a change to code or data recomputes them, and then
only for the pages it reaches.

Each seed's missing replicas run in subprocesses (the perturbation is read
from the environment when a fixture is loaded, and the page packages cache
their fits, so a process holds one perturbation only), one part of the pages
per core. Every replica is computed alone from its inputs, so
the result is the same whatever runs first.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kreport.data import PERTURBATION_VARIABLE
from kreport.report.page import Notebook, Page

from .cache import CacheStore
from .notebooks import execute
from .results import result_from_json, result_to_json

ULPS = 4
REPLICAS = 3
SEEDS = tuple(range(1, REPLICAS + 1))


def _compute(page_modules: list[str], notebooks: list[Notebook], root: Path) -> dict:
    """In a perturbed process: each page's result and each notebook's executed
    form, or the error that stopped it, by slug."""
    computed: dict = {}
    for module in page_modules:
        page = importlib.import_module(module).page
        computed[page.slug] = ("page", page.compute(lenient=True))
    for notebook in notebooks:
        try:
            computed[notebook.slug] = ("notebook", execute(notebook, root))
        except Exception as problem:
            computed[notebook.slug] = ("error", f"{type(problem).__name__}: {problem}")
    return computed


def _in_subprocess(seed: int, page_modules: list[str], notebooks: list[Notebook],
                   root: Path) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "replica.pickle"
        spec = json.dumps({"pages": page_modules, "root": str(root), "notebooks": [
            {"slug": n.slug, "title": n.title, "source": str(n.source)} for n in notebooks]})
        environment = dict(os.environ, **{PERTURBATION_VARIABLE: f"{seed}:{ULPS}"})
        # The replica imports exactly what this process imports.
        environment["PYTHONPATH"] = os.pathsep.join(path for path in sys.path if path)
        # Replicas run side by side, one per core: one BLAS thread each, so they
        # do not fight over the cores. (A different thread count only changes
        # the order of additions, which is noise of the kind being measured.)
        environment.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
                           MKL_NUM_THREADS="1")
        completed = subprocess.run(
            [sys.executable, "-m", "kreport.site.replicas", "--spec", spec, "--out", str(out)],
            env=environment, capture_output=True, text=True, check=False, cwd=root)
        if completed.returncode != 0:
            raise RuntimeError(f"stability replica {seed} failed:\n{completed.stderr[-3000:]}")
        return pickle.loads(out.read_bytes())


def _to_json(kind: str, value) -> dict:
    if kind == "page":
        return {"kind": kind, "result": result_to_json(value)}
    return {"kind": kind, "value": value}


def _from_json(stored: dict):
    if stored["kind"] == "page":
        return result_from_json(stored["result"])
    return stored["value"]  # a notebook's executed JSON, or an error as text


def replicas(pages: list[Page], notebooks: list[Notebook], keys: dict[str, str],
             store: CacheStore, root: Path, echo=print) -> dict[str, list]:
    """Every item's replicas, one per seed, in seed order, by slug.

    A page's replica is a :class:`PageResult` (computed leniently: failures
    recorded, not raised); a notebook's is its executed JSON, or the error
    text that stopped it. ``keys`` holds each item's facts key.
    """
    found: dict[str, list] = {}
    missing_pages, missing_notebooks = [], []
    for item in [*pages, *notebooks]:
        stored = store.get("replicas", item.slug, keys[item.slug])
        if stored is not None:
            found[item.slug] = [_from_json(entry) for entry in stored]
        elif isinstance(item, Page):
            missing_pages.append(item)
        else:
            missing_notebooks.append(item)
    if not missing_pages and not missing_notebooks:
        return found
    names = [item.slug for item in [*missing_pages, *missing_notebooks]]
    echo(f"  computing {REPLICAS} perturbed replicas of {', '.join(names)}")
    modules = [page.module for page in missing_pages]
    workers = max(1, os.cpu_count() or 1)
    # Each seed's work in as many parts as there are cores (pages dealt in turn,
    # the notebook with the last part), so no core waits idle for the last seed.
    parts = workers if len(modules) + len(missing_notebooks) > 1 else 1
    tasks = [(seed, modules[part::parts], missing_notebooks if part == parts - 1 else [])
             for seed in SEEDS for part in range(parts)]
    tasks = [task for task in tasks if task[1] or task[2]]
    with ThreadPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
        runs = list(pool.map(lambda task: (task[0], _in_subprocess(*task, root)), tasks))
    by_seed: dict[int, dict] = {seed: {} for seed in SEEDS}
    for seed, run in runs:
        by_seed[seed].update(run)
    for slug in names:
        entries = [by_seed[seed][slug] for seed in SEEDS]
        store.put("replicas", slug, keys[slug], [_to_json(kind, value) for kind, value in entries])
        found[slug] = [value for _, value in entries]
    return found


def _main() -> None:
    parser = argparse.ArgumentParser(description="one stability replica (used by the check)")
    parser.add_argument("--spec", required=True)
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    spec = json.loads(options.spec)
    notebooks = [Notebook(n["slug"], n["title"], Path(n["source"])) for n in spec["notebooks"]]
    # Imported by name, not run as __main__, so the pickled results name their
    # classes by a module the parent process can import.
    from kreport.site.replicas import _compute as compute

    computed = compute(spec["pages"], notebooks, Path(spec["root"]))
    Path(options.out).write_bytes(pickle.dumps(computed))


if __name__ == "__main__":
    _main()

