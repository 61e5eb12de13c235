"""Principal component analysis: the linear control every kernel page measures against."""

from __future__ import annotations

from kreport.report import Figure, Page

from . import count, exercises, figures, rebuild, scatter, signs, units

page = Page(
    slug="pca",
    title="Principal component analysis",
    template="pca.md.j2",
    summary="The scatter matrix, variances and shares, rebuilding rows, units, how many "
            "directions to keep, and the sign of a direction, measured on the site's fixtures.",
    sections=[scatter.scatter_matrix, scatter.divisor, scatter.centring,
              rebuild.arc_directions, rebuild.reconstruction, units.standardising,
              count.how_many, count.share_not_usefulness, signs.sign_convention,
              exercises.exercises],
    figures=[
        Figure("rebuilt", figures.rebuilt,
               alt="The twelve people of the arc as measured, the straight first direction "
                   "through their mean, each person's rebuilt point on that line, and a short "
                   "segment joining each person to their rebuilt point"),
        Figure("units", figures.units,
               alt="Three panels of the arc with its first direction: with heights in "
                   "centimetres the direction runs along height, in metres it runs along "
                   "weight, and standardised it runs along the diagonal"),
        Figure("usefulness", figures.usefulness,
               alt="The ring's inner and outer groups placed along three axes: on both "
                   "directions of ordinary PCA the inner group sits inside the outer group's "
                   "range, on the kernel's first direction the two groups do not overlap"),
    ],
)
