"""The report machinery: facts, claims, number formatting, figures and the build.

Page modules import what they need from here::

    from kreport.report import Page, bound, claim, new_figure, COLOURS
"""

from .facts import Bound, ClaimFailed, bound, claim
from .figures import COLOURS, HEATMAP, SEQUENCE, new_figure
from .numbers import format_number, format_tex
from .page import Page

__all__ = [
    "COLOURS",
    "HEATMAP",
    "SEQUENCE",
    "Bound",
    "ClaimFailed",
    "Page",
    "bound",
    "claim",
    "format_number",
    "format_tex",
    "new_figure",
]
