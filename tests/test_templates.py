"""No digit is typed into a page's prose: every number on a page comes from a fact.

The check strips what is not prose (Jinja expressions and statements, math,
code, headings, HTML tags and link targets) from each template and fails on
any digit left, naming the line. Digits inside math are structure (the
``n - 1`` of a formula), not measurements.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGES = Path(__file__).resolve().parents[1] / "kreport" / "pages"
NOT_PROSE = [
    re.compile(r"\{\{.*?\}\}", re.S),  # printed facts
    re.compile(r"\{%.*?%\}", re.S),  # template statements
    re.compile(r"\{#.*?#\}", re.S),  # template comments
    re.compile(r"^```.*?^```", re.S | re.M),  # code blocks
    re.compile(r"\$\$.*?\$\$", re.S),  # display math
    re.compile(r"\$[^$\n]+\$"),  # inline math
    re.compile(r"`[^`\n]+`"),  # code spans
    re.compile(r"^#+ .*$", re.M),  # headings
    re.compile(r"^\s*\d+\. ", re.M),  # numbered-list markers
    re.compile(r"<[^>\n]+>"),  # HTML tags
    re.compile(r"\]\([^)\n]*\)"),  # link targets
]


def prose_digits(text: str) -> list[str]:
    for pattern in NOT_PROSE:
        text = pattern.sub(lambda match: "\n" * match.group(0).count("\n"), text)
    return [f"line {number}: {line.strip()}" for number, line in enumerate(text.splitlines(), 1)
            if re.search(r"\d", line)]


@pytest.mark.parametrize("template", sorted(PAGES.glob("*.j2")), ids=lambda path: path.name)
def test_no_digit_is_typed_into_prose(template):
    found = prose_digits(template.read_text(encoding="utf-8"))
    assert not found, f"{template.name} types numbers into its prose:\n" + "\n".join(found)


def test_the_check_itself_catches_a_typed_number():
    assert prose_digits("The gap is 0.634 wide.") == ["line 1: The gap is 0.634 wide."]
    assert prose_digits("The gap is {{ ring.gap | num(3) }} and $n-1$ counts.") == []
