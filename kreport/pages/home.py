"""The home page: what the site is, and how its numbers are made and locked.

Its one section reads the data sets the other pages use, so the table of
fixtures on the home page is as generated as everything else.
"""

from kreport import data
from kreport.report import Page, claim

page = Page(slug="index", title="Kernel methods, measured", template="home.md.j2")


@page.section
def data_sets():
    """Every committed fixture: its file, size and columns."""
    table = {
        name: {
            "file": fixture.filename,
            "rows": fixture.n,
            "columns": list(fixture.columns),
            "target": fixture.target_column or "",
        }
        for name, fixture in data.all_fixtures().items()
    }
    largest = max(entry["rows"] for entry in table.values())
    screen = 100
    claim("every data set is small enough to print whole on one screen (at most {screen} "
          "rows)", largest <= screen, screen=screen)
    return {"count": len(table), "largest": largest, **table}
