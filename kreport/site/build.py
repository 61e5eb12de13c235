"""The build: compute every page and notebook, check everything, then write.

:func:`build` computes (or takes from the cache) every page's facts and
figures and every notebook's outputs, renders the markdown and manifests,
runs the stability check and the site-wide checks, and returns the complete
set of files for docs/ without touching docs/. :func:`write` then puts them
in place, keeping a committed file's bytes wherever the fresh file is
equivalent by :mod:`kreport.site.compare`. A build that fails any check writes
nothing, so docs/ is never left half rewritten.

For each page docs/ receives ``<slug>.md``, ``figures/<slug>-<name>.svg``,
``data/<slug>.json`` (the manifest) and ``data/<slug>-<name>.json`` for each of
its playgrounds (its charts, compiled to Vega, and every setting's data); for
each notebook ``<slug>.ipynb`` and ``data/<slug>.json``.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from kreport.report.page import Notebook, Page, PageResult, SiteSummary
from kreport.report.render import Printed, RenderLog

from . import checks, executor, stability, thresholds
from . import notebooks as notebook_runner
from .cache import CacheStore, cache_key, driver_digest
from .compare import SVG_TOLERANCE_PX, differences
from .executor import SEEDS, Failed, Job
from .markdown import (
    PageError,
    compile_charts,
    manifest_bytes,
    playground_bytes,
    printed_numbers,
    render_markdown,
)
from .moved import site_moves
from .moved import table as moved_table
from .notebooks import collect, fill_markdown, notebook_modules
from .paths import SitePaths
from .reading import ASSIGNABLE_MINUTES, WORDS_PER_MINUTE, reading_minutes
from .results import flat_facts

#: The notebook runner is an input of an executed notebook: it decides what it holds.
NOTEBOOK_RUNNER = Path(notebook_runner.__file__)


class BuildFailed(RuntimeError):
    """A check failed; the message lists every problem and what to do."""


@dataclass
class Built:
    """Everything a build produced, before anything is written."""

    files: dict[str, bytes] = field(default_factory=dict)  # relative to docs/
    outcomes: dict[str, stability.Outcome] = field(default_factory=dict)  # by slug
    keys: dict[str, str] = field(default_factory=dict)  # cache key by slug
    problems: list[str] = field(default_factory=list)
    stability: dict = field(default_factory=dict)
    echo: Callable[[str], None] = print  # reports progress line by line


def facts_key(page: Page, paths: SitePaths, also=()) -> str:
    """What a page's facts depend on: its code, the fixtures, the pinned versions
    and its extra inputs; never its template, which only says them."""
    return cache_key([page.module], [*page.extra_inputs], paths.lock_file, also=also)


def notebook_key(notebook: Notebook, paths: SitePaths) -> str:
    """What an executed notebook depends on: the modules its cells import, its
    source, the runner that executes it and the pinned versions."""
    return cache_key(notebook_modules(notebook), [notebook.source, NOTEBOOK_RUNNER],
                     paths.lock_file)


#: Playground charts compiled to Vega in this process, by (page module, playground).
_COMPILED: dict[tuple[str, str], dict] = {}


def _render_key(page: Page, key: str, bibliography: Path) -> str:
    """What a page's text depends on: its facts (by their key), the templates
    beside it (the page's own and any it includes) and, when they cite, the
    bibliography their footnotes are formatted from."""
    digest = hashlib.sha256(key.encode() + b"\0"
                            + driver_digest("markdown.py", "citations.py").encode())
    cites = False
    for template in sorted(page.template_path.parent.glob("*.j2")):
        source = template.read_bytes()
        cites = cites or b"[@" in source
        digest.update(template.name.encode() + b"\0" + source + b"\0")
    if cites:
        cited = bibliography.read_bytes() if bibliography.exists() else b"<missing>"
        digest.update(b"bibliography\0" + cited)
    return digest.hexdigest()[:32]


def _render(page: Page, result: PageResult,
            bibliography: Path) -> tuple[dict[str, bytes], str, RenderLog]:
    log = RenderLog()
    markdown = render_markdown(page, result, log, bibliography)
    files = {f"{page.slug}.md": markdown.encode(),
             f"data/{page.slug}.json": manifest_bytes(page, result)}
    for spec in page.playgrounds:
        charts = _COMPILED.get((page.module, spec.name))
        if charts is None:
            charts = _COMPILED[(page.module, spec.name)] = compile_charts(spec)
        files[f"data/{spec.filename(page.slug)}"] = playground_bytes(
            page, spec, result.playgrounds[spec.name], charts)
    return files, markdown, log


def _page_files(page: Page, result: PageResult, key: str, store: CacheStore,
                bibliography: Path) -> tuple[dict[str, bytes], str, RenderLog]:
    """The page's files for docs/, its markdown and what its template printed;
    rendered again only when its facts, its templates or what they cite changed."""
    render_key = _render_key(page, key, bibliography)
    stored = store.get("rendered", page.slug, render_key)
    if stored is None:
        files, markdown, log = _render(page, result, bibliography)
        store.put("rendered", page.slug, render_key, {
            "files": {name: data.decode() for name, data in files.items()},
            "printed": [[p.key, p.filter, p.options, p.text] for p in log.printed]})
    else:
        files = {name: text.encode() for name, text in stored["files"].items()}
        markdown = files[f"{page.slug}.md"].decode()
        log = RenderLog(printed=[Printed(*entry) for entry in stored["printed"]])
    files.update({f"figures/{name}": data for name, data in result.figures.items()})
    return files, markdown, log


def _add_page(built: Built, page: Page, result: PageResult, origin: str, key: str,
              store: CacheStore, paths: SitePaths) -> None:
    try:
        files, markdown, log = _page_files(page, result, key, store, paths.bibliography)
    except (PageError, jinja2.TemplateError) as error:
        built.problems.append(f"{page.slug}: {page.template}: {type(error).__name__}: {error}")
        return
    built.files.update(files)
    built.outcomes[page.slug] = stability.Outcome(result=result, markdown=markdown, log=log)
    built.keys[page.slug] = key
    built.problems += checks.stray_digits(markdown, f"docs/{page.slug}.md")
    built.problems += checks.unchecked_comparisons(markdown, f"docs/{page.slug}.md")
    built.problems += checks.comments_opening_lines(markdown, f"docs/{page.slug}.md")
    built.problems += checks.within_a_bound(markdown, f"docs/{page.slug}.md")
    built.problems += checks.broken_table_rows(markdown, f"docs/{page.slug}.md")
    built.problems += checks.unknown_symbols(markdown, f"docs/{page.slug}.md")
    built.problems += checks.markup_in_maths(markdown, f"docs/{page.slug}.md")
    built.problems += checks.definition_lines(markdown, f"docs/{page.slug}.md")
    built.problems += checks.glued_words(markdown, f"docs/{page.slug}.md")
    built.echo(f"  {page.slug:<24} {printed_numbers(log):5d} numbers "
               f"{len(result.claims):4d} claims {len(result.figure_data):3d} figures  {origin}")


def _add_notebook(built: Built, notebook: Notebook, executed: dict, origin: str) -> None:
    cleaned, result = collect(notebook, executed)
    log = RenderLog()
    filled = fill_markdown(notebook, cleaned, result, log)
    built.files[notebook.target] = filled
    built.files[f"data/{notebook.slug}.json"] = manifest_bytes(notebook.as_page(), result)
    texts, svgs = stability._notebook_texts(cleaned)
    built.outcomes[notebook.slug] = stability.Outcome(result=result, markdown=None, log=log,
                                                      outputs=texts, svgs=svgs)
    published = json.loads(filled)
    built.problems += checks.notebook_stray_digits(published, f"docs/{notebook.target}")
    built.problems += checks.notebook_citations(published, f"docs/{notebook.target}")
    built.problems += checks.notebook_unchecked_comparisons(published, f"docs/{notebook.target}")
    built.echo(f"  {notebook.target:<24} {printed_numbers(log):5d} numbers "
               f"{len(result.claims):4d} claims  notebook {origin}")


def _site_summary(built: Built, pages: list[Page], notebooks: list[Notebook]) -> SiteSummary:
    summary = {}
    for item in [*pages, *notebooks]:
        outcome = built.outcomes.get(item.slug)
        if outcome is None:
            continue
        result = outcome.result
        facts = flat_facts(result)
        summary[item.slug] = {
            "title": item.title,
            "file": item.target if isinstance(item, Notebook) else f"{item.slug}.md",
            "facts": len(facts),
            # Facts measured on one machine (timings): outside the stability check.
            "timed": len(facts) - len(flat_facts(result, getattr(item, "machine_specific", ()))),
            "claims": len(result.claims),
            "figures": len(result.figure_data),
            "exact": len(result.exact),
            "numbers": printed_numbers(outcome.log),
            "minutes": reading_minutes(_page_text(built, item, outcome))["minutes"],
        }
        if isinstance(item, Notebook):
            # A notebook's figures are its cells' image outputs, a minute each as on a page.
            drawn = _notebook_figures(built.files[item.target])
            summary[item.slug]["figures"] = drawn
            summary[item.slug]["minutes"] += drawn
    rules = {"svg_tolerance_px": SVG_TOLERANCE_PX, "margin": stability.MARGIN,
             "replicas": stability.REPLICAS, "ulps": stability.ULPS,
             "words_per_minute": WORDS_PER_MINUTE, "assignable_minutes": ASSIGNABLE_MINUTES}
    return SiteSummary(pages=summary, stability=built.stability, rules=rules)


def _notebook_figures(notebook_text) -> int:
    """How many images a notebook's code cells draw (SVG or PNG outputs)."""
    cells = json.loads(notebook_text)["cells"]
    return sum(1 for cell in cells if cell["cell_type"] == "code"
               for output in cell.get("outputs", ())
               if {"image/svg+xml", "image/png"} & set(output.get("data", {})))


def _page_text(built: Built, item, outcome) -> str:
    """What a reader reads: a page's markdown, or a notebook's markdown cells."""
    if outcome.markdown is not None:
        return outcome.markdown
    notebook = json.loads(built.files[item.target])
    return "\n\n".join("".join(cell["source"]) for cell in notebook["cells"]
                       if cell["cell_type"] == "markdown")


def _run_stability(built: Built, pages: list[Page], notebooks: list[Notebook],
                   store: CacheStore, replicas: Callable[[str], list], seconds: float) -> None:
    started = time.perf_counter()
    report = stability.check(pages, built.outcomes, notebooks, built.keys, store, replicas)
    built.stability = summary = report.summary()
    built.problems += [f"stability: {problem}" for problem in report.problems]
    built.echo(
        f"  stability check: {summary['printed_checked']} printed numbers, "
        f"{summary['facts_checked']} facts, {summary['figure_arrays_checked']} figure arrays, "
        f"{summary.get('playground_values_checked', 0)} playground values "
        f"on {summary['replicas']} perturbed replicas, {summary['problems']} problems; "
        f"compared in {time.perf_counter() - started:.1f} s (all computing took "
        f"{seconds:.1f} s)")


def build(pages: list[Page], notebooks: list[Notebook], paths: SitePaths,
          use_cache: bool = True, run_stability: bool = True, echo=print,
          partial: bool = False) -> Built:
    """Compute and check everything; write nothing.

    ``partial`` builds only the pages and notebooks given (while working on
    one page): the checks that need the whole site (the navigation, docs/
    holding nothing else) are left to a full build.
    """
    store = CacheStore(paths.cache, enabled=use_cache)
    built = Built(echo=echo)
    built.problems += thresholds.scan_sources(pages, notebooks, paths.root)
    ordinary = [page for page in pages if not page.reads_site]
    keys = {page.slug: facts_key(page, paths) for page in ordinary}
    keys.update({notebook.slug: notebook_key(notebook, paths) for notebook in notebooks})
    # Every page and notebook, and (for the stability check) each of its replicas:
    # all computed at once, across the cores, unless the cache has them.
    seeds = (0, *SEEDS) if run_stability else (0,)
    jobs = {(item.slug, seed): Job(item, seed, keys[item.slug])
            for item in [*ordinary, *notebooks] for seed in seeds}
    started = time.perf_counter()
    values, computed = executor.run(list(jobs.values()), store, paths.root, echo)
    seconds = time.perf_counter() - started
    for item in [*ordinary, *notebooks]:
        job = jobs[(item.slug, 0)]
        value, origin = values[job], "computed" if job in computed else "cached"
        if origin == "computed" and isinstance(value, PageResult):
            origin += f" in {value.seconds:.1f} s"
        if isinstance(value, Failed):  # reported with every other problem
            built.problems.append(f"{item.slug}: {value.message}")
            continue
        built.keys[item.slug] = keys[item.slug]
        if isinstance(item, Page):
            _add_page(built, item, value, origin, keys[item.slug], store, paths)
            continue
        try:
            _add_notebook(built, item, value, origin)
        except Exception as error:
            built.problems.append(f"{item.slug}: {type(error).__name__}: {error}")
    if run_stability:
        def replicas(slug: str) -> list:
            return [values[jobs[(slug, seed)]] for seed in SEEDS]

        _run_stability(built, ordinary, notebooks, store, replicas, seconds)
    summary = _site_summary(built, pages, notebooks)
    for page in pages:
        if page.reads_site:
            # What this page reads: the other pages' facts (by key), what their
            # templates print (the counts) and the stability check's summary.
            also = sorted(f"{slug}={key}" for slug, key in built.keys.items())
            also.append(json.dumps(summary.pages, sort_keys=True))
            also.append(json.dumps(summary.stability, sort_keys=True))
            job = Job(page, 0, facts_key(page, paths, also))
            found, computed = executor.run([job], store, paths.root, echo, site=summary)
            if isinstance(found[job], Failed):
                built.problems.append(f"{page.slug}: {found[job].message}")
                continue
            built.keys[page.slug] = job.key
            _add_page(built, page, found[job], "computed" if computed else "cached", job.key,
                      store, paths)
    if not partial:
        built_pages = [f"{page.slug}.md" for page in pages] + [nb.target for nb in notebooks]
        built.problems += checks.navigation_problems(paths.mkdocs_config, built_pages)
    return built


def write(built: Built, paths: SitePaths, partial: bool = False) -> list[str]:
    """Put the built files in docs/; return the ones whose bytes changed.

    A committed file whose content is equivalent (by the compare rule) keeps
    its bytes; stale output in the generated folders (a figure no page draws
    now) is removed. Fails, writing nothing, when docs/ holds a file elsewhere
    that no page writes and no asset declaration covers.
    """
    stale, unknown = checks.unaccounted_files(paths.docs, set(built.files), paths.assets_list)
    if partial:
        stale, unknown = [], []
    if unknown:
        raise BuildFailed("docs/ holds files the build does not account for:\n  "
                          + "\n  ".join(unknown))
    changed = []
    for relative in stale:
        (paths.docs / relative).unlink()
        changed.append(f"{relative} (removed: no page writes it)")
    for relative, data in sorted(built.files.items()):
        target = paths.docs / relative
        if target.exists():
            committed = target.read_bytes()
            if committed == data or not differences(relative, committed, data):
                continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        changed.append(relative)
    return changed


def build_site(pages: list[Page], notebooks: list[Notebook], paths: SitePaths,
               use_cache: bool = True, echo=print, partial: bool = False) -> Built:
    """``make docs``: build, check, and write only if every check passed."""
    started = time.perf_counter()
    built = build(pages, notebooks, paths, use_cache=use_cache, echo=echo, partial=partial)
    if built.problems:
        count = len(built.problems)
        raise BuildFailed(f"{count} problem{'s' if count > 1 else ''}; docs/ was not touched:\n  "
                          + "\n  ".join(built.problems))
    moves = site_moves(built.files, paths.docs)
    changed = write(built, paths, partial=partial)
    if moves:
        echo(f"{len(moves)} fact{'s' if len(moves) > 1 else ''} moved against the committed "
             "docs/ (if meant, `make accept` locks them):\n" + moved_table(moves))
    echo(f"built {len(pages)} pages and {len(notebooks)} notebooks in "
         f"{time.perf_counter() - started:.1f} s; {len(changed)} files changed in docs/"
         + (": " + ", ".join(changed) if changed else ""))
    return built
