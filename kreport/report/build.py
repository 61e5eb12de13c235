"""The build driver: page modules → facts, figures, markdown and manifests in docs/.

``build_site()`` is what ``make docs`` runs before mkdocs. For each page it
computes the facts and figures (or reuses them when the cache key of
:mod:`kreport.report.cache` is unchanged), renders the template, and writes

* ``docs/<slug>.md``             the page,
* ``docs/figures/<slug>-*.svg``  its figures,
* ``docs/data/<slug>.json``      its manifest: every fact with its key, value
                                 and the function that produced it, and every
                                 claim the page asserts.

Notebooks listed in ``kreport.pages.NOTEBOOKS`` are executed (a failing cell
fails the build) and written with their outputs into docs/.
"""

from __future__ import annotations

import base64
import importlib
import json
import pkgutil
import re
import time
from dataclasses import dataclass
from pathlib import Path

from . import cache
from .facts import Bound, Claim
from .numbers import format_number
from .page import Page, PageResult
from .render import fact_views, make_environment

DOCS = cache.REPOSITORY_ROOT / "docs"
CACHE_DIR = cache.REPOSITORY_ROOT / ".cache" / "pages"
REBUILD_COMMAND = "make docs"
PRINTED_NUMBER = re.compile(r'class="fact[^"]*"|\\htmlData\{fact=')


def discover_pages() -> list[Page]:
    """Every ``page`` object defined by a module of kreport.pages, by slug."""
    import kreport.pages as pages_package

    found = []
    for info in pkgutil.iter_modules(pages_package.__path__):
        if info.name.startswith("_"):  # a page's private helpers, imported by the page
            continue
        module = importlib.import_module(f"kreport.pages.{info.name}")
        page = getattr(module, "page", None)
        if isinstance(page, Page):
            found.append(page)
    slugs = [page.slug for page in found]
    if len(set(slugs)) != len(slugs):
        raise ValueError(f"two pages share a slug: {sorted(slugs)}")
    return sorted(found, key=lambda page: page.slug)


# ---------------------------------------------------------------- manifests


def _round_for_json(value):
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, Bound):
        return value.as_json()
    if isinstance(value, list):
        return [_round_for_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _round_for_json(item) for key, item in value.items()}
    return value


def manifest(page: Page, result: PageResult) -> dict:
    return {
        "page": page.slug,
        "title": page.title,
        "module": page.module,
        "template": page.template,
        "rebuild": REBUILD_COMMAND,
        "facts": [
            {"key": f"{section}.{name}", "value": _round_for_json(value),
             "source": result.sources[section]}
            | ({"machine_specific": True} if section in page.machine_specific else {})
            for section, values in result.facts.items()
            for name, value in values.items()
        ],
        "claims": [{"section": c.section, "sentence": c.sentence} for c in result.claims],
        "figures": sorted(result.figures),
    }


def manifest_bytes(page: Page, result: PageResult) -> bytes:
    return (json.dumps(manifest(page, result), indent=1, ensure_ascii=False) + "\n").encode()


# ---------------------------------------------------------------- rendering


def render_markdown(page: Page, result: PageResult) -> str:
    environment = make_environment(page.template_path.parent)
    specs = {spec.name: spec for spec in page.figures}

    def figure(name: str) -> str:
        spec = specs[name]
        return f"![{spec.alt}](figures/{spec.filename(page.slug)})"

    def provenance() -> str:
        facts = sum(len(values) for values in result.facts.values())
        claims = len(result.claims)
        listing = "\n".join(f"    1. {claim.sentence}" for claim in result.claims)
        return (
            '??? info "How these numbers were made"\n'
            f"    Every number on this page was computed by `{page.module}` "
            f"({format_number(facts)} facts, {format_number(claims)} asserted claims, "
            f"{format_number(len(result.figures))} figures) and printed through the template "
            f"`{page.template}`. Hover a number to see its key and the function that "
            f"produced it; the full manifest is [data/{page.slug}.json](data/{page.slug}.json). "
            f"Rebuild with `{REBUILD_COMMAND}`; `make test` fails if anything here moves.\n"
            + (f"\n    The build checks each of these sentences against the data:\n\n{listing}\n"
               if claims else "")
        )

    context = dict(fact_views(result.facts, result.sources))
    context.update(figure=figure, provenance=provenance, title=page.title)
    return environment.get_template(page.template).render(context)


# ---------------------------------------------------------------- caching


def _result_to_cache(result: PageResult) -> str:
    return json.dumps({
        "facts": _encode(result.facts),
        "sources": result.sources,
        "claims": [[c.section, c.sentence] for c in result.claims],
        "figures": {name: base64.b64encode(data).decode() for name, data in result.figures.items()},
    })


def _encode(value):
    if isinstance(value, Bound):
        return {"__bound__": value.exponent}
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {key: _encode(item) for key, item in value.items()}
    return value


def _decode(value):
    if isinstance(value, dict):
        if set(value) == {"__bound__"}:
            return Bound(value["__bound__"])
        return {key: _decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return value


def _result_from_cache(slug: str, text: str) -> PageResult:
    stored = json.loads(text)
    return PageResult(
        slug=slug,
        facts=_decode(stored["facts"]),
        sources=stored["sources"],
        claims=[Claim(section=s, sentence=t) for s, t in stored["claims"]],
        figures={name: base64.b64decode(data) for name, data in stored["figures"].items()},
    )


def compute_page(page: Page, use_cache: bool = True) -> tuple[PageResult, bool]:
    """The page's results and whether they came from the cache."""
    key = cache.cache_key(page.module, [page.template_path, *page.extra_inputs])
    stored = CACHE_DIR / page.slug / f"{key}.json"
    if use_cache and stored.exists():
        return _result_from_cache(page.slug, stored.read_text()), True
    result = page.compute()
    if use_cache:
        stored.parent.mkdir(parents=True, exist_ok=True)
        for old in stored.parent.glob("*.json"):
            old.unlink()
        stored.write_text(_result_to_cache(result))
    return result, False


# ---------------------------------------------------------------- the build


@dataclass
class PageOutputs:
    """The files one page writes, relative to docs/."""

    files: dict[str, bytes]
    result: PageResult
    numbers: int
    claims: int
    figures: int
    cached: bool
    seconds: float


def page_outputs(page: Page, use_cache: bool = True) -> PageOutputs:
    started = time.perf_counter()
    result, cached = compute_page(page, use_cache)
    markdown = render_markdown(page, result)
    files = {f"{page.slug}.md": markdown.encode(),
             f"data/{page.slug}.json": manifest_bytes(page, result)}
    files.update({f"figures/{name}": data for name, data in result.figures.items()})
    return PageOutputs(
        files=files,
        result=result,
        numbers=len(PRINTED_NUMBER.findall(markdown)),
        claims=len(result.claims),
        figures=len(result.figures),
        cached=cached,
        seconds=time.perf_counter() - started,
    )


def write_files(files: dict[str, bytes], docs: Path) -> None:
    for relative, data in files.items():
        target = docs / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)


def build_site(docs: Path = DOCS, use_cache: bool = True, echo=print) -> dict[str, bytes]:
    """Regenerate every page (and notebook) into ``docs``; return what was written."""
    from .notebooks import build_notebooks

    started = time.perf_counter()
    written: dict[str, bytes] = {}
    totals = {"numbers": 0, "claims": 0, "figures": 0}
    pages = discover_pages()
    for page in pages:
        outputs = page_outputs(page, use_cache)
        write_files(outputs.files, docs)
        written.update(outputs.files)
        for name in totals:
            totals[name] += getattr(outputs, name)
        origin = "cached" if outputs.cached else "computed"
        echo(f"  {page.slug:<22} {outputs.numbers:5d} numbers {outputs.claims:4d} claims "
             f"{outputs.figures:3d} figures  {origin} in {outputs.seconds:.1f} s")
    notebook_files = build_notebooks(docs, use_cache=use_cache, echo=echo)
    written.update(notebook_files)
    _remove_stale_figures(docs, written)
    echo(f"built {len(pages)} pages and {len(notebook_files)} notebooks: {totals['numbers']} "
         f"numbers, {totals['claims']} claims, {totals['figures']} figures in "
         f"{time.perf_counter() - started:.1f} s")
    return written


def _remove_stale_figures(docs: Path, written: dict[str, bytes]) -> None:
    # A figure a page no longer draws must not linger on the published site.
    for path in (docs / "figures").glob("*"):
        if f"figures/{path.name}" not in written:
            path.unlink()
