"""A page's markdown (its template rendered from its facts) and its manifest."""

from __future__ import annotations

import html
import json
import re
import string

from kreport.report.facts import DEFAULT_RTOL, Bound
from kreport.report.numbers import format_number
from kreport.report.page import Page, PageResult
from kreport.report.render import RenderLog, fact_span, fact_views, make_environment

from .results import exact_reason, tolerance_of

REBUILD_COMMAND = "make docs"


class PageError(ValueError):
    """A page's template and its module disagree (a figure used twice or never)."""


def claim_anchor(ref: str) -> str:
    return "claim-" + re.sub(r"[^A-Za-z0-9_-]", "-", ref)


def claim_mark(ref: str, sentence: str) -> str:
    return (f'<a class="claim-mark" href="#{claim_anchor(ref)}" '
            f'title="Checked by the build: {html.escape(sentence, quote=True)}" '
            f'aria-label="checked by the build">✓</a>')


def _claim_html(index: int, claim) -> str:
    values = dict(claim.values)
    parts = []
    for literal, name, _, _ in string.Formatter().parse(claim.template):
        parts.append(html.escape(literal, quote=False))
        if name is not None:
            text = format_number(values[name], shortest=True)
            parts.append(fact_span(f"claims[{index}].{name}", "the claim's own check", text))
    return "".join(parts)


def render_markdown(page: Page, result: PageResult, log: RenderLog | None = None) -> str:
    """The page's markdown. ``log`` collects every number the template printed."""
    log = log if log is not None else RenderLog()
    environment = make_environment(page.template_path.parent, log)
    specs = {spec.name: spec for spec in page.figures}
    placed: list[str] = []

    def figure(name: str, caller=None) -> str:
        if name not in specs:
            raise PageError(f"{page.template} places figure {name!r}, which "
                            f"{page.module} does not draw; it draws {sorted(specs)}")
        if name in placed:
            raise PageError(f"{page.template} places figure {name!r} twice")
        placed.append(name)
        spec = specs[name]
        caption = (caller() if caller is not None else html.escape(spec.caption)).strip()
        if not caption:
            raise PageError(f"figure {name!r} of {page.slug} has no caption: write one in the "
                            "template ({% call figure(...) %}…{% endcall %}) or in "
                            "Figure(caption=…)")
        # The site's hook (kreport.site.mkdocs_hooks) turns the image into the
        # narrow and wide variants in both schemes and a link to the full size;
        # the caption is numbered by the style sheet.
        return (f'<figure markdown="span" id="figure-{name}" class="kr-figure">\n'
                f"![{spec.alt}](figures/{spec.filename(page.slug)})\n"
                f'<figcaption markdown="span">{caption}</figcaption>\n</figure>')

    def provenance() -> str:
        return _provenance(page, result)

    claims = {claim.ref: claim for claim in result.claims if claim.ref}

    def checked(ref: str) -> str:
        """A mark after a sentence that a claim states: a link to the claim."""
        if ref not in claims:
            raise PageError(f"{page.template} marks a sentence as checked by claim {ref!r}, "
                            f"which {page.module} does not make; its claims with ids are "
                            f"{sorted(claims)}")
        return claim_mark(ref, claims[ref].sentence)

    def unchecked(reason: str) -> str:
        """Exempt a sentence from the comparison check, saying why no claim is needed."""
        if len(reason.split()) < 3:
            raise PageError(f"{page.template}: unchecked({reason!r}) needs a reason in words")
        return f"<!-- unchecked: {html.escape(reason)} -->"

    context = dict(fact_views(result.facts, result.sources))
    environment.globals.update(figure=figure, provenance=provenance, title=page.title,
                               checked=checked, unchecked=unchecked)
    text = environment.get_template(page.template).render(context)
    unplaced = [name for name in specs if name not in placed]
    if unplaced:
        raise PageError(f"{page.module} draws {unplaced} but {page.template} never places them")
    return text


def _count(key: str, value: int, what: str) -> str:
    return fact_span(f"build.{key}", "counted by the build", format_number(value)) + f" {what}"


def _provenance(page: Page, result: PageResult) -> str:
    facts = sum(1 for _ in _leaves(result.facts))
    claims = result.claims
    lines = [
        '??? info "How these numbers were made"',
        f"    Every number on this page was computed by `{page.module}` "
        f"({_count('facts', facts, 'facts')}, {_count('claims', len(claims), 'asserted claims')},"
        f" {_count('figures', len(result.figure_data), 'figures')}) and printed through the "
        f"template `{page.template}`. Hover or focus a number to see its key and the function "
        f"that produced it; the full manifest is [data/{page.slug}.json](data/{page.slug}.json). "
        f"Rebuild with `{REBUILD_COMMAND}`; `make test` fails if anything here moves.",
    ]
    reasons: dict[str, list[str]] = {}
    for key, reason in result.exact.items():
        reasons.setdefault(reason, []).append(key)
    for reason, keys in reasons.items():
        listed = ", ".join(f"`{key}`" for key in sorted(keys))
        lines += ["", f"    Exact on every machine, because {reason}: {listed}."]
    if claims:
        lines += ["", "    The build checks each of these sentences against the data:", ""]
        for index, claim in enumerate(claims):
            anchor = f' id="{claim_anchor(claim.ref)}"' if claim.ref else ""
            lines.append(f"    1. <span class=\"claim\"{anchor}>{_claim_html(index, claim)}</span>")
    return "\n".join(lines) + "\n"


def _leaves(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


# ---------------------------------------------------------------- the manifest


def _round_for_json(value):
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, Bound):
        return value.as_json()
    return value


def _entries(value, key: str):
    """(key, value) for every table leaf and for every non-table fact."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _entries(item, f"{key}.{name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _entries(item, f"{key}[{index}]")
    else:
        yield key, value


def manifest(page: Page, result: PageResult) -> dict:
    """Every fact with its key, value, tolerance and source; claims; figures."""
    facts = []
    for section, values in result.facts.items():
        for key, value in _entries(values, section):
            entry = {"key": key, "value": _round_for_json(value),
                     "source": result.sources[section]}
            rtol = tolerance_of(result, key)
            if rtol != DEFAULT_RTOL:
                entry["rtol"] = rtol
            reason = exact_reason(result, key)
            if reason:
                entry["exact"] = reason
            if section in page.machine_specific:
                entry["machine_specific"] = True
            facts.append(entry)
    return {
        "page": page.slug,
        "title": page.title,
        "module": page.module,
        "template": page.template,
        "rebuild": REBUILD_COMMAND,
        "default_rtol": DEFAULT_RTOL,
        "build": {"facts": len(facts), "claims": len(result.claims),
                  "figures": len(result.figure_data)},
        "facts": facts,
        "claims": [{"section": c.section, "sentence": c.sentence,
                    "values": {name: value for name, value in c.values}}
                   | ({"exact": c.exact_reason} if c.exact_reason else {})
                   for c in result.claims],
        "figures": [{"file": spec.filename(page.slug), "narrow": spec.filename(page.slug, "narrow"),
                     "alt": spec.alt, "rtol": spec.rtol} for spec in page.figures],
    }


def manifest_bytes(page: Page, result: PageResult) -> bytes:
    return (json.dumps(manifest(page, result), indent=1, ensure_ascii=False) + "\n").encode()
