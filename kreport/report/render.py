"""Templates: prose with placeholders, rendered from a page's facts.

In a template every fact is reached by its section and name
(``{{ ring.gap | num(3) }}``) and can only be printed through a filter:

``num``   a number by the site's rules, wrapped in a span whose ``title`` names
          the fact's key and the function that computed it;
``tex``   the same number for use inside ``$…$`` math (KaTeX's ``\\htmlData``
          carries the key);
``text``  a short string the code produced (an error message, a kernel's repr).

Printing a fact without a filter is an error, and so is naming a fact that does
not exist: templates never compute and never guess.
"""

from __future__ import annotations

import html

import jinja2

from .facts import Bound
from .numbers import format_number, format_tex


class FactView:
    """A fact (or a table of facts) as the template sees it: a value and its key."""

    __slots__ = ("key", "source", "value")

    def __init__(self, key: str, value, source: str):
        self.key = key
        self.value = value
        self.source = source

    def _child(self, suffix: str, value) -> FactView:
        return FactView(self.key + suffix, value, self.source)

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        if isinstance(self.value, dict) and name in self.value:
            return self._child(f".{name}", self.value[name])
        raise AttributeError(f"no fact {self.key}.{name}")

    def __getitem__(self, index):
        if isinstance(self.value, list) and isinstance(index, int):
            return self._child(f"[{index}]", self.value[index])
        if isinstance(self.value, dict) and index in self.value:
            return self._child(f".{index}", self.value[index])
        raise KeyError(f"no fact {self.key}[{index!r}]")

    def __iter__(self):
        if isinstance(self.value, list):
            return (self._child(f"[{i}]", item) for i, item in enumerate(self.value))
        raise TypeError(f"fact {self.key} is not a list")

    def __len__(self) -> int:
        if isinstance(self.value, list | dict):
            return len(self.value)
        raise TypeError(f"fact {self.key} has no length")

    def __bool__(self) -> bool:
        return bool(self.value)

    def __str__(self) -> str:
        raise jinja2.TemplateError(
            f"fact {self.key} printed without a filter: use | num, | tex or | text"
        )

    def __eq__(self, other):
        other_value = other.value if isinstance(other, FactView) else other
        return self.value == other_value

    __hash__ = None


def _title(fact: FactView) -> str:
    return html.escape(f"{fact.key} \u2190 {fact.source}", quote=True)


def _require_fact(value, filter_name: str) -> FactView:
    if isinstance(value, jinja2.Undefined):
        value._fail_with_undefined_error()  # names the missing fact
    if not isinstance(value, FactView):
        raise jinja2.TemplateError(
            f"| {filter_name} was given {value!r}, which is not a fact: "
            "every printed number must come from a page module"
        )
    return value


def filter_num(value, sig=None, dec=None, words=False, sci=None, bare=False):
    fact = _require_fact(value, "num")
    text = format_number(fact.value, sig=sig, dec=dec, words=words, sci=sci)
    if bare:
        return text
    kind = "fact bound" if isinstance(fact.value, Bound) else "fact"
    return f'<span class="{kind}" title="{_title(fact)}">{text}</span>'


def filter_tex(value, sig=None, dec=None, sci=None):
    fact = _require_fact(value, "tex")
    text = format_tex(fact.value, sig=sig, dec=dec, sci=sci)
    key = fact.key.replace("[", "(").replace("]", ")")
    return rf"\htmlData{{fact={key}}}{{{text}}}"


def filter_text(value, code=False):
    fact = _require_fact(value, "text")
    if not isinstance(fact.value, str):
        raise jinja2.TemplateError(f"fact {fact.key} is not text; print numbers with | num")
    escaped = html.escape(fact.value, quote=False)
    tag = "code" if code else "span"
    return f'<{tag} class="fact" title="{_title(fact)}">{escaped}</{tag}>'


def make_environment(search_path) -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(search_path)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    environment.filters.update(num=filter_num, tex=filter_tex, text=filter_text)
    return environment


def fact_views(facts: dict[str, dict], sources: dict[str, str]) -> dict[str, FactView]:
    return {section: FactView(section, values, sources[section])
            for section, values in facts.items()}
