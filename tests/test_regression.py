"""Every page's facts, locked by pytest-regressions.

Numbers are compared with a relative tolerance tight enough that any real
change fails and BLAS-level noise does not (noise itself is printed as bounds,
which are locked exactly with the strings and the claims). A failure names the
fact's key. After an intended change: regenerate with `make docs`, run
`.venv/bin/pytest tests/test_regression.py --force-regen`, and say why in the
commit message.
"""

from __future__ import annotations

import numpy as np
import pytest

from kreport.report.facts import Bound

from .conftest import PAGES

MACHINE_SPECIFIC = {page.slug: set(page.machine_specific) for page in PAGES}

TOLERANCE = {"rtol": 1e-7, "atol": 1e-10}


def flatten(value, key: str, numbers: dict, others: dict) -> None:
    if isinstance(value, dict):
        for name, item in value.items():
            flatten(item, f"{key}.{name}", numbers, others)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            flatten(item, f"{key}[{index}]", numbers, others)
    elif isinstance(value, bool | str) or value is None:
        others[key] = value
    elif isinstance(value, Bound):
        others[key] = f"below 1e{value.exponent}"
    else:
        numbers[key] = np.array([float(value)])


@pytest.mark.parametrize("slug", [page.slug for page in PAGES])
def test_facts_are_locked(slug, fresh_outputs, num_regression, data_regression):
    result = fresh_outputs(slug).result
    numbers: dict = {}
    others: dict = {}
    for section, facts in result.facts.items():
        if section not in MACHINE_SPECIFIC[slug]:  # timings: their shape is tested elsewhere
            flatten(facts, section, numbers, others)
    others["claims"] = [f"{claim.section}: {claim.sentence}" for claim in result.claims
                        if claim.section not in MACHINE_SPECIFIC[slug]]
    # num_regression ignores expected columns it is no longer given, so the
    # list of numeric keys is locked here: a number that disappears fails too.
    others["numeric_keys"] = sorted(numbers)
    data_regression.check(others)
    if numbers:
        num_regression.check(numbers, default_tolerance=TOLERANCE)
