"""Answers to part two's exercises. The timing study is left alone: every answer here is
counted or computed in the build, the same on every machine.

1. Where the memory wall of a machine of a stated size stands.
2. FALKON's passes against forming the normal matrix, at ten million rows.
3. Nyström kernel ridge as block sums, on part one's rows.
"""

from __future__ import annotations

import math

import numpy as np

from kreport import kernels
from kreport.approx import Nystroem
from kreport.pages.at_scale import fits
from kreport.pages.at_scale.settings import (
    BYTES_PER_NUMBER,
    COUNTS,
    GAMMA,
    GIBIBYTE,
    LANDMARK_SEED,
    LARGE_CENTRES,
    MEBIBYTE,
    PENALTY,
    STREAMED_ROWS,
)
from kreport.report import bound, claim

#: The machine of the first exercise: its memory in GiB, and the n × n tables an exact fit
#: holds at once (the table and its factor).
MACHINE_GIB = 16
TABLES = 2
#: The block of rows the code exercise adds up at a time.
BLOCK = 250


def _wall() -> dict:
    """Exercise one: the exact fits' wall on a machine of MACHINE_GIB, by hand."""
    memory = MACHINE_GIB * GIBIBYTE
    rows = math.isqrt(memory // (TABLES * BYTES_PER_NUMBER))
    claim("the wall is a whole power of two of rows, whose tables fill the memory exactly",
          TABLES * BYTES_PER_NUMBER * rows * rows == memory and rows & (rows - 1) == 0,
          id="exact_wall")
    features = BYTES_PER_NUMBER * rows * LARGE_CENTRES
    held_rows = memory // (BYTES_PER_NUMBER * LARGE_CENTRES)
    claim("held whole, the features of {centres} landmarks fit more than {factor} times the "
          "wall's rows", lambda factor: held_rows > factor * rows, id="features_rows",
          centres=LARGE_CENTRES,
          factor=50)
    return {"gib": MACHINE_GIB, "tables": TABLES, "bytes": BYTES_PER_NUMBER,
            "wall_rows": rows, "table_gib": BYTES_PER_NUMBER * rows * rows // GIBIBYTE,
            "gib_bytes": GIBIBYTE, "wall_centres": LARGE_CENTRES,
            "feature_mib": features // MEBIBYTE,
            "held_rows": held_rows}


def _passes() -> dict:
    """Exercise two: FALKON's passes against the normal matrix at M = √n."""
    n = STREAMED_ROWS
    m = math.isqrt(n)
    normal = n * m * m
    one_pass = n * m
    claim("forming the normal matrix costs as many multiply-adds as M passes",
          normal == m * one_pass, id="m_passes")
    return {"rows": n, "centres": m, "normal_work": normal, "pass_work": one_pass,
            "passes": normal // one_pass, "system_mib": BYTES_PER_NUMBER * m * m / MEBIBYTE,
            "features_gib": BYTES_PER_NUMBER * n * m / GIBIBYTE}


def _block_sums() -> dict:
    """Exercise three (code): ΦᵀΦ and Φᵀy_c added up a block of rows at a time."""
    X, y, Xq, _ = fits.rows()
    count = COUNTS[3]
    features = Nystroem(kernels.rbf(GAMMA), count, seed=LANDMARK_SEED).fit(X)
    centred = y - y.mean()
    normal, right = np.zeros((count, count)), np.zeros(count)
    for start in range(0, len(X), BLOCK):
        block = features.transform(X[start : start + BLOCK])
        normal += block.T @ block
        right += block.T @ centred[start : start + BLOCK]
    weights = np.linalg.solve(normal + PENALTY * np.eye(count), right)
    whole = features.transform(X)
    at_once = np.linalg.solve(whole.T @ whole + PENALTY * np.eye(count), whole.T @ centred)
    predicted = y.mean() + features.transform(Xq) @ weights
    library = fits.nystroem_ridge(count).predict(Xq)
    error = fits.held_out_error(predicted)
    part_one = fits.held_out_error(library)
    claim("the block sums' held-out error is part one's at the same M (to {tol} relative)",
          lambda tol: abs(error / part_one - 1) < tol, id="same_error", tol=1e-9)
    claim("a block holds fewer numbers than the whole feature table",
          BLOCK * count < len(X) * count, id="smaller_block")
    return {"count": count, "block": BLOCK, "n": len(X), "blocks": -(-len(X) // BLOCK),
            "penalty": PENALTY, "weights_gap": bound(np.abs(weights - at_once), -11),
            "library_gap": bound(np.abs(predicted - library), -10), "error": error,
            "part_one_error": part_one, "block_numbers": BLOCK * count,
            "whole_numbers": len(X) * count}


def exercises() -> dict:
    """Three exercises: the wall of a stated machine (pencil), FALKON's passes (pencil),
    block sums (code)."""
    return {**_wall(), **_passes(), **_block_sums()}
