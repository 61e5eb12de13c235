"""What a page module imports: facts, claims, number formatting, figures.

Page modules import what they need from here::

    from kreport.report import Page, Figure, bound, claim, exact, within, new_figure, COLOURS

The driver that builds the site from pages (caching, writing docs/, the
stability check, the drift rules) is :mod:`kreport.site`; pages never import it.
"""

from .facts import DEFAULT_RTOL, Bound, ClaimFailed, bound, claim, exact, within
from .figures import COLOURS, HEATMAP, SEQUENCE, new_figure
from .numbers import format_number, format_tex
from .page import Figure, Page, SiteSummary
from .playground import Control, Grid, Playground, phrase, shown, shown_within

__all__ = [
    "COLOURS",
    "DEFAULT_RTOL",
    "HEATMAP",
    "SEQUENCE",
    "Bound",
    "ClaimFailed",
    "Control",
    "Figure",
    "Grid",
    "Page",
    "Playground",
    "SiteSummary",
    "bound",
    "claim",
    "exact",
    "format_number",
    "format_tex",
    "new_figure",
    "phrase",
    "shown",
    "shown_within",
    "within",
]
