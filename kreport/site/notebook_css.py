"""The notebook page's style sheets, cut down to the rules its HTML can use.

mkdocs-jupyter inlines JupyterLab's whole style sheet (more than half a MiB,
with every icon of the Blueprint toolkit) into the notebook's page; the page
uses a few hundred of its rules. Every page load paid for parsing the rest.
A rule is kept when each class and id its selectors name occurs in the page
(one selector of a list is enough), and at-rules keep their kept rules;
``@font-face``, ``@keyframes`` and the like are kept whole. Nothing is
rewritten, so what the kept rules say is exactly what JupyterLab wrote.
"""

from __future__ import annotations

import re

import tinycss2

STYLE = re.compile(r"(<style[^>]*>)(?P<css>.*?)(</style>)", re.S)
CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')
ID_ATTRIBUTE = re.compile(r'\bid="([^"]*)"')
NAMES = re.compile(r"([.#])(-?[_a-zA-Z][_a-zA-Z0-9-]*)")
#: Below this size a style block is left alone (the theme's and the site's own).
LARGE = 50_000


def _used(page_html: str) -> tuple[set[str], set[str]]:
    classes = {name for found in CLASS_ATTRIBUTE.findall(page_html) for name in found.split()}
    ids = set(ID_ATTRIBUTE.findall(page_html))
    return classes, ids


def _selector_applies(selector: str, classes: set[str], ids: set[str]) -> bool:
    # Pseudo-classes such as :not(.x) name classes that need not be present.
    plain = re.sub(r":not\([^)]*\)", "", selector)
    for kind, name in NAMES.findall(plain):
        if name not in (classes if kind == "." else ids):
            return False
    return True


def _prune(rules, classes: set[str], ids: set[str]) -> str:
    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = tinycss2.serialize(rule.prelude).split(",")
            if any(_selector_applies(selector, classes, ids) for selector in selectors):
                kept.append(rule.serialize())
        elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports") \
                and rule.content is not None:
            inner = _prune(tinycss2.parse_rule_list(rule.content, skip_whitespace=True,
                                                    skip_comments=True), classes, ids)
            if inner:
                kept.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{inner}}}")
        elif rule.type == "at-rule":
            kept.append(rule.serialize())
    return "".join(kept)


def prune_styles(page_html: str) -> str:
    """``page_html`` with each large inline style sheet cut to the rules it uses."""
    classes, ids = _used(page_html)

    def prune(match: re.Match) -> str:
        css = match.group("css")
        if len(css) < LARGE:
            return match.group(0)
        rules = tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True)
        return match.group(1) + _prune(rules, classes, ids) + match.group(3)

    return STYLE.sub(prune, page_html)
