"""Choosing gamma and the penalty: a background page.

Training score against held-out score, exact leave-one-out for kernel ridge in
closed form (and why the textbook shortcut is not exact here), k-fold
cross-validation on time-ordered rows, the median rule, and the validation
surface over gamma and the penalty on the throws and the crowd.
"""

from __future__ import annotations

from kreport.report import Figure, Page

from . import exercises, figures, folds, loo, median, nested, scores, surface

page = Page(
    slug="choosing",
    title="Choosing gamma and the penalty",
    template="choosing.md.j2",
    summary="Held-out scores, leave-one-out in closed form, k-fold and the median rule, "
            "measured on the throws and the crowd.",
    sections=[scores.training_against_held_out, loo.exact_leave_one_out, folds.k_fold,
              median.median_rule, surface.validation_surface, nested.nested_search,
              exercises.exercises],
    figures=[
        Figure("scores", figures.scores,
               alt="Training and leave-one-out R² on the throws, against gamma at the worked "
                   "penalty and against the penalty at the worked gamma; the training score "
                   "stays high at the narrow end, where the held-out score falls."),
        Figure("folds", figures.folds,
               alt="Two kernel ridge fits to the throws, one made without the last three "
                   "throws in time, which sags towards the mean where it has no data, and one "
                   "made without every fifth throw, which follows the arc."),
        Figure("surface", figures.surface, rtol=1e-6,
               alt="Colour maps of the leave-one-out error over gamma and the penalty for the "
                   "throws and the crowd, with the held-out choice starred and the median "
                   "rule's gamma dashed."),
    ],
)
