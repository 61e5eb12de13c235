"""The approximate fits at a million rows, and the streamed fit on Dask (measured elsewhere)."""

from __future__ import annotations

from kreport.report import claim

from . import fits, measured
from .settings import BYTES_PER_NUMBER, GIBIBYTE, MEBIBYTE, MILLION, NOISE, PCA_CENTRES, PENALTY

#: The Dask fit must reproduce the in-memory fit to this relative tolerance.
AGREEMENT = 1e-9
#: Bands the fitted exponents must fall in (tests/test_timings.py locks the same).
ROWS_BAND = (0.8, 1.2)
CENTRES_BAND = (1.0, 2.2)
#: How close the million-row fit's held-out error comes to the noise floor.
NEAR_FLOOR = 0.02
#: Tables of n × M numbers a Nyström kernel PCA holds at once: the features, PCA's centred
#: copy of them and the residual table it computes for its reconstruction error.
PCA_TABLES = 3


def million():
    """Nyström kernel ridge as rows and centres grow; scikit-learn beside it; kernel PCA."""
    study = measured.raw()
    nystroem = study["nystroem"]
    by_rows = [{"rows": e["rows"], "seconds": e["seconds"], "mib": e["added_mib"],
                "peak_mib": e["peak_mib"]} for e in nystroem["by_rows"]]
    by_centres = [{"centres": e["centres"], "seconds": e["seconds"], "mib": e["added_mib"]}
                  for e in nystroem["by_centres"]]
    rows_exponent = measured.growth_exponent([e["rows"] for e in by_rows],
                                             [e["seconds"] for e in by_rows])
    centres_exponent = measured.growth_exponent([e["centres"] for e in by_centres],
                                                [e["seconds"] for e in by_centres])
    largest = nystroem["by_rows"][-1]
    centres = nystroem["centres"]
    study_rows = nystroem["by_centres"][0]["rows"]
    ours = next(e for e in nystroem["by_centres"] if e["centres"] == centres)
    sklearn = study["sklearn"]
    memory = measured.memory_bytes()
    # scikit-learn's pipeline holds the (n, M) feature table and Ridge's centred copy.
    sklearn_million = 2 * BYTES_PER_NUMBER * MILLION * centres
    pca = study["nystroem_pca"]
    pca_features = BYTES_PER_NUMBER * pca["rows"] * pca["centres"]
    exact_error = fits.held_out_error(fits.exact_predictions())

    low, high = ROWS_BAND
    claim("the fit's time grows with the rows with an exponent between {low} and {high}",
          low < rows_exponent < high, id="rows_exponent", low=low, high=high)
    low, high = CENTRES_BAND
    claim("and with the centres with an exponent between {low} and {high}",
          low < centres_exponent < high, id="centres_exponent", low=low, high=high)
    last_doubling = by_centres[-1]["seconds"] / by_centres[-2]["seconds"]
    claim("the last doubling of the centres more than doubled the time", last_doubling > 2
          and by_centres[-1]["centres"] == 2 * by_centres[-2]["centres"], id="last_doubling")
    claim("the million-row fit takes under a minute", largest["seconds"] < 60, id="minute")
    claim("the fit's memory at the most rows is less than twice that at the fewest, while the "
          "rows grow {growth} times", largest["added_mib"] < 2 * by_rows[0]["mib"],
          id="flat_memory", growth=by_rows[-1]["rows"] // by_rows[0]["rows"])
    # The flat part is the fixed cost; what does grow, grows with the rows. Bytes added per
    # row between the two largest sizes, against one stored copy of a row and its target.
    per_row = ((by_rows[-1]["mib"] - by_rows[-2]["mib"]) * MEBIBYTE
               / (by_rows[-1]["rows"] - by_rows[-2]["rows"]))
    row_bytes = BYTES_PER_NUMBER * (fits.rows()[0].shape[1] + 1)
    claim("between the two largest sizes the memory grows by between one and two copies of "
          "each added row and its target", row_bytes < per_row < 2 * row_bytes, id="per_row")
    claim("at the same rows and centres kreport's fit is faster than scikit-learn's pipeline and "
          "needs less memory",
          ours["seconds"] < sklearn["seconds"] and ours["added_mib"] < sklearn["added_mib"],
          id="versus_sklearn")
    claim("the pipeline's two tables at a million rows would take more than half of this "
          "machine's memory", sklearn_million > memory / 2, id="sklearn_million")
    pca_copies = pca["added_mib"] * MEBIBYTE / pca_features
    claim("the Nyström kernel PCA adds at least {copies} times its feature table's size",
          lambda copies: pca_copies >= copies, id="pca_holds_features", copies=PCA_TABLES)
    error, floor = largest["held_out_error"], largest["held_out_floor"]
    claim("with a million rows the held-out error exceeds its noise floor by less than a "
          "fraction {near} of it, and is below "
          "the exact fit's on the page's rows", lambda near: error < (1 + near) * floor
          and error < exact_error, id="near_floor", near=NEAR_FLOOR)
    # Each error against its own rows' floor: the fair comparison of the two fits.
    million_excess, exact_excess = error - floor, exact_error - fits.held_out_floor()
    claim("the million-row fit's excess over its noise floor is below the exact fit's excess "
          "over its own", million_excess < exact_excess, id="smaller_excess")
    return {
        "machine": measured.machine(), "centres": centres, "by_rows": by_rows,
        "by_centres": by_centres, "centre_rows": study_rows,
        "rows_exponent": rows_exponent, "centres_exponent": centres_exponent,
        "million_rows": largest["rows"], "million_seconds": largest["seconds"],
        "million_mib": largest["added_mib"], "million_peak_mib": largest["peak_mib"],
        "held_out_rows": largest["held_out_rows"], "million_error": error,
        "million_floor": floor, "near": NEAR_FLOOR, "near_percent": round(100 * NEAR_FLOOR),
        "exact_error": exact_error, "penalty": PENALTY,
        "million_excess": million_excess, "exact_excess": exact_excess,
        "noise": NOISE,
        "ours_seconds": ours["seconds"], "ours_mib": ours["added_mib"],
        "sklearn_rows": sklearn["rows"], "sklearn_seconds": sklearn["seconds"],
        "sklearn_mib": sklearn["added_mib"], "speed_ratio": ours["seconds"] / sklearn["seconds"],
        "sklearn_million_gib": sklearn_million / GIBIBYTE,
        "memory_gib": memory / GIBIBYTE,
        "pca_rows": pca["rows"], "pca_centres": pca["centres"], "pca_seconds": pca["seconds"],
        "pca_mib": pca["added_mib"], "pca_features_mib": pca_features / MEBIBYTE,
        "pca_setting": PCA_CENTRES, "pca_copies": pca_copies, "pca_tables": PCA_TABLES,
        "rows_band": list(ROWS_BAND), "centres_band": list(CENTRES_BAND),
        "row_growth": by_rows[-1]["rows"] // by_rows[0]["rows"],
        "last_doubling": last_doubling,
        "per_row_bytes": per_row, "row_bytes": row_bytes,
    }


def streamed():
    """The fit on a LocalCluster: a million rows against the in-memory fit, then ten million."""
    study = measured.raw()
    dask = study["dask"]
    fits_ = {fit["rows"]: fit for fit in dask["fits"]}
    largest = max(fits_)
    big, small = fits_[largest], fits_[min(fits_)]
    agreement = dask["agreement"]
    features = study["settings"]["features"]
    centres = study["nystroem"]["centres"]
    memory = measured.memory_bytes()
    rows_bytes = BYTES_PER_NUMBER * largest * features
    table_bytes = BYTES_PER_NUMBER * largest * centres
    claim("the fit on Dask reproduces the in-memory fit's predictions to within {tolerance}",
          lambda tolerance: agreement["relative_difference"] < tolerance, id="agrees",
          tolerance=AGREEMENT)
    claim("at the most rows the n × M table would be larger than this machine's memory",
          table_bytes > memory, id="table_too_big")
    claim("the client's memory grew by less than the rows would take",
          big["client_added_mib"] * MEBIBYTE < rows_bytes, id="client_small")
    claim("with {growth} times the rows the client's memory grew by less than twice as much",
          big["client_added_mib"] < 2 * small["client_added_mib"], id="client_flat",
          growth=largest // small["rows"])
    return {
        "machine": measured.machine(), "workers": dask["workers"],
        "threads": dask["threads_per_worker"], "dask": dask["dask"],
        "distributed": dask["distributed"],
        "rows": largest, "block_rows": big["block_rows"], "chunks": big["chunks"],
        "seconds": big["seconds"], "minutes": big["seconds"] / 60,
        "client_mib": big["client_added_mib"], "client_peak_mib": big["client_peak_mib"],
        "worker_mib": max(big["worker_peak_mib"]),
        "error": big["held_out_error"],
        "small_rows": small["rows"], "small_seconds": small["seconds"],
        "small_client_mib": small["client_added_mib"],
        "in_memory_seconds": study["nystroem"]["by_rows"][-1]["seconds"],
        "agreement_rows": agreement["rows"],
        "agreement": agreement["relative_difference"], "tolerance": AGREEMENT,
        "rows_mib": rows_bytes / MEBIBYTE,
        "table_gib": table_bytes / GIBIBYTE, "memory_gib": memory / GIBIBYTE,
        "centres": centres,
    }
