"""The one number formatter: the site's printing rules, checked case by case."""

import math
from decimal import Decimal

import pytest

from kreport.report.facts import Bound
from kreport.report.numbers import NumberFormatError, format_number, format_tex
from kreport.report.printed_bounds import broken_bounds, printed_value


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


@pytest.mark.parametrize(
    ("value", "options", "expected"),
    [
        (0.9986, {"sig": 3, "toward": "down"}, "0.998"),
        (0.9986, {"sig": 3}, "0.999"),
        (0.000903, {"sig": 1, "sci": False, "toward": "up"}, "0.0010"),  # quantum of 0.0009
        (0.000903, {"sig": 2, "sci": False, "toward": "up"}, "0.00091"),
        (-0.000903, {"sig": 2, "sci": False, "toward": "up"}, "\u22120.00090"),
        (2.71e-18, {"sig": 2, "toward": "up"}, "2.8 \u00d7 10\u207b\u00b9\u2078"),
        (12105, {"sig": 2, "toward": "down"}, "12,000"),
    ],
)
def test_a_bound_is_rounded_the_way_it_promises(value, options, expected):
    assert format_number(value, **options) == expected


def test_rounding_towards_an_unknown_side_is_refused():
    with pytest.raises(NumberFormatError, match="toward"):
        format_number(0.5, sig=1, toward="nearest")


def _printed(key, text):
    return f'<span class="fact" data-fact="{key}" title="t">{text}</span>'


def test_a_lower_bound_rounded_up_is_caught_and_the_fix_named():
    markdown = f"the fit explains at least {_printed('fit.r2', '0.999')} of it"
    (problem,) = broken_bounds(markdown, {"fit.r2": 0.9986})
    assert "fit.r2" in problem and 'toward="down"' in problem


def test_an_upper_bound_rounded_down_is_caught():
    markdown = f"and at most {_printed('far', '0.0009')} with anyone further"
    (problem,) = broken_bounds(markdown, {"far": 0.000903})
    assert 'toward="up"' in problem


@pytest.mark.parametrize(
    ("words", "text", "value"),
    [
        ("at least", "0.998", 0.9986),     # rounded down: the bound holds
        ("below", "10\u207b\u00b9\u2070", 1e-10),  # a limit printed exactly
        ("more than", "1.2 \u00d7 10\u2078", 1.23e8),
        ("fewer than", "four", 3),
        ("roughly", "0.999", 0.9986),      # not a bound's words
    ],
)
def test_bounds_the_value_keeps_pass(words, text, value):
    assert broken_bounds(f"{words} {_printed('k', text)}", {"k": value}) == []


def test_printed_text_reads_back_as_the_number_it_says():
    assert printed_value("\u22122.7 \u00d7 10\u207b\u00b9\u2078") == Decimal("-2.7e-18")
    assert printed_value("10\u207b\u2079") == Decimal("1e-9")
    assert printed_value("134,449.5") == Decimal("134449.5")
    assert printed_value("three") == 3
    assert printed_value("x\u2082") is None
