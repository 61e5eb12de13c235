"""The cost wall of the exact methods on the machine the timing study ran on."""

from __future__ import annotations

import math

from kreport.kpca import KernelPCA
from kreport.report import claim

from . import measured
from .settings import BYTES_PER_NUMBER, DIRECTIONS, GIBIBYTE, MEBIBYTE, MILLION

SECONDS_PER_DAY = 86_400
#: Bands the fitted exponents must fall in (tests/test_timings.py locks the same).
RIDGE_TIME_BAND = (2.0, 3.5)
MEMORY_BAND = (1.8, 2.2)
#: How many n × n tables the fits may hold at once for the page's reading to stand.
COPIES_BAND = (1.5, 3.0)
#: The power of n that one product of the n × n table with a vector costs.
PRODUCT_POWER = 2


def table_mib(rows: int) -> float:
    return BYTES_PER_NUMBER * rows * rows / MEBIBYTE


def study() -> dict:
    """The wall study's numbers, without claims (the figure draws from here too)."""
    found = measured.raw()["wall"]
    settings = measured.raw()["settings"]
    rows = [{"rows": entry["rows"],
             "ridge_seconds": entry["kernel_ridge"]["seconds"],
             "ridge_mib": entry["kernel_ridge"]["added_mib"],
             "pca_seconds": entry["kernel_pca"]["seconds"],
             "pca_mib": entry["kernel_pca"]["added_mib"],
             "table_mib": table_mib(entry["rows"])} for entry in found["sizes"]]
    fitted = [row for row in rows if row["rows"] >= found["fit_from"]]
    counts = [row["rows"] for row in fitted]
    exponents = {key: measured.growth_exponent(counts, [row[key] for row in fitted])
                 for key in ("ridge_seconds", "pca_seconds", "ridge_mib", "pca_mib")}
    last = rows[-1]
    copies = max(last["ridge_mib"], last["pca_mib"]) / last["table_mib"]
    memory = measured.memory_bytes()
    wall_rows = int(math.sqrt(memory / (BYTES_PER_NUMBER * copies)))
    return {
        "machine": measured.machine(), "rows": rows, "fit_from": found["fit_from"],
        # the settings the study recorded it fitted with (tests/test_timings.py checks
        # they are the page's)
        "gamma": settings["gamma"], "penalty": settings["penalty"],
        "directions": settings["directions"],
        "ridge_time_exponent": exponents["ridge_seconds"],
        "pca_time_exponent": exponents["pca_seconds"],
        "ridge_memory_exponent": exponents["ridge_mib"],
        "pca_memory_exponent": exponents["pca_mib"],
        "largest": last["rows"], "largest_ridge_seconds": last["ridge_seconds"],
        "largest_pca_seconds": last["pca_seconds"],
        "largest_ridge_mib": last["ridge_mib"], "largest_table_mib": last["table_mib"],
        "copies": copies, "memory_gib": memory / GIBIBYTE,
        "one_table_rows": math.isqrt(memory // BYTES_PER_NUMBER), "wall_rows": wall_rows,
        "wall_minutes": last["ridge_seconds"] / 60
        * (wall_rows / last["rows"]) ** exponents["ridge_seconds"],
        "million_days": last["ridge_seconds"] / SECONDS_PER_DAY
        * (MILLION / last["rows"]) ** exponents["ridge_seconds"],
        "million_days_cubic": last["ridge_seconds"] / SECONDS_PER_DAY
        * (MILLION / last["rows"]) ** 3,
        "million_stretch": MILLION / last["rows"],
        "million": MILLION, "ridge_band": list(RIDGE_TIME_BAND),
        "memory_band": list(MEMORY_BAND), "copies_band": list(COPIES_BAND),
    }


def wall():
    """Time and peak memory of exact kernel ridge and kernel PCA as the rows double."""
    found = study()
    low, high = RIDGE_TIME_BAND
    claim("exact kernel ridge's time grows with an exponent between {low} and {high}",
          low < found["ridge_time_exponent"] < high, id="ridge_exponent", low=low, high=high)
    low, high = MEMORY_BAND
    claim("both fits' memory grows with an exponent between {low} and {high}",
          all(low < found[key] < high
              for key in ("ridge_memory_exponent", "pca_memory_exponent")),
          id="memory_exponent", low=low, high=high)
    low, high = COPIES_BAND
    claim("at the most rows the fits hold between {low} and {high} tables' worth of memory",
          low < found["copies"] < high, id="copies", low=low, high=high)
    # The RBF kernel is positive semidefinite, so KernelPCA's solver turns on rows and
    # directions alone (kreport.kpca.KernelPCA, "Solver").
    claim("kreport's KernelPCA finds its directions with the iterative solver at every size "
          "measured", all(row["rows"] >= KernelPCA.ITERATIVE_MIN_ROWS for row in found["rows"])
          and DIRECTIONS <= KernelPCA.ITERATIVE_MAX_COMPONENTS, id="iterative")
    claim("kernel PCA's time grows with an exponent below {square}, the power of its "
          "products of the table with vectors",
          lambda square: found["pca_time_exponent"] < square, id="pca_below_square",
          square=PRODUCT_POWER)
    claim("at the most rows kernel ridge takes longer than kernel PCA",
          found["largest_ridge_seconds"] > found["largest_pca_seconds"], id="ridge_slower")
    claim("kernel ridge at the memory wall would take less than a day",
          found["wall_minutes"] * 60 < SECONDS_PER_DAY, id="memory_first")
    return {**found, "product_power": PRODUCT_POWER}
