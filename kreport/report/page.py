"""A page: its sections (fact functions), its figures and its template.

A page module creates one :class:`Page` and decorates its functions::

    page = Page(slug="kernel-pca", title="Kernel PCA", template="kernel_pca.md.j2")

    @page.section
    def ring():
        ...
        claim("every inner person lies on one side of every outer person", gap > 0)
        return {"gap": gap, "pca_shares": shares}

    @page.figure("ring", alt="The ring of thirty-six and its first coordinates")
    def ring_figure():
        return fig          # a matplotlib Figure

Sections run in the order they are defined; figures after them. Neither formats
text: that is the template's job.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .facts import Claim, collecting, plain
from .figures import render_figure


@dataclass
class FigureSpec:
    name: str
    alt: str
    function: Callable
    fmt: str = "svg"

    def filename(self, slug: str) -> str:
        return f"{slug}-{self.name}.{self.fmt}"


@dataclass
class PageResult:
    """Everything a page produced, before any text is written."""

    slug: str
    facts: dict[str, dict]  # section -> {name: value}
    sources: dict[str, str]  # section -> qualified name of the function
    claims: list[Claim]
    figures: dict[str, bytes]  # filename -> bytes
    seconds: float = 0.0


@dataclass
class Page:
    slug: str
    title: str
    template: str
    sections: list[Callable] = field(default_factory=list)
    figures: list[FigureSpec] = field(default_factory=list)
    module: str = ""
    extra_inputs: tuple[Path, ...] = ()
    # Sections whose facts were measured on one machine (timings): printed with
    # that machine stated, marked in the manifest, and left out of the
    # regression lock, which checks their shape in tests of their own.
    machine_specific: tuple[str, ...] = ()

    def __post_init__(self):
        if not self.module:
            # The module that wrote ``page = Page(...)``: the first frame outside
            # this file (the dataclass __init__ runs with this module's globals).
            frame = sys._getframe(1)
            while frame.f_globals.get("__name__") == __name__:
                frame = frame.f_back
            self.module = frame.f_globals["__name__"]

    def section(self, function: Callable) -> Callable:
        if any(existing.__name__ == function.__name__ for existing in self.sections):
            raise ValueError(f"page {self.slug!r} has two sections named {function.__name__!r}")
        self.sections.append(function)
        return function

    def figure(self, name: str, alt: str, fmt: str = "svg") -> Callable:
        def register(function: Callable) -> Callable:
            self.figures.append(FigureSpec(name=name, alt=alt, function=function, fmt=fmt))
            return function

        return register

    @property
    def template_path(self) -> Path:
        """The template sits beside the page module."""
        return Path(sys.modules[self.module].__file__).with_name(self.template)

    def compute(self) -> PageResult:
        started = time.perf_counter()
        facts: dict[str, dict] = {}
        sources: dict[str, str] = {}
        claims: list[Claim] = []
        for function in self.sections:
            name = function.__name__
            with collecting(name, claims):
                returned = function()
                if not isinstance(returned, dict):
                    raise TypeError(f"section {name!r} of {self.slug!r} must return a dict")
                facts[name] = plain(returned)
            sources[name] = f"{function.__module__}.{function.__qualname__}"
        figures = {}
        for spec in self.figures:
            with collecting(f"figure:{spec.name}", claims):
                figure = spec.function()
            figures[spec.filename(self.slug)] = render_figure(figure, spec.fmt)
        return PageResult(
            slug=self.slug,
            facts=facts,
            sources=sources,
            claims=claims,
            figures=figures,
            seconds=time.perf_counter() - started,
        )
