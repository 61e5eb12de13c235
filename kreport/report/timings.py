"""Timing files: measurements that are data, written only by ``make timings``.

A timing study is measured on one machine by ``scripts/refresh_timings.py`` and
read by the pages that print it. Two rules keep a hand edit off the site:

* **The seal.** The writer stores a SHA-256 of the file's content (everything but
  the seal itself, as canonical JSON) and the command that wrote it. A file whose
  seal is missing or does not match was not written by ``make timings``.
* **Statistics follow from the runs.** Wherever a file records the raw runs
  (``all_seconds``) beside the statistic printed from them (``seconds``, their
  median), the two must agree exactly.

:func:`read_timings` refuses a file that breaks either rule with
:class:`TimingsError`, naming the file and saying to rerun ``make timings``.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from pathlib import Path

from kreport.errors import KreportError

SEAL = "seal"
COMMAND = "make timings (scripts/refresh_timings.py)"


class TimingsError(KreportError, ValueError):
    """A timing file that ``make timings`` did not write as it stands."""


def _digest(study: dict) -> str:
    content = {key: value for key, value in study.items() if key != SEAL}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def sealed(study: dict) -> dict:
    """The study with its seal, as the writer stores it."""
    return {**{key: value for key, value in study.items() if key != SEAL},
            SEAL: {"command": COMMAND, "sha256": _digest(study)}}


def _disagreements(value, where: str) -> list[str]:
    found = []
    if isinstance(value, dict):
        runs = value.get("all_seconds")
        if isinstance(runs, list) and "seconds" in value and runs:
            median = statistics.median(runs)
            if value["seconds"] != median:
                found.append(f"{where}: seconds is {value['seconds']!r} but the median of its "
                             f"runs {runs!r} is {median!r}")
        for key, item in value.items():
            found += _disagreements(item, f"{where}.{key}" if where else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _disagreements(item, f"{where}[{index}]")
    return found


def read_timings(path: Path) -> dict:
    """The study in ``path``, refused unless ``make timings`` wrote it as it is."""
    path = Path(path)
    study = json.loads(path.read_text(encoding="utf-8"))
    seal = study.get(SEAL)
    if not isinstance(seal, dict) or seal.get("sha256") != _digest(study):
        raise TimingsError(
            f"{path}: this timing file was not written by `make timings` as it stands (its "
            "seal is missing or does not match its content, so it was edited by hand). Rerun "
            "`make timings` to measure again; never edit a timing file.")
    problems = _disagreements(study, "")
    if problems:
        raise TimingsError(
            f"{path}: its statistics disagree with its own runs ("
            + "; ".join(problems[:3]) + "). Rerun `make timings`; never edit a timing file.")
    return study
