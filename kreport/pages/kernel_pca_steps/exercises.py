"""Answers to the five-steps page's exercises, each computed here and locked like
any fact; the relations they state are claims."""

from __future__ import annotations

import numpy as np

from kreport import KernelPCA, kernels
from kreport.report import bound, claim

from . import fits
from .kernels import crossings, named_shares

#: Where the code exercise starts its bisection (γ in 1/unit²): a factor of ten
#: around the first crossing, chosen without it, left of the second.
BISECTION_BRACKET = (1e-3, 1e-2)


def exercises():
    """Three exercises on the measured four: pencil, pencil, code."""
    rows = fits.rows()
    n = len(rows)
    fit = fits.linear_fit()
    # 1. Shares from the eigenvalues of the centred table, by hand.
    eigenvalues = fit.eigenvalues_
    variances = eigenvalues / (n - 1)
    shares = variances / variances.sum()
    claim("the shares worked from the eigenvalues are the library's shares",
          np.allclose(shares, fit.shares_, rtol=1e-12, atol=0), id="shares")
    # 2. A person exactly at the mean row lands at the origin.
    at_mean = fit.transform(rows.mean(axis=0, keepdims=True))[0]
    scale = float(np.abs(fit.scores_).max())
    claim("a person at the mean row gets coordinates zero to rounding",
          float(np.abs(at_mean).max()) < 1e-9 * scale, id="mean_at_origin")
    # 3. In code: the first crossing of the RBF sweep, found again by bisection on the
    # library's own shares (not the page's root finder).
    first, _ = crossings()
    low, high = BISECTION_BRACKET
    claim("the bracket holds the first crossing and not the second",
          low < first < high < crossings()[1], id="bracket")
    for _ in range(60):
        middle = np.sqrt(low * high)
        shares_here = named_shares(middle)
        low, high = (middle, high) if shares_here[2] < shares_here[1] else (low, middle)
    found = float(np.sqrt(low * high))
    at_found = KernelPCA(kernels.rbf(found)).fit(rows).shares_
    claim("the bisection finds the page's first crossing to within {limit} relative",
          lambda limit: abs(found / first - 1) < limit, id="crossing", limit=1e-9)
    return {
        "eigenvalues": eigenvalues[:2], "n": n, "variances": variances[:2],
        "shares": shares[:2],
        "mean_row": rows.mean(axis=0), "at_mean": bound(float(np.abs(at_mean).max()), -9),
        "crossing": found, "crossing_shares": at_found[1:3], "bracket": list(BISECTION_BRACKET),
    }
