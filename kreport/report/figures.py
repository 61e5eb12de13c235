"""Deterministic figures with one house style.

Every figure on the site is drawn through :func:`new_figure` (so fonts, sizes
and colours agree from page to page) and saved by :func:`render_figure`, which
fixes everything matplotlib would otherwise vary between runs: the SVG id salt,
the creation date and the software stamp. Text is stored as paths, so the
bytes do not depend on the fonts of the machine that views the page. With the
pinned matplotlib the bytes are the same on every machine, which is what the
drift test compares.
"""

from __future__ import annotations

import io
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

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
HASHED_SVG_ID = re.compile(rb'(?<=id=")([pm])[0-9a-f]{10}(?=")|(?<=#)([pm])[0-9a-f]{10}\b')
PNG_METADATA = {"Software": None}


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
    style = style_for_width(width)
    plt.rcParams.update(style)
    figure, axes = plt.subplots(rows, columns, figsize=(width, height), layout="constrained",
                                **subplot_options)
    figure.kreport_style = style
    return figure, axes


def _number_svg_ids(svg: bytes) -> bytes:
    """Rename hashed ids to p1, p2, … / m1, m2, … in order of first appearance."""
    names: dict[bytes, bytes] = {}

    def rename(match: re.Match) -> bytes:
        old = match.group(0)
        if old not in names:
            kind = old[:1]
            count = sum(1 for name in names.values() if name[:1] == kind)
            names[old] = kind + str(count + 1).encode()
        return names[old]

    return HASHED_SVG_ID.sub(rename, svg)


def render_figure(figure, fmt: str = "svg") -> bytes:
    """The figure's bytes, identical from run to run; closes the figure."""
    buffer = io.BytesIO()
    with plt.rc_context(getattr(figure, "kreport_style", STYLE)):
        if fmt == "svg":
            figure.savefig(buffer, format="svg", metadata=SVG_METADATA)
        elif fmt == "png":
            figure.savefig(buffer, format="png", dpi=150, metadata=PNG_METADATA)
        else:
            raise ValueError(f"figures are saved as svg or png, not {fmt!r}")
    plt.close(figure)
    data = buffer.getvalue()
    return _number_svg_ids(data) if fmt == "svg" else data
