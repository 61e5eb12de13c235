"""Kernel PCA in five steps: the algorithm worked by hand on the measured four.

Every intermediate table of the five steps (raw kernel table, averages,
centred table, eigenvalues, unit eigenvectors, coefficients, coordinates) is
computed here with ``kreport.KernelPCA`` and checked against ordinary PCA and
against the relations the page states. Entries that are zero in exact
arithmetic but come out of an eigen-solver as rounding noise are returned as
bounds, never as digits.
"""

from functools import cache

import numpy as np

from kreport import PCA, SIGN_CONVENTION, KernelPCA, NoInverseTransformError, kernels
from kreport.data import measured_four
from kreport.pages import _kernel_pca_steps_figures as figures
from kreport.report import Page, bound, claim

page = Page(slug="kernel-pca-steps", title="Kernel PCA in five steps",
            template="kernel_pca_steps.md.j2")

NOISE = -12  # entries that are zero in exact arithmetic are shown as "below 10⁻¹²"
QUERY = (176.0, 70.0)  # a new person, height cm and weight kg
RBF_GAMMA = 0.001  # per (cm or kg) squared: a reach of about thirty units
WIDE_GAMMA = 1e-6  # a reach of a thousand units: nearly linear
NARROW_GAMMA = 1.0  # a reach of one unit: every person resembles only themselves
SWEEP = np.logspace(-6, 0, 61)


# ---------------------------------------------------------------- shared work


def _rows() -> np.ndarray:
    return np.array(measured_four().rows, dtype=float)


@cache
def _linear_fit() -> KernelPCA:
    return KernelPCA(kernels.linear()).fit(_rows())


@cache
def _pca() -> PCA:
    return PCA().fit(_rows())


@cache
def _rbf_fit(gamma: float) -> KernelPCA:
    return KernelPCA(kernels.rbf(gamma)).fit(_rows())


def _cell(value: float):
    """A matrix entry: the number, or a bound when it is rounding noise."""
    if abs(value) < 1e-9:
        return bound(value, NOISE)
    return float(value) + 0.0


def _matrix(values) -> list:
    array = np.atleast_2d(np.asarray(values, dtype=float))
    return [[_cell(value) for value in row] for row in array]


def _vector(values) -> list:
    return [_cell(value) for value in np.asarray(values, dtype=float)]


def _noise(*arrays) -> object:
    """The bound met by every entry that is shown as noise (zero in exact arithmetic)."""
    entries = np.concatenate([np.ravel(array) for array in arrays])
    return bound(entries[np.abs(entries) < 1e-9], NOISE) if np.any(np.abs(entries) < 1e-9) \
        else bound(0.0, NOISE)


def _eigenvalues(values) -> list:
    """Eigenvalues with the zeros that centring or rank make shown as bounds."""
    zero = np.abs(values) <= KernelPCA.ZERO_THRESHOLD * values[0]
    return [bound(value, -11) if is_zero else float(value) for value, is_zero in zip(values, zero,
                                                                                 strict=True)]


def _all_eigenvalues(table: np.ndarray) -> np.ndarray:
    """Every eigenvalue of a symmetric table, largest first (the fit keeps only non-zero)."""
    return np.linalg.eigvalsh(table)[::-1]


# ---------------------------------------------------------------- sections


@page.section
def four_data():
    """The measured four as rows, and their mean."""
    rows = _rows()
    mean = rows.mean(axis=0)
    deviations = rows - mean
    claim("the four people average 170 cm and 68 kg",
          np.array_equal(mean, [170.0, 68.0]))
    return {
        "n": len(rows),
        "people": rows.tolist(),
        "mean": mean,
        "deviations": deviations,
        "query": list(QUERY),
    }


@page.section
def step_table():
    """Step 1: the raw linear-kernel table."""
    fit = _linear_fit()
    rows = _rows()
    table = fit.training_table_
    claim("each entry of the raw table is the dot product of two people as measured",
          np.array_equal(table, rows @ rows.T))
    claim("the raw table is symmetric", np.array_equal(table, table.T))
    return {
        "table": table,
        "entry_11": table[0, 0],
        "entry_12": table[0, 1],
        "height_1": rows[0, 0],
        "weight_1": rows[0, 1],
    }


@page.section
def step_centre():
    """Step 2: centre the table with its averages."""
    fit = _linear_fit()
    rows = _rows()
    table = fit.training_table_
    centred = fit.centred_table_
    column_means = fit.table_column_means_
    grand_mean = fit.table_grand_mean_
    n = len(rows)
    ones = np.full((n, n), 1.0 / n)
    by_matrices = table - ones @ table - table @ ones + ones @ table @ ones
    deviations = rows - rows.mean(axis=0)
    claim("the row averages of the raw table equal its column averages",
          np.array_equal(table.mean(axis=1), column_means))
    claim("the grand average is the average of the column averages",
          grand_mean == column_means.mean())
    claim("the matrix form of the centring identity gives the same centred table",
          np.allclose(by_matrices, centred, rtol=0, atol=1e-9))
    claim("every row and every column of the centred table sums to zero",
          np.all(centred.sum(axis=0) == 0) and np.all(centred.sum(axis=1) == 0))
    claim("with the linear kernel the centred table is the table of dot products "
          "of the deviations from the mean", np.array_equal(centred, deviations @ deviations.T))
    claim("every entry of the centred table is a whole number",
          np.array_equal(centred, np.round(centred)))
    return {
        "column_means": column_means,
        "grand_mean": grand_mean,
        "centred": centred + 0.0,
        # entries (A, A) and (A, B) worked out term by term
        "worked_raw": table[0, 0],
        "worked_row_mean": column_means[0],
        "worked_column_mean": column_means[0],
        "worked_result": centred[0, 0],
        "worked_12_raw": table[0, 1],
        "worked_12_row_mean": column_means[0],
        "worked_12_column_mean": column_means[1],
        "worked_12_result": centred[0, 1],
    }


@page.section
def step_uncentred():
    """What skipping step 2 does: the raw table's first direction is the mean."""
    table = _linear_fit().training_table_
    values, vectors = np.linalg.eigh(table)
    largest = values[-1]
    vector = vectors[:, -1] * np.sign(vectors[np.argmax(np.abs(vectors[:, -1])), -1])
    share = largest / np.trace(table)
    claim("without centring the first eigenvalue takes more than 99.8% of the table's trace",
          share > 0.998)
    claim("without centring every entry of the first eigenvector has the same sign",
          np.all(vector > 0))
    rows = _rows()
    direction = rows.T @ vector
    mean = rows.mean(axis=0)
    cosine = direction @ mean / (np.linalg.norm(direction) * np.linalg.norm(mean))
    claim("without centring the first direction points, to within a thousandth of a radian, "
          "from the origin towards the mean", np.arccos(min(cosine, 1.0)) < 1e-3)
    return {"largest": largest, "share": share, "vector": vector}


@page.section
def step_decompose():
    """Step 3: eigenvalues and unit eigenvectors of the centred table."""
    fit = _linear_fit()
    pca = _pca()
    rows = _rows()
    n = len(rows)
    values = _all_eigenvalues(fit.centred_table_)
    deviations = rows - rows.mean(axis=0)
    scatter = deviations.T @ deviations
    scatter_values = np.linalg.eigvalsh(scatter)[::-1]
    vectors = fit.coefficients_ * np.sqrt(fit.eigenvalues_)
    kept = fit.n_components_
    claim("the centred table has exactly two non-zero eigenvalues, one per feature",
          kept == 2)
    claim("the non-zero eigenvalues of the centred table equal the eigenvalues of the "
          "scatter matrix", np.allclose(values[:kept], scatter_values, rtol=1e-12, atol=0))
    claim("the eigenvalues of the scatter matrix are 400 and 100",
          np.allclose(scatter_values, [400.0, 100.0], rtol=1e-12, atol=0))
    claim("the eigenvectors kept have unit length and are perpendicular",
          np.allclose(vectors.T @ vectors, np.eye(kept), rtol=0, atol=1e-12))
    largest_rows = np.argmax(np.abs(vectors) >= np.abs(vectors).max(axis=0) * (1 - 1e-9), axis=0)
    claim("in each eigenvector the first entry of largest magnitude is positive",
          np.all(vectors[largest_rows, np.arange(kept)] > 0))
    return {
        "eigenvalues": _eigenvalues(values),
        "noise": _noise(vectors, fit.coefficients_, fit.scores_, pca.scores_),
        "kept": kept,
        "zeros": n - kept,
        "scatter": scatter,
        "scatter_eigenvalues": scatter_values,
        "vectors": _matrix(vectors),
        "half_root_two": 1 / np.sqrt(2.0),
        "sign_convention": SIGN_CONVENTION,
        "pca_eigenvalues": pca.eigenvalues_,
    }


@page.section
def step_rescale():
    """Step 4: coefficients are eigenvectors over the root of the raw eigenvalue."""
    fit = _linear_fit()
    coefficients = fit.coefficients_
    squared_lengths = (coefficients**2).sum(axis=0)
    inner = coefficients.T @ fit.centred_table_ @ coefficients
    claim("each coefficient vector has squared length one over its raw eigenvalue",
          np.allclose(squared_lengths, 1 / fit.eigenvalues_, rtol=1e-12, atol=0))
    claim("the coefficients with the centred table between them give the identity",
          np.allclose(inner, np.eye(fit.n_components_), rtol=0, atol=1e-12))
    return {
        "roots": np.sqrt(fit.eigenvalues_),
        "coefficients": _matrix(coefficients),
        "squared_lengths": squared_lengths,
        "reciprocals": 1 / fit.eigenvalues_,
        "identity_error": bound(inner - np.eye(fit.n_components_), NOISE),
    }


@page.section
def step_coordinates():
    """Step 5: coordinates are the centred table times the coefficients."""
    fit = _linear_fit()
    pca = _pca()
    n = len(_rows())
    scores = fit.centred_table_ @ fit.coefficients_
    claim("the coordinates are the centred table times the coefficients",
          np.allclose(scores, fit.scores_, rtol=0, atol=1e-12))
    claim("kernel PCA with the linear kernel gives ordinary PCA's coordinates, signs included",
          np.allclose(fit.scores_, pca.scores_, rtol=0, atol=1e-12))
    claim("kernel PCA's variances equal ordinary PCA's variances",
          np.allclose(fit.variances_, pca.variances_, rtol=1e-12, atol=0))
    sample = fit.scores_.var(axis=0, ddof=1)
    claim("the sample variance (over n − 1) of each column of coordinates is the raw "
          "eigenvalue over n − 1", np.allclose(sample, fit.variances_, rtol=1e-12, atol=0))
    claim("the two shares add up to one, since the two kept directions hold all the spread",
          abs(fit.shares_.sum() - 1) < 1e-12)
    claim("every person keeps all of their spread in the two coordinates",
          np.allclose(fit.kept_share_, 1.0, rtol=0, atol=1e-12))
    claim("A's first coordinate is the sum of A's centred row times the first coefficients",
          abs(fit.centred_table_[0] @ fit.coefficients_[:, 0] - fit.scores_[0, 0]) < 1e-12)
    return {
        "coordinates": _matrix(fit.scores_),
        "pca_gap": bound(fit.scores_ - pca.scores_, NOISE),
        "worked_coefficient_1": fit.coefficients_[0, 0],
        "worked_coefficient_2": fit.coefficients_[1, 0],
        "worked_entry_1": fit.centred_table_[0, 0],
        "worked_entry_2": fit.centred_table_[0, 1],
        "worked_coordinate": fit.scores_[0, 0],
        "eigenvalues": fit.eigenvalues_,
        "variances": fit.variances_,
        "total_variance": fit.total_variance_,
        "shares": fit.shares_,
        "divisor": n - 1,
    }


@page.section
def directions():
    """Why no direction is ever needed (and what that costs)."""
    fit = _linear_fit()
    pca = _pca()
    rows = _rows()
    deviations = rows - rows.mean(axis=0)
    # With the linear kernel the lifted space is the measured space, so the
    # direction can be written out as a weighted sum of the deviations.
    written_out = deviations.T @ fit.coefficients_
    claim("the coefficients, used as weights on the deviations, rebuild ordinary PCA's "
          "unit directions", np.allclose(written_out.T, pca.components_, rtol=0, atol=1e-12))
    try:
        fit.inverse_transform(fit.scores_)
        refused = ""
    except NoInverseTransformError as error:
        refused = str(error)
    claim("kernel PCA refuses to rebuild a point from its coordinates", bool(refused))
    return {"direction": _matrix(written_out.T), "refusal": refused}


@page.section
def query():
    """A new person, centred by the query identity and projected."""
    fit = _linear_fit()
    pca = _pca()
    rows = _rows()
    person = np.array([QUERY])
    raw = person @ rows.T
    row_mean = raw.mean()
    centred = raw - row_mean - fit.table_column_means_ + fit.table_grand_mean_
    coordinates = centred @ fit.coefficients_
    deviations = rows - rows.mean(axis=0)
    claim("the query row centred by the identity equals the dot products of the new "
          "person's deviation with the four deviations",
          np.allclose(centred, (person - rows.mean(axis=0)) @ deviations.T, rtol=0, atol=1e-9))
    claim("the library's transform gives the same coordinates as the hand computation",
          np.allclose(fit.transform(person), coordinates, rtol=0, atol=1e-12))
    claim("ordinary PCA places the new person at the same coordinates",
          np.allclose(pca.transform(person), coordinates, rtol=0, atol=1e-12))
    back = rows[:1] @ rows.T
    back_centred = back - back.mean() - fit.table_column_means_ + fit.table_grand_mean_
    claim("person A sent back as if new gets the first row of the centred table",
          np.array_equal(back_centred[0], fit.centred_table_[0]))
    claim("person A sent back as if new gets their training coordinates",
          np.allclose(fit.transform(rows[:1]), fit.scores_[:1], rtol=0, atol=1e-12))
    return {
        "raw": raw[0],
        "row_mean": row_mean,
        "centred": centred[0],
        "coordinates": _vector(coordinates[0]),
        "back_centred": back_centred[0] + 0.0,
        "back_coordinates": _vector(fit.transform(rows[:1])[0]),
    }


@page.section
def rbf_run():
    """The same five steps with the RBF kernel on the four."""
    fit = _rbf_fit(RBF_GAMMA)
    rows = _rows()
    n = len(rows)
    table = fit.training_table_
    centred = fit.centred_table_
    values = _all_eigenvalues(centred)
    squared = ((rows[:, None, :] - rows[None, :, :]) ** 2).sum(axis=2)
    claim("each entry of the RBF table is exp(−gamma × squared distance)",
          np.allclose(table, np.exp(-RBF_GAMMA * squared), rtol=1e-15, atol=0))
    claim("every person scores exactly one with themselves", np.all(np.diag(table) == 1.0))
    claim("rows and columns of the centred RBF table sum to zero",
          np.allclose(centred.sum(axis=0), 0, rtol=0, atol=1e-12))
    claim("the RBF run keeps three directions, one fewer than the number of people",
          fit.n_components_ == n - 1)
    claim("each RBF coefficient vector has squared length one over its raw eigenvalue",
          np.allclose((fit.coefficients_**2).sum(axis=0), 1 / fit.eigenvalues_,
                      rtol=1e-10, atol=0))
    claim("the RBF shares add up to one",
          abs(fit.shares_.sum() - 1) < 1e-12)
    claim("the RBF total variance is the trace of the centred table over n − 1",
          abs(fit.total_variance_ - np.trace(centred) / (n - 1)) < 1e-12)
    scores = fit.scores_
    claim("the first RBF direction sets A against B, the farthest-apart pair",
          scores[0, 0] > 0 > scores[1, 0] and np.allclose(scores[2:, 0], 0, rtol=0, atol=1e-12))
    claim("the second RBF direction sets C against D",
          scores[2, 1] > 0 > scores[3, 1] and np.allclose(scores[:2, 1], 0, rtol=0, atol=1e-12))
    claim("the third RBF direction sets the pair A, B against the pair C, D, each pair "
          "at one value", np.all(scores[:2, 2] > 0) and np.all(scores[2:, 2] < 0)
          and abs(scores[0, 2] - scores[1, 2]) < 1e-12 and abs(scores[2, 2] - scores[3, 2]) < 1e-12)
    claim("A and B score lower with each other than C and D do", table[0, 1] < table[2, 3])
    claim("A and B are the farthest-apart pair", squared[0, 1] == squared.max())
    off_diagonal = squared[~np.eye(n, dtype=bool)]
    claim("C and D are the closest pair", squared[2, 3] == off_diagonal.min())
    claim("every pair other than A, B and C, D is as far apart as A and C",
          np.all(squared[:2, 2:] == squared[0, 2]))
    claim("as measured, the pair A, B and the pair C, D have the same mean",
          np.array_equal(rows[:2].mean(axis=0), rows[2:].mean(axis=0)))
    # Squared distance between the two pairs' midpoints in the lifted space.
    midpoints = (table[:2, :2].sum() + table[2:, 2:].sum()) / 4 - 2 * table[:2, 2:].mean()
    claim("in the lifted space the midpoint of A, B is not the midpoint of C, D",
          midpoints > 1e-3)
    return {
        "gamma": RBF_GAMMA,
        "reach": 1 / np.sqrt(RBF_GAMMA),
        "squared_12": squared[0, 1],
        "squared_13": squared[0, 2],
        "squared_34": squared[2, 3],
        "table": table,
        "column_means": fit.table_column_means_,
        "grand_mean": fit.table_grand_mean_,
        "centred": _matrix(centred),
        "eigenvalues": _eigenvalues(values),
        "noise": _noise(centred, fit.coefficients_, fit.scores_),
        "kept": fit.n_components_,
        "coefficients": _matrix(fit.coefficients_),
        "coordinates": _matrix(fit.scores_),
        "variances": fit.variances_,
        "total_variance": fit.total_variance_,
        "shares": fit.shares_,
        "closest_distance": np.sqrt(off_diagonal.min()),
    }


@page.section
def reach():
    """Gamma as reach: wide reach → ordinary PCA; narrow reach → everyone alone."""
    pca = _pca()
    wide = _rbf_fit(WIDE_GAMMA)
    narrow = _rbf_fit(NARROW_GAMMA)
    n = len(_rows())
    correlations = [np.corrcoef(wide.scores_[:, j], pca.scores_[:, j])[0, 1] for j in range(2)]
    share_tolerance = 1e-3
    claim("at the wide reach the first two RBF shares are within 0.001 of ordinary PCA's",
          np.allclose(wide.shares_[:2], pca.shares_, rtol=0, atol=share_tolerance))
    claim("at the wide reach the first two RBF coordinates are ordinary PCA's times a "
          "positive scale (correlation above 0.99999)", min(correlations) > 0.99999)
    off_identity = narrow.training_table_ - np.eye(n)
    claim("at the narrow reach the three shares are equal",
          np.allclose(narrow.shares_, 1 / (n - 1), rtol=1e-12, atol=0))
    first_shares = [_rbf_fit(float(gamma)).shares_[0] for gamma in SWEEP]
    claim("the first share never rises as the reach narrows",
          np.all(np.diff(first_shares) <= 1e-12))
    return {
        "wide_gamma": WIDE_GAMMA,
        "wide_reach": 1 / np.sqrt(WIDE_GAMMA),
        "wide_shares": wide.shares_[:2],
        "pca_shares": pca.shares_,
        "narrow_gamma": NARROW_GAMMA,
        "narrow_reach": 1 / np.sqrt(NARROW_GAMMA),
        "narrow_shares": narrow.shares_,
        "narrow_off_identity": bound(off_identity, NOISE),
        "share_tolerance": share_tolerance,
        "sweep_low": SWEEP[0],
        "sweep_high": SWEEP[-1],
    }


# ---------------------------------------------------------------- figures
# Drawn in _kernel_pca_steps_figures from the same cached fits as the facts.

page.figure("four", alt="Left: the measured four by height and weight, their mean and "
            "the first principal direction through it. Right: the four people's kernel "
            "PCA coordinates with the linear kernel, which coincide with ordinary PCA's.")(
    lambda: figures.four(_linear_fit(), _pca(), _rows(), QUERY))
page.figure("reach", alt="Share of the first three RBF directions on the measured four "
            "as gamma grows from a wide reach to a narrow one, against ordinary PCA's shares.")(
    lambda: figures.reach(_pca(), SWEEP, [_rbf_fit(float(gamma)) for gamma in SWEEP], RBF_GAMMA))
