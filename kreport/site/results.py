"""A page's results as plain data: flattened facts, and the cache's JSON form."""

from __future__ import annotations

import base64
import math

import numpy as np

from kreport.report.facts import DEFAULT_RTOL, Bound, Claim, Failure
from kreport.report.page import PageResult
from kreport.report.playground import Phrase, Shown


def flatten(value, key: str, into: dict) -> dict:
    """Every leaf of a fact under its full key: ``section.name[2].field``."""
    if isinstance(value, dict):
        for name, item in value.items():
            flatten(item, f"{key}.{name}", into)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            flatten(item, f"{key}[{index}]", into)
    else:
        into[key] = value
    return into


def flat_facts(result: PageResult, skip_sections=()) -> dict:
    """Every fact leaf of a page, keyed as templates and manifests name them."""
    leaves: dict = {}
    for section, facts in result.facts.items():
        if section not in skip_sections:
            flatten(facts, section, leaves)
    return leaves


def is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def tolerance_of(result: PageResult, key: str) -> float:
    """The relative tolerance a fact is locked and compared at: the one its
    section declared with ``within`` for it or for a table containing it."""
    while key:
        if key in result.rtol:
            return result.rtol[key]
        key = key.rpartition("[")[0] if key.endswith("]") else key.rpartition(".")[0]
    return DEFAULT_RTOL


def exact_reason(result: PageResult, key: str) -> str | None:
    """Why a fact (or the table containing it) is exact, if its section said so."""
    while key:
        if key in result.exact:
            return result.exact[key]
        key = key.rpartition("[")[0] if key.endswith("]") else key.rpartition(".")[0]
    return None


# ---------------------------------------------------------------- cache form


def _encode(value):
    if isinstance(value, Shown):
        return {"__shown__": _encode(value.value), "options": value.options(),
                "rtol": value.rtol}
    if isinstance(value, Phrase):
        return {"__phrase__": value.template,
                "values": [[name, _encode(item)] for name, item in value.values]}
    if isinstance(value, Bound):
        return {"__bound__": value.exponent, "measured": value.measured}
    if isinstance(value, np.ndarray):
        return {"__array__": [None if not math.isfinite(v) else v
                              for v in value.ravel().tolist()], "shape": list(value.shape)}
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {key: _encode(item) for key, item in value.items()}
    return value


def _decode(value):
    if isinstance(value, dict):
        if "__shown__" in value:
            return Shown(_decode(value["__shown__"]), **value["options"], rtol=value["rtol"])
        if "__phrase__" in value:
            return Phrase(value["__phrase__"],
                          tuple((name, _decode(item)) for name, item in value["values"]))
        if "__bound__" in value:
            return Bound(value["__bound__"], measured=value["measured"])
        if "__array__" in value:
            flat = np.array([np.nan if v is None else v for v in value["__array__"]], dtype=float)
            return flat.reshape(value["shape"])
        return {key: _decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return value


def result_to_json(result: PageResult) -> dict:
    return {
        "slug": result.slug,
        "facts": _encode(result.facts),
        "sources": result.sources,
        "claims": [{"template": c.template, "section": c.section, "values": list(c.values),
                    "exact_reason": c.exact_reason, "id": c.id} for c in result.claims],
        "figures": {name: base64.b64encode(data).decode() for name, data in
                    result.figures.items()},
        "figure_data": _encode(result.figure_data),
        "figure_sketches": _encode(result.figure_sketches),
        "playgrounds": _encode(result.playgrounds),
        "exact": result.exact,
        "rtol": result.rtol,
        "failures": [[failure.section, failure.message] for failure in result.failures],
    }


def result_from_json(stored: dict) -> PageResult:
    return PageResult(
        slug=stored["slug"],
        facts=_decode(stored["facts"]),
        sources=stored["sources"],
        claims=[Claim(template=c["template"], section=c["section"],
                      values=tuple((name, value) for name, value in c["values"]),
                      exact_reason=c["exact_reason"], id=c["id"]) for c in stored["claims"]],
        figures={name: base64.b64decode(data) for name, data in stored["figures"].items()},
        figure_data=_decode(stored["figure_data"]),
        figure_sketches=_decode(stored["figure_sketches"]),
        playgrounds=_decode(stored.get("playgrounds", {})),
        exact=stored["exact"],
        rtol=stored["rtol"],
        failures=[Failure(section, message) for section, message in stored.get("failures", [])],
    )
