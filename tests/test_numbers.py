"""The one number formatter: the site's printing rules, checked case by case."""

import math

import pytest

from kreport.report.facts import Bound
from kreport.report.numbers import NumberFormatError, format_number, format_tex


@pytest.mark.parametrize(
    ("value", "options", "expected"),
    [
        (0.6341, {}, "0.634"),
        (134449.5, {"dec": 1}, "134,449.5"),
        (134449.5, {"sig": 7}, "134,449.5"),
        (3316.45, {"sig": 4}, "3,316"),
        (-40.9, {"sig": 3}, "\u221240.9"),
        (-0.0001, {"sig": 2}, "\u22121.0 \u00d7 10\u207b\u2074"),
        (2.7e-18, {"sig": 2}, "2.7 \u00d7 10\u207b\u00b9\u2078"),
        (6.2e8, {"sig": 2}, "6.2 \u00d7 10\u2078"),
        (1e-9, {"sig": 1}, "10\u207b\u2079"),
        (12105, {}, "12,105"),
        (-3, {}, "\u22123"),
        (5, {"words": True}, "five"),
        (35, {"words": True}, "35"),
        (0.0354, {"sig": 3}, "0.0354"),
        (0.00095, {"sig": 2, "sci": False}, "0.00095"),
        (0.125, {"sig": 2}, "0.12"),  # half to even, on the decimal digits shown
        (72.0, {"dec": 2}, "72.00"),
        (-0.0004, {"dec": 2, "sci": False}, "0.00"),  # no negative zero
    ],
)
def test_format_number(value, options, expected):
    assert format_number(value, **options) == expected


def test_bounds_print_as_a_power_of_ten():
    assert format_number(Bound(-12)) == "below 10\u207b\u00b9\u00b2"
    assert format_tex(Bound(-15)) == r"\text{below }10^{-15}"


def test_tex_uses_ascii_minus_and_times():
    assert format_tex(-2.7e-18, sig=2) == r"-2.7 \times 10^{-18}"
    assert format_tex(134449.5, dec=1) == "134{,}449.5"
    assert format_tex(-1, sig=None) == "-1"


@pytest.mark.parametrize("bad", [math.nan, math.inf, "seven", None])
def test_refuses_what_is_not_a_finite_number(bad):
    with pytest.raises(NumberFormatError):
        format_number(bad)


def test_sig_and_dec_together_are_refused():
    with pytest.raises(NumberFormatError, match="not both"):
        format_number(1.5, sig=2, dec=1)
