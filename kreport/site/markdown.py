"""A page's markdown (its template rendered from its facts), its manifest and
its playgrounds' data files."""

from __future__ import annotations

import html
import json
import math
import re
import string
import traceback
from pathlib import Path

import jinja2
import numpy as np

from kreport.report.facts import DEFAULT_RTOL, Bound
from kreport.report.numbers import format_number, power_of_ten
from kreport.report.page import Page, PageResult
from kreport.report.playground import Phrase, Playground, Shown
from kreport.report.printed_bounds import broken_bounds
from kreport.report.render import RenderLog, fact_span, fact_views, make_environment

from .citations import CitationError, cite
from .paths import REPOSITORY
from .results import exact_reason, flat_facts, flatten, tolerance_of

REBUILD_COMMAND = "make docs"
#: The repository's bibliography, where a caller hands in none.
BIBLIOGRAPHY = REPOSITORY / "docs" / "references.bib"


class PageError(ValueError):
    """A page's template and its module disagree (a figure used twice or never)."""


#: The opening line of every page's audit block. Its class ``kr-checks`` hides it
#: in reading mode, the default; the header's "show the checks" switch reveals
#: it with the ticks and the numbers' provenance styling (docs/javascripts/reader.js).
PROVENANCE_OPENING = '??? info kr-checks "How these numbers were made"'


#: The space a template leaves before a tick. It is dropped (the style sheet
#: spaces a shown tick) so that reading mode, which hides the ticks, leaves no
#: stray space before the punctuation that follows.
SPACE_BEFORE_TICK = re.compile(r'(?<=\S)(?:[ \t]+|[ \t]*\n[ \t]*)(?=<a class="claim-mark")')
#: An unchecked() note is invisible; the space before it must not stand before punctuation.
SPACE_BEFORE_NOTE = re.compile(r"(?<=\S)[ \t]+(<!-- unchecked: [^>]*-->)(?=[.,;:)])")


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


def _unknown_fact(page: Page, error: Exception, result: PageResult) -> str:
    """Jinja's bare UndefinedError, with the template line and the facts that exist."""
    line = next((frame.lineno for frame in traceback.extract_tb(error.__traceback__)
                 if frame.filename.endswith(page.template)), None)
    where = f"{page.template}, line {line}" if line else page.template
    sections = ", ".join(f"{name} ({', '.join(sorted(facts)[:8])}"
                         f"{', …' if len(facts) > 8 else ''})"
                         for name, facts in result.facts.items())
    return (f"{where}: {error}. The template can reach the sections of {page.module} by "
            f"name: {sections}")


def render_markdown(page: Page, result: PageResult, log: RenderLog | None = None,
                    bibliography: Path = BIBLIOGRAPHY) -> str:
    """The page's markdown. ``log`` collects every number the template printed;
    its citations become footnotes from ``bibliography`` (:mod:`.citations`)."""
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
                f'<figcaption markdown="span">{caption}</figcaption>\n</figure>\n')

    def provenance() -> str:
        # The foot of the template: every number the page prints is in the log by now.
        prints_numbers = printed_numbers(log) > 0
        return _provenance(page, result, prints_numbers)

    grounds = {spec.name: spec for spec in page.playgrounds}
    grounds_placed: list[str] = []

    def _ground(name: str) -> Playground:
        if name not in grounds:
            raise PageError(f"{page.template} names playground {name!r}, which {page.module} "
                            f"does not declare; it declares {sorted(grounds)}")
        return grounds[name]

    def playground(name: str, caller=None) -> str:
        """The playground's box: its title, the template's words on what to try,
        and the button that starts it (the script loads it only then)."""
        spec = _ground(name)
        if name in grounds_placed:
            raise PageError(f"{page.template} places playground {name!r} twice")
        grounds_placed.append(name)
        words = (caller() if caller is not None else "").strip()
        if not words:
            raise PageError(f"playground {name!r} of {page.slug} needs words on what to try: "
                            "{% call playground(...) %}…{% endcall %}")
        return playground_markup(page, spec, words)

    def _settings(name: str, wanted: list[str]) -> list[dict]:
        """The settings of the named presets of a playground; an unknown one is refused."""
        known = result.playgrounds.get(name, {}).get("presets", {})
        unknown = [preset for preset in wanted if preset not in known]
        if unknown or not wanted:
            raise PageError(f"{page.template} names presets {unknown or wanted!r} of "
                            f"playground {name!r}; its presets are {sorted(known)}")
        return [known[preset] for preset in wanted]

    def try_setting(name: str, preset: str, words: str) -> str:
        """A link that opens the playground at one of its presets (a raw link: the
        fragment names a setting, not a heading)."""
        spec = _ground(name)
        setting, = _settings(name, [preset])
        return (f'<a class="kr-try" href="#{playground_fragment(spec, setting)}">'
                f"{html.escape(words, quote=False)}</a>")

    def views(name: str, presets: list[str], chart: str, caller=None) -> str:
        """Settings of a playground drawn where the sentence that rests on them stands:
        one small chart per setting, drawn by the script (from the playground's data
        file, when the reader scrolls near), each with a link that opens it in the
        playground. The template's words are the caption."""
        spec = _ground(name)
        settings = _settings(name, presets)
        charts = spec.charts()
        if chart not in charts:
            raise PageError(f"{page.template} draws chart {chart!r} of playground {name!r}; "
                            f"its charts are {sorted(charts)}")
        caption = (caller() if caller is not None else "").strip()
        if not caption:
            raise PageError(f"views of {name!r} on {page.slug} need a caption: "
                            "{% call views(...) %}…{% endcall %}")
        return setting_views_markup(page, spec, settings, chart, caption)

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

    def rounding() -> str:
        """The page's one statement of what "zero to rounding" means (``num(zero=True)``);
        its power of ten is filled in after the render, from the largest such bound."""
        return ROUNDING_MARKER

    context = dict(fact_views(result.facts, result.sources))
    environment.globals.update(figure=figure, provenance=provenance, title=page.title,
                               checked=checked, unchecked=unchecked, playground=playground,
                               try_setting=try_setting, views=views, rounding=rounding)
    try:
        text = environment.get_template(page.template).render(context)
    except jinja2.UndefinedError as error:
        raise PageError(_unknown_fact(page, error, result)) from None
    text = _state_rounding(page, text, log.zero_exponents)
    text = SPACE_BEFORE_TICK.sub("", text)
    text = SPACE_BEFORE_NOTE.sub(r"\1", text)
    broken = broken_bounds(text, log.values)
    if broken:
        raise PageError(f"{page.template}: a number printed as a bound that its value "
                        "breaks:\n  " + "\n  ".join(broken))
    # The redirect goes straight after the title line: mkdocs takes a page's
    # title from a first-line heading, and before it the title was lost.
    title, newline, body = text.partition("\n")
    if title.startswith("# "):
        text = title + newline + moved_anchors_script(page) + body
    else:
        text = moved_anchors_script(page) + text
    unplaced = [name for name in specs if name not in placed]
    if unplaced:
        raise PageError(f"{page.module} draws {unplaced} but {page.template} never places them")
    unplaced = [name for name in grounds if name not in grounds_placed]
    if unplaced:
        raise PageError(f"{page.module} declares playgrounds {unplaced} but {page.template} "
                        "never places them")
    try:
        text = cite(text, bibliography, page.template)
    except CitationError as error:
        raise PageError(str(error)) from None
    return front_matter(page) + text


#: Where ``rounding()`` stands until the page's largest "zero to rounding" bound is known.
ROUNDING_MARKER = "\x00kreport-rounding\x00"


def _state_rounding(page: Page, text: str, exponents: list[int]) -> str:
    """Put the page's statement of "zero to rounding" where the template asked for it:
    once, and only on a page that prints the phrase."""
    placed = text.count(ROUNDING_MARKER)
    if exponents and placed != 1:
        raise PageError(f"{page.template} prints {len(exponents)} bounds as zero to rounding "
                        "(num(zero=True)), so it must say once what that means: place "
                        f"{{{{ rounding() }}}} once (it is placed {placed} times)")
    if placed and not exponents:
        raise PageError(f"{page.template} places rounding() but prints nothing as zero to "
                        "rounding: remove it")
    if not placed:
        return text
    floor = fact_span("build.rounding_floor", "the largest bound this page prints as zero "
                      "to rounding", power_of_ten(max(exponents)))
    statement = (f"*Zero to rounding* here means smaller in size than {floor}, in the "
                 "quantity's own units: what floating point leaves where the exact answer "
                 "is zero.")
    return text.replace(ROUNDING_MARKER, statement)


def front_matter(page: Page) -> str:
    """The page's summary as its meta description: search results and link previews
    then show what this page teaches, not the site's one line. JSON's quoting is
    valid YAML, so a colon or quote in the summary cannot break the header."""
    if not page.summary:
        return ""
    return f"---\ndescription: {json.dumps(page.summary, ensure_ascii=False)}\n---\n\n"


#: How the moved-anchors script opens: the checks on typed digits leave it out
#: (it is the build's own markup, and a moved anchor may hold a digit).
MOVED_ANCHORS_OPENING = "<script>(function () { var moved = "


def moved_anchors_script(page: Page) -> str:
    """For a page that was split: a script, first on the page so it runs before
    anything is drawn, that sends a link to a moved section on to its new page.

    A target is a page's slug (the anchor keeps its name) or ``slug#new-anchor``.
    A fragment that only starts with a moved anchor and a colon (a playground's
    setting, ``playground:data=ring,…``) goes to the same page with the whole
    fragment kept. ``location.replace`` keeps the stub out of the history, so
    Back returns to where the reader came from.
    """
    if not page.moved_anchors:
        return ""
    targets = {}
    for anchor, target in sorted(page.moved_anchors.items()):
        slug, _, renamed = target.partition("#")
        targets[anchor] = f"../{slug}/#{renamed or anchor}"
    return (MOVED_ANCHORS_OPENING + json.dumps(targets, sort_keys=True)
            + '; var anchor = decodeURIComponent(location.hash.slice(1));'
            ' var head = anchor.split(":")[0];'
            ' var has = function (key) {'
            ' return Object.prototype.hasOwnProperty.call(moved, key); };'
            ' if (has(anchor)) location.replace(moved[anchor]);'
            ' else if (head !== anchor && has(head))'
            ' location.replace(moved[head].split("#")[0] + "#" + location.hash.slice(1));'
            ' })();</script>\n\n')


def _count(key: str, value: int, what: str) -> str:
    """A count and its noun, singular for one ("1 figure", not "1 figures")."""
    noun = what.removesuffix("s") if value == 1 else what
    return fact_span(f"build.{key}", "counted by the build", format_number(value)) + f" {noun}"


def printed_numbers(log: RenderLog) -> int:
    """How many numbers the template printed (through ``num`` or ``| tex``)."""
    return sum(1 for printed in log.printed if printed.filter in ("num", "tex"))


def _provenance(page: Page, result: PageResult, prints_numbers: bool = True) -> str:
    facts = len(flat_facts(result))
    claims = result.claims
    manifest = f"[data/{page.slug}.json](data/{page.slug}.json)"
    if prints_numbers:
        opening = "Every number on this page was computed by"
        trace = (f"Hover or focus a number to see its key and the function that produced it; "
                 f"the full manifest is {manifest}.")
    else:
        opening = "This page prints no number; its facts were computed by"
        trace = f"They are all in its manifest, {manifest}."
    if page.machine_specific:
        timed = ", ".join(f"`{section}`" for section in page.machine_specific)
        locked = (f"`make test` fails if anything here moves, except the timing study's "
                  f"numbers (the facts under {timed}), which `make timings` measures on one "
                  f"machine and the regression lock leaves out.")
    else:
        locked = "`make test` fails if anything here moves."
    lines = [
        PROVENANCE_OPENING,
        f"    {opening} `{page.module}` "
        f"({_count('facts', facts, 'facts')}, {_count('claims', len(claims), 'asserted claims')},"
        f" {_count('figures', len(result.figure_sketches), 'figures')}) and printed through the "
        f"template `{page.template}`. {trace} Rebuild with `{REBUILD_COMMAND}`; {locked}",
    ]
    reasons: dict[str, list[str]] = {}
    for key, reason in result.exact.items():
        reasons.setdefault(reason, []).append(key)
    for reason, keys in reasons.items():
        listed = ", ".join(f"`{key}`" for key in sorted(keys))
        lines += ["", f"    Exact, so printed the same on every machine, because {reason}: "
                      f"{listed}."]
    if claims:
        lines += ["", "    The build checks each of these sentences against the data:", ""]
        for index, claim in enumerate(claims):
            anchor = f' id="{claim_anchor(claim.ref)}"' if claim.ref else ""
            lines.append(f"    1. <span class=\"claim\"{anchor}>{_claim_html(index, claim)}</span>")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the manifest


def _round_for_json(value):
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, Bound):
        return value.as_json()
    return value


def manifest(page: Page, result: PageResult) -> dict:
    """Every fact with its key, value, tolerance and source; claims; figures."""
    facts = []
    for section, values in result.facts.items():
        for key, value in flatten(values, section, {}).items():
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


# ---------------------------------------------------------------- playgrounds

#: What a playground's data file says of itself (and how the drift rule knows it).
PLAYGROUND_FORMAT = "kreport playground, version 1"


def playground_id(spec: Playground) -> str:
    return f"playground-{spec.name}" if spec.name != "playground" else "playground"


def playground_fragment(spec: Playground, setting: dict) -> str:
    """``playground:data=ring,kernel=rbf,gamma=0.005``: a setting in the page's URL."""
    return playground_id(spec) + ":" + ",".join(f"{name}={code}"
                                                 for name, code in setting.items())


def playground_markup(page: Page, spec: Playground, words: str) -> str:
    """The playground's box in the page. Everything in it that names a number is
    built by the script from the data file; the page itself holds words only."""
    ident = playground_id(spec)
    source = f"data/{spec.filename(page.slug)}"
    return (
        f'<section class="kr-playground" id="{ident}" data-kr-playground="{source}" '
        f'aria-labelledby="{ident}-title" markdown="1">\n'
        f'<p class="kr-playground__title" id="{ident}-title">{html.escape(spec.title)}</p>\n'
        f'<div class="kr-playground__intro" markdown="block">\n{words}\n</div>\n'
        f'<p class="kr-playground__start"><button type="button" class="md-button '
        f'md-button--primary kr-playground__button" data-kr-start>Start the playground'
        f"</button></p>\n"
        # Raw HTML is not rewritten by mkdocs: the page is served from <slug>/, so
        # the data folder is one level up.
        f'<noscript><p>The playground needs JavaScript; its data are in '
        f'<a href="../{source}">its data file</a>.</p></noscript>\n'
        f"</section>\n"
    )


def setting_views_markup(page: Page, spec: Playground, settings: list[dict], chart: str,
                         caption: str) -> str:
    """A row of settings of a playground, drawn in place (docs/javascripts/playground.js).
    The space for each chart is held before it is drawn, so nothing below it moves."""
    source = f"data/{spec.filename(page.slug)}"
    cells = "".join(
        f'<div class="kr-view" data-kr-setting="{playground_fragment(spec, setting)}">'
        f'<div class="kr-view__chart"></div>'
        f'<p class="kr-view__setting"></p>'
        f'<a class="kr-try kr-view__open" href="#{playground_fragment(spec, setting)}">'
        f"Open this setting in the playground</a></div>\n"
        for setting in settings)
    return (f'<figure class="kr-views" data-kr-views="{source}" data-kr-chart="{chart}" '
            f'markdown="1">\n<div class="kr-views__row">\n{cells}</div>\n'
            f'<figcaption markdown="span">{caption}</figcaption>\n</figure>\n')


def playground_steps(rtol: float) -> int:
    """Steps a drawn column is rounded to over its largest value: the rounding moves
    a value by at most half a step, well inside the tolerance ``rtol``."""
    return math.ceil(2 / rtol)


def quantized(values, rtol: float) -> dict:
    """A drawn column as ``{"s": scale, "q": [whole numbers]}``, values ``q × s / steps``."""
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or not np.all(np.isfinite(array)):
        raise ValueError("a playground draws one-dimensional columns of finite numbers")
    largest = float(np.max(np.abs(array))) if array.size else 0.0
    if largest == 0.0:
        return {"s": 0, "q": [0] * array.size}
    scale = float(f"{largest:.4g}")
    steps = playground_steps(rtol)
    return {"s": scale, "q": np.rint(array / scale * steps).astype(int).tolist()}


def dequantized(column: dict, steps: int) -> np.ndarray:
    return np.asarray(column["q"], dtype=float) * float(column["s"]) / steps


def _playground_value(value, rtol: float):
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f":
            return quantized(value, rtol)
        return [_playground_value(item, rtol) for item in value.tolist()]
    if isinstance(value, Shown | Phrase):
        return value.text()
    if isinstance(value, Bound):
        return format_number(value)
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, dict):
        return {str(key): _playground_value(item, rtol) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_playground_value(item, rtol) for item in value]
    return value


def playground_document(page: Page, spec: Playground, tree: dict, charts: dict) -> dict:
    """The data file of one playground: what it is, its charts (Vega), its controls
    and every setting's data and text, formatted by the site's formatter."""
    return {
        "format": PLAYGROUND_FORMAT,
        "playground": spec.name,
        "page": page.slug,
        "title": spec.title,
        "module": page.module,
        "source": f"{spec.function.__module__}.{spec.function.__qualname__}",
        "rebuild": REBUILD_COMMAND,
        "rtol": spec.rtol,
        "steps": playground_steps(spec.rtol),
        "encoding": "a drawn column is {\"s\": s, \"q\": [q, …]}; its values are q × s / steps",
        "charts": charts,
        **_playground_value(tree, spec.rtol),
    }


def playground_bytes(page: Page, spec: Playground, tree: dict, charts: dict) -> bytes:
    document = playground_document(page, spec, tree, charts)
    return (json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


#: A string value "@signal:NAME" in a chart's Vega-Lite (or a list holding only
#: that string) becomes a reference to the Vega signal NAME, which the page's
#: script sets from the setting shown: Vega-Lite writes axis titles, and a
#: scale's domain and colours, as fixed values only.
SIGNAL_MARK = "@signal:"


def _signals(value):
    if isinstance(value, str) and value.startswith(SIGNAL_MARK):
        return {"signal": value[len(SIGNAL_MARK):]}
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str) \
            and value[0].startswith(SIGNAL_MARK):
        return {"signal": value[0][len(SIGNAL_MARK):]}
    if isinstance(value, dict) and set(value) == {"value"} and isinstance(value["value"], str) \
            and value["value"].startswith(SIGNAL_MARK):
        return {"signal": value["value"][len(SIGNAL_MARK):]}  # an encoding's fixed value
    if isinstance(value, dict):
        return {key: _signals(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_signals(item) for item in value]
    return value


#: The Vega-Lite the charts are written in (the version vl-convert compiles).
VEGA_LITE_VERSION = "6.4"


def compile_charts(spec: Playground) -> dict:
    """Each chart of the playground, its Vega-Lite compiled to Vega (vl-convert)."""
    import vl_convert

    compiled = {}
    for name, chart in spec.charts().items():
        lite = chart.to_dict() if hasattr(chart, "to_dict") else chart
        vega = vl_convert.vegalite_to_vega(lite, vl_version=VEGA_LITE_VERSION)
        vega.pop("background", None)  # the page's, in either colour scheme
        compiled[name] = _signals(vega)
    return compiled

