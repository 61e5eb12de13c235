"""Centring in feature space, for the training table and for a newcomer's row."""

from __future__ import annotations

import numpy as np

from kreport import kernels
from kreport.report import bound, claim

from .fits import kernel_fit, rbf_fit, rows, whole
from .settings import RING_GAMMA


def centring():
    """K_c = (I − J) K (I − J), and the matching identity for a query row."""
    fitted = kernel_fit("four", "linear")
    table, n = fitted.training_table_, len(rows("four"))
    averaging = np.full((n, n), 1 / n)
    identity = np.eye(n)
    by_identity = (identity - averaging) @ table @ (identity - averaging)
    # The first person sent back as a query: their row of kernel values, less the
    # training table's average row, then centred across: (k_q − 1ᵀK/n)(I − J).
    query = kernels.linear()(rows("four")[:1], rows("four"))
    centred_query = (query - table.mean(axis=0)) @ (identity - averaging)
    ring_fit = rbf_fit("ring", RING_GAMMA)
    ring_again = ring_fit.transform(ring_fit.training_rows_) - ring_fit.scores_
    claim("the matrix identity reproduces the fitted centred table",
          np.abs(by_identity - fitted.centred_table_).max() < 1e-9, id="identity")
    claim("the first person sent back as a query reproduces their centred row",
          np.abs(centred_query[0] - fitted.centred_table_[0]).max() < 1e-9, id="query")
    claim("every ring person sent back through transform lands on their own coordinates",
          np.abs(ring_again).max() < 1e-10, id="resend")
    return {
        "identity_error": bound(by_identity - fitted.centred_table_, -9),
        "query_row": whole(centred_query[0], scale=np.abs(table).max()),
        "n_ring": len(rows("ring")), "gamma": RING_GAMMA,
        "ring_resend": bound(ring_again, -10),
    }
