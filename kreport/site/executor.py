"""One way to compute what the build needs, cached, across the machine's cores.

Everything the build computes is a :class:`Job`: a page's results or a
notebook's executed form, on the committed fixtures (seed 0) or on fixtures
perturbed by a few ulps for the stability check (seeds 1 to :data:`REPLICAS`,
a *replica*). :func:`run` takes every job through the same steps: look its
key up in the cache, compute what is missing, store it. A job's key is the
facts key of its page or notebook (its code, the fixtures, the pinned
versions), never its template, so a template edit recomputes nothing and a
code or data change recomputes only the jobs it reaches, replicas included.

Missing jobs run in subprocesses, at most one per core, all at once: the
perturbation is read from the environment when a fixture is loaded and the
page packages cache their fits, so a process holds one seed only. Each
process runs with one BLAS thread (side by side they would otherwise fight
over the cores), and every job is computed from its inputs alone, so the
results are the same bytes whatever ran first or where. A job whose page
needs the whole site (``reads_site``) runs in this process, after the others.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from kreport.data import PERTURBATION_VARIABLE
from kreport.report.page import Notebook, Page, PageResult, SiteSummary

from .cache import CacheStore
from .results import result_from_json, result_to_json

ULPS = 4
REPLICAS = 3
SEEDS = tuple(range(1, REPLICAS + 1))


@dataclass(frozen=True, eq=False)  # one job is one object (a Page is unhashable)
class Job:
    """One computation: ``item`` (a Page or a Notebook) on ``seed``'s fixtures
    (0: the committed ones), stored under ``key`` (the item's facts key)."""

    item: Page | Notebook
    seed: int
    key: str

    @property
    def slug(self) -> str:
        return self.item.slug

    @property
    def kind(self) -> str:
        return "page" if isinstance(self.item, Page) else "notebook"

    @property
    def store_kind(self) -> str:
        """The cache's folder: pages/, notebooks/, or replicas/ for seed ≥ 1."""
        return f"{self.kind}s" if self.seed == 0 else f"replica-{self.seed}"


@dataclass
class Failed:
    """A job that raised: for a page on the committed fixtures, every failing
    claim and raising section, each quoting what it checked."""

    message: str


# ---------------------------------------------------------------- computing one job


def compute_page(page: Page, seed: int, site: SiteSummary | None = None) -> PageResult | Failed:
    """A page on ``seed``'s fixtures. On the committed ones a failure is reported
    whole: the page is run again leniently, which records each failing claim
    (quoting its sentence) and each raising section. A replica is computed
    leniently (failures recorded in the result) and sketches its figures."""
    if seed:
        return page.compute(site=site, lenient=True, replica=True)
    try:
        return page.compute(site=site)
    except Exception as error:
        lines = [f"{type(error).__name__}: {error}"]
        try:
            lenient = page.compute(site=site, lenient=True)
        except Exception:
            lenient = None
        if lenient is not None:
            lines += [f"{failure.section}: {failure.message}" for failure in lenient.failures
                      if failure.message not in lines[0]]
        return Failed("\n    ".join(lines))


def compute_notebook(notebook: Notebook, seed: int, root: Path) -> dict | Failed:
    """A notebook executed on ``seed``'s fixtures: on the committed ones with its
    figures also drawn for a phone, as it is published."""
    from .notebooks import execute, execute_with_narrow_figures

    try:
        return execute_with_narrow_figures(notebook, root) if seed == 0 else execute(notebook,
                                                                                     root)
    except Exception as error:
        return Failed(f"{type(error).__name__}: {error}")


def _compute(job: Job, root: Path, site: SiteSummary | None = None):
    if job.kind == "page":
        return compute_page(job.item, job.seed, site)
    return compute_notebook(job.item, job.seed, root)


# ---------------------------------------------------------------- the cache


def _to_json(job: Job, value) -> dict:
    if isinstance(value, Failed):
        return {"failed": value.message}
    return {"result": result_to_json(value)} if job.kind == "page" else {"executed": value}


def _from_json(job: Job, stored: dict):
    if "failed" in stored:
        return Failed(stored["failed"])
    return result_from_json(stored["result"]) if job.kind == "page" else stored["executed"]


# ---------------------------------------------------------------- running jobs


class Values:
    """Every job's value (a PageResult, an executed notebook, or :class:`Failed`),
    read from the cache when first asked for: a build whose stability verdicts
    are cached never reads its replicas."""

    def __init__(self, store: CacheStore, computed: dict[Job, object]):
        self._store, self._values = store, dict(computed)

    def __getitem__(self, job: Job):
        if job not in self._values:
            self._values[job] = _from_json(job, self._store.get(job.store_kind, job.slug,
                                                                job.key))
        return self._values[job]


def run(jobs: list[Job], store: CacheStore, root: Path, echo=print,
        site: SiteSummary | None = None) -> tuple[Values, list[Job]]:
    """Every job's value (:class:`Values`), from the cache or computed, and the
    jobs that were computed. A failure is stored too, so an unchanged broken
    page is reported again at once."""
    missing = [job for job in jobs if not store.has(job.store_kind, job.slug, job.key)]
    here = [job for job in missing if job.kind == "page" and not _importable(job.item)]
    elsewhere = [job for job in missing if job not in here]
    computed: dict[Job, object] = {}
    if elsewhere:
        _describe(elsewhere, echo)
        computed.update(_in_subprocesses(elsewhere, root))
    for job in here:
        with _perturbed(job.seed):
            computed[job] = _compute(job, root, site)
    for job in missing:
        store.put(job.store_kind, job.slug, job.key, _to_json(job, computed[job]))
    return Values(store, computed), missing


def _importable(page: Page) -> bool:
    """Whether a process of its own can compute ``page``: it must be what its
    module names ``page``, and not read the whole site (which only this process
    holds). A page made in a test is computed here."""
    module = sys.modules.get(page.module)
    return not page.reads_site and getattr(module, "page", None) is page


@contextlib.contextmanager
def _perturbed(seed: int):
    """The fixtures perturbed for ``seed`` while a job runs in this process (a
    page made in a test; one that caches a fit across seeds must not be)."""
    saved = os.environ.get(PERTURBATION_VARIABLE)
    if seed:
        os.environ[PERTURBATION_VARIABLE] = f"{seed}:{ULPS}"
    else:
        os.environ.pop(PERTURBATION_VARIABLE, None)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(PERTURBATION_VARIABLE, None)
        else:
            os.environ[PERTURBATION_VARIABLE] = saved


def _describe(jobs: list[Job], echo) -> None:
    committed = sorted({job.slug for job in jobs if job.seed == 0})
    perturbed = sorted({job.slug for job in jobs if job.seed})
    if committed:
        echo(f"  computing {', '.join(committed)}")
    if perturbed:
        echo(f"  computing {REPLICAS} perturbed replicas of {', '.join(perturbed)}")


def _batches(jobs: list[Job], workers: int) -> list[list[Job]]:
    """Jobs grouped for processes: one seed per process; the committed run's
    pages dealt into one part per core (they are the most work); each notebook
    alone (its kernel is a process of its own); a replica's pages together."""
    batches = []
    for seed in sorted({job.seed for job in jobs}):
        pages = [job for job in jobs if job.seed == seed and job.kind == "page"]
        notebooks = [job for job in jobs if job.seed == seed and job.kind == "notebook"]
        parts = workers if seed == 0 else 1
        batches += [pages[part::parts] for part in range(parts) if pages[part::parts]]
        batches += [[notebook] for notebook in notebooks]
    # The largest first, so that no core waits idle for the last long one.
    return sorted(batches, key=lambda batch: (batch[0].seed != 0, -len(batch)))


def _in_subprocesses(jobs: list[Job], root: Path) -> dict[Job, object]:
    workers = max(1, os.cpu_count() or 1)
    batches = _batches(jobs, workers)
    with ThreadPoolExecutor(max_workers=min(workers, len(batches))) as pool:
        finished = list(pool.map(lambda batch: _in_subprocess(batch, root), batches))
    values = {}
    for batch, computed in zip(batches, finished, strict=True):
        values.update(zip(batch, computed, strict=True))
    return values


def _in_subprocess(batch: list[Job], root: Path) -> list:
    seed = batch[0].seed
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "computed.pickle"
        spec = json.dumps({"seed": seed, "root": str(root), "jobs": [
            {"page": job.item.module} if job.kind == "page" else
            {"notebook": {"slug": job.item.slug, "title": job.item.title,
                          "source": str(job.item.source)}} for job in batch]})
        environment = dict(os.environ)
        environment.pop(PERTURBATION_VARIABLE, None)
        if seed:
            environment[PERTURBATION_VARIABLE] = f"{seed}:{ULPS}"
        # The process imports exactly what this process imports.
        environment["PYTHONPATH"] = os.pathsep.join(path for path in sys.path if path)
        environment.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
                           MKL_NUM_THREADS="1")
        completed = subprocess.run(
            [sys.executable, "-m", "kreport.site.executor", "--spec", spec, "--out", str(out)],
            env=environment, capture_output=True, text=True, check=False, cwd=root)
        if completed.returncode != 0:
            names = ", ".join(job.slug for job in batch)
            raise RuntimeError(f"computing {names} (seed {seed}) failed:\n"
                               f"{completed.stderr[-3000:]}")
        return pickle.loads(out.read_bytes())


def _main() -> None:
    import importlib

    parser = argparse.ArgumentParser(description="compute jobs of one seed (used by the build)")
    parser.add_argument("--spec", required=True)
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    spec = json.loads(options.spec)
    root = Path(spec["root"])
    computed = []
    for entry in spec["jobs"]:
        if "page" in entry:
            item = importlib.import_module(entry["page"]).page
        else:
            described = entry["notebook"]
            item = Notebook(described["slug"], described["title"], Path(described["source"]))
        computed.append(_compute(Job(item, spec["seed"], ""), root))
    Path(options.out).write_bytes(pickle.dumps(computed))


if __name__ == "__main__":
    # Run by name, not as __main__, so that the pickled results name their classes
    # by a module the parent process can import.
    from kreport.site.executor import _main as main

    main()
