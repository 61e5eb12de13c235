"""Deterministic figures with one house style, for every screen and both colour schemes.

Every figure on the site is drawn through :func:`new_figure` (so fonts, sizes
and colours agree from page to page) and saved by :func:`render_figure`, which
fixes everything matplotlib would otherwise vary between runs: the SVG id salt,
the creation date and the software stamp. Text is stored as paths, so the
bytes do not depend on the fonts of the machine that views the page. With the
pinned matplotlib the bytes are the same on every machine, which is what the
drift test compares.

Two things make a figure read well wherever it is shown:

* **A narrow variant for phones.** :func:`render_variants` draws each figure
  twice: once as written, for the page's column on a desktop (about 690 px),
  and once inside :func:`narrow_layout`, where :func:`new_figure` stacks the
  panels one under another at :data:`NARROW_WIDTH_INCHES` (360 px, a phone's
  column) with the base font sizes, so that lettering reads at about the size
  it does on a desktop. The page serves the narrow file to narrow screens
  (``<picture>``); what it draws is locked with the wide one's, under keys
  prefixed ``narrow.``.
* **A dark scheme inside the same file** (:mod:`kreport.report.dark_scheme`),
  switched on by the fragment ``#only-dark``.

What a figure draws is read back by :func:`kreport.report.drawn.drawn_data`
and locked like the page's facts.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import math
import os
import re
import string
import textwrap

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.transforms import ScaledTranslation

from .dark_scheme import keep_colour_mapped, with_dark_scheme
from .drawn import drawn_data

# One palette for the whole site (colour-blind safe, from Okabe and Ito).
COLOURS = {
    "inner": "#0072B2",  # the inner group of a ring, and "kernel" results
    "outer": "#E69F00",  # the outer group of a ring
    "pca": "#7F7F7F",  # ordinary PCA / ridge: the linear control
    "kernel": "#0072B2",
    "accent": "#D55E00",
    "second": "#009E73",
    "third": "#CC79A7",
    "band": "#CCE3F0",  # shaded ranges
}
SEQUENCE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]
HEATMAP = "viridis"

STYLE = {
    "svg.hashsalt": "kreport",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=SEQUENCE),
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "savefig.facecolor": "white",
    "axes.unicode_minus": True,
    "path.simplify": False,
    "image.cmap": HEATMAP,
}
plt.rcParams.update(STYLE)

# Figures are scaled down to the width of the page's text column. So that
# lettering reads at one size everywhere, a figure wider than this many inches
# gets fonts and strokes enlarged in proportion (see style_for_width).
COLUMN_WIDTH_INCHES = 7.5
SCALED_WITH_WIDTH = ("font.size", "axes.titlesize", "axes.labelsize", "xtick.labelsize",
                     "ytick.labelsize", "legend.fontsize", "lines.linewidth",
                     "lines.markersize", "axes.linewidth", "xtick.major.size",
                     "ytick.major.size", "xtick.major.width", "ytick.major.width")

SVG_METADATA = {"Date": None, "Creator": None}
# matplotlib names clip paths and markers by a hash of their coordinates, and
# those coordinates can differ in the last bit from run to run (numpy's sums
# depend on memory alignment) while every printed coordinate is the same.
HASHED_SVG_ID = re.compile(
    rb'(?<=id=")(p|m|image)[0-9a-f]{10}(?=")|(?<=#)(p|m|image)[0-9a-f]{10}\b')
PNG_METADATA = {"Software": None}


#: The narrow variant's width: a phone's text column (358 px at 390 px) shows
#: it at about its own size, 360 px.
NARROW_WIDTH_INCHES = 3.75
#: Height over width of one stacked panel in the narrow variant, kept within
#: these bounds whatever the wide panel's shape (a flat strip reads badly on a
#: phone, a tall one pushes the caption off the screen).
NARROW_ASPECT = (0.7, 1.0)
#: Wider than this many panels stacked, the narrow variant puts two side by side.
NARROW_SINGLE_COLUMN_UP_TO = 4

_LAYOUT: contextvars.ContextVar[str | None] = contextvars.ContextVar("kreport_figure_layout",
                                                                      default=None)
#: A process that cannot wrap its figures in :func:`narrow_layout` (a notebook's
#: kernel, whose cells each run in their own context) is asked for the narrow
#: layout by this environment variable, set to ``narrow`` by the build.
LAYOUT_VARIABLE = "KREPORT_FIGURE_LAYOUT"
LAYOUTS = ("wide", "narrow")


def current_layout() -> str:
    """``narrow`` inside :func:`narrow_layout` or when the environment asks, else ``wide``."""
    chosen = _LAYOUT.get()
    if chosen is not None:
        return chosen
    asked = os.environ.get(LAYOUT_VARIABLE, "wide")
    if asked not in LAYOUTS:
        raise ValueError(f"{LAYOUT_VARIABLE}={asked!r}: the figure layout must be one of "
                         f"{', '.join(LAYOUTS)}")
    return asked


@contextlib.contextmanager
def narrow_layout():
    """Within this block :func:`new_figure` lays figures out for a phone's column."""
    token = _LAYOUT.set("narrow")
    try:
        yield
    finally:
        _LAYOUT.reset(token)


def style_for_width(width: float) -> dict:
    """The house style for a figure ``width`` inches wide."""
    scale = max(1.0, width / COLUMN_WIDTH_INCHES)
    style = dict(STYLE)
    for key in SCALED_WITH_WIDTH:
        style[key] = matplotlib.rcParamsDefault[key] * scale if key not in STYLE \
            else STYLE[key] * scale
    return style


def new_figure(columns: int = 1, rows: int = 1, width: float = 7.5, height: float = 3.6,
               **subplot_options):
    """A figure and its axes in the house style (sizes in inches).

    The style stays in force after this returns, because labels, legends and
    tick labels are made later by the caller (and ticks again when saving,
    which :func:`render_figure` does under the same style).
    """
    if current_layout() == "narrow":
        return _new_narrow_figure(columns, rows, width, height, **subplot_options)
    style = style_for_width(width)
    plt.rcParams.update(style)
    figure, axes = plt.subplots(rows, columns, figsize=(width, height), layout="constrained",
                                **subplot_options)
    figure.kreport_style = style
    return figure, axes


def _new_narrow_figure(columns: int, rows: int, width: float, height: float,
                       **subplot_options):
    """The same panels, stacked for a phone's column, handed back in the caller's shape.

    The caller asked for ``rows × columns`` panels of a ``width × height`` figure;
    it gets as many panels, in the same reading order (left to right, then top to
    bottom), one per row (two per row past :data:`NARROW_SINGLE_COLUMN_UP_TO`),
    each as wide as the narrow column allows and of a readable shape. Width
    ratios are dropped (the panels no longer sit side by side); height ratios
    are kept when the panels stay in their rows.
    """
    panels = rows * columns
    across = 1 if panels <= NARROW_SINGLE_COLUMN_UP_TO else 2
    down = math.ceil(panels / across)
    low, high = NARROW_ASPECT
    aspect = min(high, max(low, (height / rows) / (width / columns)))
    narrow_height = down * aspect * NARROW_WIDTH_INCHES / across
    squeeze = subplot_options.pop("squeeze", True)
    gridspec = dict(subplot_options.pop("gridspec_kw", None) or {})
    gridspec.pop("width_ratios", None)
    if columns > 1 or across > 1:
        gridspec.pop("height_ratios", None)
    style = style_for_width(NARROW_WIDTH_INCHES)
    plt.rcParams.update(style)
    figure, grid = plt.subplots(down, across, figsize=(NARROW_WIDTH_INCHES, narrow_height),
                                layout="constrained", squeeze=False,
                                # the environment asked: no render_variants will fit it
                                FigureClass=NarrowFigure if _LAYOUT.get() is None else Figure,
                                gridspec_kw=gridspec or None, **subplot_options)
    flat = list(grid.flat)
    for spare in flat[panels:]:
        spare.remove()
    axes = np.empty(panels, dtype=object)
    axes[:] = flat[:panels]
    axes = axes.reshape(rows, columns)
    if squeeze:
        axes = axes.item() if panels == 1 else axes.squeeze()
        if isinstance(axes, np.ndarray) and axes.ndim == 0:
            axes = axes.item()
    figure.kreport_style = style
    figure.kreport_narrow = True
    return figure, axes


class NarrowFigure(Figure):
    """A figure in the narrow layout that fits itself for a phone (:func:`fit_narrow`)
    when it is first drawn.

    Used when the environment asks for the narrow layout (a notebook's kernel):
    there the notebook's display machinery draws the figure, and no caller can
    step in between. A page's figures are fitted by :func:`render_variants`.
    """

    def draw(self, renderer):
        if not getattr(self, "kreport_fitted", False):
            with plt.rc_context(self.kreport_style):
                fit_narrow(self)
        super().draw(renderer)


def _panels(figure) -> list:
    """The figure's axes that are panels (not colour bars)."""
    return [axes for axes in figure.axes if not hasattr(axes, "_colorbar")]


#: The width of a character of lettering, as a fraction of its font size: a
#: generous average for DejaVu Sans, so a wrapped line fits its panel.
CHARACTER_WIDTH = 0.6


def _grid_shape(axes) -> tuple[int, int]:
    """(rows, columns) of the grid an axes sits in, or (1, 1)."""
    spec = axes.get_subplotspec()
    return spec.get_gridspec().get_geometry() if spec is not None else (1, 1)


def _wrapped(text, available_inches: float) -> None:
    """Break a title or label into lines at spaces so that it fits ``available_inches``.

    The line length comes from the panel's nominal size and the font size
    alone, never from measured extents: those depend on tick labels, that is
    on the data, and a wrap decided by them could flip on another machine.
    """
    words = text.get_text()
    if not words or "$" in words or "\n" in words:
        return
    per_line = int(available_inches * 72 / (CHARACTER_WIDTH * text.get_fontsize()))
    if len(words) > per_line:
        text.set_text(textwrap.fill(words, max(8, per_line), break_long_words=False))


def _legend_options(legend) -> dict:
    return {"fontsize": legend.prop.get_size_in_points(), "frameon": legend.get_frame_on(),
            "title": legend.get_title().get_text() or None,
            "handlelength": legend.handlelength, "markerscale": legend.markerscale,
            "numpoints": legend.numpoints, "scatterpoints": legend.scatterpoints}


def _recreate_legend(parent, legend, columns: int, **placement):
    handles = list(legend.legend_handles)
    labels = [text.get_text() for text in legend.texts]
    options = _legend_options(legend)
    legend.remove()
    return parent.legend(handles, labels, ncols=columns, **options, **placement)


def _legend_loc(legend):
    """The ``loc`` a legend was made with (an ``outside …`` one of a figure legend too)."""
    loc = legend._loc_real
    side = legend._outside_loc if not legend.isaxes else None
    if not side or not isinstance(loc, int):
        return loc
    name = {code: word for word, code in legend.codes.items()}[loc]
    first = name.split()[0]
    if side in ("left", "right") and first in ("upper", "lower"):
        return f"outside {side} {first}"
    return f"outside {name}"


def letter_panels(figure):
    """Put (a), (b), … before the titles of a figure's panels, in reading order.

    A caption cannot say "left" and "right": the narrow variant stacks the
    panels one under another. It names them by letter instead, and the letter
    opens the panel's title, so it cannot collide with it.
    """
    panels = [axes for axes in _panels(figure) if axes.get_visible()]
    if len(panels) < 2:
        return figure
    for letter, axes in zip(string.ascii_lowercase, panels, strict=False):
        title = axes.get_title()
        axes.set_title(f"({letter}) {title}" if title else f"({letter})")
    return figure

def fit_narrow(figure) -> None:
    """Make a figure drawn by :func:`new_figure` in the narrow layout read on a phone.

    The panels keep the caller's design, but lettering takes about twice the
    share of a panel that it takes when wide, so: titles too wide for their
    panel are broken into lines; every legend inside a panel moves just
    below that panel's axis labels (where it cannot cover the data) and the
    figure grows by the legends' height; a legend wider than the figure gets
    fewer columns.
    """
    figure.kreport_fitted = True  # once only: a second pass would move the legends again
    # Not figure.canvas.get_renderer(): while savefig writes SVG the canvas is the SVG one,
    # which has none (a notebook's first draw of a figure happens there).
    renderer = figure._get_renderer()
    panels = _panels(figure)
    width = figure.get_figwidth()
    # Titles and x labels first (their room depends only on the width): a legend
    # placed below an x label that wraps afterwards would be overwritten by it.
    for axes in panels:
        panel_width = 0.85 * width / _grid_shape(axes)[1]  # less tick labels and margins
        for title in (axes.title, axes._left_title, axes._right_title):
            _wrapped(title, panel_width)
        _wrapped(axes.xaxis.label, panel_width)
    # Each draw lays the whole figure out again, the slowest step of a build, so
    # the figure is drawn only where a measurement below needs the layout.
    inside = [axes for axes in panels if axes.get_legend() is not None]
    if inside:
        figure.draw_without_rendering()
    grow = 0.0
    for axes in inside:
        legend = axes.get_legend()
        handles, labels = list(legend.legend_handles), [t.get_text() for t in legend.texts]
        options = _legend_options(legend)
        legend.remove()
        figure.draw_without_rendering()
        below = (axes.bbox.y0 - axes.get_tightbbox(renderer).y0) / figure.dpi + 0.06
        shift = ScaledTranslation(0, -below, figure.dpi_scale_trans)
        for columns in (2, 1) if len(labels) > 3 else (1,):
            moved = axes.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0),
                                bbox_transform=axes.transAxes + shift, ncols=columns,
                                **options)
            if columns == 1 or moved.get_window_extent(renderer).width <= figure.bbox.width:
                break
        figure.draw_without_rendering()
        grow += moved.get_window_extent(renderer).height / figure.dpi + 0.06
    across = _grid_shape(panels[0])[1] if panels else 1
    figure.set_figheight(figure.get_figheight() + grow / across)
    height = figure.get_figheight()
    for axes in panels:
        # nominal panel height, less room for tick labels and margins
        _wrapped(axes.yaxis.label, 0.75 * height / _grid_shape(axes)[0])
    if figure._suptitle is not None:
        _wrapped(figure._suptitle, 0.95 * width)
    if not figure.legends and not inside:
        return
    figure.draw_without_rendering()
    limit = figure.bbox.width
    for parent in [figure, *panels]:
        legends = list(parent.legends) if parent is figure else [parent.get_legend()]
        for legend in legends:
            if legend is None:
                continue
            columns = legend._ncols
            before = legend.get_window_extent(renderer).height
            while columns > 1 and legend.get_window_extent(renderer).width > limit:
                columns -= 1
                placement = {"loc": _legend_loc(legend)}
                if legend._bbox_to_anchor is not None:
                    placement["bbox_to_anchor"] = legend._bbox_to_anchor
                legend = _recreate_legend(parent, legend, columns, **placement)
                figure.draw_without_rendering()
            # A figure's own legend sits outside the panels, which the narrow
            # height was reckoned for: the figure grows by all of it.
            taller = legend.get_window_extent(renderer).height - (0 if parent is figure
                                                                   else before)
            if taller > 0:
                figure.set_figheight(figure.get_figheight() + taller / figure.dpi)
                figure.draw_without_rendering()


def number_svg_ids(svg: bytes) -> bytes:
    """Rename hashed ids to p1, p2, … / m1, … / image1, … in order of first appearance."""
    names: dict[bytes, bytes] = {}

    def rename(match: re.Match) -> bytes:
        old = match.group(0)
        if old not in names:
            kind = match.group(1) or match.group(2)
            count = sum(1 for name in names.values() if name.rstrip(b"0123456789") == kind)
            names[old] = kind + str(count + 1).encode()
        return names[old]

    return HASHED_SVG_ID.sub(rename, svg)


def render_figure(figure, fmt: str = "svg") -> bytes:
    """The figure's bytes, identical from run to run; closes the figure."""
    data, _ = render_figure_with_data(figure, fmt)
    return data


#: The file-name suffix of each variant :func:`render_variants` draws.
VARIANTS = {"wide": "", "narrow": "-narrow"}


def render_variants(draw, fmt: str = "svg") -> tuple[dict[str, bytes], dict]:
    """Draw a figure for a desktop's column and again for a phone's.

    ``draw`` is the page's figure function (it is called twice). Returns the
    bytes of each variant by file-name suffix (:data:`VARIANTS`) and what the
    two draw, in one dict: the wide variant's keys as :func:`drawn_data` names
    them, the narrow one's prefixed ``narrow.``.
    """
    files, drawn = {}, {}
    files[VARIANTS["wide"]], drawn = render_figure_with_data(letter_panels(draw()), fmt)
    with narrow_layout():
        figure = letter_panels(draw())
        if getattr(figure, "kreport_narrow", False):
            with plt.rc_context(figure.kreport_style):
                fit_narrow(figure)
    files[VARIANTS["narrow"]], narrow = render_figure_with_data(figure, fmt)
    drawn.update({f"narrow.{key}": value for key, value in narrow.items()})
    return files, drawn


def sketch(draw) -> dict:
    """What a figure plots, read back before any layout: the wide variant drawn
    by ``draw`` and measured by :func:`drawn_data` without a layout pass or a file.

    Its data, limits and titles are the published figure's; its tick labels are
    the ones matplotlib's locator picks for the panels' size before layout (the
    published file's ticks are picked after layout, for a slightly smaller
    panel). The stability check compares sketches across perturbed replicas:
    laying a figure out and writing it costs about nine tenths of a page's
    time, and reads the data only through what a sketch already holds.
    """
    figure = letter_panels(draw())
    with plt.rc_context(getattr(figure, "kreport_style", STYLE)):
        drawn = drawn_data(figure)
    plt.close(figure)
    return drawn


def render_figure_with_data(figure, fmt: str = "svg") -> tuple[bytes, dict]:
    """The figure's bytes and what it draws (see :func:`drawn_data`); closes the figure."""
    buffer = io.BytesIO()
    with plt.rc_context(getattr(figure, "kreport_style", STYLE)):
        if fmt == "svg":
            keep_colour_mapped(figure)
            figure.savefig(buffer, format="svg", metadata=SVG_METADATA)
        elif fmt == "png":
            figure.savefig(buffer, format="png", dpi=150, metadata=PNG_METADATA)
        else:
            raise ValueError(f"figures are saved as svg or png, not {fmt!r}")
    drawn = drawn_data(figure)  # after saving, so tick labels are placed
    plt.close(figure)
    data = buffer.getvalue()
    return (with_dark_scheme(number_svg_ids(data)) if fmt == "svg" else data), drawn
