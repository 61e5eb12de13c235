"""The timing study: read, never measured, during the build.

``scripts/refresh_timings.py`` (``make timings``) measures on the machine it runs
on and writes ``timings/at-scale.json`` beside this module; nothing else writes
it. The sections that read it (``cost.wall``, ``large.million``,
``large.streamed``) are the page's ``machine_specific`` ones: left out of the
stability check and the regression lock, whose tests (tests/test_timings.py)
lock the shape of the study instead.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from kreport.report.timings import read_timings

from .settings import GIBIBYTE

TIMINGS = Path(__file__).with_name("timings") / "at-scale.json"


@cache
def raw() -> dict:
    return read_timings(TIMINGS)


def growth_exponent(sizes, values) -> float:
    """Least-squares slope of log(value) against log(size)."""
    slope, _ = np.polyfit(np.log(np.asarray(sizes, dtype=float)),
                          np.log(np.asarray(values, dtype=float)), 1)
    return float(slope)


def machine() -> dict:
    """The machine the study ran on, as the strings and numbers the page prints."""
    found = raw()["machine"]
    return {
        "platform": str(found["platform"]), "processor": str(found["processor"]),
        "cores": int(found["cores"]), "blas_threads": int(found["blas_threads"]),
        "memory_gib": found["memory_bytes"] / GIBIBYTE,
        "python": str(found["python"]), "numpy": str(found["numpy"]),
        "scipy": str(found["scipy"]), "scikit_learn": str(found["scikit_learn"]),
        "measured_on": str(found["measured_on"]),
        "load_before": str(found["load_average"]), "load_after": str(found["load_average_after"]),
        "repeats": int(raw()["repeats"]),
    }


def memory_bytes() -> int:
    return int(raw()["machine"]["memory_bytes"])
