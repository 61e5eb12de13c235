"""Reading time: prose words at 120 a minute plus a minute per table and figure."""

from kreport.site.markdown import PROVENANCE_OPENING
from kreport.site.reading import WORDS_PER_MINUTE, reading_minutes


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
