"""Pitfalls: exempting an intercept that is not there, centring half the data, and
asking a fit about times it never saw."""

from __future__ import annotations

import numpy as np

from kreport import KernelRidge, kernels, leave_one_out
from kreport.report import bound, claim, within

from .fits import (
    LINEAR,
    RBF_WORKED,
    SQUARED,
    centred_target,
    dataset,
    gram,
    half_centred_fit_for_demonstration,
    kernel_fit,
    ridge_fit,
    slope_from_dual,
)
from .kernels import PEOPLE_KERNELS
from .settings import (
    DEGREES,
    EXTRAPOLATION_STEPS,
    LIFT,
    PENALTY,
    QUESTION_HEIGHT,
    RBF_GAMMAS,
    SMALL_PENALTY,
)

#: Every kernel the page fits to the throws, for the checks that must hold under all.
PAGE_KERNELS = (LINEAR, *(kernels.polynomial(d) for d in DEGREES),
                *(kernels.rbf(g) for g in RBF_GAMMAS))
#: The half-centred fit at the small penalty solves a table dominated by the
#: crowd's distance from the origin (κ near 10⁹): its numbers are known to this.
HALF_CENTRED_RTOL = 1e-4


def _free_level_solution(table: np.ndarray, target: np.ndarray, penalty: float) -> np.ndarray:
    """Kernel ridge with a fitted, unpenalised level instead of the target mean:
    [[K̃ + αI, 1], [1ᵀ, 0]] [a; level] = [y; 0] (plain numpy). Returns [a; level]."""
    n = len(table)
    system = np.zeros((n + 1, n + 1))
    system[:n, :n] = table + penalty * np.eye(n)
    system[:n, n] = system[n, :n] = 1.0
    return np.linalg.solve(system, np.append(target, 0.0))


def _free_level(name: str, kernel, penalty: float) -> tuple[float, float]:
    """The free-level fit on all the rows: its level and its training R²."""
    table, target = gram(name, kernel), dataset(name).target
    solution = _free_level_solution(table, target, penalty)
    fitted = table @ solution[:-1] + solution[-1]
    misses, spread = target - fitted, target - target.mean()
    return float(solution[-1]), float(1 - (misses @ misses) / (spread @ spread))


def _free_level_held_out(name: str, kernel, penalty: float) -> float:
    """Leave-one-out mean squared error of the free-level fit: refit without each row
    and predict it. Only for a kernel of distances (the RBF), whose table on the other
    rows is a block of the whole one, however the rows are centred."""
    table, target = gram(name, kernel), dataset(name).target
    misses = []
    for left_out in range(len(target)):
        keep = np.arange(len(target)) != left_out
        solution = _free_level_solution(table[np.ix_(keep, keep)], target[keep], penalty)
        answer = table[left_out, keep] @ solution[:-1] + solution[-1]
        misses.append(target[left_out] - answer)
    return float(np.mean(np.square(misses)))


def no_intercept_exemption():
    """The penalty sits on every diagonal entry; centring plays the intercept's part,
    exactly so only for the linear kernel."""
    y = centred_target("throws")
    residuals, shifts, through_mean = [], [], []
    table = dataset("throws")
    mean_time = [[float(table.rows.mean())]]
    for kernel in PAGE_KERNELS:
        model = kernel_fit("throws", kernel, PENALTY)
        system = gram("throws", kernel) + PENALTY * np.eye(len(y))
        residuals.append(np.max(np.abs(system @ model.dual_weights_ - y)) / np.max(np.abs(y)))
        lifted = KernelRidge(kernel, PENALTY).fit(table.rows, table.target + LIFT)
        lift = lifted.predict(table.rows) - model.predict(table.rows)
        shifts.append(np.max(np.abs(lift - LIFT)))
        gap = model.predict(mean_time)[0] - model.target_mean_
        # The linear fits answer the mean to rounding; print that as a bound.
        through_mean.append({"kernel": repr(kernel),
                             "gap": gap if abs(gap) > 1e-9 else bound(gap, -11)})
    # The tempting mistake: leave the first row's diagonal entry unpenalised.
    exempted = gram("throws", RBF_WORKED) + PENALTY * np.eye(len(y))
    exempted[0, 0] -= PENALTY
    wrong = np.linalg.solve(exempted, y)
    right = kernel_fit("throws", RBF_WORKED, PENALTY).dual_weights_
    linear_answer = kernel_fit("throws", LINEAR, PENALTY).predict(mean_time)[0]
    linear_gap = abs(linear_answer - table.target.mean())
    curved = [row["gap"] for row in through_mean[2:]]
    people_gaps = [kernel_fit("three_people", k, PENALTY).predict(
        [[float(dataset("three_people").rows.mean())]])[0]
        - dataset("three_people").target.mean() for k in PEOPLE_KERNELS]
    claim("under each of the throws' kernels the weights solve the system with the penalty on "
          "every diagonal entry (to {tol} relative)", lambda tol: max(residuals) < tol,
          id="every_entry", tol=1e-9)
    claim("under each of the throws' kernels, lifting the target lifts every answer by as much "
          "(to {tol} m)", lambda tol: max(shifts) < tol, id="lift", tol=1e-9)
    claim("the linear fit answers the mean height at the mean time (to {tol} m)",
          lambda tol: linear_gap < tol, id="linear_mean", tol=1e-12)
    claim("on the throws every curved fit answers above the mean height at the mean time",
          all(gap > 0.1 for gap in curved), id="curved_above")
    lowest = int(np.argmin(curved)) + 2
    claim("the curved fit closest to the mean there is the RBF with the smallest gamma",
          PAGE_KERNELS[lowest] == kernels.rbf(min(RBF_GAMMAS)), id="lowest")
    highest = int(np.argmax(curved)) + 2
    claim("the curved fit farthest above the mean there is the cubic polynomial",
          PAGE_KERNELS[highest] == kernels.polynomial(3),
          id="highest_fit")
    middle = len(table.target) // 2
    claim("the highest throw is the middle one in time, recorded at the mean time (to {tol} s)",
          lambda tol: int(np.argmax(table.target)) == middle
          and abs(table.rows[middle, 0] - mean_time[0][0]) < tol, id="highest", tol=1e-12)
    claim("all three people's fits pass through their mean point (to {tol} kg)",
          lambda tol: np.all(np.abs(people_gaps) < tol), id="people_mean", tol=1e-10)
    # A fitted, unpenalised level instead of the mean: the same for the line, not
    # for the RBF.
    linear_level, _ = _free_level("throws", LINEAR, PENALTY)
    rbf_level, rbf_level_r2 = _free_level("throws", RBF_WORKED, PENALTY)
    rbf_r2 = float(kernel_fit("throws", RBF_WORKED, PENALTY).score(table.rows, table.target))
    rbf_level_loo = _free_level_held_out("throws", RBF_WORKED, PENALTY)
    rbf_loo = float(leave_one_out(RBF_WORKED, PENALTY, table.rows, table.target).mse)
    claim("held out, the RBF fit with a fitted level also beats the one that keeps the mean",
          rbf_level_loo < rbf_loo, id="free_rbf_held_out")
    twin = kernel_fit("throws", PAGE_KERNELS[1], PENALTY).dual_weights_
    claim("the degree-one polynomial's dual weights sum to zero (to {tol} of their largest)",
          lambda tol: abs(twin.sum()) < tol * np.max(np.abs(twin)), id="twin_sum", tol=1e-9)
    twin_level, _ = _free_level("throws", PAGE_KERNELS[1], PENALTY)
    claim("for the linear kernel and its degree-one twin a fitted, unpenalised level is the "
          "mean height (to {tol} m)",
          lambda tol: max(abs(linear_level - table.target.mean()),
                          abs(twin_level - table.target.mean())) < tol,
          id="free_linear", tol=1e-10)
    claim("for the RBF a fitted level lies more than {limit} m below the mean height and "
          "scores a higher training R²",
          lambda limit: table.target.mean() - rbf_level > limit and rbf_level_r2 > rbf_r2,
          id="free_rbf", limit=1)
    return {
        "penalty": PENALTY, "kernel_count": len(PAGE_KERNELS), "shift": LIFT,
        "rbf_gamma": RBF_WORKED.gamma,
        "system_residual": bound(residuals, -9), "shift_gap": bound(shifts, -9),
        "through_mean": through_mean, "linear_gap": bound(linear_gap, -11),
        "people_gap": bound(people_gaps, -10), "question": QUESTION_HEIGHT,
        "curved_low": min(curved), "curved_low_gamma": PAGE_KERNELS[lowest].gamma,
        "curved_high": max(curved),
        "exempted_change": float(np.max(np.abs(wrong - right))),
        "exempted_first": wrong[0], "right_first": right[0],
        "mean_height": table.target.mean(), "rbf_level": rbf_level,
        "rbf_level_r2": rbf_level_r2, "rbf_r2": rbf_r2,
        "rbf_level_loo": rbf_level_loo, "rbf_loo": rbf_loo,
        "twin": repr(PAGE_KERNELS[1]), "exempted_penalty": PENALTY,
    }


def half_centred_bug():
    """Centring the target but not the rows, against the two right fits."""
    rows = []
    for name, penalty in (("crowd", PENALTY), ("crowd", SMALL_PENALTY), ("throws", PENALTY),
                          ("throws", SMALL_PENALTY)):
        table = dataset(name)
        wrong_slope, wrong_at_mean = half_centred_fit_for_demonstration(
            table.rows, table.target, penalty)
        ridge, dual = ridge_fit(name, penalty), kernel_fit(name, LINEAR, penalty)
        at_mean = float(dual.predict([table.rows.mean(axis=0)])[0])
        rows.append({"data": name, "penalty": penalty, "ridge": ridge.coef_[0],
                     "dual": slope_from_dual(dual)[0],
                     "wrong": within(float(wrong_slope[0]), HALF_CENTRED_RTOL),
                     "wrong_at_mean": within(wrong_at_mean, HALF_CENTRED_RTOL),
                     "right_at_mean": at_mean, "mean": table.target.mean(),
                     "_wrong": float(wrong_slope[0])})
    claim("in every case the two right fits agree to within {tol} relative",
          lambda tol: all(abs(row["dual"] / row["ridge"] - 1) < tol for row in rows),
          id="right_agree", tol=1e-8)
    claim("in every case the half-centred slope is wrong by more than {share} of the right one",
          lambda share: all(abs(row["_wrong"] / row["ridge"] - 1) > share for row in rows),
          id="wrong", share=0.2)
    crowd = rows[0]
    claim("on the crowd the half-centred slope is less than {share} of the right one",
          lambda share: abs(crowd["_wrong"]) < share * crowd["ridge"], id="collapse", share=0.01)
    claim("on the throws the half-centred slope is within a factor of {factor} of the right "
          "one", lambda factor: rows[2]["ridge"] / factor < rows[2]["_wrong"] < rows[2]["ridge"],
          id="plausible", factor=5)
    claim("at the mean height both right fits answer the mean weight (to {tol} kg)",
          lambda tol: abs(crowd["right_at_mean"] - crowd["mean"]) < tol
          and abs(ridge_fit("crowd", PENALTY).predict([dataset("crowd").rows.mean(axis=0)])[0]
                  - crowd["mean"]) < tol, id="right_mean", tol=1e-10)
    # The RBF reads only differences of the rows, so its table of the raw rows is
    # the table of the centred ones and the bug cannot touch it.
    times = dataset("throws").rows
    rbf_gap = float(np.max(np.abs(RBF_WORKED(times, times) - gram("throws", RBF_WORKED))))
    claim("under the RBF kernel the raw times' table is the centred times' table (to {tol}), "
          "so there the half-centred fit is the right one", lambda tol: rbf_gap < tol,
          id="rbf_same", tol=1e-12)
    for row in rows:
        del row["_wrong"], row["right_at_mean"]
    return {"rows": rows, "mean_height": dataset("crowd").rows.mean(),
            "wrong_at_mean": crowd["wrong_at_mean"], "mean_weight": crowd["mean"]}


def extrapolation():
    """Asked about one to four seconds after the last throw."""
    last = float(dataset("throws").rows.max())
    times = [last + step for step in EXTRAPOLATION_STEPS]
    queries = [[t] for t in times]
    radial = kernel_fit("throws", RBF_WORKED, PENALTY)
    squared = kernel_fit("throws", SQUARED, PENALTY)
    line = kernel_fit("throws", LINEAR, PENALTY)
    rows = [{"time": t, "rbf": r, "squared": s, "linear": li}
            for t, r, s, li in zip(times, radial.predict(queries), squared.predict(queries),
                                   line.predict(queries), strict=True)]
    distance = np.abs(radial.predict(queries) - radial.target_mean_)
    claim("the RBF answer closes on the mean at every step past the data",
          np.all(np.diff(distance) < 0), id="closes")
    claim("{steps} seconds past the last throw the RBF answer is within {tol} m of the mean",
          lambda tol: distance[2] < tol, id="third_step", steps=EXTRAPOLATION_STEPS[2], tol=0.01)
    claim("{steps} seconds past the last throw the RBF answer is within {tol} m of the mean",
          lambda tol: distance[3] < tol, id="fourth_step", steps=EXTRAPOLATION_STEPS[3], tol=1e-3)
    squared_answers = squared.predict(queries)
    claim("the squared kernel answers below the ground, and further below at every step",
          np.all(squared_answers < 0) and np.all(np.diff(squared_answers) < 0), id="squared")
    claim("the line moves by the same amount every second (to {tol} m)",
          lambda tol: np.ptp(np.diff(line.predict(queries))) < tol, id="line", tol=1e-12)
    return {"rbf_gamma": RBF_WORKED.gamma, "penalty": PENALTY, "last_time": last,
            "steps": list(EXTRAPOLATION_STEPS), "rows": rows, "mean": radial.target_mean_,
            "near": 0.01}
