"""Ridge regression: the linear control for kernel ridge regression."""

from __future__ import annotations

from kreport.report import Figure, Page

from . import dual, exercises, figures, intercept, penalty, shrinkage

page = Page(
    slug="ridge",
    title="Ridge regression",
    template="ridge.md.j2",
    summary="Why penalise, measured on held-out rows; what the penalty shrinks; why the "
            "intercept stays out of it; and the per-feature and per-row forms of one answer.",
    sections=[penalty.setting, penalty.held_out, shrinkage.shrinkage, intercept.intercept,
              dual.three_people, dual.throws_side_by_side, exercises.exercises],
    figures=[
        Figure("held-out", figures.held_out,
               alt="Root-mean-square training and leave-one-out errors of the flexible "
                   "throws model against the penalty, both axes logarithmic: the training "
                   "error climbs steadily as the penalty grows, while the held-out error dips to a "
                   "minimum and then climbs; a dashed line marks the quadratic model's "
                   "held-out error"),
        Figure("curves", figures.curves,
               alt="Left: the throws with three fitted curves; with the smallest and the best "
                   "penalty the curves follow the arc, with the largest penalty the curve is "
                   "nearly flat. Right: the curves fitted without the last throw; with the "
                   "smallest penalty the curve dives far below the left-out throw, with the "
                   "best penalty it ends much closer to it"),
        Figure("intercept", figures.intercept,
               alt="Left: the crowd with three fitted lines: the correct one through the "
                   "middle of the data, the raw-rows fit tilted flatter but still passing near "
                   "the middle, and the centred-rows fit parallel to the correct one but "
                   "shifted down. Right: the prediction at the mean height as the penalty "
                   "grows: flat for the correct fit, falling towards zero early for the "
                   "centred-rows fit, and staying near the mean weight for the raw-rows fit "
                   "until the penalty is very large, then falling too"),
    ],
)
