"""The entry page's figure: the ring, and each person's first coordinate under
ordinary PCA (across) and under the RBF kernel (up)."""

from __future__ import annotations

from matplotlib.ticker import MaxNLocator

from kreport.pages.kernel_pca.fits import inner, pca, rbf_fit, rows
from kreport.pages.kernel_pca.settings import RING_GAMMA
from kreport.report import COLOURS, new_figure

GAMMA = "\N{GREEK SMALL LETTER GAMMA}"


def ring():
    data, mask = rows("ring"), inner("ring")
    linear = pca("ring").scores_[:, 0]
    kernel = rbf_fit("ring", RING_GAMMA).scores_[:, 0]
    figure, (plane, both) = new_figure(columns=2, width=7.5, height=3.9,
                                       gridspec_kw={"width_ratios": [1, 1.15]})
    groups = ((mask, "inner"), (~mask, "outer"))
    for group_mask, group in groups:
        plane.scatter(data[group_mask, 0], data[group_mask, 1], s=22, color=COLOURS[group],
                      label=f"{group} ({group_mask.sum()})")
    plane.set(xlabel="height (cm)", ylabel="weight (kg)", title="The ring", aspect="equal")
    plane.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2)
    # The empty band between the groups along the kernel's first direction.
    low = min(kernel[mask].max(), kernel[~mask].max())
    high = max(kernel[mask].min(), kernel[~mask].min())
    both.axhspan(low, high, color=COLOURS["band"], zorder=0, label="the gap")
    for group_mask, group in groups:
        both.scatter(linear[group_mask], kernel[group_mask], s=24, alpha=0.8,
                     color=COLOURS[group])
    both.set(xlabel="first PCA coordinate (cm and kg mixed)",
             ylabel="first kernel coordinate (no unit)",
             title=f"PCA across, RBF ({GAMMA} = {RING_GAMMA}) up")
    both.xaxis.set_major_locator(MaxNLocator(5))
    both.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22))
    return figure
