"""The figures of the five-steps page, drawn from the same cached fits as the facts."""

from __future__ import annotations

import numpy as np

from kreport.report import COLOURS, SEQUENCE, new_figure

from . import fits, kernels
from .settings import QUERY, RBF_GAMMA, SWEEP

LABEL_OFFSETS = [(6, 4), (6, -12), (6, -12), (-18, 6)]
PEOPLE = "ABCD"


def four():
    """The four as measured beside their kernel coordinates, with the new person in both."""
    fit, pca, rows = fits.linear_fit(), fits.pca(), fits.rows()
    mean = rows.mean(axis=0)
    person = np.array([QUERY])
    figure, (left, right) = new_figure(columns=2, width=7.5, height=4.0)

    direction = pca.components_[0]
    along = np.array([-16, 16])
    left.plot(mean[0] + along * direction[0], mean[1] + along * direction[1],
              color=COLOURS["accent"], linewidth=1.5, label="first direction")
    left.scatter(rows[:, 0], rows[:, 1], s=55, color=COLOURS["kernel"], zorder=3,
                 label="the four")
    left.scatter(*mean, marker="+", s=90, color="black", zorder=3, label="mean")
    left.scatter(person[:, 0], person[:, 1], marker="D", s=40, facecolor="white",
                 edgecolor=COLOURS["second"], linewidth=1.5, zorder=3, label="new person")
    for index, (x, y) in enumerate(rows):
        left.annotate(PEOPLE[index], (x, y), textcoords="offset points",
                      xytext=LABEL_OFFSETS[index], fontsize="medium")
    left.set_xlabel("height (cm)")
    left.set_ylabel("weight (kg)")
    left.set_title("As measured")
    left.set_aspect("equal", adjustable="datalim")

    scores = fit.scores_
    query_scores = fit.transform(person)
    right.axhline(0, color=COLOURS["pca"], linewidth=0.8)
    right.axvline(0, color=COLOURS["pca"], linewidth=0.8)
    right.scatter(pca.scores_[:, 0], pca.scores_[:, 1], s=150, facecolor="none",
                  edgecolor=COLOURS["pca"], linewidth=1.5, label="ordinary PCA", zorder=2)
    right.scatter(scores[:, 0], scores[:, 1], s=40, color=COLOURS["kernel"],
                  label="kernel PCA (linear)", zorder=3)
    right.scatter(query_scores[:, 0], query_scores[:, 1], marker="D", s=40, facecolor="white",
                  edgecolor=COLOURS["second"], linewidth=1.5, zorder=3, label="new person")
    for index, (x, y) in enumerate(scores):
        right.annotate(PEOPLE[index], (x, y), textcoords="offset points",
                       xytext=(6, 6), fontsize="medium")
    right.set_xlabel("first coordinate (cm and kg mixed)")
    right.set_ylabel("second coordinate (cm and kg mixed)")
    right.set_title("Coordinates")
    right.set_aspect("equal", adjustable="datalim")
    handles, labels = [], []
    for axes in (left, right):
        for handle, label in zip(*axes.get_legend_handles_labels(), strict=True):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    figure.legend(handles, labels, loc="outside lower center", ncol=3, fontsize="small")
    return figure


def reach():
    """The shares of the three directions the four's symmetry fixes, across the gamma sweep."""
    shares = kernels.sweep_shares()
    pca = fits.pca()
    figure, axes = new_figure(width=7.5, height=3.8)
    for j, name in enumerate(kernels.NAMED_DIRECTIONS):
        axes.plot(SWEEP, shares[:, j], color=SEQUENCE[j], linewidth=2, label=name)
    for j, share in enumerate(pca.shares_):
        axes.axhline(share, color=COLOURS["pca"], linestyle="--", linewidth=1,
                     label="ordinary PCA's shares" if j == 0 else None)
    for gamma in kernels.crossings():
        axes.plot([gamma], [kernels.named_shares(gamma)[2]], marker="o", markersize=6,
                  markerfacecolor="white", markeredgecolor="black", linestyle="none")
    axes.axvline(RBF_GAMMA, color="black", linewidth=0.8, linestyle=":")
    axes.annotate("worked example", (RBF_GAMMA, 0.92), textcoords="offset points",
                  xytext=(-4, 0), ha="right", fontsize="small")
    axes.set_xscale("log")
    axes.set_xlabel("γ (per cm² or kg²); the reach is one over √γ")
    axes.set_ylabel("share of the total variance")
    axes.set_ylim(0, 1)
    axes.legend(loc="center left", fontsize="small")
    return figure
