"""What kreport's Nyström fit costs as M grows with n, and what FALKON changes.

Counting, not timing: the numbers are the same on every machine.
"""

from __future__ import annotations

import math

from .settings import BYTES_PER_NUMBER, MEBIBYTE, MILLION, STREAMED_ROWS, TEBIBYTE


def beyond():
    """Multiply-adds of kreport's route at M = √n against one pass of an iterative solver."""
    rows = STREAMED_ROWS
    centres = math.isqrt(rows)
    return {
        "rows": rows, "centres": centres, "bytes": BYTES_PER_NUMBER,
        "normal_work": rows * centres * centres,
        "pass_work": rows * centres,
        "system_mib": BYTES_PER_NUMBER * centres * centres / MEBIBYTE,
        "million": MILLION,
        "million_table_tib": BYTES_PER_NUMBER * MILLION * MILLION / TEBIBYTE,
    }
