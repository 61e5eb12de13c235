"""What lifting costs: features per row against the kernel table, counted exactly."""

from __future__ import annotations

import math

from kreport.report import claim

from . import fits
from .polynomial import monomials

#: Input dimensions and degrees of the counting table.
DIMENSIONS = (2, 10, 100, 1000)
DEGREES = (2, 3, 5)
#: Table row lengths to compare with: the ring's rows, and a larger data set.
LARGE_N = 10_000


def features(p: int, d: int) -> int:
    """Monomials of degree at most d in p variables: the polynomial kernel's feature count."""
    return math.comb(p + d, d)


def counting() -> dict:
    """C(p + d, d) features per row, against n entries in a row of the kernel table, and the
    multiplications one table entry costs each way."""
    n = int(fits.rows("ring").shape[0])
    p_ring = int(fits.rows("ring").shape[1])
    rows = []
    for p in DIMENSIONS:
        rows.append({"p": p, "features": [features(p, d) for d in DEGREES],
                     "kernel_cost": [p + d for d in DEGREES]})
    claim("listing the monomials gives the same counts as the formula for the small cases",
          all(monomials(p, d) == features(p, d) for p in (2, 3, 4) for d in range(6)),
          id="formula")
    crossover = next(d for d in range(1, 100) if features(p_ring, d) >= n)
    claim("on the ring's two features, the degree-{d} map is the first with at least as many "
          "features as the ring has rows", features(p_ring, crossover) >= n
          > features(p_ring, crossover - 1), id="crossover", d=crossover)
    big = features(DIMENSIONS[-1], DEGREES[-1])
    claim("at p = {p} and degree {d} the features per row outnumber the entries of a table "
          "row for {large} rows by more than a million times", lambda large: big > 1e6 * large,
          id="explodes", p=DIMENSIONS[-1], d=DEGREES[-1], large=LARGE_N)
    claim("a table entry through the kernel costs fewer multiplications than through the "
          "features in every case of the table",
          all(row["kernel_cost"][j] < row["features"][j] for row in rows
              for j in range(len(DEGREES))), id="cheaper")
    return {
        "degrees": list(DEGREES),
        "rows": rows,
        "ring_n": n,
        "ring_p": p_ring,
        "crossover": crossover,
        "crossover_features": features(p_ring, crossover),
        "ring_table": n * n,
        "ring_feature_table": n * features(p_ring, crossover),
        "large_n": LARGE_N,
        "big": big, "big_ratio": big / LARGE_N,
    }
