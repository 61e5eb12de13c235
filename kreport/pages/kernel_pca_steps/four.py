"""The measured four through the five steps, with the linear kernel.

With the linear kernel kernel PCA is ordinary PCA, so every intermediate table
can be checked against ordinary PCA's own route. The four are whole
centimetres and kilograms, so the raw table, its averages, the centred table
and the query's rows are whole numbers computed exactly: those facts are
returned as ints and declared exact (``exact``), with the reason printed on the
page. Everything after the eigen-solver is ordinary floating point and is
stability-checked like any other fact.
"""

from __future__ import annotations

import numpy as np

from kreport import KernelPCA, NoInverseTransformError
from kreport.report import bound, claim, exact

from . import fits
from .settings import (
    EXACT_FOUR,
    EXACT_QUERY,
    LINEAR_NOISE,
    QUERY,
    ROUNDING,
    SOURCE_EIGENVALUES,
    SOURCE_MEAN,
)


def _exact(value, reason=EXACT_FOUR):
    return exact(fits.whole(value), reason)


def _near(computed, expected) -> bool:
    """Equal to within rounding. The four's arithmetic is exact, but the claims must also
    hold on the stability check's perturbed fixtures, where the rows are no longer whole."""
    return bool(np.allclose(computed, expected, rtol=0, atol=ROUNDING))


def algorithm():
    """The algorithm as stated: the zero threshold of step four, and the refusal."""
    fit = fits.linear_fit()
    try:
        fit.inverse_transform(fit.scores_)
        refused = ""
    except NoInverseTransformError as error:
        refused = str(error)
    claim("kernel PCA refuses to rebuild a point from its coordinates", bool(refused),
          id="refuses")
    return {"zero_threshold": KernelPCA.ZERO_THRESHOLD, "refusal": refused}


def four_data():
    """The measured four as rows, their mean and their deviations."""
    rows = fits.rows()
    mean = rows.mean(axis=0)
    deviations = rows - mean
    n, p = rows.shape
    claim("the four people average {height} cm and {weight} kg",
          _near(mean, SOURCE_MEAN), height=SOURCE_MEAN[0], weight=SOURCE_MEAN[1])
    claim("A and B lie on a line through the mean, at equal distances on either side; so do "
          "C and D; and the two lines are at right angles",
          _near(deviations[0], -deviations[1]) and _near(deviations[2], -deviations[3])
          and _near(deviations[0] @ deviations[2], 0), id="diagonals")
    return {
        "n": n,
        "p": p,
        "people": _exact(rows),
        "mean": _exact(mean),
        "deviations": _exact(deviations),
        "query": [int(value) for value in QUERY],
    }


def step_table():
    """Build the table: the raw linear-kernel table of dot products."""
    fit = fits.linear_fit()
    rows = fits.rows()
    table = fit.training_table_
    claim("each entry of the raw table is the dot product of two people as measured",
          _near(table, rows @ rows.T))
    claim("the raw table is symmetric", _near(table, table.T))
    return {
        "table": _exact(table),
        "entry_11": _exact(table[0, 0]),
        "entry_12": _exact(table[0, 1]),
        "height_1": _exact(rows[0, 0]),
        "weight_1": _exact(rows[0, 1]),
    }


def step_centre():
    """Centre the table with its averages."""
    fit = fits.linear_fit()
    rows = fits.rows()
    table = fit.training_table_
    centred = fit.centred_table_
    column_means = fit.table_column_means_
    grand_mean = fit.table_grand_mean_
    n = len(rows)
    averaging = np.full((n, n), 1.0 / n)  # J
    identity = np.eye(n)
    by_matrices = (identity - averaging) @ table @ (identity - averaging)
    deviations = rows - rows.mean(axis=0)
    claim("the row averages of the raw table equal its column averages",
          _near(table.mean(axis=1), column_means))
    claim("every average of the raw table is a whole number",
          _near(column_means, np.round(column_means)) and _near(grand_mean, round(grand_mean)))
    claim("the matrix form (I − J) K (I − J) gives the same centred table",
          _near(by_matrices, centred), id="matrix_form")
    claim("every row and every column of the centred table sums to zero",
          _near(centred.sum(axis=0), 0) and _near(centred.sum(axis=1), 0), id="sums_zero")
    claim("with the linear kernel the centred table is the table of dot products "
          "of the deviations from the mean", _near(centred, deviations @ deviations.T),
          id="deviations")
    claim("every entry of the centred table is a whole number",
          _near(centred, np.round(centred)))
    claim("the centred table is two blocks: A with B, and C with D",
          _near(centred[:2, 2:], 0), id="blocks")
    return {
        "column_means": _exact(column_means),
        "grand_mean": _exact(grand_mean),
        "centred": _exact(centred),
        # entries (A, A) and (A, B) worked out term by term
        "worked_raw": _exact(table[0, 0]),
        "worked_row_mean": _exact(column_means[0]),
        "worked_column_mean": _exact(column_means[0]),
        "worked_result": _exact(centred[0, 0]),
        "worked_12_raw": _exact(table[0, 1]),
        "worked_12_row_mean": _exact(column_means[0]),
        "worked_12_column_mean": _exact(column_means[1]),
        "worked_12_result": _exact(centred[0, 1]),
    }


def step_uncentred():
    """What skipping the centring does: the raw table's first direction is the mean."""
    table = fits.linear_fit().training_table_
    values, vectors = np.linalg.eigh(table)
    largest = values[-1]
    vector = vectors[:, -1] * np.sign(vectors[np.argmax(np.abs(vectors[:, -1])), -1])
    share = largest / np.trace(table)
    limit = 0.998
    claim("without centring the first eigenvalue takes more than {limit} of the table's trace",
          share > limit, id="share", limit=limit)
    claim("without centring every entry of the first eigenvector has the same sign",
          np.all(vector > 0), id="same_sign")
    rows = fits.rows()
    direction = rows.T @ vector
    mean = rows.mean(axis=0)
    cosine = direction @ mean / (np.linalg.norm(direction) * np.linalg.norm(mean))
    angle = 1e-3
    claim("without centring the first direction points, to within {angle} of a radian, "
          "from the origin towards the mean", np.arccos(min(cosine, 1.0)) < angle,
          id="towards_mean", angle=angle)
    return {"largest": largest, "share": share, "vector": vector, "angle": angle}


def step_decompose():
    """Decompose: eigenvalues and unit eigenvectors of the centred table."""
    fit = fits.linear_fit()
    rows = fits.rows()
    n, p = rows.shape
    values = fits.all_eigenvalues(fit.centred_table_)
    deviations = rows - rows.mean(axis=0)
    scatter = deviations.T @ deviations
    scatter_values = np.linalg.eigvalsh(scatter)[::-1]
    vectors = fit.coefficients_ * np.sqrt(fit.eigenvalues_)
    kept = fit.n_components_
    claim("the centred table has exactly as many non-zero eigenvalues as the four have "
          "features", kept == p, id="rank")
    claim("the rank of the centred table is at most the smaller of {fewer} (one fewer than "
          "the people) and {p} (the features)", kept <= min(n - 1, p), id="ceiling",
          fewer=n - 1, p=p)
    claim("the non-zero eigenvalues of the centred table equal the eigenvalues of the "
          "scatter matrix", np.allclose(values[:kept], scatter_values, rtol=1e-12, atol=0),
          id="same_as_scatter")
    claim("the eigenvalues of the scatter matrix are {first} and {second}",
          np.allclose(scatter_values, SOURCE_EIGENVALUES, rtol=1e-12, atol=0),
          first=SOURCE_EIGENVALUES[0], second=SOURCE_EIGENVALUES[1])
    claim("the eigenvectors kept have unit length and are perpendicular",
          np.allclose(vectors.T @ vectors, np.eye(kept), rtol=0, atol=1e-12))
    largest_rows = np.argmax(np.abs(vectors) >= np.abs(vectors).max(axis=0) * (1 - 1e-9), axis=0)
    claim("in each eigenvector the first entry of largest magnitude is positive",
          np.all(vectors[largest_rows, np.arange(kept)] > 0))
    claim("the first eigenvector sets A against B and the second C against D, with entries "
          "of one magnitude", np.allclose(np.abs(vectors), [[2**-0.5, 0], [2**-0.5, 0],
                                                             [0, 2**-0.5], [0, 2**-0.5]],
                                          rtol=0, atol=1e-12), id="pairs")
    return {
        "eigenvalues": fits.eigenvalues_with_zeros(values, LINEAR_NOISE),
        "noise": fits.noise(LINEAR_NOISE, vectors, fit.coefficients_, fit.scores_,
                            fits.pca().scores_),
        "kept": kept,
        "zeros": n - kept,
        "scatter": _exact(scatter),
        "scatter_eigenvalues": scatter_values,
        "vectors": fits.columns(vectors, LINEAR_NOISE),
        "half_root_two": 1 / np.sqrt(2.0),
    }


def step_rescale():
    """Rescale: coefficients are eigenvectors over the root of the raw eigenvalue."""
    fit = fits.linear_fit()
    coefficients = fit.coefficients_
    squared_lengths = (coefficients**2).sum(axis=0)
    inner = coefficients.T @ fit.centred_table_ @ coefficients
    claim("each coefficient vector has squared length one over its raw eigenvalue",
          np.allclose(squared_lengths, 1 / fit.eigenvalues_, rtol=1e-12, atol=0),
          id="lengths")
    claim("the coefficients with the centred table between them give the identity",
          np.allclose(inner, np.eye(fit.n_components_), rtol=0, atol=1e-12))
    return {
        "roots": np.sqrt(fit.eigenvalues_),
        "coefficients": fits.columns(coefficients, LINEAR_NOISE),
        "squared_lengths": squared_lengths,
        "reciprocals": 1 / fit.eigenvalues_,
        "identity_error": bound(inner - np.eye(fit.n_components_), -12),
    }


def step_coordinates():
    """Read off the coordinates: the centred table times the coefficients."""
    fit = fits.linear_fit()
    pca = fits.pca()
    n = len(fits.rows())
    scores = fit.centred_table_ @ fit.coefficients_
    claim("the coordinates are the centred table times the coefficients",
          np.allclose(scores, fit.scores_, rtol=0, atol=1e-12))
    claim("kernel PCA with the linear kernel gives ordinary PCA's coordinates, signs included",
          _near(fit.scores_, pca.scores_), id="as_pca")
    claim("kernel PCA's variances equal ordinary PCA's variances",
          np.allclose(fit.variances_, pca.variances_, rtol=1e-12, atol=0), id="same_variances")
    sample = fit.scores_.var(axis=0, ddof=1)
    claim("the sample variance of each column of coordinates is the raw eigenvalue over "
          "{divisor}", np.allclose(sample, fit.variances_, rtol=1e-12, atol=0),
          id="sample_variance", divisor=n - 1)
    claim("the two shares add up to one, since the two kept directions hold all the spread",
          abs(fit.shares_.sum() - 1) < 1e-12, id="shares_one")
    claim("every person keeps all of their spread in the two coordinates",
          np.allclose(fit.kept_share_, 1.0, rtol=0, atol=1e-12))
    claim("A's first coordinate is A's row of the centred table times the first "
          "coefficient vector",
          abs(fit.centred_table_[0] @ fit.coefficients_[:, 0] - fit.scores_[0, 0]) < 1e-12)
    return {
        "coordinates": fits.columns(fit.scores_, LINEAR_NOISE),
        "pca_gap": bound(fit.scores_ - pca.scores_, LINEAR_NOISE),
        "worked_coefficient_1": fit.coefficients_[0, 0],
        "worked_coefficient_2": fit.coefficients_[1, 0],
        "worked_entry_1": _exact(fit.centred_table_[0, 0]),
        "worked_entry_2": _exact(fit.centred_table_[0, 1]),
        "worked_coordinate": fit.scores_[0, 0],
        "eigenvalues": fit.eigenvalues_,
        "variances": fit.variances_,
        "total_variance": fit.total_variance_,
        "shares": fit.shares_,
        "divisor": n - 1,
    }


def query():
    """A new person, centred by the query identity and projected."""
    fit = fits.linear_fit()
    pca = fits.pca()
    rows = fits.rows()
    person = np.array([QUERY])
    raw = person @ rows.T
    row_mean = raw.mean()
    centred = raw - row_mean - fit.table_column_means_ + fit.table_grand_mean_
    coordinates = centred @ fit.coefficients_
    deviations = rows - rows.mean(axis=0)
    claim("the query row centred by the identity equals the dot products of the new "
          "person's deviation with the four deviations",
          _near(centred, (person - rows.mean(axis=0)) @ deviations.T), id="deviations")
    claim("the library's transform gives the same coordinates as the hand computation",
          _near(fit.transform(person), coordinates))
    claim("ordinary PCA places the new person at the same coordinates",
          _near(pca.transform(person), coordinates), id="as_pca")
    back = rows[:1] @ rows.T
    back_centred = back - back.mean() - fit.table_column_means_ + fit.table_grand_mean_
    claim("person A sent back as if new gets the first row of the centred table",
          _near(back_centred[0], fit.centred_table_[0]), id="back_row")
    claim("person A sent back as if new gets their training coordinates",
          _near(fit.transform(rows[:1]), fit.scores_[:1]), id="back_coordinates")
    return {
        "raw": _exact(raw[0], EXACT_QUERY),
        "row_mean": _exact(row_mean, EXACT_QUERY),
        "centred": _exact(centred[0], EXACT_QUERY),
        "coordinates": fits.vector(coordinates[0], LINEAR_NOISE),
        "back_centred": _exact(back_centred[0], EXACT_QUERY),
        "back_coordinates": fits.vector(fit.transform(rows[:1])[0], LINEAR_NOISE),
    }


def written_out():
    """With the linear kernel the coefficients can be turned back into directions."""
    fit = fits.linear_fit()
    pca = fits.pca()
    rows = fits.rows()
    deviations = rows - rows.mean(axis=0)
    # The feature space of the linear kernel is the measured space, so the
    # direction is the weighted sum of the deviations.
    directions = deviations.T @ fit.coefficients_
    claim("the coefficients, used as weights on the deviations, rebuild ordinary PCA's "
          "unit directions", np.allclose(directions.T, pca.components_, rtol=0, atol=1e-12),
          id="rebuild")
    return {"directions": fits.columns(directions, LINEAR_NOISE)}
