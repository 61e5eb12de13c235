"""The playground: every setting a reader can reach on the fifteen throws, fitted
here at build time.

A setting is a kernel (linear, polynomial of degree two to six with the page's
gamma and constant of one, or RBF at a gamma of :data:`GAMMAS`) and a penalty
of :data:`PENALTIES`. For each, kreport's KernelRidge is fitted to the throws
(through the page's cached ``fits``), and the playground keeps what it draws
and says: the fitted curve, sampled finely; the dual weights; the training R²;
the held-out R² and mean squared error by exact leave-one-out
(``kreport.leave_one_out``); and the condition number of K̃ + αI.

**The half-centred fit** (the bug of :mod:`kreport.pages.kernel_ridge.pitfalls`,
shown on the traps page: the target centred, the rows not) is fitted beside each
setting, with the raw table K + αI; for the RBF kernel, which reads only
differences of times, it is the right fit itself, and the playground checks that
and says so instead of drawing it twice.

**What is not determined is not drawn.** Where κ exceeds :data:`DRAWN_KAPPA`,
rounding in the solve (about κ times the machine's ε) could move the weights,
the curve and the scores by more than the playground shows, on another machine
if not here; there the playground shows κ and says why it draws nothing else.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from kreport import kernels, measure
from kreport.pages.kernel_ridge.fits import dataset, held_out, kernel_fit
from kreport.pages.kernel_ridge.settings import (
    CONDITIONING_PENALTIES,
    DEGREES,
    PENALTY,
    RBF_GAMMAS,
    SMALL_PENALTY,
    THROWS_GAMMA,
    ZERO_EIGENVALUE_FRACTION,
)
from kreport.report import COLOURS, claim
from kreport.report.playground import Control, Grid, setting_key, shown, shown_within

#: The penalty's grid: every power of ten from 10⁻⁹ to 10³ (the page's sweep
#: steps by decades too).
PENALTIES = tuple(10.0**d for d in range(-9, 4))
#: The RBF gamma's grid (1/s²): one and three in every decade from 0.01 to 100.
GAMMAS = tuple(sorted({round(m * 10.0**d, 8) for d in range(-2, 2) for m in (1, 3)} | {100.0}))
#: Polynomial degrees (gamma one, constant one, as on the page).
POLY_DEGREES = tuple(d for d in DEGREES if d >= 2)
#: Above this condition number the playground draws nothing but κ.
DRAWN_KAPPA = 1e11
#: Curve samples: every tenth of a second, or a quarter of the RBF's reach
#: (1/√γ) where that is shorter, and then also every throw's own time (a narrow
#: RBF peaks there).
SPACING = 0.1
#: The half-centred RBF fit equals the right one to this, relative to the highest
#: throw (they differ by rounding amplified by κ: at most 2e-8 on the grid drawn).
SAME_WITHIN = 1e-6
DIGITS = 3
#: The machine's unit roundoff: rounding in a solve moves its answer by about
#: this times the condition number, relative to the sizes that went in.
EPSILON = float(np.finfo(float).eps)


def kernel_of(kind: str, degree, gamma):
    if kind == "linear":
        return kernels.linear()
    if kind == "poly":
        return kernels.polynomial(degree)
    return kernels.rbf(gamma)


def throws():
    table = dataset("throws")
    return np.asarray(table.rows, dtype=float), np.asarray(table.target, dtype=float)


@cache
def samples(kind: str, gamma) -> np.ndarray:
    """Times at which the curve is drawn: a fixed grid for the kernel, plus the throws'."""
    times, _ = throws()
    low, high = float(times.min()), float(times.max())
    if kind == "linear":
        return np.array([low, high])
    step = SPACING if kind == "poly" else min(SPACING, 0.25 / np.sqrt(gamma))
    grid = np.linspace(low, high, int(np.ceil((high - low) / step)) + 1)
    if step == SPACING:
        return grid
    # each throw's time, unless a grid time is that time to rounding
    apart = np.min(np.abs(times[:, 0][:, None] - grid[None, :]), axis=1) > 1e-6
    return np.sort(np.concatenate([grid, times[apart, 0]]))


def kappa(table: np.ndarray, penalty: float) -> float:
    """κ(table + αI), an eigenvalue under ZERO_EIGENVALUE_FRACTION of the largest
    counted as the zero it is (rounding leaves it at ±10⁻¹⁵ of the largest)."""
    values = np.linalg.eigvalsh(table)
    values = np.where(np.abs(values) <= ZERO_EIGENVALUE_FRACTION * values.max(), 0.0, values)
    return measure.condition_number(values, penalty)


@cache
def right_table(kind: str, degree, gamma) -> np.ndarray:
    """K̃, the kernel of the centred times (the table KernelRidge solves with)."""
    times, _ = throws()
    centred = times - times.mean(axis=0)
    return kernel_of(kind, degree, gamma)(centred, centred)


@cache
def raw_table(kind: str, degree, gamma) -> np.ndarray:
    times, _ = throws()
    return kernel_of(kind, degree, gamma)(times, times)


def half_centred(kind: str, degree, gamma, penalty: float) -> tuple[np.ndarray, np.ndarray]:
    """The bug, for any kernel: the raw table, the centred target, the mean added
    back. Returns the dual weights and the curve on :func:`samples`."""
    times, heights = throws()
    kernel = kernel_of(kind, degree, gamma)
    weights = np.linalg.solve(raw_table(kind, degree, gamma) + penalty * np.eye(len(times)),
                              heights - heights.mean())
    curve = kernel(samples(kind, gamma)[:, None], times) @ weights + heights.mean()
    return weights, curve


def r_squared(predicted, heights) -> float:
    misses, spread = heights - predicted, heights - heights.mean()
    return float(1 - (misses @ misses) / (spread @ spread))


def setting(kind: str, degree, gamma, penalty: float) -> dict:
    times, heights = throws()
    kernel = kernel_of(kind, degree, gamma)
    condition = kappa(right_table(kind, degree, gamma), penalty)
    rounding = condition * EPSILON  # relative to the sizes that went in
    values = {"kappa": shown_within(condition, condition * rounding, sig=DIGITS)}
    content = {"values": values}
    if condition > DRAWN_KAPPA:
        content["notes"] = ["undetermined"]
    else:
        model = kernel_fit("throws", kernel, penalty)
        loo = held_out("throws", kernel, penalty)
        content["data"] = {
            "curve": {"h": model.predict(samples(kind, gamma)[:, None])},
            "weights": {"a": np.asarray(model.dual_weights_, dtype=float)},
        }
        spread = float(np.mean((heights - heights.mean()) ** 2))
        values.update(r2=shown_within(model.score(times, heights), rounding, sig=DIGITS),
                      loo_r2=shown_within(loo.r2, rounding, sig=DIGITS),
                      loo_mse=shown_within(loo.mse, rounding * spread, sig=DIGITS))
    # the half-centred fit, beside it
    if kind == "rbf":
        content["overlay"] = {"half": {"notes": ["rbf-half"]}}
        return _known(content)
    half_condition = kappa(raw_table(kind, degree, gamma), penalty)
    half_rounding = half_condition * EPSILON
    half = {"values": {"half_kappa": shown_within(half_condition,
                                                  half_condition * half_rounding, sig=DIGITS)}}
    if half_condition > DRAWN_KAPPA:
        half["notes"] = ["half-undetermined"]
    else:
        weights, curve = half_centred(kind, degree, gamma, penalty)
        fitted = raw_table(kind, degree, gamma) @ weights + heights.mean()
        half["data"] = {"half_curve": {"h": curve}, "half_weights": {"a": weights}}
        half["values"]["half_r2"] = shown_within(r_squared(fitted, heights), half_rounding,
                                                 sig=DIGITS)
    content["overlay"] = {"half": _known(half)}
    return _known(content)


def _known(content: dict) -> dict:
    """Leave out the numbers that are not determined to a single digit."""
    content["values"] = {name: value for name, value in content["values"].items()
                         if value is not None}
    return content


def rbf_half_gap(gamma: float, penalty: float) -> float:
    """How far the half-centred RBF fit's curve lies from the right one's, relative
    to the highest throw."""
    _, heights = throws()
    _, curve = half_centred("rbf", None, gamma, penalty)
    right = kernel_fit("throws", kernels.rbf(gamma), penalty).predict(
        samples("rbf", gamma)[:, None])
    return float(np.max(np.abs(curve - right)) / heights.max())


def shared_times(kind: str, gamma) -> dict:
    times = samples(kind, gamma)
    return {"data": {"curve": {"t": times.copy()}, "half_curve": {"t": times.copy()}}}


# ---------------------------------------------------------------- the grid

TEXT = {
    "caption": "Training R² {r2}; held-out R² {loo_r2}; κ {kappa}.",
    "stats": [
        ["Training R²", "{r2}"],
        ["Held-out R² (leave-one-out)", "{loo_r2}"],
        ["Held-out mean squared error", "{loo_mse} m²"],
        ["Condition number κ of K̃ + αI", "{kappa}"],
        ["Half-centred fit: training R²", "{half_r2}"],
        ["Half-centred fit: κ of K + αI (the raw times' table)", "{half_kappa}"],
    ],
    "notes": {
        "undetermined": "Not drawn: the condition number is so large that rounding in the "
                        "solve (about κ times the machine's ε) could move the weights, the "
                        "curve and the scores by more than the playground shows. Raise the "
                        "penalty.",
        "half-undetermined": "The half-centred fit is not drawn: its raw table is so badly "
                             "conditioned here that its digits are rounding.",
        "rbf-half": "The RBF kernel reads only differences of times, so centring the rows "
                    "changes nothing: here the half-centred fit is the right fit.",
    },
}


def controls() -> list[Control]:
    return [
        Control("kernel", "Kernel", "choice", ("linear", "poly", "rbf"),
                ("linear", "polynomial", "RBF")),
        Control("degree", "Degree", "range", POLY_DEGREES,
                tuple(shown(d, words=True) for d in POLY_DEGREES), describe="degree {}"),
        Control("gamma", "γ (1/s²)", "range", GAMMAS,
                tuple(shown(g, sig=1, sci=False) for g in GAMMAS), describe="γ = {}"),
        Control("penalty", "Penalty α", "range", PENALTIES,
                tuple(shown(a, sig=1) for a in PENALTIES), describe="α = {}"),
        Control("half", "Show the half-centred fit beside it", "overlay"),
    ]


def playground() -> Grid:
    """Every kernel at every penalty, with the half-centred fit beside each."""
    the_controls = controls()
    settings, shared = {}, {}
    kinds = [("linear", None, None), *(("poly", d, None) for d in POLY_DEGREES),
             *(("rbf", None, g) for g in GAMMAS)]
    for kind, degree, gamma in kinds:
        for penalty in PENALTIES:
            key = setting_key(the_controls, {"kernel": kind, "degree": degree, "gamma": gamma,
                                             "penalty": penalty})
            settings[key] = setting(kind, degree, gamma, penalty)
    drawn_rbf = [(g, a) for g in GAMMAS for a in PENALTIES
                 if kappa(right_table("rbf", None, g), a) <= DRAWN_KAPPA]
    claim("for the RBF kernel, at every gamma and penalty the playground draws, the "
          "half-centred fit is the right fit (to {tol} of the highest throw)",
          lambda tol: max(rbf_half_gap(g, a) for g, a in drawn_rbf) < tol, id="rbf_half",
          tol=SAME_WITHIN)
    times, heights = throws()
    shared["kernel=linear"] = shared_times("linear", None)
    shared["kernel=poly"] = shared_times("poly", None)
    for gamma in GAMMAS:
        shared[f"gamma={setting_key(the_controls[2:3], {'gamma': gamma})}"] = \
            shared_times("rbf", gamma)
    every = {"data": {"throws": {"t": times[:, 0].copy(), "h": heights.copy()},
                      "weights": {"t": times[:, 0].copy()},
                      "half_weights": {"t": times[:, 0].copy()}}}
    for kind in ("linear", "poly", "rbf"):
        merged = shared.setdefault(f"kernel={kind}", {"data": {}})
        merged["data"].update(every["data"])
    return Grid(
        controls=the_controls, settings=settings, text=TEXT, shared=shared,
        default={"kernel": "rbf", "gamma": THROWS_GAMMA, "penalty": PENALTY},
        presets={
            "rbf-worked": {"kernel": "rbf", "gamma": THROWS_GAMMA, "penalty": PENALTY},
            "linear-worked": {"kernel": "linear", "penalty": PENALTY},
            "squared": {"kernel": "poly", "degree": 2, "penalty": PENALTY},
            "cubic": {"kernel": "poly", "degree": 3, "penalty": PENALTY},
            "sixth": {"kernel": "poly", "degree": 6, "penalty": PENALTY},
            "rbf-wide": {"kernel": "rbf", "gamma": min(RBF_GAMMAS), "penalty": PENALTY},
            "rbf-narrow": {"kernel": "rbf", "gamma": max(RBF_GAMMAS), "penalty": PENALTY},
            "rbf-smallest": {"kernel": "rbf", "gamma": THROWS_GAMMA,
                             "penalty": min(CONDITIONING_PENALTIES)},
            "rbf-small": {"kernel": "rbf", "gamma": THROWS_GAMMA, "penalty": SMALL_PENALTY},
            "linear-half": {"kernel": "linear", "penalty": SMALL_PENALTY, "half": True},
            "squared-half": {"kernel": "poly", "degree": 2, "penalty": PENALTY, "half": True},
        },
    )


# ---------------------------------------------------------------- the charts

TIME = "time (s)"


def charts() -> dict:
    """The throws with the fitted curve (and the half-centred one), and the dual
    weights as bars, one per throw, on the same time axis."""
    # Imported here: only compiling the charts needs altair, and importing it costs a
    # third of a second of every build that merely lists the pages.
    import altair as alt

    x = alt.X("t:Q", title=TIME, scale=alt.Scale(domain=[0, 4], nice=False),
              axis=alt.Axis(tickCount=5))
    points = alt.Chart(alt.Data(name="throws")).mark_circle(
        size=48, color="@signal:ink", opacity=1, aria=False).encode(
        x=x, y=alt.Y("h:Q", title="height (m)"))
    curve = alt.Chart(alt.Data(name="curve")).mark_line(
        color=COLOURS["kernel"], strokeWidth=2.2, aria=False).encode(x=x, y="h:Q")
    half = alt.Chart(alt.Data(name="half_curve")).mark_line(
        color=COLOURS["accent"], strokeWidth=2, strokeDash=[6, 4], aria=False).encode(
        x=x, y="h:Q")
    fit = alt.layer(half, curve, points, description=(
        "The fifteen throws as dots, the fitted curve as a solid line and, when shown, the "
        "half-centred fit as a dashed line")).properties(width="container", height=260)
    bar = alt.Chart(alt.Data(name="weights")).mark_bar(
        color=COLOURS["kernel"], width=7, xOffset=-4, aria=False).encode(
        x=x, y=alt.Y("a:Q", title="dual weight aᵢ"))
    half_bar = alt.Chart(alt.Data(name="half_weights")).mark_bar(
        color=COLOURS["accent"], width=7, xOffset=4, aria=False).encode(x=x, y="a:Q")
    weights = alt.layer(bar, half_bar, description=(
        "One bar per throw, at its time: the dual weight of the fit (and of the half-centred "
        "fit, when shown)")).properties(width="container", height=170)
    ink = alt.param(name="ink", value=COLOURS["pca"])
    return {"fit": fit.add_params(ink), "weights": weights}


def echoes() -> list[tuple[str, str, str]]:
    """(preset, value shown, fact printed by the page) that must read the same."""
    rows = [("linear-worked", 0), ("squared", 1), ("cubic", 2), ("sixth", 5)]
    found = []
    for preset, row in rows:
        for value, fact in (("r2", "r2"), ("loo_r2", "loo_r2"), ("loo_mse", "loo_mse"),
                            ("kappa", "condition")):
            found.append((preset, value, f"polynomial_degrees.rows[{row}].{fact}"))
    for preset, row in (("rbf-wide", 0), ("rbf-worked", 3), ("rbf-narrow", 6)):
        for value in ("r2", "loo_r2", "loo_mse"):
            found.append((preset, value, f"rbf_on_throws.sweep[{row}].{value}"))
    return found
