"""The scatter matrix on the measured four: its eigenvalues and directions, the
two divisors the sources use, and why the rows are centred first."""

from __future__ import annotations

import numpy as np

from kreport.report import bound, claim, exact

from . import fits

#: Why the measured four's tables print as whole numbers on every machine.
WHOLE = ("the measured four are whole numbers with a whole mean, so every deviation, "
         "product and sum in these tables is a small whole number, exact in floating point")
#: Coordinates the block structure makes zero are rounding noise below this power of ten.
NOISE_EXPONENT = -10


def whole(matrix) -> list:
    """A table of exact whole numbers as ints (so they print whole)."""
    return [[round(float(x)) for x in row] for row in np.atleast_2d(matrix)]


def noise_or_value(matrix, zero: np.ndarray) -> list:
    """Rows of a table, with the entries the data make exactly zero given as bounds."""
    return [[bound(x, NOISE_EXPONENT) if z else float(x) for x, z in zip(row, zrow, strict=True)]
            for row, zrow in zip(np.asarray(matrix), zero, strict=True)]


def scatter_matrix() -> dict:
    """S = X_cᵀX_c of the measured four, its eigenvalues, directions and coordinates."""
    X = fits.rows("measured_four")
    mean = X.mean(axis=0)
    centred = X - mean
    S = centred.T @ centred
    fit = fits.pca("measured_four")
    lam, V = fit.eigenvalues_, fit.components_  # V: one direction per row
    residual = S @ V.T - V.T * lam
    claim("each direction satisfies S v_m = λ_m v_m to rounding",
          np.max(np.abs(residual)) < 1e-12 * lam[0], id="eigen")
    claim("the eigenvalues add up to the trace of S",
          abs(lam.sum() - np.trace(S)) < 1e-12 * np.trace(S), id="trace")
    claim("the two directions are perpendicular", abs(V[0] @ V[1]) < 1e-12, id="perpendicular")
    claim("the first direction lies along the diagonal, equal parts height and weight",
          abs(V[0, 0] - V[0, 1]) < 1e-12, id="diagonal")
    scores = fit.scores_
    zero = np.array([[False, True], [False, True], [True, False], [True, False]])
    claim("the persons on one diagonal sit at zero on the other direction",
          np.max(np.abs(scores[zero])) < 1e-10, id="blocks")
    return {
        "n": int(X.shape[0]),
        "rows": exact(whole(X), WHOLE),
        "mean": exact(whole(mean)[0], WHOLE),
        "centred": exact(whole(centred), WHOLE),
        "scatter": exact(whole(S), WHOLE),
        "trace": exact(round(float(np.trace(S))), WHOLE),
        "eigenvalues": lam,
        "directions": V,
        "coordinates": noise_or_value(scores, zero),
    }


def divisor() -> dict:
    """Variances over n − 1 (kreport) and over n, on the measured four: shares agree."""
    fit = fits.pca("measured_four")
    n = fit.scores_.shape[0]
    lam = fit.eigenvalues_
    over_n1 = fit.variances_
    over_n = lam / n
    shares_n = over_n / over_n.sum()
    X = fits.rows("measured_four")
    claim("kreport's variances are the raw eigenvalues over {divisor}",
          np.allclose(over_n1, lam / (n - 1), rtol=1e-14, atol=0), id="kreport",
          divisor=n - 1)
    claim("the shares are the same under either divisor",
          np.max(np.abs(shares_n - fit.shares_)) < 1e-14, id="shares")
    ratio = over_n1[0] / over_n[0]
    claim("the two variances differ by the factor {n} over {divisor} for every direction",
          np.allclose(over_n1 / over_n, n / (n - 1), rtol=1e-14, atol=0), id="ratio",
          n=n, divisor=n - 1)
    return {
        "n": int(n),
        "eigenvalues": lam,
        "over_n1": over_n1,
        "over_n": over_n,
        "total_n1": fit.total_variance_,
        "total_n": float(over_n.sum()),
        "shares": fit.shares_,
        "ratio": ratio,
        "sd_n1": X.std(axis=0, ddof=1),
        "sd_n": X.std(axis=0, ddof=0),
    }


def centring() -> dict:
    """Without centring, the first direction points at the mean row, not along the spread."""
    X = fits.rows("measured_four")
    n = X.shape[0]
    mean = X.mean(axis=0)
    raw = X.T @ X
    offset = n * np.outer(mean, mean)
    S = (X - mean).T @ (X - mean)
    claim("the uncentred scatter is S plus n times the outer product of the mean row",
          np.allclose(raw, S + offset, rtol=1e-12, atol=0), id="split")
    values, vectors = np.linalg.eigh(raw)
    top, second = float(values[-1]), float(values[0])
    direction = vectors[:, -1] * np.sign(vectors[0, -1])
    share = top / (top + second)
    mean_direction = mean / np.linalg.norm(mean)
    angle = float(np.degrees(np.arccos(min(1.0, abs(direction @ mean_direction)))))
    gram = np.linalg.eigvalsh(X @ X.T)
    claim("the four-by-four table of dot products has the same two non-zero eigenvalues",
          np.allclose(np.sort(gram)[-2:], [second, top], rtol=1e-10, atol=0), id="gram")
    centred_gram = np.sort(np.linalg.eigvalsh((X - mean) @ (X - mean).T))[-2:]
    claim("and the table of the centred rows has the two eigenvalues of S",
          np.allclose(centred_gram, np.sort(np.linalg.eigvalsh(S)), rtol=1e-10, atol=0),
          id="centred_gram")
    share_floor, angle_limit = 0.99, 0.1
    claim("the uncentred first direction takes over {floor} of the total",
          share > share_floor, id="share", floor=share_floor)
    claim("the uncentred first direction is within {limit} degree of the mean row's direction",
          angle < angle_limit, id="angle", limit=angle_limit)
    centred_angle = float(np.degrees(np.arccos(
        abs(fits.pca("measured_four").components_[0] @ mean_direction))))
    far = 20.0
    claim("the centred first direction is more than {far} degrees from the mean row's direction",
          centred_angle > far, id="centred_angle", far=far)
    return {
        "raw": exact(whole(raw), WHOLE),
        "offset": exact(whole(offset), WHOLE),
        "top": top,
        "second": second,
        "share": share,
        "direction": direction,
        "angle": angle,
        "angle_limit": angle_limit,
        "share_floor": share_floor,
        "centred_angle": centred_angle,
    }
