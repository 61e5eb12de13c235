"""Playgrounds: controls a reader moves over a grid of settings the page computed.

A page declares a :class:`Playground` beside its figures. Its function returns
the grid as a tree of plain values: for every setting (a combination of the
controls' options), the arrays a chart draws and the numbers it shows as text
(:class:`Shown`, formatted by the site's formatter, never by the page) and
short phrases (:class:`Phrase`). The build writes the grid as
``data/<slug>-<name>.json``, locks it like the page's facts and figures, checks
it on perturbed fixtures like them, and compiles the page's chart
specification (Vega-Lite, written with Altair) for the browser.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .facts import DEFAULT_RTOL, Bound, plain


@dataclass(frozen=True)
class Shown:
    """A number a playground shows as text: the value and how the site's
    formatter (:func:`~kreport.report.numbers.format_number`) prints it.

    The build formats it (page modules never format text); the stability
    check asks that it prints the same on perturbed fixtures with the margin
    a printed fact gets, and the regression lock compares the value at
    ``rtol`` (declare a coarser one for an ill-conditioned quantity).
    """

    value: float | int | Bound
    sig: int | None = None
    dec: int | None = None
    words: bool = False
    sci: bool | None = None
    shortest: bool = False
    rtol: float = DEFAULT_RTOL

    def options(self) -> dict:
        return {"sig": self.sig, "dec": self.dec, "words": self.words, "sci": self.sci,
                "shortest": self.shortest}

    def text(self) -> str:
        from .numbers import format_number

        return format_number(self.value, **self.options())


def shown(value, *, sig: int | None = None, dec: int | None = None, words: bool = False,
          sci: bool | None = None, shortest: bool = False, rtol: float = DEFAULT_RTOL) -> Shown:
    """A number for a playground to show (see :class:`Shown`); numpy scalars are unwrapped."""
    if not isinstance(value, Bound):
        value = plain(value)
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise TypeError(f"shown() takes a number or a bound, not {value!r}")
    if not DEFAULT_RTOL <= rtol < 1:
        raise ValueError(f"shown(): rtol must lie between {DEFAULT_RTOL:g} and 1, not {rtol!r}")
    return Shown(value, sig=sig, dec=dec, words=words, sci=sci, shortest=shortest, rtol=rtol)


#: A shown number keeps only digits whose unit is at least this many times the
#: estimated rounding error (the stability check's margin of ten, and ten more
#: for an estimate that may be a few times too small).
DIGIT_ROOM = 100.0


def shown_within(value, error: float, *, sig: int = 3, **options) -> Shown | None:
    """``value`` shown to at most ``sig`` significant digits, and to fewer where
    ``error`` (an estimate of how far rounding on another machine could move it,
    in its own units) comes within :data:`DIGIT_ROOM` of the last digit's unit;
    None where not even one digit is determined. The lock tolerance follows.

    The estimate must be a smooth function of well-determined quantities (a
    condition number times the machine's ε, say), so that the number of digits
    it picks is the same on every machine.
    """
    value = plain(value)
    magnitude = abs(float(value))
    if magnitude == 0.0:
        return shown(value, sig=sig, **options) if error == 0.0 else None
    exponent = math.floor(math.log10(magnitude))
    for digits in range(sig, 0, -1):
        if 10.0 ** (exponent - digits + 1) >= DIGIT_ROOM * error:
            rtol = min(0.5, max(DEFAULT_RTOL, DIGIT_ROOM * error / magnitude))
            return shown(value, sig=digits, rtol=rtol, **options)
    return None


@dataclass(frozen=True)
class Phrase:
    """Words with numbers in them, for a playground: ``template`` with ``{name}``
    placeholders, each a :class:`Shown` number or a string."""

    template: str
    values: tuple[tuple[str, Shown | str], ...] = ()

    def text(self) -> str:
        return self.template.format(**{name: value.text() if isinstance(value, Shown) else value
                                       for name, value in self.values})


def phrase(template: str, **values) -> Phrase:
    """A :class:`Phrase`; every placeholder of ``template`` must be given, and nothing else."""
    import string

    names = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
    if sorted(names) != sorted(values):
        raise TypeError(f"phrase {template!r} names {sorted(names)} but was given {sorted(values)}")
    for name, value in values.items():
        if not isinstance(value, Shown | str):
            raise TypeError(f"phrase value {name}={value!r} must be shown(...) or a string")
    return Phrase(template, tuple((name, values[name]) for name in names))


#: The kinds of control a playground offers: one of a few named options (radio
#: buttons), a step along an ordered grid (a slider), an on/off switch that picks
#: other settings, and an on/off switch that adds to what is drawn.
CONTROL_KINDS = ("choice", "range", "switch", "overlay")


@dataclass(frozen=True)
class Control:
    """One control of a playground.

    ``options`` are the values the control takes (strings for a choice, numbers
    for a range, ``(False, True)`` for the switches); ``labels`` what the reader
    reads for each: words for a choice, :class:`Shown` numbers for a range.
    ``describe`` is how a screen reader hears a range's value (``"γ = {}"``).
    A control that is part of the settings' keys (every kind but ``overlay``)
    may be ``None`` in a key, meaning it does not apply to that setting.
    """

    name: str
    label: str
    kind: str
    options: tuple = ()
    labels: tuple = ()
    describe: str = "{}"
    help: str = ""

    def __post_init__(self):
        if self.kind not in CONTROL_KINDS:
            raise ValueError(f"control {self.name!r}: kind must be one of {CONTROL_KINDS}")
        if self.kind in ("switch", "overlay"):
            object.__setattr__(self, "options", (False, True))
            object.__setattr__(self, "labels", ("off", "on"))
        elif len(self.options) != len(self.labels):
            raise ValueError(f"control {self.name!r}: one label per option")

    @property
    def keyed(self) -> bool:
        return self.kind != "overlay"


def option_code(value) -> str:
    """The text that names an option in a setting's key and in the page's URL:
    a choice's value, a number in at most three significant digits, off/on."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, str):
        return value
    return f"{float(value):.3g}"


def setting_key(controls: Sequence[Control], values: dict) -> str:
    """A setting's key: the codes of its keyed controls' values, joined by ``/``."""
    return "/".join(option_code(values.get(c.name)) for c in controls if c.keyed)


@dataclass
class Grid:
    """What a playground function returns: every setting a reader can reach.

    * ``controls`` in the order they are shown;
    * ``settings``: setting key (:func:`setting_key`) -> what that setting shows,
      a dict with ``"data"`` (chart data set -> column -> values: a float array
      is drawn, and locked at the playground's tolerance; strings and ints are
      labels) and ``"values"`` (name -> :class:`Shown` or :class:`Phrase` or
      string, for the text templates), optionally ``"notes"`` (names of notes
      in ``text``) and ``"signals"`` (chart signal -> string), and, for an
      overlay control, ``"overlay": {name: {"data": …, "values": …}}``;
    * ``shared``: ``"control=value"`` -> content of the same shape, merged into
      every setting whose control has that value (the rows of a data set);
    * ``text``: the templates the page reads the values through:
      ``{"caption": "…{name}…", "stats": [[label, "…{name}…"], …],
      "notes": {name: "…"}}``; a stat whose values a setting lacks is left out;
    * ``default`` the setting shown first (and by the reset button), and
      ``presets``: name -> setting, for links from the page's sections.
    """

    controls: list[Control]
    settings: dict[str, dict]
    default: dict
    text: dict
    shared: dict[str, dict] = field(default_factory=dict)
    presets: dict[str, dict] = field(default_factory=dict)

    def _codes(self, values: dict) -> dict:
        """A setting's code for every control (an overlay not named is off)."""
        return {c.name: option_code(bool(values.get(c.name)) if c.kind == "overlay"
                                    else values.get(c.name)) for c in self.controls}

    def tree(self) -> dict:
        """The grid as plain data (arrays, Shown, Phrase, strings, numbers)."""
        known = {c.name for c in self.controls}
        for name, values in [("default", self.default), *self.presets.items()]:
            unknown = set(values) - known
            if unknown:
                raise ValueError(f"playground {name} names unknown controls {sorted(unknown)}")
            if setting_key(self.controls, values) not in self.settings:
                raise ValueError(f"playground {name} {values} is not one of its settings")
        for control in self.controls:
            codes = [option_code(v) for v in control.options]
            if len(set(codes)) != len(codes):
                raise ValueError(f"control {control.name!r}: two options share a code {codes}")
        return {
            "controls": [{"name": c.name, "label": c.label, "kind": c.kind, "help": c.help,
                          "describe": c.describe,
                          "options": [{"code": option_code(v), "value": v, "label": label}
                                      for v, label in zip(c.options, c.labels, strict=True)]}
                         for c in self.controls],
            "default": self._codes(self.default),
            "presets": {name: self._codes(values) for name, values in self.presets.items()},
            "text": self.text,
            "shared": self.shared,
            "settings": self.settings,
        }


@dataclass
class Playground:
    """A playground of a page: its name, the function that computes its grid
    (returns a :class:`Grid`), the charts that draw it and the tolerance its
    drawn arrays are locked, compared and checked at.

    ``charts`` returns chart name -> a Vega-Lite specification (an Altair chart
    or its dict) whose named data sets the grid's ``"data"`` fills; the build
    compiles each to Vega. ``title`` names the playground for the reader.
    Drawn arrays are written rounded to a fraction of ``rtol`` of their
    largest value (what a chart can show), so the data file stays small.
    """

    name: str
    function: Callable
    charts: Callable
    title: str
    rtol: float = 1e-3

    def filename(self, slug: str) -> str:
        return f"{slug}-{self.name}.json"
