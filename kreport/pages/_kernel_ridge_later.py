"""Sections of the kernel-ridge page from the three people under every kernel onwards.

Registered in order by ``kernel_ridge.py`` (see ``SECTIONS`` at the end); each
function is one section of the page, returning its facts and claiming what the
prose states.
"""

from __future__ import annotations

import numpy as np

from kreport import InvalidParameterError, KernelRidge, MercerConditionError, kernels
from kreport.pages import _kernel_ridge_probes as probes
from kreport.pages import _kernel_ridge_timing as timing
from kreport.pages._kernel_ridge_fits import (
    LINEAR,
    RBF_ONE,
    SQUARED,
    ZERO_EIGENVALUE_FRACTION,
    _half_centred_fit_for_demonstration,
    centred_target,
    condition_number,
    dataset,
    gram,
    kernel_fit,
    largest_swing_between_rows,
    nonzero_count,
    r_squared,
    ridge_fit,
    slope_from_dual,
    spectrum,
)
from kreport.report import bound, claim

PENALTY = 1.0
QUESTION_HEIGHT = 170.5
# Every kernel the page fits, for the checks that must hold under all of them.
PAGE_KERNELS = (LINEAR, *(kernels.polynomial(d) for d in range(1, 7)),
                *(kernels.rbf(g) for g in (0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 100.0)))
PEOPLE_KERNELS = (LINEAR, kernels.polynomial(1), SQUARED, kernels.polynomial(3),
                  kernels.rbf(0.1), RBF_ONE)


def three_people_each_kernel():
    """Every kernel answers 170.5 cm from its own three dual weights."""
    heights = dataset("three_people").rows[:, 0]
    x, y = heights - heights.mean(), centred_target("three_people")
    claim("the outer two people sit at equal distances either side of the middle one, in "
          "height and in weight alike", x[1] == 0 == y[1] and x[0] == -x[2] and y[0] == -y[2])
    rows, middle_weights = [], []
    for kernel in PEOPLE_KERNELS:
        model = kernel_fit("three_people", kernel, PENALTY)
        weights = model.dual_weights_
        middle_weights.append(weights[1])
        rows.append({"kernel": repr(kernel), "first": weights[0], "third": weights[2],
                     "outer_similarity": gram("three_people", kernel)[0, 2],
                     "answer": model.predict([[QUESTION_HEIGHT]])[0]})
    claim("the middle person's weight is zero under every kernel",
          np.all(np.abs(middle_weights) < 1e-12))
    claim("the outer two weights are equal and opposite under every kernel",
          all(abs(row["first"] + row["third"]) < 1e-12 for row in rows))
    return {"penalty": PENALTY, "question": QUESTION_HEIGHT, "rows": rows,
            "middle": bound(middle_weights, -12)}


def no_intercept_exemption():
    """The penalty sits on every diagonal entry; centring does the intercept's work."""
    y = centred_target("throws")
    residuals, shifts, through_mean = [], [], []
    shift = 100.0
    table = dataset("throws")
    mean_time = [[float(table.rows.mean())]]
    for kernel in PAGE_KERNELS:
        model = kernel_fit("throws", kernel, PENALTY)
        system = gram("throws", kernel) + PENALTY * np.eye(len(y))
        residuals.append(np.max(np.abs(system @ model.dual_weights_ - y)) / np.max(np.abs(y)))
        lifted = KernelRidge(kernel, PENALTY).fit(table.rows, table.target + shift)
        lift = lifted.predict(table.rows) - model.predict(table.rows)
        shifts.append(np.max(np.abs(lift - shift)))
        gap = model.predict(mean_time)[0] - model.target_mean_
        # The linear fits answer the mean to rounding; print that as a bound.
        through_mean.append({"kernel": repr(kernel),
                             "gap": gap if abs(gap) > 1e-9 else bound(gap, -12)})
    # The tempting mistake: leave the first row's diagonal entry unpenalised.
    exempted = gram("throws", RBF_ONE) + PENALTY * np.eye(len(y))
    exempted[0, 0] -= PENALTY
    wrong = np.linalg.solve(exempted, y)
    right = kernel_fit("throws", RBF_ONE, PENALTY).dual_weights_
    linear_answer = kernel_fit("throws", LINEAR, PENALTY).predict(mean_time)[0]
    linear_gap = abs(linear_answer - table.target.mean())
    curved_gaps = [row["gap"] for row in through_mean[2:]]
    people_gaps = [kernel_fit("three_people", k, PENALTY).predict([[170.0]])[0] - 70.0
                   for k in PEOPLE_KERNELS]
    claim("under each of the throws' kernels the weights solve the system with the penalty on "
          "every diagonal entry", max(residuals) < 1e-9)
    claim("under each of the throws' kernels, lifting the target lifts every answer by as much",
          max(shifts) < 1e-9)
    claim("the linear fit answers the mean height at the mean time", linear_gap < 1e-12)
    claim("on the throws every curved fit answers above the mean height at the mean time",
          all(gap > 0.1 for gap in curved_gaps))
    lowest = int(np.argmin(curved_gaps)) + 2
    claim("the curved fit closest to the mean there is the nearly straight RBF at gamma 0.01",
          PAGE_KERNELS[lowest] == kernels.rbf(0.01))
    claim("the highest throw is the one at the mean time",
          table.rows[int(np.argmax(table.target)), 0] == mean_time[0][0])
    claim("all three people's fits pass through their mean point",
          np.all(np.abs(people_gaps) < 1e-10))
    return {
        "penalty": PENALTY, "kernel_count": len(PAGE_KERNELS), "shift": shift,
        "system_residual": bound(residuals, -9), "shift_gap": bound(shifts, -9),
        "through_mean": through_mean, "linear_gap": bound(linear_gap, -12),
        "people_gap": bound(people_gaps, -10),
        "curved_low": min(curved_gaps), "curved_low_gamma": PAGE_KERNELS[lowest].gamma,
        "curved_high": max(curved_gaps),
        "exempted_change": float(np.max(np.abs(wrong - right))),
        "exempted_first": wrong[0], "right_first": right[0],
    }


CONDITIONING_PENALTIES = (1e-9, 1e-6, 1e-3, 1e-1, 1.0, 10.0, 1e2, 1e3)


def penalty_as_conditioning_sweep() -> list[dict]:
    """RBF (gamma 1) on the throws at every penalty of the sweep."""
    values = spectrum("throws", RBF_ONE)
    sweep = []
    for penalty in CONDITIONING_PENALTIES:
        model = kernel_fit("throws", RBF_ONE, penalty)
        system = gram("throws", RBF_ONE) + penalty * np.eye(len(values))
        sweep.append({"penalty": penalty, "r2": r_squared("throws", model),
                      "swing": largest_swing_between_rows(model, "throws"),
                      "largest_weight": float(np.max(np.abs(model.dual_weights_))),
                      "condition": condition_number("throws", RBF_ONE, penalty),
                      "numpy_condition": float(np.linalg.cond(system))})
    return sweep


def penalty_as_conditioning():
    """RBF (gamma 1) on the throws, penalty from 1e−9 to 1e3; then the linear kernel."""
    values = spectrum("throws", RBF_ONE)
    sweep = penalty_as_conditioning_sweep()
    linear = [{"penalty": p, "r2": r_squared("throws", kernel_fit("throws", LINEAR, p))}
              for p in (1.0, 1e3)]
    conditions = [row["condition"] for row in sweep]
    claim("the condition number falls with every step up in penalty",
          np.all(np.diff(conditions) < 0))
    claim("the formula matches numpy's condition number to within 1e−4 relative",
          all(abs(r["condition"] / r["numpy_condition"] - 1) < 1e-4 for r in sweep))
    claim("R² falls with every step up in penalty", np.all(np.diff([r["r2"] for r in sweep]) < 0))
    claim("at the largest penalty the curve stays within five centimetres of the mean",
          sweep[-1]["swing"] < 0.05)
    linear_share = linear[-1]["r2"] / linear[0]["r2"]
    rbf_share = sweep[-1]["r2"] / sweep[4]["r2"]
    claim("from a penalty of 1 to 1000 the linear kernel keeps a larger share of its R² than "
          "the RBF does", linear_share > rbf_share)
    targets = dataset("throws").target
    farthest_throw = float(np.max(np.abs(targets - targets.mean())))
    claim("at the smallest penalty the curve strays no further from the mean than the "
          "farthest throw, the first, does (to 1e−3 m)",
          sweep[0]["swing"] < farthest_throw + 1e-3
          and int(np.argmax(np.abs(targets - targets.mean()))) == 0)
    digits_lost = float(np.log10(sweep[0]["condition"]))
    table = [{key: value for key, value in row.items() if key != "numpy_condition"}
             for row in sweep]
    return {"gamma": RBF_ONE.gamma, "largest": values[0], "smallest": values[-1],
            "sweep": table, "linear": linear, "digits_lost": digits_lost,
            "linear_share": linear_share, "rbf_share": rbf_share,
            "farthest_throw": farthest_throw}


def half_centred_bug():
    """Centring the target but not the rows, against the two right fits."""
    rows = []
    for name, penalty in (("crowd", 1.0), ("crowd", 1e-3), ("throws", 1.0), ("throws", 1e-3)):
        table = dataset(name)
        wrong_slope, wrong_at_mean = _half_centred_fit_for_demonstration(
            table.rows, table.target, penalty)
        ridge, dual = ridge_fit(name, penalty), kernel_fit(name, LINEAR, penalty)
        rows.append({"data": name, "penalty": penalty, "ridge": ridge.coef_[0],
                     "dual": slope_from_dual(dual)[0], "wrong": wrong_slope[0],
                     "wrong_at_mean": wrong_at_mean, "mean": table.target.mean()})
    claim("in every case the two right fits agree to within 1e−8 relative",
          all(abs(row["dual"] / row["ridge"] - 1) < 1e-8 for row in rows))
    claim("in every case the half-centred slope is wrong by more than a fifth",
          all(abs(row["wrong"] / row["ridge"] - 1) > 0.2 for row in rows))
    crowd = rows[0]
    claim("on the crowd the half-centred slope is less than a hundredth of the right one",
          abs(crowd["wrong"]) < 0.01 * crowd["ridge"])
    claim("on the throws the half-centred slope is within a factor of five of the right one",
          rows[2]["ridge"] / 5 < rows[2]["wrong"] < rows[2]["ridge"])
    return {"rows": rows, "mean_height": dataset("crowd").rows.mean(),
            "wrong_at_mean": crowd["wrong_at_mean"], "mean_weight": crowd["mean"]}


def timings():
    """Ridge against kernel ridge as rows and features grow (measured elsewhere, read here)."""
    study = timing.load()
    claim("at the most rows the kernel fit is slower than ridge",
          study["kernel_slower_at_most_rows"])
    del study["kernel_slower_at_most_rows"]
    study.update(timing.stored_numbers())
    return study


def extrapolation():
    """Asked about five to eight seconds, after the last throw."""
    times = [5.0, 6.0, 7.0, 8.0]
    queries = [[t] for t in times]
    radial = kernel_fit("throws", RBF_ONE, 0.1)
    squared = kernel_fit("throws", SQUARED, PENALTY)
    line = kernel_fit("throws", LINEAR, PENALTY)
    rows = [{"time": t, "rbf": r, "squared": s, "linear": li}
            for t, r, s, li in zip(times, radial.predict(queries), squared.predict(queries),
                                   line.predict(queries), strict=True)]
    distance = np.abs(radial.predict(queries) - radial.target_mean_)
    claim("the RBF answer closes on the mean at every step past the data",
          np.all(np.diff(distance) < 0))
    claim("three seconds past the last throw the RBF answer is within 0.01 m of the mean",
          distance[times.index(dataset("throws").rows.max() + 3)] < 0.01)
    claim("at eight seconds the RBF answer is within 1e−3 m of the mean", distance[-1] < 1e-3)
    claim("the squared kernel answers below the ground, and further below at every step",
          np.all(squared.predict(queries) < 0) and np.all(np.diff(squared.predict(queries)) < 0))
    claim("the line moves by the same amount every second",
          np.ptp(np.diff(line.predict(queries))) < 1e-12)
    return {"rbf_gamma": RBF_ONE.gamma, "rbf_penalty": 0.1, "penalty": PENALTY,
            "last_time": dataset("throws").rows.max(), "rows": rows, "mean": radial.target_mean_}


def what_ridge_reports():
    """Coefficients and an intercept from ridge; a target mean from the dual."""
    ridge, dual = ridge_fit("crowd", PENALTY), kernel_fit("crowd", LINEAR, PENALTY)
    slope = slope_from_dual(dual)
    rebuilt_intercept = dual.target_mean_ - dual.feature_means_ @ slope
    claim("an intercept rebuilt from the dual's mean and weights is ridge's intercept",
          abs(rebuilt_intercept / ridge.intercept_ - 1) < 1e-9)
    claim("the kernel model reports neither coefficients nor an intercept",
          not hasattr(dual, "coef_") and not hasattr(dual, "intercept_"))
    return {"slope": ridge.coef_[0], "intercept": ridge.intercept_, "mean": dual.target_mean_}


def mercer():
    """The sigmoid kernel on the throws, refused below its negative eigenvalue's size."""
    sigmoid = kernels.sigmoid(1.0, -0.5)
    smallest = float(spectrum("throws", sigmoid)[-1])
    size = abs(smallest)
    below = [0.5, 1.0, 2.0, np.floor(size * 10) / 10]
    above = [np.ceil(size * 10) / 10, 5.0, 10.0, 100.0]
    refusals = [probes.refusal(lambda p=p: kernel_fit("throws", sigmoid, p)) for p in below]
    claim("every penalty below the negative eigenvalue's size is refused",
          all(isinstance(error, MercerConditionError) for error in refusals))
    claim("the refusal carries the table's smallest eigenvalue",
          all(abs(error.smallest_eigenvalue - smallest) < 1e-9 for error in refusals))
    accepted = [{"penalty": p, "r2": r_squared("throws", kernel_fit("throws", sigmoid, p))}
                for p in above]
    claim("the first accepted fit does far worse than answering the mean", accepted[0]["r2"] < -1)
    claim("R² climbs with every larger penalty tried",
          np.all(np.diff([row["r2"] for row in accepted]) > 0))
    plain = kernels.sigmoid(1.0, 0.0)
    plain_smallest = float(spectrum("throws", plain)[-1])
    claim("the sigmoid with coef0 0 also has a negative eigenvalue", plain_smallest < 0)
    claim("a penalty of one is larger than its size", abs(plain_smallest) < PENALTY)
    return {"gamma": sigmoid.gamma, "coef0": sigmoid.coef0, "smallest": smallest,
            "below": below, "above": accepted, "message": str(refusals[1]),
            "message_penalty": below[1], "plain_coef0": plain.coef0,
            "plain_smallest": plain_smallest, "penalty": PENALTY,
            "plain_r2": r_squared("throws", kernel_fit("throws", plain, PENALTY))}


def zero_penalty():
    """Without a penalty the linear and squared tables cannot be solved uniquely."""
    counts = {name: len(spectrum("throws", k)) - nonzero_count(spectrum("throws", k))
              for name, k in (("linear", LINEAR), ("squared", SQUARED), ("rbf", RBF_ONE))}
    error = probes.refusal(lambda: KernelRidge(LINEAR, 0.0))
    claim("a zero penalty is refused at construction", isinstance(error, InvalidParameterError))
    claim("the linear and squared tables are singular and the RBF's is not",
          counts["linear"] > 0 and counts["squared"] > 0 and counts["rbf"] == 0)
    return {"zeros": counts, "threshold": ZERO_EIGENVALUE_FRACTION, "message": str(error),
            "rbf_smallest": spectrum("throws", RBF_ONE)[-1]}


SECTIONS = (three_people_each_kernel, no_intercept_exemption, penalty_as_conditioning,
            half_centred_bug, timings, extrapolation, what_ridge_reports, mercer, zero_penalty,
            probes.declarations, probes.behaviour)
