"""Answers to part one's exercises: counting, a Nyström table by hand, and how far uniform
landmarks are from the best table of their rank. No timings: every answer is the same on
every machine.

1. The memory and the operations of the exact table against Nyström features.
2. The three people's table from one landmark.
3. Nyström's table error against the best possible at the same rank.
"""

from __future__ import annotations

import numpy as np

from kreport import data, kernels
from kreport.report import claim

from . import fits
from .settings import BYTES_PER_NUMBER, COUNTS, GAMMA

#: The pencil exercise's RBF gamma on the three people's heights (1/cm²), and its landmark.
PEOPLE_GAMMA = 1.0
LANDMARK = 1
#: The landmark counts of the code exercise.
CODE_COUNTS = (COUNTS[0], COUNTS[2], COUNTS[4])


def _counting() -> dict:
    """Exercise one: bytes and multiply-adds, by hand."""
    n = len(fits.rows()[0])
    m = COUNTS[3]
    size = BYTES_PER_NUMBER
    claim("the features are smaller than the table by the factor n/M, and the work by its "
          "square", size * n * m * (n // m) == size * n * n
          and n * m * m * (n // m) ** 2 == n**3, id="ratios")
    claim("doubling n multiplies the table by {four} and its factorisation by {eight}, the "
          "features and their sums by {two}",
          lambda four, eight,
          two: size * (two * n) ** two == four * size * n * n and (two * n) ** 3 == eight * n**3
          and size * two * n * m == two * size * n * m, id="doubling", four=4, eight=8, two=2)
    return {"n": n, "m": m, "bytes": size, "table_bytes": size * n * n,
            "feature_bytes": size * n * m, "landmark_bytes": size * m * m,
            "memory_ratio": n // m, "exact_work": n**3, "nystroem_work": n * m * m,
            "work_ratio": (n // m) ** 2, "doubled": 2 * n,
            "doubled_table_bytes": size * (2 * n) ** 2, "doubled_feature_bytes": size * 2 * n * m,
            "doubled_exact_work": (2 * n) ** 3, "doubled_nystroem_work": 2 * n * m * m}


def _one_landmark() -> dict:
    """Exercise two: the three people's heights, one landmark."""
    heights = np.asarray(data.three_people().rows, dtype=float)[:, :1]
    kernel = kernels.rbf(PEOPLE_GAMMA)
    table = kernel(heights, heights)
    marks = heights[LANDMARK : LANDMARK + 1]
    features = kernel(heights, marks) / np.sqrt(kernel(marks, marks)[0, 0])
    approximate = features @ features.T
    difference = np.linalg.eigvalsh(table - approximate)[::-1]
    claim("B's row of the approximate table is exact (to {tol})",
          lambda tol: np.max(np.abs(approximate[LANDMARK] - table[LANDMARK])) < tol,
          id="landmark_row", tol=1e-15)
    claim("the approximate entry between A and C is above the exact one",
          approximate[0, 2] > table[0, 2], id="entry_above")
    claim("every approximate diagonal entry is at most the exact one",
          bool(np.all(np.diag(approximate) <= np.diag(table))), id="diagonal")
    claim("the difference has two eigenvalues above zero and no negative one (to {tol})",
          lambda tol: difference[1] > 0 and difference[2] > -tol, id="psd", tol=1e-15)
    return {"people_gamma": PEOPLE_GAMMA, "heights": heights[:, 0].tolist(),
            "exact_table": table.tolist(), "approximate_table": approximate.tolist(),
            "difference_eigenvalues": difference[:2].tolist()}


def _best_rank() -> dict:
    """Exercise three (code): Nyström's table error against Eckart and Young's best."""
    table = fits.held_out_table(GAMMA)
    values = np.linalg.eigvalsh(table)[::-1]
    norm = np.linalg.norm(table)
    errors = fits.table_errors(GAMMA)["nystroem"]
    rows = []
    for count in CODE_COUNTS:
        best = float(np.sqrt(np.sum(values[count:] ** 2)) / norm)
        nystroem = errors[COUNTS.index(count)]
        rows.append({"count": count, "nystroem": nystroem, "best": best,
                     "ratio": nystroem / best})
    claim("at every M the Nyström table's error is at least the best of its rank",
          all(row["nystroem"] >= row["best"] for row in rows), id="above_best")
    ratios = [row["ratio"] for row in rows]
    claim("the ratio of the two grows with M", bool(np.all(np.diff(ratios) > 0)),
          id="ratio_grows")
    return {"held_out": len(table), "gamma": GAMMA, "best_rows": rows}


def exercises() -> dict:
    """Three exercises: counting (pencil), one landmark (pencil), the best table of rank M
    (code)."""
    return {**_counting(), **_one_landmark(), **_best_rank()}
