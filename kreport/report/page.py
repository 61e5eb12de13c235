"""A page: its sections (fact functions), its figures and its template.

A page lives in a package of ``kreport.pages`` whose ``__init__`` creates one
:class:`Page` and lists its sections and figures once, in page order::

    page = Page(slug="kernel-pca", title="Kernel PCA", template="kernel_pca.md.j2",
                sections=[ring.ring_problem, arc.arc_under_pca, ...],
                figures=[Figure("ring", figures.ring, alt="The ring of thirty-six ...")])

A section is a function that returns a dict of named facts; it states its
claims with :func:`~kreport.report.facts.claim`. A figure function returns a
matplotlib Figure. Neither formats text: that is the template's job.

A page may also declare playgrounds (:class:`Playground`): controls a reader
moves over a grid of settings that the page computed at build time. Its
function returns the grid as a tree of plain values (see :class:`Playground`);
the build writes it as ``data/<slug>-<name>.json``, locks it like the facts and
figures, and checks it on perturbed fixtures like them.

A page that summarises the whole site (the "How this site is built" page)
sets ``reads_site=True``; its sections then take one argument, the
:class:`SiteSummary` the build hands them after every other page is computed.
"""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .facts import (
    DEFAULT_RTOL,
    Annotations,
    Claim,
    Failure,
    collecting,
    plain,
    recording_failures,
)
from .figures import VARIANTS, render_variants, sketch
from .playground import Grid, Playground


@dataclass
class Figure:
    """One figure of a page: its name, the function that draws it, its alt text
    and caption, and the relative tolerance its drawn data are locked at.

    The function is called twice: for a desktop's column and, inside
    :func:`~kreport.report.figures.narrow_layout`, for a phone's; the page
    serves ``filename(slug)`` and ``filename(slug, "narrow")``.
    """

    name: str
    function: Callable
    alt: str
    caption: str = ""
    fmt: str = "svg"
    rtol: float = DEFAULT_RTOL

    def filename(self, slug: str, variant: str = "wide") -> str:
        return f"{slug}-{self.name}{VARIANTS[variant]}.{self.fmt}"


@dataclass
class SiteSummary:
    """What the build hands a page that reads the whole site."""

    pages: dict  # slug -> {"title", "facts", "claims", "figures", "exact", "numbers"}
    stability: dict  # the stability check's summary (see kreport.site.stability)
    rules: dict = field(default_factory=dict)  # the driver's tolerances, by name


@dataclass
class PageResult:
    """Everything a page produced, before any text is written."""

    slug: str
    facts: dict[str, dict]  # section -> {name: value}
    sources: dict[str, str]  # section -> qualified name of the function
    claims: list[Claim]
    figures: dict[str, bytes]  # filename -> bytes
    figure_data: dict[str, dict] = field(default_factory=dict)  # filename -> {key: array | str}
    # filename -> what the figure plots before layout (figures.sketch), for the stability check
    figure_sketches: dict[str, dict] = field(default_factory=dict)
    playgrounds: dict[str, dict] = field(default_factory=dict)  # name -> Grid.tree()
    exact: dict[str, str] = field(default_factory=dict)  # fact key -> why it is exact
    rtol: dict[str, float] = field(default_factory=dict)  # fact key -> declared tolerance
    failures: list[Failure] = field(default_factory=list)  # stability check only
    seconds: float = 0.0


@dataclass
class Page:
    slug: str
    title: str
    template: str
    sections: Sequence[Callable] = ()
    figures: Sequence[Figure] = ()
    playgrounds: Sequence[Playground] = ()
    #: A short line for the navigation's tooltip and the home page's list.
    summary: str = ""
    module: str = ""
    extra_inputs: tuple[Path, ...] = ()
    # Sections whose facts were measured on one machine (timings): printed with
    # that machine stated, marked in the manifest, and left out of the
    # regression lock and the stability check, which test their shape instead.
    machine_specific: tuple[str, ...] = ()
    reads_site: bool = False
    #: Anchors that used to be on this page and now live on another, when a long
    #: page was split: {anchor id: slug of the page that has it now}. A link to
    #: this page at such an anchor is sent on to that page (old URLs keep working);
    #: ``"slug#new-anchor"`` when the section was renamed as it moved.
    moved_anchors: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        if not self.module:
            # The module that wrote ``page = Page(...)``: the first frame outside
            # this file (the dataclass __init__ runs with this module's globals).
            frame = sys._getframe(1)
            while frame.f_globals.get("__name__") == __name__:
                frame = frame.f_back
            self.module = frame.f_globals["__name__"]
        self.sections = list(self.sections)
        self.figures = list(self.figures)
        self.playgrounds = list(self.playgrounds)
        self.moved_anchors = dict(self.moved_anchors)
        if self.slug in {target.partition("#")[0] for target in self.moved_anchors.values()}:
            raise ValueError(f"page {self.slug!r} moves an anchor to itself")
        playground_names = [spec.name for spec in self.playgrounds]
        if len(set(playground_names)) != len(playground_names):
            raise ValueError(f"page {self.slug!r} has two playgrounds with one name")
        names = [function.__name__ for function in self.sections]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(f"page {self.slug!r} has two sections named {repeated}")
        figure_names = [spec.name for spec in self.figures]
        if len(set(figure_names)) != len(figure_names):
            raise ValueError(f"page {self.slug!r} has two figures with one name: {figure_names}")

    @property
    def template_path(self) -> Path:
        """The template sits beside the page module (the package's ``__init__``)."""
        return Path(sys.modules[self.module].__file__).with_name(self.template)

    def compute(self, site: SiteSummary | None = None, lenient: bool = False,
                replica: bool = False) -> PageResult:
        """Run every section, draw every figure and sketch it (:func:`sketch`).

        ``lenient`` is for the stability check on perturbed fixtures: a failing
        claim or bound, or a section that raises, is recorded in ``failures``
        and the page goes on. A ``replica`` (a perturbed copy for that check)
        only sketches its figures: the check compares sketches.
        """
        if self.reads_site and site is None:
            raise ValueError(f"page {self.slug!r} reads the whole site; pass the SiteSummary")
        started = time.perf_counter()
        facts: dict[str, dict] = {}
        sources: dict[str, str] = {}
        claims: list[Claim] = []
        failures: list[Failure] = []
        notes = Annotations()
        recorder = recording_failures(failures) if lenient else _nothing()
        with recorder:
            for function in self.sections:
                name = function.__name__
                sources[name] = f"{function.__module__}.{function.__qualname__}"
                with collecting(name, claims):
                    try:
                        returned = function(site) if self.reads_site else function()
                    except Exception as error:
                        if not lenient:
                            raise
                        failures.append(Failure(name, _describe(error)))
                        continue
                    if not isinstance(returned, dict):
                        raise TypeError(f"section {name!r} of {self.slug!r} must return a dict")
                    facts[name] = plain(returned, name, notes)
            figures, figure_data, sketches = {}, {}, {}
            for spec in self.figures:
                filename = spec.filename(self.slug)
                with collecting(f"figure:{spec.name}", claims):
                    try:
                        sketches[filename] = sketch(spec.function)
                        if replica:
                            continue
                        files, figure_data[filename] = render_variants(spec.function, spec.fmt)
                    except Exception as error:
                        if not lenient:
                            raise
                        failures.append(Failure(f"figure:{spec.name}", _describe(error)))
                        continue
                for variant, suffix in VARIANTS.items():
                    figures[spec.filename(self.slug, variant)] = files[suffix]
            playgrounds = {}
            for spec in self.playgrounds:
                with collecting(f"playground:{spec.name}", claims):
                    try:
                        grid = spec.function()
                        if not isinstance(grid, Grid):
                            raise TypeError(f"playground {spec.name!r} of {self.slug!r} must "
                                            "return a Grid")
                        playgrounds[spec.name] = grid.tree()
                    except Exception as error:
                        if not lenient:
                            raise
                        failures.append(Failure(f"playground:{spec.name}", _describe(error)))
        return PageResult(
            slug=self.slug, facts=facts, sources=sources, claims=claims, figures=figures,
            figure_data=figure_data, figure_sketches=sketches, playgrounds=playgrounds,
            exact=notes.exact,
            rtol=notes.rtol, failures=failures,
            seconds=time.perf_counter() - started,
        )


@dataclass(frozen=True)
class Notebook:
    """A notebook page: its slug and title, and its source beside the page packages.

    The build executes it and writes ``docs/<slug>.ipynb`` and its manifest
    (see :mod:`kreport.report.notebook` for how it publishes facts).
    """

    slug: str
    title: str
    source: Path
    summary: str = ""

    @property
    def target(self) -> str:
        return f"{self.slug}.ipynb"

    def as_page(self) -> Page:
        """A Page describing this notebook, for its manifest."""
        return Page(slug=self.slug, title=self.title, template=self.source.name,
                    module=f"kreport/pages/{self.source.name}")


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _describe(error: Exception) -> str:
    where = traceback.extract_tb(error.__traceback__)[-1]
    return (f"raised {type(error).__name__}: {error} "
            f"(at {Path(where.filename).name}:{where.lineno})")
