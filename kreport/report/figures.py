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
import numpy as np
from matplotlib.collections import LineCollection, PolyCollection

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


def render_figure_with_data(figure, fmt: str = "svg") -> tuple[bytes, dict]:
    """The figure's bytes and what it draws (see :func:`drawn_data`); closes the figure."""
    buffer = io.BytesIO()
    with plt.rc_context(getattr(figure, "kreport_style", STYLE)):
        if fmt == "svg":
            figure.savefig(buffer, format="svg", metadata=SVG_METADATA)
        elif fmt == "png":
            figure.savefig(buffer, format="png", dpi=150, metadata=PNG_METADATA)
        else:
            raise ValueError(f"figures are saved as svg or png, not {fmt!r}")
    drawn = drawn_data(figure)  # after saving, so tick labels are placed
    plt.close(figure)
    data = buffer.getvalue()
    return (number_svg_ids(data) if fmt == "svg" else data), drawn


# ---------------------------------------------------------------- what a figure draws


def _float_array(values) -> np.ndarray:
    array = np.ma.filled(np.ma.asarray(values, dtype=float), np.nan)
    return np.array(array, dtype=float)


def _collection_data(collection) -> dict:
    found = {}
    offsets = collection.get_offsets()
    if len(offsets):
        found["offsets"] = _float_array(offsets)
    values = collection.get_array()
    if values is not None:
        found["values"] = _float_array(values)
    if isinstance(collection, LineCollection | PolyCollection) or type(collection).__name__ in (
            "FillBetweenPolyCollection", "ContourSet", "QuadContourSet"):
        paths = collection.get_paths()
        if paths:
            found["vertices"] = _float_array(np.concatenate([path.vertices for path in paths]))
    if hasattr(collection, "levels"):
        found["levels"] = _float_array(collection.levels)
    return found


def _patch_vertices(patch) -> np.ndarray:
    return _float_array(patch.get_path().transformed(patch.get_patch_transform()).vertices)


def drawn_data(figure) -> dict[str, np.ndarray | str]:
    """Every number and word a figure draws, by a stable key.

    Lines (their x, y data), scatter offsets and colour values, filled areas,
    images, bars and other patches, axis limits, tick labels, titles, axis
    labels, legend entries and annotations. These are figure facts: the
    regression test locks them and the stability check measures their spread,
    so a figure cannot change (or be rescaled) without the change being seen.
    """
    found: dict[str, np.ndarray | str] = {}
    if figure._suptitle is not None and figure._suptitle.get_text():
        found["suptitle"] = figure._suptitle.get_text()
    for index, axes in enumerate(figure.axes):
        prefix = f"axes{index}"
        found[f"{prefix}.title"] = " | ".join(
            axes.get_title(loc) for loc in ("left", "center", "right") if axes.get_title(loc))
        found[f"{prefix}.xlabel"] = axes.get_xlabel()
        found[f"{prefix}.ylabel"] = axes.get_ylabel()
        found[f"{prefix}.limits"] = _float_array([*axes.get_xlim(), *axes.get_ylim()])
        found[f"{prefix}.scales"] = f"{axes.get_xscale()} {axes.get_yscale()}"
        found[f"{prefix}.xticks"] = " ".join(t.get_text() for t in axes.get_xticklabels())
        found[f"{prefix}.yticks"] = " ".join(t.get_text() for t in axes.get_yticklabels())
        for number, line in enumerate(axes.get_lines()):
            found[f"{prefix}.line{number}"] = _float_array(line.get_xydata())
        for number, collection in enumerate(axes.collections):
            for name, values in _collection_data(collection).items():
                found[f"{prefix}.collection{number}.{name}"] = values
        for number, image in enumerate(axes.get_images()):
            found[f"{prefix}.image{number}"] = _float_array(image.get_array())
            found[f"{prefix}.image{number}.extent"] = _float_array(image.get_extent())
        for number, patch in enumerate(axes.patches):
            found[f"{prefix}.patch{number}"] = _patch_vertices(patch)
        for number, text in enumerate(axes.texts):
            found[f"{prefix}.text{number}"] = text.get_text()
            found[f"{prefix}.text{number}.position"] = _float_array(text.get_position())
        legend = axes.get_legend()
        if legend is not None:
            found[f"{prefix}.legend"] = " | ".join(t.get_text() for t in legend.get_texts())
    for number, legend in enumerate(figure.legends):
        found[f"legend{number}"] = " | ".join(t.get_text() for t in legend.get_texts())
    for number, text in enumerate(figure.texts):
        found[f"text{number}"] = text.get_text()
    return {key: value for key, value in found.items()
            if not (isinstance(value, str) and value == "")}
