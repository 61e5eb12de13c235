"""A number printed as a bound must be one the value keeps.

"at least 0.999" printed from 0.9986 (rounded to the nearest) is a false
sentence built from a true number. After a page renders, every fact printed
straight after a bound's words ("at least", "more than", "below", …) is read
back from its text and compared with the value behind it; a bound the value
breaks stops the build, naming the fact, and the fix is to print it with
``| num(…, toward="down")`` (or ``"up"`` for an upper bound). A number
printed exactly is the limit itself (a claim's "below 10⁻¹⁰") and passes.
"""

from __future__ import annotations

import operator
import re
from decimal import Decimal

from .facts import Bound
from .numbers import MINUS, SMALL_WORDS, TIMES

#: The words that make the number after them a bound, and what they promise
#: of the value against the printed number.
BOUND_WORDS = {
    "at least": operator.ge, "no less than": operator.ge,
    "more than": operator.gt, "greater than": operator.gt, "above": operator.gt,
    "exceeds": operator.gt, "exceed": operator.gt,
    "at most": operator.le, "no more than": operator.le,
    "less than": operator.lt, "fewer than": operator.lt, "below": operator.lt,
    "under": operator.lt,
}
_WORDS = "|".join(sorted((re.escape(w) for w in BOUND_WORDS), key=len, reverse=True))
PRINTED_BOUND = re.compile(
    rf"\b({_WORDS})\s+<span class=\"fact[^\"]*\" data-fact=\"([^\"]+)\"[^>]*>([^<]*)</span>",
    re.IGNORECASE)
_FROM_SUPERSCRIPTS = {ord(sup): plain for plain, sup in
                      zip("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻", strict=True)}


def printed_value(text: str) -> Decimal | None:
    """The number a formatted text says (``"2.7 × 10⁻¹⁸"``, ``"1,234"``, ``"three"``),
    or None when the text is not one number."""
    text = text.strip().replace(MINUS, "-").replace(",", "")
    if text in SMALL_WORDS:
        return Decimal(SMALL_WORDS.index(text))
    mantissa, times, power = text.partition(f" {TIMES} ")
    if not times and text.startswith(("10", "-10")) and not text.lstrip("-").isdigit():
        mantissa, power = text[:-len(text.lstrip("-"))] + "1", text.lstrip("-")
    try:
        value = Decimal(mantissa)
        if power:
            if not power.startswith("10"):
                return None
            value = value.scaleb(int(power[2:].translate(_FROM_SUPERSCRIPTS)))
    except (ArithmeticError, ValueError):
        return None
    return value


def broken_bounds(markdown: str, values: dict) -> list[str]:
    """Each printed bound that the value behind it does not keep, as a sentence."""
    problems = []
    for match in PRINTED_BOUND.finditer(markdown):
        words, key, text = match.group(1).lower(), match.group(2), match.group(3)
        value = values.get(key)
        if value is None or isinstance(value, Bound | bool) \
                or not isinstance(value, int | float):
            continue
        printed = printed_value(text)
        exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
        # Printed exactly, the number is the limit a claim holds something to
        # ("below 10⁻¹⁰"), or a value the sentence states in full; only a
        # rounded number can have been rounded the wrong way.
        if printed is None or printed == exact:
            continue
        if not BOUND_WORDS[words](exact, printed):
            direction = "down" if BOUND_WORDS[words] in (operator.ge, operator.gt) else "up"
            problems.append(
                f'"{words} {text}" prints {key} = {value!r}, which is not {words} {text}: '
                f'print it with | num(…, toward="{direction}") or change the words')
    return problems
