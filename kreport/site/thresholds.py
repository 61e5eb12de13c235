"""A claim's threshold is written once: the build refuses one typed twice.

``claim("gap under {limit}", gap < 0.01, limit=0.01)`` prints the keyword and
checks the literal; edit one and the page says what the code no longer tests.
Written once, the check takes the keyword by name::

    claim("gap under {limit}", lambda limit: gap < limit, limit=0.01)

This module finds the first form in the page packages' sources and in the
notebooks' code cells, by reading their syntax trees (nothing is imported or
run). A keyword's value counts as repeated when the same number, or the same
named constant, appears in the check outside a subscript (``shares[1]`` is an
index, not a threshold).
"""

from __future__ import annotations

import ast
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from .cache import parsed

#: claim() keywords that are not values printed in the sentence.
NOT_VALUES = frozenset({"id", "exact"})


@dataclass(frozen=True)
class Repeated:
    """One keyword of one claim whose value the check types again."""

    where: str  # file:line
    keyword: str
    value: str  # as written in the source

    def message(self) -> str:
        return (f"{self.where}: the claim types {self.value} twice, as {self.keyword}= and in "
                f"its check; write it once: pass the check as `lambda {self.keyword}: …` and "
                f"use {self.keyword} in it")


def _is_claim(node: ast.Call) -> bool:
    name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
    return name == "claim" and len(node.args) >= 2


def _number(node: ast.AST):
    """The number a literal spells (``-1e-12`` included), else None."""
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node, sign = node.operand, -1
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) \
            and not isinstance(node.value, bool):
        return sign * node.value
    return None


def _value_nodes(expression: ast.AST):
    """Numbers (with their sign) and names in ``expression``, skipping indices."""
    skipped = {id(part) for node in ast.walk(expression) if isinstance(node, ast.Subscript)
               for part in ast.walk(node.slice)}
    for node in ast.walk(expression):
        if id(node) in skipped:
            continue
        if _number(node) is not None or isinstance(node, ast.Name | ast.Attribute):
            yield node


def _same(place: ast.AST, value: ast.AST) -> bool:
    number = _number(value)
    if number is None:  # a named constant
        return isinstance(place, ast.Name | ast.Attribute) \
            and ast.unparse(place) == ast.unparse(value)
    # a negative threshold matches the negated literal; a positive one the bare one
    signed = isinstance(place, ast.UnaryOp) == (number < 0)
    return signed and _number(place) == number


def _repeatable(value: ast.AST) -> bool:
    """A keyword value that is a typed number or a named constant (UPPER_CASE)."""
    if _number(value) is not None:
        return True
    if isinstance(value, ast.Name | ast.Attribute):
        last = value.id if isinstance(value, ast.Name) else value.attr
        return last.isupper()
    return False


def repeated_in(call: ast.Call) -> list[tuple[ast.keyword, list[ast.AST]]]:
    """Each keyword of ``call`` whose value reappears in the check, with where."""
    check = call.args[1]
    body = check.body if isinstance(check, ast.Lambda) else check
    found = []
    for keyword in call.keywords:
        if keyword.arg is None or keyword.arg in NOT_VALUES or not _repeatable(keyword.value):
            continue
        places = [node for node in _value_nodes(body) if _same(node, keyword.value)]
        if places:
            found.append((keyword, places))
    return found


def repeated_thresholds(source: str, filename: str) -> list[Repeated]:
    """Every claim in ``source`` that types a keyword's value again in its check."""
    tree = ast.parse(source, filename=filename)
    return [Repeated(f"{filename}:{node.lineno}", keyword.arg, ast.unparse(keyword.value))
            for node in ast.walk(tree) if isinstance(node, ast.Call) and _is_claim(node)
            for keyword, _ in repeated_in(node)]


def _notebook_cells(path: Path):
    """(label, code) for each code cell, IPython magics blanked so the code parses."""
    cells = json.loads(path.read_text())["cells"]
    for number, cell in enumerate(cells, start=1):
        if cell["cell_type"] != "code":
            continue
        lines = "".join(cell["source"]).splitlines()
        code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)
        yield f"{path.name} cell {number}", code


def _package_files(page) -> list[Path]:
    """The Python files of the package that defines ``page``."""
    module = sys.modules.get(page.module)
    if module is None or not getattr(module, "__file__", None):
        return []
    return sorted(Path(module.__file__).parent.glob("*.py"))


def scan_sources(pages, notebooks, root: Path) -> list[str]:
    """The build's problems: every threshold typed twice in a page's package or
    a notebook's code cells."""
    problems, seen = [], set()
    for path in (path for page in pages for path in _package_files(page)):
        if path in seen:
            continue
        seen.add(path)
        name = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
        problems += _problems(path.read_text(), name)
    for notebook in notebooks:
        for label, code in _notebook_cells(notebook.source):
            problems += _problems(code, label)
    return problems


def _problems(source: str, name: str) -> list[str]:
    return parsed("thresholds", source.encode(), name, Path(__file__), lambda: [
        item.message() for item in repeated_thresholds(source, name)])
