"""Facts, bounds and claims: what a page module hands to its template.

A page module is a list of section functions. Each returns a flat dict of
named values (numbers, short strings, small tables as lists of rows). The
builder files them under ``<section>.<name>`` keys, which are the keys printed
numbers carry in the HTML and the keys the regression files lock.

Some values need more than a number:

* **rounding noise** (an identity that holds to 10⁻¹⁵, say) is not printed as
  digits that vary between machines but as a :class:`Bound`, made by
  :func:`bound`, which asserts the value lies below the stated power of ten;
* **an exact fact of exact data** (the mean of whole numbers, a product of
  small integers) is wrapped by :func:`exact` with the reason it is exact on
  every IEEE machine; the stability check leaves it alone and the page says why;
* **a fact known only to a stated relative tolerance** (a condition number
  near 10⁹, an eigenvalue near the rounding floor) is wrapped by
  :func:`within`; it is locked, compared and stability-checked at that
  tolerance instead of the default :data:`DEFAULT_RTOL`;
* **claims**: a sentence the prose states as a relation is registered with
  :func:`claim` together with the boolean that supports it. A threshold the
  sentence names is passed once, as a keyword: the sentence prints it through
  the site's formatter and the check receives it by name
  (``claim("R² below {limit}", lambda limit: r2 < limit, limit=0.05)``), so the
  sentence cannot drift from the check. The build refuses a claim that types
  its threshold a second time in the check (:mod:`kreport.site.thresholds`).
  A false claim stops the build with the sentence in the message.

During the stability check (``kreport.site.stability``) the page runs on
fixtures perturbed at the rounding level; there, a failing claim or bound is
recorded instead of raised, and claims declared exact are not checked at all.
"""

from __future__ import annotations

import contextvars
import inspect
import math
import string
from dataclasses import dataclass, field

import numpy as np

#: The relative tolerance a number is locked, compared and stability-checked
#: at unless its section wraps it in :func:`within`.
DEFAULT_RTOL = 1e-7


class ClaimFailed(AssertionError):
    """The data no longer support a sentence the page states."""


@dataclass(frozen=True)
class Bound:
    """A quantity known only to lie below ``10**exponent`` in magnitude.

    ``measured`` is the magnitude that was asserted (kept for the stability
    check's headroom test); it is never printed, locked or compared.
    """

    exponent: int
    measured: float = field(default=0.0, compare=False, repr=False)

    @property
    def limit(self) -> float:
        return 10.0**self.exponent

    def as_json(self) -> dict:
        return {"below": f"1e{self.exponent}"}


@dataclass(frozen=True)
class Exact:
    """A value that is exact on every IEEE-754 machine, and why."""

    value: object
    reason: str


@dataclass(frozen=True)
class Within:
    """A value known only to a relative tolerance ``rtol``."""

    value: object
    rtol: float


@dataclass(frozen=True)
class Claim:
    """A sentence the page states, the values it names, and where it was made."""

    template: str
    section: str
    values: tuple[tuple[str, float], ...] = ()
    exact_reason: str | None = None
    #: A short name (unique in its section) by which a template marks the
    #: sentence that states this claim: ``{{ checked("section.id") }}``.
    id: str | None = None

    @property
    def ref(self) -> str | None:
        return f"{self.section}.{self.id}" if self.id else None

    @property
    def sentence(self) -> str:
        """The sentence as plain text, each named value printed by the site's rules."""
        from .numbers import format_number

        return self.template.format(**{name: format_number(value, shortest=True)
                                       for name, value in self.values})


@dataclass(frozen=True)
class Failure:
    """A claim or bound that did not hold on perturbed fixtures (stability check only)."""

    section: str
    message: str


_claims: contextvars.ContextVar[list[Claim] | None] = contextvars.ContextVar(
    "kreport_claims", default=None
)
_section: contextvars.ContextVar[str] = contextvars.ContextVar("kreport_section", default="?")
# Set only by the stability check: failures are recorded here instead of raised.
_failures: contextvars.ContextVar[list[Failure] | None] = contextvars.ContextVar(
    "kreport_failures", default=None
)


def _placeholders(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]


def claim(sentence: str, holds, *, id: str | None = None, exact: str | None = None,
          **values) -> None:
    """Record that the page states ``sentence``, and check that ``holds`` is true.

    ``holds`` is the relation computed from the data (a bool or numpy bool), or
    a function of some of the keyword values that returns it: every ``{name}``
    in the sentence is a keyword argument holding the number the check uses (a
    threshold, a count), printed by the site's formatter, and a check that
    uses a threshold takes it by name (``lambda limit: gap < limit``) instead
    of typing it again, so the sentence and the check cannot disagree. ``id`` names the
    claim so that the template can mark the sentence of the page that states
    it (``{{ checked("section.id") }}``). ``exact`` gives
    the reason a relation of floats holds exactly on every IEEE machine (for
    example "the heights are whole numbers"); such a claim is checked on the
    committed fixtures only, never on perturbed ones.

    The build fails with :class:`ClaimFailed` quoting the sentence when
    ``holds`` is false.
    """
    names = _placeholders(sentence)
    if sorted(names) != sorted(values):
        raise TypeError(
            f"claim {sentence!r} names {sorted(names)} but was given {sorted(values)}: "
            "pass each placeholder's value as a keyword, and nothing else"
        )
    if callable(holds):
        holds = _evaluate(sentence, holds, values)
    recorded = Claim(template=sentence, section=_section.get(),
                     values=tuple((name, _claim_value(name, values[name])) for name in names),
                     exact_reason=exact, id=id)
    failures = _failures.get()
    # Exact relations are checked on the committed data only; on perturbed
    # fixtures the claim is still recorded (the page lists it and may mark it).
    skip_check = failures is not None and exact is not None
    if not skip_check and not bool(np.all(holds)):
        message = (f"section {_section.get()!r} says: \u201c{recorded.sentence}\u201d, "
                   "but the data no longer support it")
        if failures is None:
            raise ClaimFailed(message)
        failures.append(Failure(_section.get(), message))
    collector = _claims.get()
    if collector is not None:
        if id is not None and any(c.ref == recorded.ref for c in collector):
            raise ValueError(f"two claims of section {recorded.section!r} have the id {id!r}")
        collector.append(recorded)


def _evaluate(sentence: str, check, values: dict):
    """Call a claim's check with the keyword values its parameters name."""
    wanted = list(inspect.signature(check).parameters)
    unknown = [name for name in wanted if name not in values]
    if unknown:
        raise TypeError(f"claim {sentence!r}: its check takes {unknown}, which are not among "
                        f"its keywords {sorted(values)}; name each parameter after a keyword")
    return check(**{name: values[name] for name in wanted})


def _claim_value(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"claim value {name}={value!r} is not a number")
    return value.item() if isinstance(value, np.generic) else value


def bound(value, exponent: int) -> Bound:
    """Assert that every entry of ``value`` is below ``10**exponent`` in magnitude.

    Use it for quantities that are rounding noise: the printed and locked fact
    is the bound, which is the same on every machine, not the noise itself.
    """
    largest = float(np.max(np.abs(np.asarray(value, dtype=float))))
    if not math.isfinite(largest) or largest >= 10.0**exponent:
        message = (f"section {_section.get()!r}: a quantity stated to be below 1e{exponent} "
                   f"measured {largest:.3g}")
        failures = _failures.get()
        if failures is None:
            raise ClaimFailed(message)
        failures.append(Failure(_section.get(), message))
    return Bound(exponent, measured=largest if math.isfinite(largest) else math.inf)


def exact(value, reason: str) -> Exact:
    """Mark ``value`` as exact on every IEEE machine, for ``reason``.

    Only for facts of exact data whose arithmetic is exact in floating point
    in any order (sums and products of small whole numbers, halvings): the
    stability check does not perturb them, and the page lists the reason.
    """
    if not reason.strip():
        raise ValueError("an exact fact needs the reason it is exact")
    return Exact(value, reason)


def within(value, rtol: float) -> Within:
    """Mark ``value`` as known only to relative tolerance ``rtol`` (> DEFAULT_RTOL)."""
    if not DEFAULT_RTOL < rtol < 1:
        raise ValueError(f"within(): rtol must lie between {DEFAULT_RTOL:g} and 1, not {rtol!r}")
    return Within(value, rtol)


@dataclass
class Annotations:
    """What :func:`plain` learned while unwrapping a section's values."""

    exact: dict[str, str] = field(default_factory=dict)  # key -> reason
    rtol: dict[str, float] = field(default_factory=dict)  # key -> tolerance


def plain(value, key: str = "", notes: Annotations | None = None):
    """Convert numpy scalars and arrays (recursively) to Python values.

    ``Exact`` and ``Within`` wrappers are removed; what they said is filed in
    ``notes`` under the fact's key (``section.name[2].field``).
    """
    if isinstance(value, Exact):
        if notes is not None:
            notes.exact[key] = value.reason
        return plain(value.value, key, notes)
    if isinstance(value, Within):
        if notes is not None:
            notes.rtol[key] = value.rtol
        return plain(value.value, key, notes)
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
                f"section {_section.get()!r} produced {number} for {key or 'a fact'}: a page "
                "never shows NaN or infinity"
            )
        return number
    if isinstance(value, int):
        return value
    if isinstance(value, np.ndarray):
        return [plain(item, f"{key}[{index}]", notes) for index, item in enumerate(value)]
    if isinstance(value, dict):
        return {str(name): plain(item, f"{key}.{name}", notes) for name, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item, f"{key}[{index}]", notes) for index, item in enumerate(value)]
    raise TypeError(
        f"section {_section.get()!r} returned a {type(value).__name__} for {key or 'a fact'}; "
        "facts are numbers, strings, bounds, lists and dicts"
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


class recording_failures:
    """Context manager for the stability check: claims and bounds that fail are
    appended to ``failures`` instead of stopping the build."""

    def __init__(self, failures: list[Failure]):
        self.failures = failures

    def __enter__(self):
        self._token = _failures.set(self.failures)
        return self

    def __exit__(self, *exc):
        _failures.reset(self._token)
        return False
