"""The figures of the Kernel PCA page, drawn from the same cached fits as its facts.

Each function returns a matplotlib Figure; ``__init__`` lists them with their
alt text, and the template places each with its caption.
"""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator, MultipleLocator

from kreport import kernels, measure
from kreport.report import COLOURS, HEATMAP, SEQUENCE, new_figure

from .fits import inner, pca, rbf_fit, rows
from .settings import ARC_GAMMA, KEPT, RING_GAMMA, TOP
from .sweep import grid, sweep

GAMMA = "\N{GREEK SMALL LETTER GAMMA}"
#: One colour per rank of the direction that splits the groups.
RANK_COLOURS = {1: COLOURS["kernel"], 2: COLOURS["second"], 3: COLOURS["third"],
                4: COLOURS["accent"], 5: SEQUENCE[5], 6: SEQUENCE[6]}


def ring():
    data, mask = rows("ring"), inner("ring")
    figure, (plane, linear_axis, kernel_axis) = new_figure(
        columns=3, width=7.5, height=3.9, gridspec_kw={"width_ratios": [1.35, 1, 1]})
    for group_mask, group in ((mask, "inner"), (~mask, "outer")):
        plane.scatter(data[group_mask, 0], data[group_mask, 1], s=22, color=COLOURS[group],
                      label=f"{group} ({group_mask.sum()})")
    plane.set(xlabel="height (cm)", ylabel="weight (kg)", title="The ring", aspect="equal")
    plane.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2)
    strips = ((linear_axis, pca("ring").scores_[:, 0], "Ordinary PCA",
               "first PCA coordinate\n(cm and kg mixed)", "pca"),
              (kernel_axis, rbf_fit("ring", RING_GAMMA).scores_[:, 0],
               f"RBF, {GAMMA} = {RING_GAMMA}", "first kernel coordinate\n(no unit)", "kernel"))
    for axis, scores, title, label, method in strips:
        for level, (group_mask, group) in enumerate(((mask, "inner"), (~mask, "outer"))):
            axis.scatter(scores[group_mask], np.full(group_mask.sum(), level), s=24, alpha=0.7,
                         color=COLOURS[group])
            # the range each group covers, so an overlap or a gap shows at a glance
            axis.hlines(level - 0.25, scores[group_mask].min(), scores[group_mask].max(),
                        color=COLOURS[group], lw=3)
        axis.set(yticks=[0, 1], yticklabels=["inner", "outer"], ylim=(-0.6, 1.5), xlabel=label)
        axis.xaxis.set_major_locator(MaxNLocator(4))
        axis.set_title(title, color=COLOURS[method])
    return figure


def arc_table():
    data = rows("arc")
    table = kernels.rbf(ARC_GAMMA)(data, data)
    figure, axis = new_figure(width=6.4, height=5.6)
    image = axis.imshow(table, cmap=HEATMAP, vmin=0, vmax=1)
    labels = [f"{h:.0f}" for h in data[:, 0]]
    axis.set_xticks(range(len(data)), labels, rotation=90)
    axis.set_yticks(range(len(data)), labels)
    axis.set(xlabel="person, by height (cm)", ylabel="person, by height (cm)",
             title=f"RBF kernel values on the arc, {GAMMA} = {ARC_GAMMA}")
    figure.colorbar(image, ax=axis, label="kernel value (no unit)")
    return figure


def _sweep_panel(axis, dataset: str):
    """The first direction's gap, the best lone direction of the first few, and a
    tied plane's radius, against gamma."""
    gammas = grid()
    readings = sweep(dataset)["readings"]
    first = np.array([np.nan if r.first is None else r.first for r in readings])
    best = np.array([r.best[1] for r in readings])
    ranks = np.array([r.separating for r in readings])
    tied = np.array([r.first_tied for r in readings])
    if tied.any():
        axis.axvspan(gammas[tied][0], gammas[tied][-1], facecolor="none", hatch="//",
                     edgecolor=COLOURS["pca"], lw=0, zorder=0)
    splits = first > 0
    if splits.any():
        low, high = measure.separated_band(gammas, np.nan_to_num(first, nan=-1.0) > 0)
        axis.axvspan(low, high, color=COLOURS["band"], zorder=0)
    axis.axhline(0, color="black", lw=0.8)
    axis.plot(gammas, first, color=COLOURS["kernel"], lw=1.2, zorder=2)
    if tied.any():
        plane = np.array([r.top_plane[1] if r.top_plane and r.top_plane[0][0] == 1 else np.nan
                          for r in readings])
        axis.plot(gammas, plane, color="black", lw=1.4, linestyle="--", zorder=2)
    for rank in sorted(set(ranks.tolist()) - {0}):
        chosen = ranks == rank
        axis.scatter(gammas[chosen], best[chosen], s=26, color=RANK_COLOURS[rank], zorder=3)
    none = ranks == 0
    if none.any():
        axis.scatter(gammas[none], best[none], s=30, marker="x", color=COLOURS["pca"], zorder=3)
    axis.set_xscale("log")
    axis.set_ylabel("gap (+) or overlap (−)")
    # limits on a fixed step, so that the ticks do not depend on the last bits of the data
    drawn = np.concatenate([best, first[~np.isnan(first)]])
    axis.set_ylim(np.floor(drawn.min() / 0.25) * 0.25 - 0.05, np.ceil(drawn.max() / 0.25) * 0.25)
    axis.yaxis.set_major_locator(MultipleLocator(0.25))


def sweep_figure():
    figure, (ring_axis, ideal_axis) = new_figure(rows=2, width=7.5, height=7.4, sharex=True)
    _sweep_panel(ring_axis, "ring")
    _sweep_panel(ideal_axis, "ideal")
    ring_axis.set_title("The ring")
    ideal_axis.set_title("The ideal ring")
    ideal_axis.set_xlabel(f"{GAMMA} (per squared unit, log scale)")
    used = sorted({r.separating for name in ("ring", "ideal") for r in sweep(name)["readings"]}
                  - {0})
    handles = [Line2D([], [], color=COLOURS["kernel"], lw=1.2, label="first direction"),
               *[Line2D([], [], color=RANK_COLOURS[rank], marker="o", lw=0,
                        label=f"best of the first {TOP}: direction {rank}") for rank in used],
               Line2D([], [], color=COLOURS["pca"], marker="x", lw=0,
                      label=f"none of the first {TOP} splits (best shown)"),
               Line2D([], [], color="black", lw=1.4, linestyle="--",
                      label="radius in the plane of the first two"),
               Patch(facecolor=COLOURS["band"], label="first direction splits"),
               Patch(facecolor="none", hatch="//", edgecolor=COLOURS["pca"],
                     label="first two directions tied")]
    figure.legend(handles=handles, loc="outside lower center", ncol=2)
    return figure


def spectrum():
    gammas = grid()
    swept = sweep("ring")
    shares = swept["shares"]
    ranks = np.array([r.separating for r in swept["readings"]])
    first = np.array([r.first for r in swept["readings"]])
    figure, axis = new_figure(width=7.5, height=5.4)
    low, high = measure.separated_band(gammas, first > 0)
    axis.axvspan(low, high, color=COLOURS["band"], zorder=0, label="first direction splits")
    for j in range(shares.shape[1]):
        axis.plot(gammas, shares[:, j], color=RANK_COLOURS[j + 1], lw=1.4,
                  label=f"share of direction {j + 1}")
    marked = (ranks > 0) & (ranks <= shares.shape[1])
    axis.scatter(gammas[marked], shares[marked, ranks[marked] - 1], s=34, facecolor="none",
                 edgecolor="black", lw=1.0, zorder=3, label="the direction that splits")
    axis.plot(gammas, swept["total"], color=COLOURS["pca"], lw=1.4, linestyle="--",
              label="total lifted variance")
    axis.set(xscale="log", yscale="log", xlabel=f"{GAMMA} (per squared unit, log scale)",
             ylabel="share or total variance (log scale)",
             title="The ring: the four largest shares against gamma")
    figure.legend(*axis.get_legend_handles_labels(), loc="outside lower center", ncol=2)
    return figure


def arc_fold():
    data = rows("arc")
    scores = rbf_fit("arc", ARC_GAMMA).scores_
    linear = pca("arc").scores_[:, 0]
    figure, (by_height, plane) = new_figure(columns=2, width=7.5, height=4.4)
    by_height.plot(data[:, 0], scores[:, 0], marker="o", color=COLOURS["kernel"],
                   label="first kernel coordinate")
    by_height.plot(data[:, 0], scores[:, 1], marker="s", color=COLOURS["second"],
                   label="second kernel coordinate")
    by_height.plot(data[:, 0], linear / np.abs(linear).max(), color=COLOURS["pca"],
                   linestyle=":", label="PCA first, scaled to ±1")
    by_height.axhline(0, color="black", lw=0.6)
    by_height.set(xlabel="height (cm)", ylabel="coordinate (no unit)",
                  title=f"RBF kernel, {GAMMA} = {ARC_GAMMA}")
    by_height.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1)
    plane.plot(scores[:, 0], scores[:, 1], color=COLOURS["pca"], lw=0.8, zorder=0)
    heights = np.rint(data[:, 0])  # whole centimetres: the colour scale is the same everywhere
    points = plane.scatter(scores[:, 0], scores[:, 1], c=heights, cmap=HEATMAP, s=40,
                           vmin=heights.min(), vmax=heights.max())
    colourbar = figure.colorbar(points, ax=plane, label="height (cm)")
    colourbar.set_ticks(np.linspace(heights.min(), heights.max(), 5))
    plane.set(xlabel="first kernel coordinate", ylabel="second kernel coordinate",
              title="The arc in the kernel plane")
    return figure


def kept_share():
    data, mask = rows("ring"), inner("ring")
    kept = rbf_fit("ring", RING_GAMMA, n_components=KEPT).kept_share_
    distance = np.hypot(*(data - data.mean(axis=0)).T)
    figure, axis = new_figure(width=7.0, height=3.8)
    for group_mask, group in ((mask, "inner"), (~mask, "outer")):
        axis.scatter(distance[group_mask], kept[group_mask], color=COLOURS[group], s=34,
                     label=group)
    axis.set(xlabel="distance from the mean (mixed units)",
             ylabel="kept share (0 to 1)", ylim=(0, 1),
             title=f"Kept share with {KEPT} directions, RBF {GAMMA} = {RING_GAMMA}")
    axis.legend()
    return figure


def ladder():
    fitted = rbf_fit("ring", RING_GAMMA)
    cumulative = np.cumsum(fitted.shares_)
    count = np.arange(1, len(cumulative) + 1)
    figure, axis = new_figure(width=7.5, height=3.9)
    axis.step(count, cumulative, where="post", color=COLOURS["kernel"])
    axis.scatter(count, cumulative, color=COLOURS["kernel"], s=12)
    # Short labels only, each where the rising curve leaves room at any width: the
    # level at the left end of its line (the curve is low there), the count just
    # below and right of its rung (the curve is above and to the left of it). The
    # 90 % label sits under its line, so it cannot meet the 95 % line above.
    for level, above in ((0.5, True), (0.9, False), (0.95, True)):
        axis.axhline(level, color=COLOURS["pca"], lw=0.8, linestyle="--")
        axis.annotate(f"{level:.0%}", (0, level), xytext=(3, 2 if above else -2),
                      textcoords="offset points", ha="left",
                      va="bottom" if above else "top", color=COLOURS["pca"])
        needed = measure.cumulative_count(fitted.shares_, level)
        axis.scatter([needed], [cumulative[needed - 1]], s=60, facecolor="none",
                     edgecolor=COLOURS["accent"], lw=1.5, zorder=3)
        axis.annotate(f"{needed}", (needed, cumulative[needed - 1]), xytext=(5, -7),
                      textcoords="offset points", ha="left", va="top",
                      color=COLOURS["accent"], fontweight="bold")
    axis.set(xlabel="directions kept", ylabel="cumulative share of lifted variance",
             ylim=(0, 1.02), xlim=(0, count[-1] + 1),
             title=f"Cumulative shares, RBF {GAMMA} = {RING_GAMMA}")
    return figure
