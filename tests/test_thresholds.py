"""A claim's threshold is written once (kreport.site.thresholds, kreport.report.claim)."""

import textwrap

import pytest

from kreport.report import ClaimFailed, claim
from kreport.site.thresholds import repeated_thresholds, scan_sources


def _found(source: str) -> list[tuple[str, str]]:
    return [(item.keyword, item.value)
            for item in repeated_thresholds(textwrap.dedent(source), "page.py")]


def test_a_threshold_typed_in_the_check_and_the_keyword_is_found():
    assert _found('claim("above {limit}", lockstep > 0.99, id="x", limit=0.99)') \
        == [("limit", "0.99")]
    assert _found('claim("above {limit}", gap < LIMIT, limit=LIMIT)') == [("limit", "LIMIT")]
    assert _found('section.claim("under {tol}", lambda: err < 1e-12, tol=1e-12)') \
        == [("tol", "1e-12")]


def test_a_negative_threshold_matches_its_negated_literal_only():
    assert _found('claim("above {limit}", x > -1e-12, limit=-1e-12)') == [("limit", "-1e-12")]
    # a positive keyword and the negated literal: the same number typed twice
    assert _found('claim("above minus {limit}", x > -1e-12, limit=1e-12)') \
        == [("limit", "1e-12")]
    assert _found('claim("above {limit}", x > 1e-12, limit=-1e-12)') == []


def test_the_written_once_forms_pass():
    assert _found('claim("above {limit}", lambda limit: lockstep > limit, limit=0.99)') == []
    assert _found('claim("the second share {share}", shares[1] > 0.5, share=1)') == []
    assert _found('claim("exact", total == 3, id="x", exact="whole numbers")') == []
    assert _found('claim("a count of {n}", ok, n=3)') == []


def test_the_build_refuses_a_page_package_with_a_repeated_threshold(tmp_path, monkeypatch):
    package = tmp_path / "throwaway_page"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "sections.py").write_text(
        'def one():\n    claim("gap under {limit}", gap < 0.01, limit=0.01)\n')
    monkeypatch.syspath_prepend(str(tmp_path))

    class Page:
        module = "throwaway_page"

    import importlib

    importlib.import_module("throwaway_page")
    problems = scan_sources([Page()], [], tmp_path)
    assert problems == ["throwaway_page/sections.py:2: the claim types 0.01 twice, as limit= and "
                        "in its check; write it once: pass the check as `lambda limit: …` and "
                        "use limit in it"]


def test_a_claim_check_receives_its_keywords_by_name():
    seen = {}

    def check(limit, count):
        seen.update(limit=limit, count=count)
        return count > limit

    claim("more than {limit} of {count}", check, limit=2, count=3)
    assert seen == {"limit": 2, "count": 3}
    with pytest.raises(ClaimFailed, match="more than 4 of 3"):
        claim("more than {limit} of {count}", lambda limit, count: count > limit,
              limit=4, count=3)
    with pytest.raises(TypeError, match=r"takes \['limt'\]"):
        claim("under {limit}", lambda limt: True, limit=1)
