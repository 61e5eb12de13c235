"""The dark scheme inside every SVG figure.

Every SVG carries a small style sheet that recolours it when it is opened with
the fragment ``#only-dark`` (the name mkdocs-material uses for dark-scheme
images): black ink becomes the dark scheme's text colour, white paper its
background, pale fills dark tints; the data colours (the Okabe–Ito palette)
stay, and anything coloured by a colour map (images, colour-mapped points and
areas, and text drawn over them) is left exactly as drawn. Light and dark are
one file, fetched once; the dark rules are a pure function of the light
drawing, so the dark figure is as stable as the light one.
"""

from __future__ import annotations

import colorsys
import re

from matplotlib.collections import Collection
from matplotlib.image import AxesImage

#: The dark scheme's paper and ink: mkdocs-material's slate background
#: (hsl(225, 15 %, 14 %)) and a text colour a little brighter than its body text.
DARK_PAPER = "#1e2129"
DARK_INK = "#d5d8df"
#: The fragment that switches a figure to the dark scheme (mkdocs-material's name).
DARK_FRAGMENT = "only-dark"
#: The id prefix of what the dark scheme leaves as drawn.
KEEP = "kr-keep"
MARKER_TEMPLATE_STYLE = re.compile(rb'(<path id="m[0-9]+" d="[^"]*") style="[^"]*"')
SVG_COLOUR = re.compile(rb"\b(fill|stroke): (#[0-9a-fA-F]{6})\b")


def keep_colour_mapped(figure) -> None:
    """Mark what a colour map paints (and text drawn over it) to be left as drawn.

    A colour map's colours mean values, so the dark scheme must not move them;
    nor text drawn over them, which was coloured to read against them. The
    mark is an SVG id (``kr-keep-N``, numbered in drawing order).
    """
    kept = []
    for axes in figure.axes:
        painted = [image for image in axes.get_images() if isinstance(image, AxesImage)]
        painted += [collection for collection in axes.collections
                    if isinstance(collection, Collection) and collection.get_array() is not None]
        if not painted:
            continue
        kept += painted
        if axes.texts:
            figure.draw_without_rendering()
            renderer = figure.canvas.get_renderer()
            areas = [artist.get_window_extent(renderer) for artist in painted]
            kept += [text for text in axes.texts
                     if any(text.get_window_extent(renderer).overlaps(area) for area in areas)]
    for number, artist in enumerate(kept, start=1):
        artist.set_gid(f"{KEEP}-{number}")


def dark_colour(colour: str) -> str | None:
    """The dark scheme's colour for a light-scheme colour, or None to keep it.

    Greys (black, white and between) slide along the line from the dark ink to
    the dark paper: black becomes ink, white paper, mid grey stays mid grey.
    Pale tints (shaded bands) become deep tints of the same hue; very dark
    colours become light ones of the same hue. Colours in between, the data
    palette among them, are kept.
    """
    red, green, blue = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    hue, lightness, saturation = colorsys.rgb_to_hls(red, green, blue)
    if saturation < 0.12 or max(red, green, blue) - min(red, green, blue) < 0.06:
        ink, paper = _rgb(DARK_INK), _rgb(DARK_PAPER)
        mixed = [i + (p - i) * lightness for i, p in zip(ink, paper, strict=True)]
        return _hex(mixed)
    if lightness >= 0.8:
        return _hex(colorsys.hls_to_rgb(hue, 1.08 - lightness, saturation))
    if lightness <= 0.2:
        return _hex(colorsys.hls_to_rgb(hue, 0.9 - lightness, saturation))
    return None


def _rgb(colour: str) -> list[float]:
    return [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(min(1.0, max(0.0, v)) * 255):02x}" for v in rgb)


def with_dark_scheme(svg: bytes) -> bytes:
    """The SVG with a style sheet that recolours it when opened as ``…svg#only-dark``.

    An element ``<g id="only-dark"/>`` goes just before the drawing; the rules
    apply to the drawing when that element is the target of the URL's fragment.
    One rule per colour the drawing uses (see :func:`dark_colour`), each
    skipping what :func:`_keep_colour_mapped` marked. Text drawn in black
    carries no colour in matplotlib's SVG, so the drawing's default fill
    becomes the ink (and stays black inside what is kept).
    """
    scope = f"#{DARK_FRAGMENT}:target~#figure_1"
    rules = [f"{scope}{{fill:{DARK_INK}}}", f"{scope} [id^={KEEP}]{{fill:#000000}}"]
    found = sorted({(prop.decode(), value.decode().lower())
                    for prop, value in SVG_COLOUR.findall(svg)})
    for prop, value in found:
        dark = dark_colour(value)
        if dark is not None and dark != value:
            rules.append(f'{scope} [style*="{prop}: {value}"]:not([id^={KEEP}] *)'
                         f"{{{prop}:{dark}!important}}")
    sheet = "\n".join(rules)
    # A marker is drawn by <use> elements that carry its colours; its template
    # in <defs> carries them too, and a style sheet cannot reach the copy a
    # <use> makes of it, so the template's own colours go (the <use> elements'
    # colours, identical in light, are inherited instead and follow the scheme).
    svg = MARKER_TEMPLATE_STYLE.sub(rb"\1", svg)
    head, marker, rest = svg.partition(b"</style>")
    if not marker:
        raise ValueError("matplotlib's SVG has no style element to extend")
    head += ("\n" + sheet).encode()
    rest, figure_marker, tail = rest.partition(b' <g id="figure_1">')
    if not figure_marker:
        raise ValueError("matplotlib's SVG has no figure_1 group")
    return head + marker + rest + f' <g id="{DARK_FRAGMENT}"/>\n'.encode() + figure_marker + tail
