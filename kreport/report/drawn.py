"""What a figure draws, as numbers and words, so that it can be locked like a fact."""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection


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
