"""The playground: every setting a reader can reach, fitted here at build time.

A setting is a data set, a kernel and its gamma, or ordinary PCA on the data
set. For each, :func:`playground` fits kreport's KernelPCA (or PCA) and keeps
what the playground draws and says: each person's first two coordinates, the
first shares, the total (lifted) variance, and how the groups sit along the
best of the first :data:`~kreport.pages.kernel_pca.settings.TOP` directions,
read the way the sweep reads them
(:func:`kreport.pages.kernel_pca.fits.reading_of`: a tied group whole, by the
radius in it). The fits, the sweep and the settings are part one's
(``kreport.pages.kernel_pca``); the playground sits on part two, whose
sentences link to most of its presets.

**Ties.** Where the first or second direction is tied with another (their
eigenvalues agree to :data:`~kreport.pages.kernel_pca.settings.TIE_RTOL` of the largest), a single
coordinate in the tied plane is the solver's arbitrary choice, and so is the
picture of the first two coordinates. The playground never draws that choice:
it turns the tied coordinates by a fixed rule (:func:`turned`), which gives
the same picture whichever turn the solver returned, and says so. Shares and
radii are properties of the data and are shown as they are.

The three clusters (the notebook's fixture) are measured in plain units about
thirty times shorter than the ring's, so their gammas are the ring's grid
times :data:`CLUSTER_SCALE`.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from kreport import PCA, KernelPCA, kernels, measure
from kreport import data as fixtures
from kreport.pages.kernel_pca import fits, sweep
from kreport.pages.kernel_pca.fits import radii, tie_groups
from kreport.pages.kernel_pca.settings import (
    ARC_GAMMA,
    E24,
    POLY,
    RING_GAMMA,
    ROUND_OUTSIDE,
    SWEEP_DECADES,
    SWEEP_EXTRAS,
    TOP,
    WIDE_ARC_GAMMAS,
)
from kreport.report import COLOURS, SEQUENCE
from kreport.report.numbers import shortest_digits
from kreport.report.playground import Control, Grid, phrase, setting_key, shown

#: The data sets, in the order the issue of the playground lists them.
DATASETS = (("four", "the measured four"), ("arc", "the arc"), ("ring", "the ring"),
            ("ideal", "the ideal ring"), ("clusters", "the three clusters"))
KERNELS = (("linear", "linear"), ("poly2", "polynomial, degree two"),
           ("poly3", "polynomial, degree three"), ("rbf", "RBF"))
#: The clusters' gammas are the others' times this.
CLUSTER_SCALE = 1000.0
#: The data sets the sweep reads get the sweep's grid; the others every other
#: value of it (the E12 series) and every gamma the page names.
SWEPT = ("ring", "ideal")
E12 = E24[::2]
#: The polynomial kernels' gammas: every eighth value of the E24 series, plus the
#: squared kernel's gamma the page uses. (Past gamma times a squared length of
#: one, a polynomial kernel is its top power times a constant, and its picture
#: stops changing, so a coarse grid shows everything there is.)
POLY_SERIES = E24[::8]
#: A person in a tied plane starts the fixed turn once their radius in it is at
#: least this fraction of the largest radius there.
TURN_FROM = 0.5
#: Significant digits of shares, variances and gaps (as the page prints them).
DIGITS = 3
#: The tolerance a shown number is locked at: a hundredth of a part in a thousand
#: of it, far inside the three digits shown (a polynomial kernel on raw heights
#: and weights cancels large table entries, so its numbers carry fewer exact
#: digits than the default lock of facts asks for).
SHOWN_RTOL = 1e-5
DIRECTION_WORDS = "direction {rank}"


# ---------------------------------------------------------------- data sets


@cache
def data_rows(dataset: str) -> np.ndarray:
    if dataset == "clusters":
        table = np.asarray(fixtures.three_clusters().rows, dtype=float)
        table.flags.writeable = False
        return table
    return fits.rows(dataset)


@cache
def groups(dataset: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(each person's group, the groups in order, their colours)."""
    n = len(data_rows(dataset))
    if dataset in ("ring", "ideal"):
        mask = fits.inner(dataset)
        names = ("inner", "outer")
        return (tuple(names[0] if m else names[1] for m in mask), names,
                (COLOURS["inner"], COLOURS["outer"]))
    if dataset == "clusters":
        labels = np.asarray(fixtures.three_clusters().labels)
        names = ("first cluster", "second cluster", "third cluster")
        order = sorted(set(labels.tolist()))
        return (tuple(names[order.index(v)] for v in labels.tolist()), names,
                (SEQUENCE[0], SEQUENCE[1], SEQUENCE[2]))
    if dataset == "arc":
        names = ("short end", "middle", "tall end")  # the arc is sorted by height
        return (tuple(names[min(2, 3 * i // n)] for i in range(n)), names,
                (SEQUENCE[0], SEQUENCE[2], SEQUENCE[1]))
    names = tuple("ABCD"[:n])
    return names, names, tuple(SEQUENCE[:n])


def has_groups(dataset: str) -> bool:
    return dataset in ("ring", "ideal", "clusters")


def features(dataset: str) -> tuple[str, str]:
    if dataset == "clusters":
        return "first feature, x₁ (no unit)", "second feature, x₂ (no unit)"
    return "height (cm)", "weight (kg)"


# ---------------------------------------------------------------- grids


@cache
def rbf_grid() -> tuple[float, ...]:
    """The sweep's grid and the median rule's gammas of both rings."""
    extra = {measure.median_rule_gamma(fits.rows(name)).gamma for name in ("ring", "ideal")}
    return tuple(sorted(set(sweep.grid().tolist()) | extra))


def _series(series) -> set[float]:
    return {round(m * 10.0**d, 8) for d in SWEEP_DECADES for m in series} \
        | {float(sweep.grid()[-1])}


@cache
def coarse_grid() -> tuple[float, ...]:
    named = {*SWEEP_EXTRAS, ARC_GAMMA, RING_GAMMA, POLY[1], *WIDE_ARC_GAMMAS}
    return tuple(sorted(_series(E12) | named))


@cache
def poly_grid() -> tuple[float, ...]:
    return tuple(sorted(_series(POLY_SERIES) | {POLY[1]}))


def gammas(dataset: str, kernel: str) -> tuple[float, ...]:
    if kernel == "linear":
        return (None,)
    if kernel != "rbf":
        values = poly_grid()
    else:
        values = rbf_grid() if dataset in SWEPT else coarse_grid()
    if dataset == "clusters":
        return tuple(round(g * CLUSTER_SCALE, 8) for g in values)
    return values


def kernel_of(kernel: str, gamma):
    if kernel == "linear":
        return kernels.linear()
    if kernel == "rbf":
        return kernels.rbf(gamma)
    return kernels.polynomial(int(kernel[-1]), gamma, 1.0)


def gamma_label(gamma: float):
    """A gamma as the page prints it: as written when one or two digits write it."""
    return shown(gamma, sig=min(shortest_digits(gamma), 2), sci=False)


# ---------------------------------------------------------------- readings


def signed_gap(coordinates, labels) -> float:
    """The smallest gap between any two groups along one coordinate (minus the
    largest overlap where two overlap); for two groups, the sweep's signed gap."""
    coordinates = np.asarray(coordinates, dtype=float)
    labels = np.asarray(labels)
    names = list(dict.fromkeys(labels.tolist()))
    return min(fits.signed_gap(coordinates[np.isin(labels, [a, b])],
                               labels[np.isin(labels, [a, b])] == a)
               for a, b in itertools.combinations(names, 2))


class _Fitted:
    """What a reading needs of a fit: its eigenvalues (or variances) and scores."""

    def __init__(self, eigenvalues, scores):
        self.eigenvalues_, self.scores_ = np.asarray(eigenvalues), np.asarray(scores)


def reading(fitted, labels, top: int = TOP) -> fits.Reading:
    """The sweep's reading of a fit, for two groups or more."""
    labels = np.asarray(labels)
    names = list(dict.fromkeys(labels.tolist()))
    if len(names) == 2:
        return fits.reading_of(fitted, labels == names[0], 0.0, top=top)
    singles, planes = {}, {}
    for group in tie_groups(fitted.eigenvalues_):
        if group[0] >= top:
            break
        if group[-1] >= top:
            continue
        ranks = tuple(j + 1 for j in group)
        if len(group) == 1:
            singles[ranks[0]] = signed_gap(fitted.scores_[:, group[0]], labels)
        else:
            planes[ranks] = signed_gap(radii(fitted.scores_, group), labels)
    return fits.Reading(gamma=0.0, singles=singles, planes=planes)


def turned(coordinates) -> np.ndarray:
    """A tied group's coordinates turned by a fixed rule: the first person (in the
    data set's order) whose radius in the group is at least :data:`TURN_FROM` of the
    largest lies on the first axis, on its positive side; the next person with that
    much left over once the first axis is taken out fixes the second axis, and so
    on. Whichever turn (or mirror) the solver returned, the result is the same."""
    coordinates = np.asarray(coordinates, dtype=float)
    largest = float(np.max(np.linalg.norm(coordinates, axis=1)))
    axes: list[np.ndarray] = []
    for row in coordinates:
        rest = row - sum((row @ axis) * axis for axis in axes) if axes else row
        length = float(np.linalg.norm(rest))
        if length >= TURN_FROM * largest:
            axes.append(rest / length)
            if len(axes) == coordinates.shape[1]:
                break
    if len(axes) < coordinates.shape[1]:
        raise ValueError("no fixed turn: too few people stand out in the tied group")
    return coordinates @ np.array(axes).T


def drawn_pair(eigenvalues, scores) -> tuple[np.ndarray, np.ndarray, tuple | None]:
    """The first two coordinates as drawn, and the tied group they come from (or None)."""
    tied = [group for group in tie_groups(eigenvalues) if group[0] <= 1 and len(group) > 1]
    if not tied:
        return scores[:, 0], scores[:, 1], None
    group = tied[0]
    plane = turned(scores[:, list(group)])
    if group[0] == 0:
        return plane[:, 0], plane[:, 1], group
    return scores[:, 0], plane[:, 0], group


def words(rank: int):
    return shown(rank, words=True)


def number(value):
    return shown(value, sig=DIGITS, rtol=SHOWN_RTOL)


def ranks_phrase(group) -> object:
    ranks = [j + 1 for j in group]
    if len(ranks) == 2:
        return phrase("directions {a} and {b}", a=words(ranks[0]), b=words(ranks[1]))
    return phrase("directions {a} to {b}", a=words(ranks[0]), b=words(ranks[-1]))


def shares_phrase(shares) -> object:
    values = [number(s) for s in shares[:3]]
    if len(values) == 2:
        return phrase("{a} and {b}", a=values[0], b=values[1])
    return phrase("{a}, {b} and {c}", a=values[0], b=values[1], c=values[2])


def best_phrase(read: fits.Reading) -> object | None:
    if read.best is None:
        return None
    rank, margin = read.best
    if margin > 0:
        return phrase("direction {rank}, gap {gap}", rank=words(rank),
                      gap=number(margin))
    return phrase("none splits the groups; the least overlap is {overlap}, along direction "
                  "{rank}", overlap=number(-margin), rank=words(rank))


def plane_phrase(read: fits.Reading) -> object | None:
    if not read.planes:
        return None
    ranks, margin = next(iter(read.planes.items()))
    what = ranks_phrase([r - 1 for r in ranks])
    if margin > 0:
        return phrase("in the plane of {what}, gap {gap}", what=what.text(),
                      gap=number(margin))
    return phrase("in the plane of {what}, overlap {overlap}", what=what.text(),
                  overlap=number(-margin))


# ---------------------------------------------------------------- one setting


DEFAULT_TITLES = ("kernel-first", "kernel-second")


def _content(dataset: str, eigenvalues, scores, shares, total, top: int,
             method: str) -> dict:
    first, second, tied = drawn_pair(eigenvalues, scores)
    values = {"shares": shares_phrase(shares), "total": number(total)}
    notes = []
    if tied is not None:
        values["tied"] = ranks_phrase(tied)
        notes.append("tied")
    if has_groups(dataset):
        read = reading(_Fitted(eigenvalues, scores), groups(dataset)[0], top=top)
        for name, text in (("best", best_phrase(read)), ("plane", plane_phrase(read))):
            if text is not None:
                values[name] = text
    if tied is None:
        titles = (f"{method}-first", f"{method}-second")
    elif tied[0] == 0:
        titles = ("tied-first", "tied-second")
    else:
        titles = (f"{method}-first", "tied-first")
    content = {"data": {"coords": {"z1": np.asarray(first, dtype=float),
                                   "z2": np.asarray(second, dtype=float)}},
               "values": values}
    if notes:
        content["notes"] = notes
    if titles != DEFAULT_TITLES:  # the data set's (shared) titles are the kernel's
        content["signals"] = {"z1title": titles[0], "z2title": titles[1]}
    return content


@cache
def kernel_fit(dataset: str, kernel: str, gamma) -> KernelPCA:
    if dataset != "clusters" and kernel == "rbf":
        return fits.rbf_fit(dataset, gamma)
    return KernelPCA(kernel_of(kernel, gamma)).fit(data_rows(dataset))


def kernel_setting(dataset: str, kernel: str, gamma) -> dict:
    fitted = kernel_fit(dataset, kernel, gamma)
    content = _content(dataset, fitted.eigenvalues_, fitted.scores_, fitted.shares_,
                       fitted.total_variance_, TOP, "kernel")
    return content


def pca_setting(dataset: str) -> dict:
    fitted = PCA().fit(data_rows(dataset))
    content = _content(dataset, fitted.variances_, fitted.scores_, fitted.shares_,
                       fitted.total_variance_, len(fitted.variances_), "pca")
    return content


def shared(dataset: str) -> dict:
    table = data_rows(dataset)
    each, names, colours = groups(dataset)
    x_title, y_title = features(dataset)
    return {"data": {"rows": {"x": table[:, 0].copy(), "y": table[:, 1].copy(),
                              "group": list(each)},
                     "coords": {"group": list(each)}},
            "signals": {"xtitle": x_title, "ytitle": y_title, "groups": list(names),
                        "colours": list(colours), "z1title": DEFAULT_TITLES[0],
                        "z2title": DEFAULT_TITLES[1]},
            "notes": [] if has_groups(dataset) else ["groupless"]}


# ---------------------------------------------------------------- the grid

TEXT = {
    "caption": "Shares of the first directions: {shares}; total variance {total}.",
    "labels": {
        "kernel-first": "first kernel coordinate, z₁",
        "kernel-second": "second kernel coordinate, z₂",
        "pca-first": "first PCA coordinate, z₁ (cm and kg mixed)",
        "pca-second": "second PCA coordinate, z₂ (cm and kg mixed)",
        "tied-first": "tied plane, first axis (turned by rule)",
        "tied-second": "tied plane, second axis (turned by rule)",
    },
    "stats": [
        ["Shares of the first directions", "{shares}"],
        ["Total variance (in feature space, for a kernel)", "{total}"],
        ["Best single direction of the first few", "{best}"],
        ["Tied directions, read by the radius", "{plane}"],
        ["Tied", "{tied}"],
    ],
    "notes": {
        "tied": "Tied: the directions named above have equal eigenvalues, so any turn of "
                "the plane they span is as valid an answer and a single coordinate in it "
                "is the solver's arbitrary choice. The right-hand picture shows that plane "
                "turned by a fixed rule (the first person listed whose distance from its "
                "centre is at least half the largest lies on the positive horizontal "
                "axis), so any rotation of it is as valid; distances from the centre, and "
                "the shares, are the same in every turn.",
        "groupless": "This data set has no groups to split; the colours only help to "
                     "follow people from one picture to the other.",
    },
}


def controls() -> list[Control]:
    every = sorted({g for d, _ in DATASETS for k, _ in KERNELS for g in gammas(d, k)
                    if g is not None})
    return [
        Control("data", "Data set", "choice", tuple(d for d, _ in DATASETS),
                tuple(label for _, label in DATASETS)),
        Control("kernel", "Kernel", "choice", tuple(k for k, _ in KERNELS),
                tuple(label for _, label in KERNELS)),
        Control("gamma", "γ", "range", tuple(every), tuple(gamma_label(g) for g in every),
                describe="γ = {}"),
        Control("pca", "Ordinary PCA instead of a kernel", "switch"),
    ]


def presets() -> dict[str, dict]:
    low, high = sweep.gamma_sweep_band()
    ring = {"data": "ring", "kernel": "rbf", "pca": False}
    return {
        "ring-worked": {**ring, "gamma": RING_GAMMA},
        "ring-pca": {"data": "ring", "pca": True},
        "ring-below": {**ring, "gamma": ROUND_OUTSIDE[0]},
        "ring-above": {**ring, "gamma": ROUND_OUTSIDE[1]},
        "ring-band-low": {**ring, "gamma": low},
        "ring-band-high": {**ring, "gamma": high},
        "ring-longest": {**ring, "gamma": float(sweep.grid()[0])},
        "ring-median": {**ring, "gamma": measure.median_rule_gamma(fits.rows("ring")).gamma},
        "ideal-worked": {**ring, "data": "ideal", "gamma": RING_GAMMA},
        "arc-worked": {**ring, "data": "arc", "gamma": ARC_GAMMA},
        "arc-pca": {"data": "arc", "pca": True},
        "ring-squared": {**ring, "kernel": "poly2", "gamma": POLY[1]},
        "four-linear": {"data": "four", "kernel": "linear", "pca": False},
    }


def playground() -> Grid:
    """Every setting: each data set under each kernel at each of its gammas, and
    under ordinary PCA."""
    the_controls = controls()
    settings = {}
    for dataset, _ in DATASETS:
        for kernel, _ in KERNELS:
            for gamma in gammas(dataset, kernel):
                key = setting_key(the_controls, {"data": dataset, "kernel": kernel,
                                                 "gamma": gamma, "pca": False})
                settings[key] = kernel_setting(dataset, kernel, gamma)
        settings[setting_key(the_controls, {"data": dataset, "pca": True})] = \
            pca_setting(dataset)
    return Grid(
        controls=the_controls, settings=settings, text=TEXT,
        default={"data": "ring", "kernel": "rbf", "gamma": RING_GAMMA, "pca": False},
        shared={f"data={dataset}": shared(dataset) for dataset, _ in DATASETS},
        presets=presets(),
    )


# ---------------------------------------------------------------- the charts


def charts() -> dict:
    """The two pictures: the people as measured, and their first two coordinates."""
    # Imported here: only compiling the charts needs altair, and importing it costs a
    # third of a second of every build that merely lists the pages.
    import altair as alt

    def scatter(data: str, x: str, y: str, x_title: str, y_title: str, description: str):
        return alt.Chart(alt.Data(name=data), description=description).mark_circle(
            size=46, opacity=0.85, aria=False).encode(
            x=alt.X(f"{x}:Q", scale=alt.Scale(zero=False, nice=True), title=x_title,
                    axis=alt.Axis(tickCount=5, labelFlush=True)),
            y=alt.Y(f"{y}:Q", scale=alt.Scale(zero=False, nice=True), title=y_title,
                    axis=alt.Axis(tickCount=5)),
            color=alt.Color("group:N", legend=alt.Legend(orient="bottom", title=None,
                                                         symbolSize=80, labelFontSize=12),
                            scale=alt.Scale(domain=["@signal:groups"],
                                            range=["@signal:colours"])),
        ).properties(width="container", height=280).add_params(
            alt.param(name=x_title[len("@signal:"):], value=""),
            alt.param(name=y_title[len("@signal:"):], value=""),
            alt.param(name="groups", value=[]), alt.param(name="colours", value=[]))

    return {
        "rows": scatter("rows", "x", "y", "@signal:xtitle", "@signal:ytitle",
                        "The people of the data set as measured, coloured by group"),
        "coords": scatter("coords", "z1", "z2", "@signal:z1title", "@signal:z2title",
                          "Each person's first two coordinates, coloured by group"),
    }


def echoes() -> list[tuple[str, str, str]]:
    """(preset, value shown, fact printed by the page): numbers the playground and
    the prose both state, which must read the same (tests/test_playground.py)."""
    return [
        ("ideal-worked", "shares", "tied_directions.share"),
        ("ideal-worked", "plane", "tied_directions.radius_gap"),
        ("ring-longest", "total", "band_edges.total_first"),
        ("ring-longest", "shares", "band_edges.share_first"),
        ("ring-below", "best", "gamma_sweep.ring.outside[0].gap"),
        ("ring-median", "best", "median_rule.ring.gap"),
    ]
