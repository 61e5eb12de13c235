"""Reading time: prose words at 120 a minute plus a minute per table and figure."""

import pytest

from kreport.pages.how_built import pages_built
from kreport.report import ClaimFailed, SiteSummary
from kreport.site.markdown import PROVENANCE_OPENING
from kreport.site.reading import ASSIGNABLE_MINUTES, WORDS_PER_MINUTE, reading_minutes


def test_prose_tables_and_figures_are_counted_and_the_audit_is_not():
    prose = " ".join(["word"] * WORDS_PER_MINUTE)
    page = ('<script>(function () { var moved = {"an-anchor": "../elsewhere/#an-anchor"}; '
            '})();</script>\n\n'
            f"# Title\n\n{prose}\n\n| a | b |\n| --- | --- |\n| one | two |\n\n"
            '<figure markdown="span">\n![alt](x.svg)\n</figure>\n\n'
            "$$\nK = \\tilde K\n$$\n\n```python\nlots of code here\n```\n\n"
            f"{PROVENANCE_OPENING}\n    many audit words here\n")
    found = reading_minutes(page)
    assert (found["tables"], found["figures"]) == (1, 1)
    assert found["words"] == WORDS_PER_MINUTE + 1  # prose and title: no script, code, audit
    assert abs(found["minutes"] - (1 + 1 / WORDS_PER_MINUTE + 2)) < 1e-12


def test_the_how_built_page_refuses_a_page_too_long_to_assign():
    def entry(minutes):
        return {"title": "A page", "file": "a.md", "facts": 1, "timed": 0, "claims": 1,
                "figures": 0, "numbers": 1, "exact": 0, "minutes": minutes}

    def site(minutes):
        return SiteSummary(pages={"a": entry(minutes)},
                           stability={"facts_checked": 1, "exact_facts": 0},
                           rules={"words_per_minute": WORDS_PER_MINUTE,
                                  "assignable_minutes": ASSIGNABLE_MINUTES})

    just_under = ASSIGNABLE_MINUTES - 0.5
    assert pages_built(site(just_under))["longest_minutes"] == just_under
    with pytest.raises(ClaimFailed, match=f"no page takes more than {ASSIGNABLE_MINUTES} minutes"):
        pages_built(site(ASSIGNABLE_MINUTES + 0.5))
