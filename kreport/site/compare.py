"""The one rule for "the committed file is what the code produces now".

``make docs`` keeps a committed file's bytes when the fresh one is equivalent
by this rule, and the drift test fails exactly when it is not, so ``make docs``
leaves ``git status`` clean exactly where ``make test`` passes. The rule, by
kind of file:

* **markdown pages** (``.md``) and anything not listed below: byte for byte.
  Every printed digit is significant on every machine (the stability check
  sees to that), so a page's text has no reason to vary.
* **manifests** (``data/*.json``): by value. Every field equal, except that a
  number may differ by its declared relative tolerance (``rtol`` in the entry,
  else the manifest's ``default_rtol``).
* **playground data files** (``data/*.json`` whose ``format`` names a
  playground): by value. The same keys, texts and whole numbers; a drawn
  column (``{"s", "q"}``, values ``q × s / steps``) may move by the file's
  ``rtol`` times its largest value (the writer rounds a column to steps of
  half that, so last-bit noise can move a value by one step and no more);
  any other number by the default relative tolerance of facts.
* **SVG figures**: structurally. The same elements, attributes and text in the
  same order; numbers inside attributes and text (coordinates, path data,
  sizes) may differ by at most :data:`SVG_TOLERANCE_PX` user units (pixels),
  which is what last-bit noise in plotted data does to them.
* **executed notebooks** (``.ipynb``): the same cells, sources, metadata and
  outputs; SVG images inside outputs compared as SVG figures, everything else
  (text outputs, which print rounded values) exactly.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ElementTree

from kreport.report.facts import DEFAULT_RTOL

#: How far (in SVG user units, i.e. CSS pixels at 100 %) a drawn coordinate may
#: move between machines: a hundredth of a pixel, far below anything visible,
#: far above the sixth-decimal flips that last-bit noise produces.
SVG_TOLERANCE_PX = 0.01

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def differences(relative: str, committed: bytes, fresh: bytes) -> list[str]:
    """What differs between a committed file and a fresh one, by the rule above;
    an empty list means the committed bytes stand."""
    if committed == fresh:
        return []
    if relative.endswith(".svg"):
        return svg_differences(committed, fresh)
    if relative.startswith("data/") and relative.endswith(".json"):
        if _is_playground(fresh) or _is_playground(committed):
            return playground_differences(committed, fresh)
        return manifest_differences(committed, fresh)
    if relative.endswith(".ipynb"):
        return notebook_differences(committed, fresh)
    return [_first_text_difference(committed, fresh)]


def _first_text_difference(committed: bytes, fresh: bytes) -> str:
    import difflib

    old = committed.decode(errors="replace").splitlines()
    new = fresh.decode(errors="replace").splitlines()
    diff = list(difflib.unified_diff(old, new, "committed", "fresh", n=0, lineterm=""))
    return "\n".join(diff[:14]) if diff else "the files differ in bytes only (line endings?)"


# ---------------------------------------------------------------- manifests


def _numbers_close(a, b, rtol: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or (isinstance(a, int) and isinstance(b, int)):
        return a == b
    return math.isclose(a, b, rel_tol=rtol, abs_tol=0.0)


def _values_differ(a, b, rtol: float, where: str) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return [f"{where}: keys {sorted(set(a) ^ set(b))} appear on one side only"]
        return [p for key in a for p in _values_differ(a[key], b[key], rtol, f"{where}.{key}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} entries became {len(b)}"]
        return [p for i, (x, y) in enumerate(zip(a, b, strict=True))
                for p in _values_differ(x, y, rtol, f"{where}[{i}]")]
    numeric = (int, float)
    if isinstance(a, numeric) and isinstance(b, numeric) and not isinstance(a, bool) \
            and not isinstance(b, bool):
        return [] if _numbers_close(a, b, rtol) else [f"{where}: {a!r} became {b!r}"]
    return [] if a == b else [f"{where}: {a!r} became {b!r}"]


def manifest_differences(committed: bytes, fresh: bytes) -> list[str]:
    old, new = json.loads(committed), json.loads(fresh)
    default = new.get("default_rtol", 0.0)
    old_facts = {fact["key"]: fact for fact in old.pop("facts", [])}
    new_facts = {fact["key"]: fact for fact in new.pop("facts", [])}
    problems = _values_differ(old, new, 0.0, "manifest")
    for key in sorted(set(old_facts) | set(new_facts)):
        if key not in old_facts or key not in new_facts:
            problems.append(f"fact {key} {'appeared' if key in new_facts else 'disappeared'}")
            continue
        before, after = dict(old_facts[key]), dict(new_facts[key])
        rtol = after.get("rtol", default)
        problems += _values_differ(before.pop("value"), after.pop("value"), rtol, key)
        problems += _values_differ(before, after, 0.0, key)
    return problems


# ---------------------------------------------------------------- playgrounds

PLAYGROUND_FORMAT_PREFIX = b'{"format":"kreport playground'


def _is_playground(data: bytes) -> bool:
    return data.startswith(PLAYGROUND_FORMAT_PREFIX)


def _drawn_column(value) -> bool:
    return isinstance(value, dict) and set(value) == {"s", "q"}


def _playground_values_differ(a, b, where: str, rtol: float, steps: int,
                              problems: list[str], limit: int) -> None:
    if len(problems) >= limit:
        return
    if _drawn_column(a) and _drawn_column(b):
        if len(a["q"]) != len(b["q"]):
            problems.append(f"{where}: {len(a['q'])} values became {len(b['q'])}")
            return
        scale = max(abs(float(a["s"])), abs(float(b["s"])))
        old = [q * float(a["s"]) / steps for q in a["q"]]
        new = [q * float(b["s"]) / steps for q in b["q"]]
        moved = max((abs(x - y) for x, y in zip(old, new, strict=True)), default=0.0)
        if moved > rtol * scale * (1 + 1e-9):
            problems.append(f"{where}: a drawn value moved by {moved:.3g}, more than the "
                            f"tolerance {rtol:g} of its largest value {scale:.4g}")
        return
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            problems.append(f"{where}: keys {sorted(set(a) ^ set(b))[:6]} appear on one side only")
            return
        for key in a:
            _playground_values_differ(a[key], b[key], f"{where}.{key}", rtol, steps, problems,
                                      limit)
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            problems.append(f"{where}: {len(a)} entries became {len(b)}")
            return
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            _playground_values_differ(x, y, f"{where}[{index}]", rtol, steps, problems, limit)
        return
    problems += _values_differ(a, b, DEFAULT_RTOL, where)


def playground_differences(committed: bytes, fresh: bytes, limit: int = 10) -> list[str]:
    """Differences between two data files of a playground, by the rule above."""
    old, new = json.loads(committed), json.loads(fresh)
    if old.get("rtol") != new.get("rtol") or old.get("steps") != new.get("steps"):
        return [f"the drawing tolerance changed ({old.get('rtol')} → {new.get('rtol')})"]
    problems: list[str] = []
    _playground_values_differ(old, new, "playground", float(new["rtol"]), int(new["steps"]),
                              problems, limit)
    return problems


# ---------------------------------------------------------------- SVG


def _text_differs(a: str | None, b: str | None, tolerance: float) -> bool:
    a, b = (a or "").strip(), (b or "").strip()
    if a == b:
        return False
    if NUMBER.sub("#", a) != NUMBER.sub("#", b):
        return True  # different words, or a different count of numbers
    return any(abs(float(x) - float(y)) > tolerance
               for x, y in zip(NUMBER.findall(a), NUMBER.findall(b), strict=True))


def _element_path(trail: list[str]) -> str:
    return "/".join(trail[-4:])


def svg_differences(committed: bytes, fresh: bytes, tolerance: float = SVG_TOLERANCE_PX,
                    limit: int = 10) -> list[str]:
    """Structural differences between two SVG documents (empty when equivalent)."""
    try:
        old, new = ElementTree.fromstring(committed), ElementTree.fromstring(fresh)
    except ElementTree.ParseError as error:
        return [f"not a well-formed SVG: {error}"]
    problems: list[str] = []

    def walk(a, b, trail):
        if len(problems) >= limit:
            return
        label = a.get("id") or a.tag.rpartition("}")[2]
        trail = [*trail, label]
        if a.tag != b.tag:
            problems.append(f"{_element_path(trail)}: element {a.tag} became {b.tag}")
            return
        if set(a.attrib) != set(b.attrib):
            problems.append(f"{_element_path(trail)}: attributes "
                            f"{sorted(set(a.attrib) ^ set(b.attrib))} differ")
        for name in sorted(set(a.attrib) & set(b.attrib)):
            if _text_differs(a.attrib[name], b.attrib[name], tolerance):
                problems.append(f"{_element_path(trail)}@{name}: moved by more than "
                                f"{tolerance} px or changed ({a.attrib[name][:60]!r} → "
                                f"{b.attrib[name][:60]!r})")
        if _text_differs(a.text, b.text, tolerance) or _text_differs(a.tail, b.tail, tolerance):
            problems.append(f"{_element_path(trail)}: text changed")
        children_a, children_b = list(a), list(b)
        if len(children_a) != len(children_b):
            problems.append(f"{_element_path(trail)}: {len(children_a)} children became "
                            f"{len(children_b)}")
            return
        for x, y in zip(children_a, children_b, strict=True):
            walk(x, y, trail)

    walk(old, new, [])
    return problems


# ---------------------------------------------------------------- notebooks


def notebook_differences(committed: bytes, fresh: bytes) -> list[str]:
    old, new = json.loads(committed), json.loads(fresh)
    problems = []
    if old.get("metadata") != new.get("metadata"):
        problems.append("notebook metadata changed")
    old_cells, new_cells = old.get("cells", []), new.get("cells", [])
    if len(old_cells) != len(new_cells):
        return [*problems, f"{len(old_cells)} cells became {len(new_cells)}"]
    for index, (a, b) in enumerate(zip(old_cells, new_cells, strict=True)):
        where = f"cell {index}"
        for field in ("cell_type", "source", "metadata", "execution_count"):
            if a.get(field) != b.get(field):
                problems.append(f"{where}: {field} changed")
        outputs_a, outputs_b = a.get("outputs", []), b.get("outputs", [])
        if len(outputs_a) != len(outputs_b):
            problems.append(f"{where}: {len(outputs_a)} outputs became {len(outputs_b)}")
            continue
        for number, (x, y) in enumerate(zip(outputs_a, outputs_b, strict=True)):
            problems += _output_differences(x, y, f"{where}, output {number}")
    return problems


def _joined(text) -> str:
    return "".join(text) if isinstance(text, list) else (text or "")


def _output_differences(a: dict, b: dict, where: str) -> list[str]:
    problems = []
    for field in ("output_type", "name", "metadata", "execution_count"):
        if a.get(field) != b.get(field):
            problems.append(f"{where}: {field} changed")
    if _joined(a.get("text")) != _joined(b.get("text")):
        problems.append(f"{where}: printed text changed:\n"
                        + _first_text_difference(_joined(a.get("text")).encode(),
                                                 _joined(b.get("text")).encode()))
    data_a, data_b = a.get("data", {}), b.get("data", {})
    if set(data_a) != set(data_b):
        problems.append(f"{where}: output kinds {sorted(set(data_a) ^ set(data_b))} differ")
    for kind in sorted(set(data_a) & set(data_b)):
        x, y = _joined(data_a[kind]), _joined(data_b[kind])
        if kind == "image/svg+xml":
            problems += [f"{where}: {p}" for p in svg_differences(x.encode(), y.encode())]
        elif x != y:
            problems.append(f"{where}: {kind} changed")
    return problems
