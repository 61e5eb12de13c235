"""The home page: what the site is, and how its numbers are made and locked.

Its one section measures the data sets the other pages use, so the table of
fixtures on the home page is as generated as everything else.
"""

from kreport.report import Page

page = Page(slug="index", title="Kernel methods, measured", template="home.md.j2")
