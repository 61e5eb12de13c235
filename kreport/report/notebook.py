"""What a notebook imports to hand its facts and claims to the site.

A notebook page is executed by the build. Its code cells compute; a cell that
produces numbers the prose mentions publishes them under a section name::

    from kreport.report.notebook import Section

    data = Section("data")
    data.claim("every cluster has {count} points", counts == 30, count=30)
    data.publish(points=len(rows), clusters=len(names))

and its markdown cells print them exactly as a page template does
(``{{ data.points | num }}``): the build fills the markdown from the published
facts, locks them like a page's facts, lists the claims, and writes the
notebook's manifest. ``publish`` shows nothing in the notebook itself; its
output carries the facts as JSON under :data:`MIMETYPE`, which the build
reads and then removes.
"""

from __future__ import annotations

import os

from .facts import Annotations, Claim, Failure, claim, collecting, plain, recording_failures

MIMETYPE = "application/vnd.kreport.facts+json"


def _encode(value):
    from .facts import Bound

    if isinstance(value, Bound):
        return {"__bound__": value.exponent, "measured": value.measured}
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {key: _encode(item) for key, item in value.items()}
    return value


class Section:
    """One named group of a notebook's facts and claims."""

    def __init__(self, name: str):
        self.name = name
        self.claims: list[Claim] = []
        self.failures: list[Failure] = []
        # The stability check runs the notebook on perturbed fixtures; there a
        # failing claim is recorded and reported instead of stopping the cell.
        self.lenient = bool(os.environ.get("KREPORT_PERTURB_FIXTURES"))

    def claim(self, sentence: str, holds, *, id: str | None = None, exact: str | None = None,
              **values) -> None:
        with collecting(self.name, self.claims):
            if self.lenient:
                with recording_failures(self.failures):
                    claim(sentence, holds, id=id, exact=exact, **values)
            else:
                claim(sentence, holds, id=id, exact=exact, **values)

    def publish(self, **facts) -> None:
        """Hand ``facts`` (and this section's claims) to the build."""
        from IPython.display import display

        notes = Annotations()
        with collecting(self.name, self.claims):
            values = plain(facts, self.name, notes)
        payload = {
            "section": self.name,
            "facts": _encode(values),
            "exact": notes.exact,
            "rtol": notes.rtol,
            "claims": [{"template": c.template, "values": list(c.values),
                        "exact_reason": c.exact_reason, "id": c.id} for c in self.claims],
            "failures": [f.message for f in self.failures],
        }
        display({MIMETYPE: payload}, raw=True)
