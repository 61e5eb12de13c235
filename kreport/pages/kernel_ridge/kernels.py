"""Swapping the kernel: the throws' tables, polynomial degrees, the RBF and its
gamma, units, and every kernel on the three people."""

from __future__ import annotations

import numpy as np

from kreport import kernels
from kreport.report import bound, claim, exact, within

from .fits import (
    LINEAR,
    RBF_WORKED,
    SQUARED,
    centred_rows,
    centred_target,
    dataset,
    eigen,
    gram,
    held_out,
    kernel_fit,
    mean_of_others_r2,
    nonzero_count,
    r_squared,
    ridge_fit,
    sample_grid,
    spectrum,
)
from .fits import condition_number as kappa
from .settings import (
    CROWD_GAMMAS,
    DEGREES,
    FIGURE_GAMMAS,
    FREEING_PENALTY,
    PENALTY,
    QUESTION_HEIGHT,
    RBF_GAMMAS,
    SAMPLES,
    SMALL_PENALTY,
    SMALLEST_PENALTY,
    THROWS_GAMMA,
    ZERO_EIGENVALUE_FRACTION,
)

#: The smallest eigenvalue of a wide RBF table is known only to about 10⁻¹⁵
#: (rounding relative to the largest, near 10): above this it is printed with
#: two digits at a tolerance of RBF_SMALLEST_RTOL, below it as a bound.
NOISE_FLOOR = 1e-12
RBF_SMALLEST_RTOL = 1e-5
#: "The identity to three decimals": no off-diagonal entry reaches this.
IDENTITY_TO = 5e-4
#: The throws' table at the largest gamma sends each fitted value this close
#: (m) to halfway between the mean and its own throw.
HALFWAY_WITHIN = 0.005


def smallest_eigenvalue(name: str, kernel):
    """What is well determined of K̃'s smallest eigenvalue: two digits, or a bound."""
    value = float(spectrum(name, kernel)[-1])
    if abs(value) > NOISE_FLOOR:
        return within(value, RBF_SMALLEST_RTOL)
    return bound(value, -13)


def throw_tables():
    """The fifteen throws' tables under three kernels, and how many directions each holds."""
    spectra = {name: spectrum("throws", kernel)
               for name, kernel in (("linear", LINEAR), ("squared", SQUARED),
                                    ("rbf", RBF_WORKED))}
    counts = {name: nonzero_count(values) for name, values in spectra.items()}
    times = centred_rows("throws")[:, 0]
    sxx = float(times @ times)
    squared = gram("throws", SQUARED)
    middle = len(times) // 2
    corners = [squared[0, 0], squared[-1, -1]]
    opposite = [squared[0, -1], squared[-1, 0]]
    claim("under the linear kernel exactly one eigenvalue is not zero", counts["linear"] == 1,
          id="linear_one")
    claim("the linear table's one eigenvalue is the sum of squared centred times "
          "(to {tol} relative)", lambda tol: abs(spectra["linear"][0] - sxx) < tol * sxx,
          id="linear_sum", tol=1e-12)
    claim("the squared kernel's table has three non-zero eigenvalues", counts["squared"] == 3,
          id="squared_three")
    claim("every eigenvalue of the RBF table is positive", spectra["rbf"][-1] > 0,
          id="rbf_positive")
    claim("the RBF table has no zero eigenvalue by the threshold",
          counts["rbf"] == len(spectra["rbf"]), id="rbf_full")
    claim("no entry of the squared table is negative", squared.min() >= 0, id="nonnegative")
    claim("in the squared table both same-side corners outshine both opposite corners, "
          "which outshine the centre",
          min(corners) > max(opposite) > squared[middle, middle], id="corners")
    darkest = np.unravel_index(np.argmin(squared), squared.shape)
    claim("the darkest squared entry is a pair whose centred times multiply to within {tol} "
          "of {target}", lambda tol: abs(times[darkest[0]] * times[darkest[1]] + 1) < tol,
          id="darkest", tol=0.05, target=-1)
    return {
        "count": len(spectra["linear"]),
        "threshold": ZERO_EIGENVALUE_FRACTION,
        "nonzero": counts,
        "zero": {name: len(values) - counts[name] for name, values in spectra.items()},
        "linear_largest": spectra["linear"][0],
        "linear_rest": bound(spectra["linear"][1:], -13),
        "squared_third": spectra["squared"][2],
        "rbf_largest": spectra["rbf"][0],
        "rbf_smallest": smallest_eigenvalue("throws", RBF_WORKED),
        "rbf_ratio": within(float(spectra["rbf"][0] / spectra["rbf"][-1]), RBF_SMALLEST_RTOL),
        "rbf_gamma": RBF_WORKED.gamma,
        "squared_corner": squared[0, 0], "squared_opposite": squared[0, -1],
        "squared_centre": squared[middle, middle],
    }


def _centred_in_feature_space(name: str, kernel) -> np.ndarray:
    """Kernel PCA's K_c = (I − J) K (I − J), K the kernel of the raw rows."""
    rows = dataset(name).rows
    table = kernel(rows, rows)
    n = len(rows)
    centring = np.eye(n) - np.full((n, n), 1.0 / n)
    return centring @ table @ centring


def polynomial_degrees():
    """The polynomial kernel on the throws, degree one to six at coef0 one and penalty one,
    with held-out error beside the training score."""
    rows = []
    for degree in DEGREES:
        kernel = kernels.polynomial(degree)
        model = kernel_fit("throws", kernel, PENALTY)
        loo = held_out("throws", kernel, PENALTY)
        rows.append({"degree": degree, "r2": r_squared("throws", model),
                     "loo_mse": loo.mse, "loo_r2": loo.r2,
                     "condition": kappa("throws", kernel, PENALTY)})
    grid = sample_grid("throws", SAMPLES)
    degree_one = kernels.polynomial(1)
    throw_gap = np.max(np.abs(kernel_fit("throws", degree_one, PENALTY).predict(grid)
                              - kernel_fit("throws", LINEAR, PENALTY).predict(grid)))
    people_grid = sample_grid("three_people", SAMPLES)
    people_gap = np.max(np.abs(kernel_fit("three_people", degree_one, PENALTY).predict(people_grid)
                               - kernel_fit("three_people", LINEAR, PENALTY).predict(people_grid)))
    conditions = [row["condition"] for row in rows]
    claim("the condition number rises with every degree", np.all(np.diff(conditions) > 0),
          id="kappa_rises")
    spectra = [spectrum("throws", kernels.polynomial(row["degree"])) for row in rows]
    claim("a table of degree d has at most one more non-zero eigenvalue than its degree, "
          "fewer than there are throws",
          all(nonzero_count(values) <= row["degree"] + 1 < len(values)
              for values, row in zip(spectra, rows, strict=True)), id="rank")
    floor_gap = [abs(values[-1]) for values in spectra]
    claim("at every degree the smallest eigenvalue of K̃ + αI is the penalty itself (to {tol})",
          max(floor_gap) < 1e-10 * PENALTY, id="floor", tol=1e-10 * PENALTY)
    claim("the square follows the arc far better than the line (training R² higher by more "
          "than {margin})", lambda margin: rows[1]["r2"] > rows[0]["r2"] + margin, id="square",
          margin=0.5)
    past_square = max(abs(row["r2"] - rows[1]["r2"]) for row in rows[2:])
    claim("past the square no degree moves the training R² by as much as {limit}",
          lambda limit: past_square < limit, id="flat_training", limit=0.01)
    losses = [row["loo_mse"] for row in rows]
    best_training = int(np.argmax([row["r2"] for row in rows]))
    best_held_out = int(np.argmin(losses))
    claim("the training score and the held-out error both pick the same degree",
          best_training == best_held_out, id="same_pick")
    claim("past the held-out pick the held-out error grows with every degree",
          np.all(np.diff(losses[best_held_out:]) > 0), id="loo_grows")
    growth = losses[-1] / losses[best_held_out]
    claim("at the highest degree the held-out error is more than {times} times the best",
          lambda times: growth > times, id="loo_growth", times=5)
    ones_inert = abs(kernel_fit("throws", degree_one, PENALTY).dual_weights_.sum())
    linear_centring_gap = np.max(np.abs(_centred_in_feature_space("throws", LINEAR)
                                        - gram("throws", LINEAR)))
    squared_centring_gap = float(np.max(np.abs(_centred_in_feature_space("throws", SQUARED)
                                               - gram("throws", SQUARED))))
    claim("for the squared kernel K̃ and K_c differ by more than the largest entry of K̃",
          squared_centring_gap > np.max(np.abs(gram("throws", SQUARED))), id="not_kc")
    return {
        "penalty": PENALTY, "rows": rows, "samples": len(grid),
        "best_degree": rows[best_training]["degree"],
        "loo_growth": growth, "top_degree": rows[-1]["degree"],
        "degree_one_gap": bound(max(throw_gap, people_gap), -10),
        "weights_sum": bound(ones_inert, -11), "floor_gap": bound(floor_gap, -10),
        "linear_centring_gap": bound(linear_centring_gap, -12),
        "squared_centring_gap": squared_centring_gap,
        "squared_largest": float(np.max(np.abs(gram("throws", SQUARED)))),
    }


def rbf_on_throws():
    """The RBF kernel on the throws: one row of its table, then gamma from small to large,
    with held-out error beside the training score; what flattens the small-gamma curve."""
    times = dataset("throws").rows[:, 0]
    middle = len(times) // 2
    row = gram("throws", RBF_WORKED)[middle, middle:]
    sweep = []
    for gamma in RBF_GAMMAS:
        kernel = kernels.rbf(gamma)
        table = gram("throws", kernel)
        loo = held_out("throws", kernel, PENALTY)
        sweep.append({
            "gamma": gamma,
            "r2": r_squared("throws", kernel_fit("throws", kernel, PENALTY)),
            "loo_mse": loo.mse, "loo_r2": loo.r2,
            "smallest": smallest_eigenvalue("throws", kernel),
            "off_diagonal": float(np.max(np.abs(table - np.eye(len(table))))),
        })
    smallest = [spectrum("throws", kernels.rbf(gamma))[-1] for gamma in RBF_GAMMAS]
    by_training = max(sweep, key=lambda entry: entry["r2"])
    by_held_out = min(sweep, key=lambda entry: entry["loo_mse"])
    widest, narrowest = sweep[0], sweep[-1]
    # At the largest gamma K̃ + αI is nearly (1 + α)·I: each fitted value sits
    # about 1/(1 + α) of the way from the mean to its own throw.
    narrow = kernel_fit("throws", kernels.rbf(RBF_GAMMAS[-1]), PENALTY)
    heights = dataset("throws").target
    halfway = heights.mean() + (heights - heights.mean()) / (1 + PENALTY)
    claim("at the largest gamma every fitted value is within {tol} m of halfway between the "
          "mean and its throw",
          lambda tol: np.max(np.abs(narrow.predict(dataset("throws").rows) - halfway)) < tol,
          id="halfway", tol=HALFWAY_WITHIN)
    claim("the row falls away from the diagonal at every step", np.all(np.diff(row) < 0),
          id="row_falls")
    worked = RBF_GAMMAS.index(THROWS_GAMMA)
    claim("from the worked gamma on, the smallest eigenvalue rises with every step up in gamma",
          np.all(np.diff(smallest[worked:]) > 0), id="smallest_rises")
    claim("at the largest gamma no off-diagonal entry reaches {limit}",
          lambda limit: narrowest["off_diagonal"] < limit, id="identity", limit=IDENTITY_TO)
    claim("the training R² rises to its peak and falls after it",
          _rises_then_falls([entry["r2"] for entry in sweep]), id="training_peak")
    claim("the training score and the held-out error pick different gammas, the held-out one "
          "the smaller", by_held_out["gamma"] < by_training["gamma"], id="picks_differ")
    claim("at the largest gamma the training R² is above {high} while the held-out R² is "
          "below zero", lambda high: narrowest["r2"] > high and narrowest["loo_r2"] < 0,
          id="memorised", high=0.7)
    # The smallest gamma: what the penalty does to the table's directions.
    values, vectors = eigen("throws", kernels.rbf(RBF_GAMMAS[0]))
    target = centred_target("throws")
    shares = (vectors[:, :3].T @ target) ** 2 / (target @ target)
    arc = int(np.argmax(shares))
    kept = float(values[arc] / (values[arc] + PENALTY))
    tiny = FREEING_PENALTY
    freed = kernel_fit("throws", kernels.rbf(RBF_GAMMAS[0]), tiny)
    freed_loo = held_out("throws", kernels.rbf(RBF_GAMMAS[0]), tiny)
    claim("at the smallest gamma each of the table's first three eigenvalues is less than "
          "{share} of the one before",
          lambda share: values[1] < share * values[0] and values[2] < share * values[1],
          id="falls_fast", share=0.1)
    claim("at the smallest gamma almost all of the centred heights (more than {share}) lie "
          "along the third direction of the table", lambda share: arc == 2 and shares[arc] > share,
          id="third_direction", share=0.99)
    claim("a penalty of one keeps less than {share} of that direction", lambda share: kept < share,
          id="suppressed", share=0.01)
    n = len(heights)
    mean_of_others = mean_of_others_r2("throws")
    claim("at the largest gamma the held-out R² is within {tol} of the score of answering the "
          "mean of the other throws",
          lambda tol: abs(narrowest["loo_r2"] - mean_of_others) < tol, id="mean_of_others",
          tol=0.005)
    claim("with the small penalty the same gamma scores a training R² above {limit} and a "
          "held-out R² above every gamma's at a penalty of one",
          lambda limit: r_squared("throws", freed) > limit
          and freed_loo.r2 > max(entry["loo_r2"] for entry in sweep), id="freed", limit=0.99)
    return {
        "penalty": PENALTY, "gamma": RBF_WORKED.gamma,
        "middle_time": times[middle], "row": row, "row_times": times[middle:] - times[middle],
        "sweep": sweep, "figure_gammas": list(FIGURE_GAMMAS),
        "training_gamma": by_training["gamma"], "training_r2": by_training["r2"],
        "training_loo_r2": by_training["loo_r2"],
        "held_out_gamma": by_held_out["gamma"], "held_out_r2": by_held_out["r2"],
        "held_out_loo_r2": by_held_out["loo_r2"],
        "halfway_within": HALFWAY_WITHIN, "identity_to": IDENTITY_TO,
        "mean_of_others": mean_of_others, "other_rows": n - 1, "others_factor": n / (n - 1),
        "small_gamma": widest["gamma"], "small_values": values[:3],
        "arc_share": float(shares[arc]), "arc_kept": kept,
        "tiny_penalty": tiny,
        "freed_r2": within(r_squared("throws", freed), 1e-4),
        "freed_loo_r2": within(freed_loo.r2, 1e-4),
    }


def _rises_then_falls(values) -> bool:
    peak = int(np.argmax(values))
    return bool(np.all(np.diff(values[:peak + 1]) > 0) and np.all(np.diff(values[peak:]) < 0))


def units():
    """Gamma carries the inverse square of the feature's unit: the crowd in centimetres,
    and what the penalty (not the kernel) does at the widest reach."""
    crowd = dataset("crowd")
    heights = crowd.rows[:, 0]
    worked = kernels.rbf(CROWD_GAMMAS[0])
    table = gram("crowd", worked)
    model = kernel_fit("crowd", worked, PENALTY)
    line = ridge_fit("crowd", PENALTY)
    line_r2 = r_squared("crowd", line)
    line_loo = held_out("crowd", LINEAR, PENALTY)
    order = np.argsort(heights)
    person = int(order[len(order) // 2])  # the middle person by height
    neighbour = int(order[len(order) // 2 + 1])
    between = (heights[person] + heights[neighbour]) / 2
    answers = model.predict([[heights[person]], [between]])
    half_centred = centred_target("crowd") / (1 + PENALTY)
    off_diagonal = float(np.max(np.abs(table - np.eye(len(table)))))
    weight_gap = float(np.max(np.abs(model.dual_weights_ - half_centred)))
    spacing = np.diff(np.sort(heights))
    claim("the crowd's heights are evenly spaced (to {tol} cm)", lambda tol: np.ptp(spacing) < tol,
          id="spacing", tol=1e-9)
    claim("the crowd's table is the identity to three decimals (no off-diagonal entry reaches "
          "{limit})", lambda limit: off_diagonal < limit, id="identity", limit=IDENTITY_TO)
    claim("every dual weight is within {tol} of the centred weight over one plus the penalty",
          lambda tol: weight_gap < tol, id="half_weights", tol=2e-3)
    claim("asked about a person in the crowd, the RBF answers within {tol} kg of halfway "
          "between the mean and that person's weight",
          lambda tol: abs(answers[0] - (crowd.target.mean() + crowd.target[person]) / 2) < tol,
          id="halfway", tol=0.01)
    claim("asked about a height midway between two people, the RBF answers within {tol} kg "
          "of the mean", lambda tol: abs(answers[1] - crowd.target.mean()) < tol, id="between",
          tol=0.2)
    rbf_loo = held_out("crowd", worked, PENALTY)
    wider = []
    for gamma in CROWD_GAMMAS:
        kernel = kernels.rbf(gamma)
        small = held_out("crowd", kernel, SMALL_PENALTY)
        values = spectrum("crowd", kernel)
        wider.append({"gamma": gamma,
                      "r2": r_squared("crowd", kernel_fit("crowd", kernel, PENALTY)),
                      "loo_r2": held_out("crowd", kernel, PENALTY).r2,
                      "small_r2": r_squared("crowd", kernel_fit("crowd", kernel, SMALL_PENALTY)),
                      "small_loo_r2": small.r2, "second": float(values[1])})
    at_one = wider[1:]
    claim("at a penalty of one no reach of the RBF beats the line, on training or held-out R²",
          all(entry["r2"] < line_r2 and entry["loo_r2"] < line_loo.r2 for entry in wider),
          id="line_wins")
    peak_training = max(at_one, key=lambda entry: entry["r2"])
    peak_held_out = max(at_one, key=lambda entry: entry["loo_r2"])
    claim("among the wider reaches the training score peaks at a narrower reach than the "
          "held-out score", peak_training["gamma"] > peak_held_out["gamma"], id="peaks")
    widest = wider[-1]
    kept = widest["second"] / (widest["second"] + PENALTY)
    claim("at the widest reach a penalty of one keeps less than {share} of the table's second "
          "direction", lambda share: kept < share, id="second_kept", share=0.4)
    claim("at the widest reach the small penalty brings the training R² within {tol} of the "
          "line's", lambda tol: abs(widest["small_r2"] - line_r2) < tol, id="small_matches",
          tol=1e-3)
    claim("at the widest reach the small penalty brings the held-out R² within {tol} of the "
          "line's", lambda tol: abs(widest["small_loo_r2"] - line_loo.r2) < tol, id="small_loo",
          tol=0.05)
    tiny = SMALLEST_PENALTY
    memorised = kernel_fit("crowd", worked, tiny)
    memorised_loo = held_out("crowd", worked, tiny)
    claim("with a tiny penalty the narrow RBF's training R² is within {tol} of one, above the "
          "line's, while its held-out R² is below zero",
          lambda tol: 1 - r_squared("crowd", memorised) < tol and memorised_loo.r2 < 0,
          id="memorised", tol=1e-6)
    return {
        "gamma": worked.gamma, "penalty": PENALTY, "small_penalty": SMALL_PENALTY,
        "smallest": spectrum("crowd", worked)[-1],
        "closest_spacing": exact(int(np.rint(spacing.min())),
                                 "the crowd's heights are whole numbers"),
        "off_diagonal": off_diagonal, "weight_gap": weight_gap,
        "mean_weight": crowd.target.mean(),
        "on_person": heights[person], "person_weight": crowd.target[person],
        "answer_on": answers[0], "between": between, "answer_between": answers[1],
        "r2": r_squared("crowd", model), "loo_r2": rbf_loo.r2,
        "line_r2": line_r2, "line_loo_r2": line_loo.r2,
        "wider": wider,
        "peak_training_gamma": peak_training["gamma"],
        "peak_held_out_gamma": peak_held_out["gamma"],
        "widest_gamma": widest["gamma"], "widest_second": widest["second"], "widest_kept": kept,
        "tiny_penalty": tiny,
        "tiny_unexplained": bound(1 - r_squared("crowd", memorised), -6),
        "tiny_loo_r2": within(memorised_loo.r2, 1e-4),
    }


#: The kernels every one of which is asked about the three people.
PEOPLE_KERNELS = (LINEAR, kernels.polynomial(1), SQUARED, kernels.polynomial(3),
                  kernels.rbf(0.1), RBF_WORKED)


def three_people_each_kernel():
    """Every kernel answers the question height from its own three dual weights."""
    heights = dataset("three_people").rows[:, 0]
    x, y = heights - heights.mean(), centred_target("three_people")
    claim("the outer two people sit at equal distances either side of the middle one, in "
          "height and in weight alike (to {tol})",
          lambda tol: max(abs(x[1]), abs(y[1]), abs(x[0] + x[2]), abs(y[0] + y[2])) < tol,
          id="symmetric", tol=1e-9)
    rows, middle_weights = [], []
    for kernel in PEOPLE_KERNELS:
        model = kernel_fit("three_people", kernel, PENALTY)
        weights = model.dual_weights_
        middle_weights.append(weights[1])
        table = gram("three_people", kernel)
        # With a2 = 0 and a3 = -a1 the first row of (K + alpha I) a = y reads
        # a1 (k11 - k13 + alpha) = y1: the outer pair's separation sets the size.
        separation = float(table[0, 0] - table[0, 2])
        rows.append({"kernel": repr(kernel), "first": weights[0], "third": weights[2],
                     "separation": separation,
                     "answer": model.predict([[QUESTION_HEIGHT]])[0]})
    claim("the middle person's dual weight is zero under every kernel (below {tol})",
          lambda tol: np.all(np.abs(middle_weights) < tol), id="middle", tol=1e-11)
    claim("the outer two weights are equal and opposite under every kernel (to {tol})",
          lambda tol: all(abs(row["first"] + row["third"]) < tol for row in rows), id="opposite",
          tol=1e-11)
    linear_table, degree_one_table = (gram("three_people", kernel) for kernel in PEOPLE_KERNELS[:2])
    claim("the linear kernel and the degree-one polynomial give the outer two different "
          "similarities but the same separation (to {tol})",
          lambda tol: abs(linear_table[0, 2] - degree_one_table[0, 2]) > tol
          and abs(rows[0]["separation"] - rows[1]["separation"]) < tol, id="same_separation",
          tol=1e-9)
    claim("under every kernel the first weight is the first centred target divided by the "
          "outer pair's separation plus the penalty (to {tol}, relative)",
          lambda tol: all(abs(row["first"] * (row["separation"] + PENALTY) - y[0])
                          < tol * abs(y[0]) for row in rows), id="separation", tol=1e-9)
    return {"penalty": PENALTY, "question": QUESTION_HEIGHT, "rows": rows,
            "middle": bound(middle_weights, -11)}
