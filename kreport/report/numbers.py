"""The one number formatter every page uses.

Rules, chosen once for the whole site:

* a true minus sign (U+2212), never a hyphen;
* thousands separated by commas (``134,449.5``);
* numbers with magnitude below 10⁻³ (and not zero), or at or above 10⁶, in
  powers of ten written as ``2.7 × 10⁻¹⁸``;
* ints printed whole (``words`` spells those up to twenty); floats, even
  whole ones, to a stated number of significant digits (``sig``, default 3)
  or decimals (``dec``), never both, so a float prints the same on a machine
  where it comes out a last bit away from whole;
* a :class:`~kreport.report.facts.Bound` prints as "below 10⁻¹²": rounding
  noise is stated as the limit it was asserted to lie under, never as digits.

The same rules render inside TeX math with :func:`format_tex`.
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal

from .facts import Bound

MINUS = "\u2212"
TIMES = "\u00d7"
SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
SMALL_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen twenty"
).split()

#: How a printed number is rounded: to the nearest (the default), or outwards
#: for a bound, so that "at least 0.998" is never 0.9976 rounded up.
ROUNDING = {None: ROUND_HALF_EVEN, "down": ROUND_FLOOR, "up": ROUND_CEILING}

SCIENTIFIC_BELOW = 1e-3
SCIENTIFIC_FROM = 1e6


class NumberFormatError(ValueError):
    """A value that cannot be printed as a number (NaN, infinite, not numeric)."""


def _check_number(value) -> float | int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        try:
            value = float(value)
        except (TypeError, ValueError) as error:
            raise NumberFormatError(f"cannot print {value!r} as a number") from error
    if isinstance(value, float) and not math.isfinite(value):
        raise NumberFormatError(
            f"refusing to print {value!r}: a page never shows NaN or infinity; "
            "the page module should have caught it"
        )
    return value


def _group_thousands(integer_digits: str) -> str:
    groups = []
    while len(integer_digits) > 3:
        groups.insert(0, integer_digits[-3:])
        integer_digits = integer_digits[:-3]
    groups.insert(0, integer_digits)
    return ",".join(groups)


def _rounding(toward: str | None) -> str:
    if toward not in ROUNDING:
        raise NumberFormatError(f"toward={toward!r}: round towards 'down', 'up' or nothing "
                                "(to the nearest)")
    return ROUNDING[toward]


def _round_decimal(value: float, *, sig: int | None, dec: int | None,
                   toward: str | None = None) -> Decimal:
    # Decimal from repr keeps the shortest round-tripping digits, so 0.0354 is
    # rounded as 0.0354 and not as its binary neighbour.
    exact = Decimal(repr(float(value)))
    if dec is not None:
        quantum = Decimal(1).scaleb(-dec)
    else:
        if exact == 0:
            return Decimal(0)
        exponent = exact.adjusted() - (sig - 1)
        quantum = Decimal(1).scaleb(exponent)
    return exact.quantize(quantum, rounding=_rounding(toward))


def _plain(value: float, *, sig: int | None, dec: int | None, toward: str | None = None) -> str:
    rounded = _round_decimal(value, sig=sig, dec=dec, toward=toward)
    if rounded == 0:
        rounded = abs(rounded)
    text = format(rounded, "f")
    negative = text.startswith("-")
    text = text.lstrip("-")
    integer_part, _, fraction = text.partition(".")
    body = _group_thousands(integer_part) + (f".{fraction}" if fraction else "")
    return (MINUS if negative else "") + body


def _wants_scientific(value: float) -> bool:
    magnitude = abs(value)
    return magnitude != 0 and (magnitude < SCIENTIFIC_BELOW or magnitude >= SCIENTIFIC_FROM)


def power_of_ten(exponent: int) -> str:
    """``10⁻¹²`` for ``-12``."""
    return "10" + str(exponent).translate(SUPERSCRIPTS)


def _parts(value, sig, dec, words, sci, toward=None) -> tuple[str, str | None]:
    """(digits, exponent): the number as text in the site's style, and the power
    of ten it multiplies (None when written out in full)."""
    if sig is not None and dec is not None:
        raise NumberFormatError("give sig or dec, not both")
    value = _check_number(value)
    # Only an int prints whole without a precision: a float that happens to be
    # whole here may be 64.00000000000004 on another machine, and must print
    # the same there, so it gets significant digits like any float.
    whole = isinstance(value, int) and abs(value) < SCIENTIFIC_FROM
    if whole and sig is None and dec is None:
        if words and 0 <= value <= 20:
            return SMALL_WORDS[int(value)], None
        return (MINUS if value < 0 else "") + _group_thousands(str(abs(int(value)))), None
    if sig is None and dec is None:
        sig = 3
    scientific = _wants_scientific(value) if sci is None else (sci and value != 0)
    if not scientific:
        return _plain(value, sig=sig, dec=dec, toward=toward), None
    rounded = _round_decimal(value, sig=sig if sig is not None else dec + 1, dec=None,
                             toward=toward)
    exponent = rounded.adjusted()
    # Already rounded the way asked, so the mantissa's own rounding changes nothing.
    mantissa = _plain(float(rounded.scaleb(-exponent)), sig=sig or dec + 1, dec=None)
    return mantissa, exponent


def shortest_digits(value) -> int:
    """How many significant digits the shortest exact decimal form of ``value`` has
    (``0.05`` → 1, ``2.5e-9`` → 2): for printing a constant typed in code as typed."""
    digits = Decimal(repr(float(_check_number(value)))).normalize().as_tuple().digits
    return max(1, len(digits))


def format_number(value, sig: int | None = None, dec: int | None = None, words: bool = False,
                  sci: bool | None = None, shortest: bool = False,
                  toward: str | None = None) -> str:
    """Format one number by the site's rules (see the module docstring).

    ``sig`` significant digits (default 3 for floats) or ``dec`` decimals; ``words``
    spells whole numbers up to twenty; ``sci`` forces (True) or forbids (False)
    powers of ten; ``shortest`` prints a float with just the digits of its
    shortest decimal form (for thresholds and settings typed in code);
    ``toward`` rounds "down" or "up" instead of to the nearest, for a number
    printed as a bound ("at least …", "below …").
    """
    if isinstance(value, Bound):
        return f"below {power_of_ten(value.exponent)}"
    if shortest and sig is None and dec is None and isinstance(value, float):
        if value.is_integer() and abs(value) < SCIENTIFIC_FROM:
            value = int(value)  # a setting typed in code as 170.0 prints as typed, 170
        else:
            sig = shortest_digits(value)
    mantissa, exponent = _parts(value, sig, dec, words, sci, toward)
    if exponent is None:
        return mantissa
    if mantissa.lstrip(MINUS) == "1":
        return mantissa.replace("1", "") + power_of_ten(exponent)
    return f"{mantissa} {TIMES} {power_of_ten(exponent)}"


def format_tex(value, sig: int | None = None, dec: int | None = None,
               sci: bool | None = None, toward: str | None = None) -> str:
    """The same number as :func:`format_number`, written for TeX math."""
    if isinstance(value, Bound):
        return rf"\text{{below }}10^{{{value.exponent}}}"
    mantissa, exponent = _parts(value, sig, dec, False, sci, toward)
    mantissa = mantissa.replace(MINUS, "-").replace(",", "{,}")
    if exponent is None:
        return mantissa
    if mantissa.lstrip("-") == "1":
        return mantissa.replace("1", "") + f"10^{{{exponent}}}"
    return rf"{mantissa} \times 10^{{{exponent}}}"
