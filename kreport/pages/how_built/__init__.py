"""How this site is built: how a number gets onto a page, and how to check it.

This page reads the whole site: the build hands its sections the counts of
every other page and the stability check's result (``reads_site=True``), so
its numbers are as generated, and as locked, as any other page's.
"""

from __future__ import annotations

from kreport.report import Page, SiteSummary, bound, claim
from kreport.report.facts import DEFAULT_RTOL

#: The stability check's result is printed as a bound with this exponent: the
#: largest spread of any printed number, in units of its last printed digit.
SPREAD_EXPONENT = -2


def pages_built(site: SiteSummary) -> dict:
    """Every page and notebook: its title and what it holds."""
    rows = [{key: entry[key] for key in
             ("title", "file", "facts", "claims", "figures", "numbers", "exact", "minutes")}
            for slug, entry in sorted(site.pages.items())]
    totals = {key: sum(row[key] for row in rows)
              for key in ("facts", "claims", "figures", "numbers", "exact")}
    timed = sum(entry["timed"] for entry in site.pages.values())
    claim("every page of the site asserts at least one claim",
          all(row["claims"] > 0 for row in rows), id="every_page_claims")
    checked, exact = site.stability["facts_checked"], site.stability["exact_facts"]
    claim("every fact of the other pages is either checked on perturbed data, exact, or of "
          "the timing study",
          checked + exact + timed == totals["facts"], id="facts_accounted")
    limit = site.rules["assignable_minutes"]
    longest = max(rows, key=lambda row: row["minutes"])
    # The failure names the offender: a claim's sentence can print only numbers.
    too_long = [row["file"] for row in rows if row["minutes"] > limit]
    claim("no page takes more than {limit} minutes to read" + (
              f" (over it: {', '.join(too_long)})" if too_long else ""),
          lambda limit: longest["minutes"] <= limit, id="assignable", limit=limit)
    return {"rows": rows, "pages": len(rows), "timed": timed,
            "words_per_minute": site.rules["words_per_minute"],
            "assignable_minutes": limit, "longest_minutes": longest["minutes"],
            "longest_title": longest["title"], **totals}


def stability(site: SiteSummary) -> dict:
    """The stability check's result on this build."""
    result = site.stability
    claim("the stability check found no printed digit, lock, bound or figure that the "
          "perturbed recomputations moved", result["problems"] == 0, id="clean")
    return {
        "replicas": result["replicas"], "ulps": result["ulps"], "margin": result["margin"],
        "exact_nudge": result["exact_nudge"],
        "printed": result["printed_checked"], "facts": result["facts_checked"],
        "figure_arrays": result["figure_arrays_checked"], "exact": result["exact_facts"],
        "largest_spread": bound(result["largest_printed_ratio"], SPREAD_EXPONENT),
    }


def tolerances(site: SiteSummary) -> dict:
    """The one rule by which a fresh build equals the committed one."""
    return {"default_rtol": DEFAULT_RTOL, "svg_px": site.rules["svg_tolerance_px"]}


page = Page(slug="how-built", title="How this site is built", template="how_built.md.j2",
            summary="How a number gets onto a page, and how to check any of them.",
            sections=[pages_built, stability, tolerances], reads_site=True)
