"""The figures of the Kernel PCA page, drawn from the same cached fits as its facts.

Each function returns a matplotlib Figure; ``kernel_pca.py`` registers them
under their names with their alt text.
"""

from __future__ import annotations

import numpy as np

from kreport import kernels, measure
from kreport.report import COLOURS, HEATMAP, new_figure

from . import _kernel_pca_probes as lab
from ._kernel_pca_probes import ARC_GAMMA, KEPT, RING_GAMMA, arc_by_height, fit, pca, ring_set


def ring():
    rows, inner = ring_set("ring")
    figure, (plane, linear_axis, kernel_axis) = new_figure(
        columns=3, width=10.5, height=4.2, gridspec_kw={"width_ratios": [1.3, 1, 1]})
    for mask, group in ((inner, "inner"), (~inner, "outer")):
        plane.scatter(rows[mask, 0], rows[mask, 1], s=28, color=COLOURS[group],
                      label=f"{group} ({mask.sum()})")
    plane.set(xlabel="height (cm)", ylabel="weight (kg)", title="The ring", aspect="equal")
    plane.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize="small")
    strips = ((linear_axis, pca("ring").scores_[:, 0], "Ordinary PCA",
               "first PCA coordinate", "pca"),
              (kernel_axis, fit("ring", "rbf", RING_GAMMA).scores_[:, 0],
               f"RBF kernel, \N{GREEK SMALL LETTER GAMMA} = {RING_GAMMA}",
               "first kernel coordinate", "kernel"))
    for axis, scores, title, label, method in strips:
        for level, (mask, group) in enumerate(((inner, "inner"), (~inner, "outer"))):
            axis.scatter(scores[mask], np.full(mask.sum(), level), s=30, alpha=0.7,
                         color=COLOURS[group])
            # the range each group covers, so an overlap or a gap is visible at a glance
            axis.hlines(level - 0.22, scores[mask].min(), scores[mask].max(),
                        color=COLOURS[group], lw=3)
        axis.set(yticks=[0, 1], yticklabels=["inner", "outer"], ylim=(-0.6, 1.5), xlabel=label)
        axis.set_title(title, color=COLOURS[method])
    return figure


def arc_table():
    rows = arc_by_height()
    table = kernels.rbf(ARC_GAMMA)(rows, rows)
    figure, axis = new_figure(width=6.4, height=5.2)
    image = axis.imshow(table, cmap=HEATMAP, vmin=0, vmax=1)
    labels = [f"{h:.0f}, {w:.0f}" for h, w in rows]
    axis.set_xticks(range(len(rows)), labels, rotation=90, fontsize="x-small")
    axis.set_yticks(range(len(rows)), labels, fontsize="x-small")
    axis.set(xlabel="person (height cm, weight kg), by height",
             ylabel="person (height cm, weight kg)",
             title=f"RBF kernel values on the arc, gamma {ARC_GAMMA}")
    figure.colorbar(image, ax=axis, label="kernel value k(a, b)")
    return figure


def sweep():
    figure, (split_axis, variance_axis) = new_figure(columns=2, width=10.5, height=3.9)
    for name, colour, label in (("ring", COLOURS["kernel"], "ring"),
                                ("ideal", COLOURS["accent"], "ideal ring")):
        swept = lab.sweep(name)
        signed = np.where(swept["separated"], swept["gap"], -swept["overlap"])
        split_axis.plot(swept["gamma"], signed, color=colour, label=label, marker=".", ms=4)
    ring_band = lab.band("ring")
    for axis in (split_axis, variance_axis):
        axis.axvspan(ring_band["low"], ring_band["high"], color=COLOURS["band"], zorder=0,
                     label="ring splits")
        axis.set_xscale("log")
        axis.set_xlabel("gamma (per squared unit, log scale)")
    split_axis.axhline(0, color="black", lw=0.8)
    split_axis.set(ylabel="gap (+) or overlap (−)",
                   title="Does the first direction split the groups?")
    split_axis.legend(loc="lower right", fontsize="small")
    swept = lab.sweep("ring")
    variance_axis.plot(swept["gamma"], swept["total"], color=COLOURS["kernel"],
                       label="total lifted variance")
    variance_axis.plot(swept["gamma"], swept["first_share"], color=COLOURS["second"],
                       linestyle="--", label="first share")
    variance_axis.set(ylabel="variance / share (unitless)", ylim=(0, 1.05),
                      title="The ring: spread and first share")
    variance_axis.legend(loc="center right", fontsize="small")
    return figure


def arc_fold():
    rows = arc_by_height()
    scores = fit("arc", "rbf", ARC_GAMMA).scores_
    figure, (by_height, plane) = new_figure(columns=2, width=10.5, height=3.9)
    by_height.plot(rows[:, 0], scores[:, 0], marker="o", color=COLOURS["kernel"],
                   label="first kernel coordinate")
    by_height.plot(rows[:, 0], scores[:, 1], marker="s", color=COLOURS["second"],
                   label="second kernel coordinate")
    by_height.plot(rows[:, 0], pca("arc").scores_[:, 0] / np.abs(pca("arc").scores_[:, 0]).max(),
                   color=COLOURS["pca"], linestyle=":", label="PCA first, scaled to ±1")
    by_height.axhline(0, color="black", lw=0.6)
    by_height.set(xlabel="height (cm)", ylabel="coordinate (unitless)",
                  title=f"RBF kernel, gamma {ARC_GAMMA}")
    by_height.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
    plane.plot(scores[:, 0], scores[:, 1], color=COLOURS["pca"], lw=0.8, zorder=0)
    points = plane.scatter(scores[:, 0], scores[:, 1], c=rows[:, 0], cmap=HEATMAP, s=40)
    figure.colorbar(points, ax=plane, label="height (cm)")
    plane.set(xlabel="first kernel coordinate", ylabel="second kernel coordinate",
              title="The arc in the kernel plane")
    return figure


def kept_share():
    rows, inner = ring_set("ring")
    kept = fit("ring", "rbf", RING_GAMMA, n_components=KEPT).kept_share_
    distance = np.hypot(*(rows - rows.mean(axis=0)).T)
    figure, axis = new_figure(width=7.0, height=3.8)
    for mask, group in ((inner, "inner"), (~inner, "outer")):
        axis.scatter(distance[mask], kept[mask], color=COLOURS[group], s=34, label=group)
    axis.set(xlabel="distance from the ring's mean (cm, kg)", ylabel="kept share (0 to 1)",
             ylim=(0, 1), title=f"Kept share with {KEPT} directions, RBF gamma {RING_GAMMA}")
    axis.legend()
    return figure


def ladder():
    fitted = fit("ring", "rbf", RING_GAMMA)
    cumulative = np.cumsum(fitted.shares_)
    count = np.arange(1, len(cumulative) + 1)
    figure, axis = new_figure(width=7.5, height=3.8)
    axis.step(count, cumulative, where="post", color=COLOURS["kernel"])
    axis.scatter(count, cumulative, color=COLOURS["kernel"], s=12)
    # labels sit in the empty lower right, each with an arrow to its rung; stacked in the
    # order of their rungs so that no arrow crosses another label
    for level, label_height in ((0.5, 0.3), (0.9, 0.6), (0.95, 0.75)):
        axis.axhline(level, color=COLOURS["pca"], lw=0.8, linestyle="--")
        needed = measure.cumulative_count(fitted.shares_, level)
        axis.scatter([needed], [cumulative[needed - 1]], s=60, facecolor="none",
                     edgecolor=COLOURS["accent"], lw=1.5, zorder=3)
        axis.annotate(f"{level:.0%} passed with {needed} directions",
                      (needed, cumulative[needed - 1]), xytext=(22, label_height),
                      fontsize="small", color=COLOURS["accent"],
                      arrowprops={"arrowstyle": "->", "color": COLOURS["accent"], "lw": 0.8})
    axis.set(xlabel="directions kept", ylabel="cumulative share of lifted variance",
             ylim=(0, 1.02), xlim=(0, count[-1] + 1),
             title=f"The ring's cumulative ladder, RBF gamma {RING_GAMMA}")
    return figure
