"""Templates: prose with placeholders, rendered from a page's facts.

In a template every fact is reached by its section and name
(``{{ ring.gap | num(3) }}``) and can only be printed through a filter:

``num``   a number by the site's rules, wrapped in a span that carries the
          fact's key (``data-fact``) and names the function that computed it;
``tex``   the same number for use inside ``$…$`` math (KaTeX's ``\\htmlData``
          carries the key);
``text``  a short string the code produced (an error message, a kernel's repr).

Templates never compute and never guess. They run in Jinja's immutable
sandbox with no built-in filters, tests or globals beyond the site's own, and
a fact's value is not reachable from a template at all: it can only be
printed through a filter, iterated (a table's rows) or tested for truth when
the page module decided a yes/no or produced a string. Printing a fact
without a filter, naming a fact that does not exist, or comparing one is an
error. Every number the filters print is recorded (key, filter, options, text)
so that the stability check can ask whether each printed digit is significant.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from .facts import Bound
from .numbers import format_number, format_tex


class FactView:
    """A fact (or a table of facts) as the template sees it: a key and a hidden value."""

    __slots__ = ("_key", "_source", "_value")

    def __init__(self, key: str, value, source: str):
        self._key = key
        self._value = value
        self._source = source

    def _child(self, suffix: str, value) -> FactView:
        return FactView(self._key + suffix, value, self._source)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if isinstance(self._value, dict) and name in self._value:
            return self._child(f".{name}", self._value[name])
        raise AttributeError(f"no fact {self._key}.{name}")

    def __getitem__(self, index):
        if isinstance(self._value, list) and isinstance(index, int):
            if not -len(self._value) <= index < len(self._value):
                raise KeyError(f"no fact {self._key}[{index}]: it has {len(self._value)} entries")
            # The key names the entry as the manifest holds it: rows[-1] is rows[12].
            return self._child(f"[{index % len(self._value)}]", self._value[index])
        if isinstance(self._value, dict) and index in self._value:
            return self._child(f".{index}", self._value[index])
        raise KeyError(f"no fact {self._key}[{index!r}]")

    def __iter__(self):
        if isinstance(self._value, list):
            return (self._child(f"[{i}]", item) for i, item in enumerate(self._value))
        raise TypeError(f"fact {self._key} is not a list")

    def __len__(self) -> int:
        if isinstance(self._value, list | dict):
            return len(self._value)
        raise TypeError(f"fact {self._key} has no length")

    def __bool__(self) -> bool:
        if isinstance(self._value, bool | str) or self._value is None:
            return bool(self._value)
        raise jinja2.TemplateError(
            f"fact {self._key} is a {type(self._value).__name__}; a template may only branch "
            "on a yes/no or a string the page module decided, never on a number"
        )

    def __str__(self) -> str:
        raise jinja2.TemplateError(
            f"fact {self._key} printed without a filter: use | num, | tex or | text"
        )

    def __eq__(self, other):
        raise jinja2.TemplateError(
            f"fact {self._key} compared in a template; templates never compute: let the page "
            "module decide and return the answer as a fact"
        )

    __hash__ = None


@dataclass
class Printed:
    """One number or string a template printed."""

    key: str
    filter: str
    options: dict
    text: str


@dataclass
class RenderLog:
    """Everything the filters printed during one render, in order."""

    printed: list[Printed] = field(default_factory=list)
    #: The exponents of the bounds printed as "zero to rounding"; the page's one
    #: statement of what that phrase means (``rounding()``) covers the largest.
    zero_exponents: list[int] = field(default_factory=list)
    #: The value behind each printed key, for checks on the rendered text
    #: (:mod:`.printed_bounds`); not kept in the cache.
    values: dict = field(default_factory=dict, repr=False)


#: How a bound reads where the page has said once what it means (``num(zero=True)``).
ZERO_TO_ROUNDING = "zero to rounding"


def fact_title(key: str, source: str) -> str:
    return html.escape(f"{key} \u2190 {source}", quote=True)


def fact_span(key: str, source: str, text: str, kind: str = "fact", tag: str = "span") -> str:
    """The mark-up every printed fact carries: its key, its source, keyboard focus."""
    return (f'<{tag} class="{kind}" data-fact="{html.escape(key, quote=True)}" '
            f'title="{fact_title(key, source)}" tabindex="0">{text}</{tag}>')


def _require_fact(value, filter_name: str) -> FactView:
    if isinstance(value, jinja2.Undefined):
        value._fail_with_undefined_error()  # names the missing fact
    if not isinstance(value, FactView):
        raise jinja2.TemplateError(
            f"| {filter_name} was given {value!r}, which is not a fact: "
            "every printed number must come from a page module"
        )
    return value


def tex_key(key: str) -> str:
    """A fact key as it can travel inside ``\\htmlData`` (no brackets)."""
    return key.replace("[", "(").replace("]", ")")


def make_environment(search_path, log: RenderLog | None = None) -> jinja2.Environment:
    """A sandboxed Jinja environment whose only filters print facts."""
    log = log if log is not None else RenderLog()

    def num(value, sig=None, dec=None, words=False, sci=None, bare=False, toward=None,
            zero=False):
        fact = _require_fact(value, "num")
        options = {"sig": sig, "dec": dec, "words": words, "sci": sci}
        if toward is not None:
            options["toward"] = toward
        if zero:
            # Rounding noise in reading words; the page says once what the words mean.
            if not isinstance(fact._value, Bound):
                raise jinja2.TemplateError(
                    f"| num(zero=True) on {fact._key}: only a bound (rounding noise) may "
                    "print as zero to rounding"
                )
            options["zero"] = True
            log.zero_exponents.append(fact._value.exponent)
            text = ZERO_TO_ROUNDING
        else:
            text = format_number(fact._value, **options)
        log.printed.append(Printed(fact._key, "num", options, text))
        log.values[fact._key] = fact._value
        if bare:
            raise jinja2.TemplateError(
                f"| num(bare=True) on {fact._key}: every printed number carries its mark-up"
            )
        kind = "fact bound" if isinstance(fact._value, Bound) else "fact"
        return fact_span(fact._key, fact._source, text, kind)

    def tex(value, sig=None, dec=None, sci=None, bound_as=None, toward=None):
        fact = _require_fact(value, "tex")
        options = {"sig": sig, "dec": dec, "sci": sci}
        if toward is not None:
            options["toward"] = toward
        if bound_as is not None and isinstance(fact._value, Bound):
            text = bound_as  # e.g. \varepsilon in a matrix whose noise entries are bounds
        else:
            text = format_tex(fact._value, **options)
        log.printed.append(Printed(fact._key, "tex", options, text))
        return rf"\htmlData{{fact={tex_key(fact._key)}}}{{{text}}}"

    def text(value, code=False):
        fact = _require_fact(value, "text")
        if not isinstance(fact._value, str):
            raise jinja2.TemplateError(f"fact {fact._key} is not text; print numbers with | num")
        log.printed.append(Printed(fact._key, "text", {"code": code}, fact._value))
        escaped = html.escape(fact._value, quote=False)
        return fact_span(fact._key, fact._source, escaped, "fact",
                         tag="code" if code else "span")

    environment = ImmutableSandboxedEnvironment(
        loader=jinja2.FileSystemLoader(str(search_path)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    # Nothing to compute with: no built-in filters (round, sum, length, format…),
    # no tests beyond truth, no globals (range, dict, namespace…).
    def plural(value, one: str, many: str):
        """The word that agrees with a count: ``{{ f.turns | plural("point", "points") }}``."""
        fact = _require_fact(value, "plural")
        if isinstance(fact._value, bool) or not isinstance(fact._value, int):
            raise jinja2.TemplateError(f"| plural needs a whole-number fact; {fact._key} is not")
        return one if fact._value == 1 else many

    def raw(value):
        """A string the code produced, printed as it is: TeX source of a symbol, an anchor,
        a definition.
        No numbers: the page's digit check still reads the result."""
        fact = _require_fact(value, "raw")
        if not isinstance(fact._value, str):
            raise jinja2.TemplateError(f"| raw prints strings; {fact._key} is not one")
        return fact._value

    environment.filters = {"num": num, "tex": tex, "text": text, "plural": plural,
                           "raw": raw}
    environment.tests = {}
    environment.globals = {}
    environment.kreport_log = log
    return environment


def fact_views(facts: dict[str, dict], sources: dict[str, str]) -> dict[str, FactView]:
    return {section: FactView(section, values, sources[section])
            for section, values in facts.items()}
