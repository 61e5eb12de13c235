"""Facts, bounds and claims: what a page module hands to its template.

A page module is a list of section functions. Each returns a flat dict of
named values (numbers, short strings, small tables as lists of rows). The
builder files them under ``<section>.<name>`` keys, which are the keys printed
numbers carry in the HTML and the keys the regression files lock.

Two kinds of value need more than a number:

* **rounding noise** (an identity that holds to 10⁻¹⁵, say) is not printed as
  digits that vary between machines but as a :class:`Bound`, made by
  :func:`bound`, which asserts the value lies below the stated power of ten;
* **claims**: a sentence the prose states as a relation is registered with
  :func:`claim` together with the boolean that supports it. A false claim
  stops the build with the sentence in the message.
"""

from __future__ import annotations

import contextvars
import math
from dataclasses import dataclass

import numpy as np


class ClaimFailed(AssertionError):
    """The data no longer support a sentence the page states."""


@dataclass(frozen=True)
class Bound:
    """A quantity known only to lie below ``10**exponent`` in magnitude."""

    exponent: int

    @property
    def limit(self) -> float:
        return 10.0**self.exponent

    def as_json(self) -> dict:
        return {"below": f"1e{self.exponent}"}


@dataclass(frozen=True)
class Claim:
    sentence: str
    section: str


_claims: contextvars.ContextVar[list[Claim] | None] = contextvars.ContextVar(
    "kreport_claims", default=None
)
_section: contextvars.ContextVar[str] = contextvars.ContextVar("kreport_section", default="?")


def claim(sentence: str, holds) -> None:
    """Record that the page states ``sentence``, and check that ``holds`` is true.

    ``holds`` is the relation computed from the data (a bool or numpy bool). The
    build fails with :class:`ClaimFailed` quoting the sentence when it is false.
    """
    truth = bool(np.all(holds))
    if not truth:
        raise ClaimFailed(
            f"section {_section.get()!r} says: \u201c{sentence}\u201d, "
            "but the data no longer support it"
        )
    collector = _claims.get()
    if collector is not None:
        collector.append(Claim(sentence=sentence, section=_section.get()))


def bound(value, exponent: int) -> Bound:
    """Assert that every entry of ``value`` is below ``10**exponent`` in magnitude.

    Use it for quantities that are rounding noise: the printed and locked fact
    is the bound, which is the same on every machine, not the noise itself.
    """
    largest = float(np.max(np.abs(np.asarray(value, dtype=float))))
    if not math.isfinite(largest) or largest >= 10.0**exponent:
        raise ClaimFailed(
            f"section {_section.get()!r}: a quantity stated to be below 1e{exponent} "
            f"measured {largest:.3g}"
        )
    return Bound(exponent)


def plain(value):
    """Convert numpy scalars and arrays (recursively) to Python values."""
    if isinstance(value, Bound | str | bool | None):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating | float):
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(
                f"section {_section.get()!r} produced {number}: a page never shows "
                "NaN or infinity"
            )
        return number
    if isinstance(value, int):
        return value
    if isinstance(value, np.ndarray):
        return [plain(item) for item in value.tolist()]
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    raise TypeError(
        f"section {_section.get()!r} returned a {type(value).__name__}; facts are "
        "numbers, strings, bounds, lists and dicts"
    )


class collecting:
    """Context manager that sets the current section and gathers its claims."""

    def __init__(self, section: str, claims: list[Claim]):
        self.section = section
        self.claims = claims

    def __enter__(self):
        self._tokens = (_section.set(self.section), _claims.set(self.claims))
        return self

    def __exit__(self, *exc):
        section_token, claims_token = self._tokens
        _section.reset(section_token)
        _claims.reset(claims_token)
        return False
