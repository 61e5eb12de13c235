"""The home page: what the site is, the order to read it in, its data, and how its
numbers are made and locked.

Its sections read the data sets the other pages use, so what the home page says
about them (sizes, columns, groups, the ideal ring's symmetry, the noise on the
circle) is as generated, and as checked, as everything else.
"""

from __future__ import annotations

import numpy as np

from kreport import data
from kreport.report import Page, claim

#: The ideal ring is drawn round this point (height cm, weight kg); its
#: coordinates are stored to this many decimals.
IDEAL_CENTRE = (160.0, 60.0)
IDEAL_DECIMALS = 1


def _fixture(fixture) -> dict:
    """What every data set's entry prints: its file, size and columns."""
    groups = {}
    if fixture.labels is not None:
        names, counts = np.unique(fixture.labels, return_counts=True)
        groups = {str(name): int(count) for name, count in zip(names, counts, strict=True)}
    return {
        "file": fixture.filename,
        "rows": fixture.n,
        "columns": list(fixture.columns),
        "target": fixture.target_column or "",
        "has_target": fixture.target_column is not None,
        "extras": list(fixture.extras),
        "groups": groups,
        "group_count": len(groups),
    }


def _moves(points: np.ndarray) -> list[np.ndarray]:
    """The ideal ring turned a quarter turn, and mirrored in each axis and diagonal."""
    x, y = points.T
    return [np.column_stack(pair) for pair in
            ((-y, x), (-x, -y), (y, -x), (-x, y), (x, -y), (y, x), (-y, -x))]


def _as_set(points: np.ndarray) -> set:
    return {tuple(row) for row in np.round(points, IDEAL_DECIMALS).tolist()}


def data_sets():
    """Every committed fixture, and what each entry on the home page says about it."""
    fixtures = data.all_fixtures()
    entries = {name: _fixture(fixture) for name, fixture in fixtures.items()}
    largest = max(entry["rows"] for entry in entries.values())
    small = [entry["rows"] for entry in entries.values() if entry["rows"] < largest]
    screen = 100
    claim("every data set but the largest has at most {screen} rows", max(small) <= screen
          and len(small) == len(entries) - 1, id="small", screen=screen)

    ideal = fixtures["ideal_ring"]
    centred = np.asarray(ideal.rows, dtype=float) - IDEAL_CENTRE
    symmetric = all(_as_set(moved) == _as_set(centred) for moved in _moves(centred))
    claim("a quarter turn of the ideal ring about its centre, or its mirror image in either "
          "axis or either diagonal, gives back the same people", symmetric, id="symmetric")

    circle = fixtures["noisy_circle"]
    clean = circle.extra_rows("clean_x1", "clean_x2")
    radii = np.linalg.norm(clean, axis=1)
    noise = np.asarray(circle.rows, dtype=float) - clean
    claim("the noisy circle's clean positions lie on the circle of radius one about the "
          "origin, to the file's four decimals", np.allclose(radii, 1.0, rtol=0, atol=1e-4),
          id="unit_circle")

    clusters = fixtures["three_clusters"]
    sizes = list(entries["three_clusters"]["groups"].values())
    claim("every cluster has the same number of points", len(set(sizes)) == 1, id="equal")

    throws = fixtures["throws"]
    times = np.asarray(throws.rows, dtype=float)[:, 0]
    return {
        "count": len(entries),
        "largest": largest,
        "largest_small": max(small),
        "screen": screen,
        **entries,
        "noise": noise.std(ddof=1),
        "cluster_size": sizes[0],
        "clusters": len(sizes),
        "cluster_points": clusters.n,
        "throw_start": times.min(),
        "throw_end": times.max(),
    }


page = Page(slug="index", title="Kernel methods, measured", template="home.md.j2",
            summary="What the site teaches, the order to read it in, its data, and how "
                    "every number is made and locked.",
            sections=[data_sets])
