"""Kernel ridge regression: ridge rewritten with one weight per training row.

A lab notebook in page order. Each section fits what it talks about through the
public kreport API, checks every relation its prose states with ``claim``, and
returns the numbers the template prints. Shared fits live in
``_kernel_ridge_fits``; the behaviour probes, the timing study and the figures
have modules of their own beside this one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kreport import KernelRidge, kernels
from kreport.pages import _kernel_ridge_figures as figures
from kreport.pages import _kernel_ridge_later as later
from kreport.pages._kernel_ridge_fits import (
    LINEAR,
    RBF_ONE,
    SQUARED,
    ZERO_EIGENVALUE_FRACTION,
    centred_rows,
    centred_target,
    condition_number,
    dataset,
    gram,
    kernel_fit,
    nonzero_count,
    r_squared,
    relative_gap,
    ridge_fit,
    sample_grid,
    slope_from_dual,
    spectrum,
)
from kreport.report import Page, bound, claim

TIMINGS = Path(__file__).with_name("timings") / "kernel-ridge.json"

page = Page(slug="kernel-ridge", title="Kernel ridge regression",
            template="kernel_ridge.md.j2", extra_inputs=(TIMINGS,),
            machine_specific=("timings",))

PENALTY = 1.0
QUESTION_HEIGHT = 170.5  # the height every model is asked about in the three-people sections


@page.section
def lines():
    """Ridge on the throws and on the crowd: a straight line, one weight per feature."""
    throws, crowd = ridge_fit("throws", PENALTY), ridge_fit("crowd", PENALTY)
    throws_r2, crowd_r2 = r_squared("throws", throws), r_squared("crowd", crowd)
    claim("a line explains almost none of the throws' spread (R² below 0.05)", throws_r2 < 0.05)
    claim("a line explains most of the crowd's spread (R² above 0.8)", crowd_r2 > 0.8)
    return {
        "penalty": PENALTY,
        "throws_count": len(dataset("throws").target),
        "crowd_count": len(dataset("crowd").target),
        "throws_r2": throws_r2,
        "throws_slope": throws.coef_[0],
        "crowd_r2": crowd_r2,
        "crowd_slope": crowd.coef_[0],
    }


@page.section
def two_forms():
    """The primal system is p × p, the dual n × n; the dual reads the rows only through K."""
    sizes = centred_rows("throws").shape
    rows = centred_rows("crowd")
    # Mirror the centred heights: every product x_i x_j is unchanged, so the
    # table is unchanged, and the dual weights cannot change either.
    mirrored = KernelRidge(LINEAR, PENALTY).fit(-rows, dataset("crowd").target)
    original = kernel_fit("crowd", LINEAR, PENALTY)
    same_table = np.array_equal(rows @ rows.T, (-rows) @ (-rows).T)
    claim("mirroring the heights leaves the table unchanged", same_table)
    claim("mirroring the heights leaves every dual weight unchanged, bit for bit",
          np.array_equal(mirrored.dual_weights_, original.dual_weights_))
    return {
        "features": sizes[1],
        "rows": sizes[0],
        "primal_size": sizes[1] ** 2,
        "dual_size": sizes[0] ** 2,
    }


@page.section
def three_people():
    """Three people: the linear and RBF tables, the primal slope, the dual system solved."""
    people = dataset("three_people")
    heights, weights = people.rows[:, 0], people.target
    x, y = centred_rows("three_people")[:, 0], centred_target("three_people")
    linear_table = gram("three_people", LINEAR)
    rbf_table = gram("three_people", RBF_ONE)
    sxy, sxx = float(x @ y), float(x @ x)
    primal_slope = sxy / (sxx + PENALTY)
    system = linear_table + PENALTY * np.eye(3)
    model = kernel_fit("three_people", LINEAR, PENALTY)
    weights_dual = model.dual_weights_
    rounded_weights = np.round(weights_dual).astype(int)
    dual_slope = float(slope_from_dual(model)[0])
    answer = float(model.predict([[QUESTION_HEIGHT]])[0])
    claim("the off-diagonal entries linking the outer two people are −1 in the linear table",
          linear_table[0, 2] == -1 and linear_table[2, 0] == -1)
    claim("the middle row and column of the linear table are all zero",
          not linear_table[1].any() and not linear_table[:, 1].any())
    claim("the dual weights are −2, 0 and 2",
          list(rounded_weights) == [-2, 0, 2])
    claim("the dual weights summed through the centred heights give the primal slope",
          abs(dual_slope - primal_slope) < 1e-12)
    by_hand = weights.mean() + primal_slope * (QUESTION_HEIGHT - heights.mean())
    claim("the answer at the question height is the mean weight plus slope times centred height",
          abs(answer - by_hand) < 1e-10)
    claim("ridge's own slope is the same number",
          abs(ridge_fit("three_people", PENALTY).coef_[0] - primal_slope) < 1e-12)
    return {
        "heights": heights, "weights": weights,
        "mean_height": heights.mean(), "mean_weight": weights.mean(),
        "centred_heights": x, "centred_weights": y,
        "linear_table": linear_table, "system": system,
        "rbf_gamma": RBF_ONE.gamma, "rbf_table": rbf_table,
        "rbf_one_apart": rbf_table[0, 1], "rbf_two_apart": rbf_table[0, 2],
        "sxy": sxy, "sxx": sxx, "penalty": PENALTY, "primal_slope": primal_slope,
        "dual_weights": rounded_weights,
        "dual_weights_rounding": bound(weights_dual - rounded_weights, -12),
        "dual_slope": dual_slope,
        "question": QUESTION_HEIGHT, "question_centred": QUESTION_HEIGHT - heights.mean(),
        "answer": answer,
    }


@page.section
def throw_tables():
    """The fifteen throws' tables under three kernels, and how many directions each holds."""
    spectra = {name: spectrum("throws", kernel)
               for name, kernel in (("linear", LINEAR), ("squared", SQUARED), ("rbf", RBF_ONE))}
    counts = {name: nonzero_count(values) for name, values in spectra.items()}
    sxx = float(centred_rows("throws")[:, 0] @ centred_rows("throws")[:, 0])
    claim("under the linear kernel exactly one eigenvalue is not zero", counts["linear"] == 1)
    claim("the linear table's one eigenvalue is the sum of squared centred times",
          abs(spectra["linear"][0] - sxx) < 1e-12 * sxx)
    claim("the squared kernel's table has three non-zero eigenvalues", counts["squared"] == 3)
    claim("every eigenvalue of the RBF table is positive", spectra["rbf"][-1] > 0)
    claim("the RBF table has no zero eigenvalue by the threshold",
          counts["rbf"] == len(spectra["rbf"]))
    squared = gram("throws", SQUARED)
    times = centred_rows("throws")[:, 0]
    middle = len(times) // 2
    claim("no entry of the squared table is negative", squared.min() >= 0)
    claim("in the squared table the same-side corners outshine the opposite corners, "
          "which outshine the centre",
          squared[0, 0] == squared[-1, -1] > squared[0, -1] > squared[middle, middle])
    darkest = np.unravel_index(np.argmin(squared), squared.shape)
    claim("the darkest squared entry is a pair whose centred times multiply to within 0.05 "
          "of −1", abs(times[darkest[0]] * times[darkest[1]] + 1) < 0.05)
    return {
        "count": len(spectra["linear"]),
        "threshold": ZERO_EIGENVALUE_FRACTION,
        "nonzero": counts,
        "zero": {name: len(values) - counts[name] for name, values in spectra.items()},
        "linear_largest": spectra["linear"][0],
        "linear_rest": bound(spectra["linear"][1:], -13),
        "squared_third": spectra["squared"][2],
        "rbf_largest": spectra["rbf"][0],
        "rbf_smallest": spectra["rbf"][-1],
        "rbf_gamma": RBF_ONE.gamma,
        "squared_corner": squared[0, 0], "squared_opposite": squared[0, -1],
        "squared_centre": squared[middle, middle],
    }


@page.section
def derivation_checked():
    """Primal (Ridge) against dual (KernelRidge, linear kernel) on the throws."""
    grid = sample_grid("throws", 81)
    primal, dual = ridge_fit("throws", PENALTY), kernel_fit("throws", LINEAR, PENALTY)
    primal_r2, dual_r2 = r_squared("throws", primal), r_squared("throws", dual)
    mean_time = float(dataset("throws").rows.mean())
    at_mean = float(dual.predict([[mean_time]])[0])
    gap = np.max(np.abs(primal.predict(grid) - dual.predict(grid)))
    claim("the two slopes agree to within 1e−12 relative",
          relative_gap(slope_from_dual(dual), primal.coef_) < 1e-12)
    claim("the two R² agree to within 1e−12", abs(primal_r2 - dual_r2) < 1e-12)
    claim("both lines answer the mean height at the mean time",
          abs(at_mean - dual.target_mean_) < 1e-12
          and abs(primal.predict([[mean_time]])[0] - primal.target_mean_) < 1e-12)
    sweep = []
    for penalty in (1e-3, 1e-2, 1e-1, 1.0, 10.0, 1e2, 1e3):
        ridge, kernel_ridge = ridge_fit("throws", penalty), kernel_fit("throws", LINEAR, penalty)
        sweep.append({"penalty": penalty, "ridge_slope": ridge.coef_[0],
                      "dual_slope": slope_from_dual(kernel_ridge)[0],
                      "r2": r_squared("throws", kernel_ridge)})
    # Small penalties make large dual weights whose sum through the centred times
    # cancels, so agreement loosens from 1e-14 towards 1e-10 at the small end.
    claim("across the sweep the two slopes agree to within 1e−8 relative",
          all(abs(row["dual_slope"] / row["ridge_slope"] - 1) < 1e-8 for row in sweep))
    return {
        "penalty": PENALTY, "samples": len(grid),
        "primal_slope": primal.coef_[0], "dual_slope": slope_from_dual(dual)[0],
        "largest_gap": bound(gap, -12), "r2": primal_r2,
        "mean_time": mean_time, "answer_at_mean": at_mean,
        "sweep": sweep, "orders": round(np.log10(sweep[-1]["penalty"] / sweep[0]["penalty"])),
    }


def _ledger(name: str, kernel, penalty: float) -> tuple[list[dict], float]:
    """Row by row: target, fitted value, residual, residual / penalty, dual weight."""
    model = kernel_fit(name, kernel, penalty)
    table = dataset(name)
    fitted = model.predict(table.rows)
    residuals = table.target - fitted
    weights = model.dual_weights_
    rows = [{"x": x, "y": y, "fitted": f, "residual": r, "ratio": r / penalty, "weight": a}
            for x, y, f, r, a in zip(table.rows[:, 0], table.target, fitted, residuals, weights,
                                     strict=True)]
    return rows, float(np.max(np.abs(residuals / penalty - weights)))


@page.section
def weights_are_residuals():
    """On the training rows, each dual weight is that row's residual divided by the penalty."""
    people, people_gap = _ledger("three_people", LINEAR, PENALTY)
    linear, linear_gap = _ledger("throws", LINEAR, PENALTY)
    rbf, rbf_gap = _ledger("throws", RBF_ONE, PENALTY)
    shrinking = []
    for penalty in (1.0, 1e-1, 1e-2, 1e-3):
        model = kernel_fit("throws", LINEAR, penalty)
        largest = float(np.max(np.abs(model.dual_weights_)))
        shrinking.append({"penalty": penalty, "r2": r_squared("throws", model),
                          "largest_weight": largest, "times_penalty": largest * penalty})
    growth = shrinking[-1]["largest_weight"] / shrinking[0]["largest_weight"]
    claim("for the three people the fitted weights are 66, 70 and 74 kilograms",
          np.allclose([row["fitted"] for row in people], [66, 70, 74], rtol=0, atol=1e-10))
    claim("the largest dual weight grows about a thousandfold (within 1%) as the penalty falls "
          "a thousandfold", 990 < growth < 1010)
    claim("the line's R² barely moves as the penalty falls",
          abs(shrinking[-1]["r2"] - shrinking[0]["r2"]) < 1e-4)
    return {
        "penalty": PENALTY,
        "people": people, "people_gap": bound(people_gap, -12),
        "linear": linear, "linear_gap": bound(linear_gap, -12),
        "rbf": rbf, "rbf_gap": bound(rbf_gap, -12),
        "shrinking": shrinking, "growth": growth,
    }


@page.section
def what_is_kept():
    """The dual model keeps its training rows; ridge keeps one number per feature."""
    dual, primal = kernel_fit("crowd", LINEAR, PENALTY), ridge_fit("crowd", PENALTY)
    rows, weights = dual.training_rows_, dual.dual_weights_
    kept_dual = rows.size + weights.size + dual.feature_means_.size + 1
    kept_ridge = primal.coef_.size + 1
    slope_gap = relative_gap(slope_from_dual(dual), primal.coef_)
    claim("the kernel model has no coef_ attribute", not hasattr(dual, "coef_"))
    return {"rows": rows.shape[0], "weights": weights.size, "features": rows.shape[1],
            "kept_dual": kept_dual, "kept_ridge": kept_ridge, "slope": primal.coef_[0],
            "slope_gap": bound(slope_gap, -12)}


@page.section
def polynomial_degrees():
    """The polynomial kernel on the throws, degree 1 to 6 at coef0 1 and penalty 1."""
    rows = []
    for degree in range(1, 7):
        kernel = kernels.polynomial(degree)
        model = kernel_fit("throws", kernel, PENALTY)
        rows.append({"degree": degree, "r2": r_squared("throws", model),
                     "condition": condition_number("throws", kernel, PENALTY)})
    grid = sample_grid("throws", 81)
    degree_one = kernels.polynomial(1)
    throw_gap = np.max(np.abs(kernel_fit("throws", degree_one, PENALTY).predict(grid)
                              - kernel_fit("throws", LINEAR, PENALTY).predict(grid)))
    people_grid = sample_grid("three_people", 81)
    people_gap = np.max(np.abs(kernel_fit("three_people", degree_one, PENALTY).predict(people_grid)
                               - kernel_fit("three_people", LINEAR, PENALTY).predict(people_grid)))
    conditions = [row["condition"] for row in rows]
    claim("the condition number rises with every degree", np.all(np.diff(conditions) > 0))
    spectra = [spectrum("throws", kernels.polynomial(row["degree"])) for row in rows]
    claim("a degree-d table has at most d + 1 non-zero eigenvalues, fewer than the throws",
          all(nonzero_count(values) <= row["degree"] + 1 < len(values)
              for values, row in zip(spectra, rows, strict=True)))
    floor_gap = [abs(values[-1]) for values in spectra]
    claim("at every degree the smallest eigenvalue of K + penalty·I is the penalty itself",
          max(floor_gap) < 1e-11 * PENALTY)
    claim("the square follows the arc far better than the line",
          rows[1]["r2"] > rows[0]["r2"] + 0.5)
    claim("past the square no degree adds more than 0.01 to R²",
          max(row["r2"] for row in rows[2:]) - rows[1]["r2"] < 0.01)
    # Why degree one equals linear: centring makes the column of ones orthogonal to
    # both the centred target and every centred row, so the added constant is inert.
    ones_inert = abs(kernel_fit("throws", degree_one, PENALTY).dual_weights_.sum())
    return {
        "penalty": PENALTY, "rows": rows, "samples": len(grid),
        "best_degree": rows[int(np.argmax([row["r2"] for row in rows]))]["degree"],
        "throw_gap": bound(throw_gap, -11), "people_gap": bound(people_gap, -9),
        "weights_sum": bound(ones_inert, -11), "floor_gap": bound(floor_gap, -11),
    }


RBF_GAMMAS = (0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 100.0)


def _eigenvalue_or_noise(value: float):
    """A wide RBF table is numerically singular: its smallest eigenvalue is rounding."""
    return value if abs(value) > 1e-12 else bound(value, -14)


@page.section
def rbf_on_throws():
    """The RBF kernel on the throws: one row of its table, then gamma from 0.01 to 100."""
    times = dataset("throws").rows[:, 0]
    middle = int(np.argmin(np.abs(times - times.mean())))
    row = gram("throws", RBF_ONE)[middle, middle:]
    sweep = []
    for gamma in RBF_GAMMAS:
        kernel = kernels.rbf(gamma)
        table = gram("throws", kernel)
        sweep.append({
            "gamma": gamma,
            "r2": r_squared("throws", kernel_fit("throws", kernel, PENALTY)),
            "smallest": _eigenvalue_or_noise(spectrum("throws", kernel)[-1]),
            "off_diagonal": float(np.max(np.abs(table - np.eye(len(table))))),
        })
    smallest = [spectrum("throws", kernels.rbf(gamma))[-1] for gamma in RBF_GAMMAS]
    best = max(sweep, key=lambda entry: entry["r2"])
    # At the largest gamma K + penalty·I is nearly (1 + penalty)·I: each fitted value
    # sits about halfway (for penalty 1) between the mean and its own throw.
    narrow = kernel_fit("throws", kernels.rbf(RBF_GAMMAS[-1]), PENALTY)
    heights = dataset("throws").target
    halfway = heights.mean() + (heights - heights.mean()) / (1 + PENALTY)
    halfway_within = 0.005
    claim("at the largest gamma every fitted value is within 0.005 m of halfway between the "
          "mean and its throw", np.max(np.abs(narrow.predict(dataset("throws").rows) - halfway))
          < halfway_within)
    claim("the row falls away from the diagonal at every step", np.all(np.diff(row) < 0))
    claim("from gamma 1 on, the smallest eigenvalue rises with every step up in gamma",
          np.all(np.diff(smallest[3:]) > 0))
    claim("at the largest gamma no off-diagonal entry reaches 0.0005 (identity to three decimals)",
          sweep[-1]["off_diagonal"] < 5e-4)
    claim("R² rises through gamma 3 and falls after it",
          np.all(np.diff([e["r2"] for e in sweep[:5]]) > 0)
          and np.all(np.diff([e["r2"] for e in sweep[4:]]) < 0))
    return {
        "penalty": PENALTY, "gamma": RBF_ONE.gamma,
        "middle_time": times[middle], "row": row, "row_times": times[middle:] - times[middle],
        "sweep": sweep, "best_gamma": best["gamma"], "best_r2": best["r2"],
        "halfway_within": halfway_within,
    }


@page.section
def units():
    """Gamma carries the inverse square of the feature's unit: the crowd in centimetres."""
    crowd = dataset("crowd")
    heights = crowd.rows[:, 0]
    table = gram("crowd", RBF_ONE)
    model = kernel_fit("crowd", RBF_ONE, PENALTY)
    line_r2 = r_squared("crowd", ridge_fit("crowd", PENALTY))
    on_person, between = 173.0, 174.5
    person = int(np.argmin(np.abs(heights - on_person)))
    answers = model.predict([[on_person], [between]])
    half_centred = centred_target("crowd") / (1 + PENALTY)
    wider = [{"gamma": gamma,
              "r2": r_squared("crowd", kernel_fit("crowd", kernels.rbf(gamma), PENALTY))}
             for gamma in (0.01, 0.001, 0.0001)]
    rbf_r2 = r_squared("crowd", model)
    spacing = np.diff(np.sort(heights))
    claim("the person asked about is in the crowd", heights[person] == on_person)
    off_diagonal = float(np.max(np.abs(table - np.eye(len(table)))))
    weight_gap = float(np.max(np.abs(model.dual_weights_ - half_centred)))
    claim("the crowd's table is the identity to three decimals", off_diagonal < 5e-4)
    claim("every dual weight is within 0.002 of the centred weight over one plus the penalty",
          weight_gap < 2e-3)
    claim("asked about a person in the crowd, the RBF answers within 0.01 of halfway between "
          "the mean and that person's weight",
          abs(answers[0] - (crowd.target.mean() + crowd.target[person]) / 2) < 0.01)
    claim("no reach of the RBF beats the line on the crowd",
          max([rbf_r2] + [entry["r2"] for entry in wider]) < line_r2)
    return {
        "gamma": RBF_ONE.gamma, "penalty": PENALTY, "smallest": spectrum("crowd", RBF_ONE)[-1],
        "closest_spacing": spacing.min(), "off_diagonal": off_diagonal,
        "weight_gap": weight_gap, "mean_weight": crowd.target.mean(),
        "on_person": on_person, "person_weight": crowd.target[person], "answer_on": answers[0],
        "between": between, "answer_between": answers[1],
        "r2": rbf_r2, "line_r2": line_r2, "wider": wider,
    }


for _function in later.SECTIONS:
    page.section(_function)


page.figure("tables", alt="The fifteen throws' kernel tables under the linear, squared "
            "polynomial and RBF kernels, as heat maps")(figures.tables)
page.figure("degrees", alt="Polynomial kernel fits of degree one to six through the "
            "fifteen throws")(figures.degrees)
page.figure("gammas", alt="RBF kernel fits through the throws at four values of "
            "gamma")(figures.gammas)
page.figure("penalties", alt="RBF curves at four penalties, and the condition number and "
            "largest dual weight across the penalty sweep")(
    lambda: figures.penalties(later.penalty_as_conditioning_sweep()))
page.figure("timings", alt="Fit time of ridge and kernel ridge against rows and against "
            "features, on log-log axes, with fitted slopes")(figures.timings)
