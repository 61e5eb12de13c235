"""Kernel ridge regression, part one: ridge rewritten with one weight per training row.

A lab notebook in page order. Each section fits what it talks about through the
public kreport API, checks every relation its prose states with ``claim``, and
returns the numbers the template prints. Shared fits are cached in ``fits``;
the settings of all three kernel-ridge pages are in ``settings``.

The long page was split by topic (issue 17): this package keeps every section's
computation, and the two later parts, ``kernel_ridge_penalty`` (kernels, the
penalty and choosing them) and ``kernel_ridge_traps`` (traps, and what an
implementation declares), place the sections they import from here.
``moved_anchors`` sends an old link to a moved section on to its new page.
"""

from __future__ import annotations

from kreport.report import Figure, Page

from . import dual, exercises, figures, heldout, kernels, lines

PENALTY_PAGE = "kernel-ridge-penalty"
TRAPS_PAGE = "kernel-ridge-traps"


def _claims(section: str, *ids: str) -> tuple[str, ...]:
    """The anchors of a section's claims in the audit list (``claim-<section>-<id>``)."""
    return tuple(f"claim-{section}-{ident}" for ident in ids)


#: Every anchor of the unsplit page that now lives on a later part: headings,
#: figures, the playground and the claims of the sections that moved.
MOVED_TO_PENALTY = (
    "swapping-the-kernel-polynomials", "swapping-the-kernel-the-rbf-on-the-throws",
    "units-gamma-carries-the-inverse-square-of-the-feature",
    "the-penalty-held-out-error-and-conditioning", "choosing-gamma-and-the-penalty-together",
    "figure-degrees", "figure-gammas", "figure-penalties", "figure-conditioning",
    "playground", "playground-title",
    *_claims("polynomial_degrees", "kappa_rises", "rank", "floor", "square", "flat_training",
             "same_pick", "loo_grows", "loo_growth", "not_kc"),
    *_claims("rbf_on_throws", "halfway", "row_falls", "smallest_rises", "identity",
             "training_peak", "picks_differ", "memorised", "falls_fast", "third_direction",
             "suppressed", "freed"),
    *_claims("units", "spacing", "identity", "half_weights", "halfway", "between", "line_wins",
             "peaks", "second_kept", "small_matches", "small_loo", "memorised"),
    *_claims("penalty_as_conditioning", "kappa_falls", "formula", "training_falls", "picks",
             "u_shape", "ratio", "flat", "linear_slower", "linear_larger_eigenvalue",
             "no_swing", "bends"),
    *_claims("choosing_together", "perfect", "perfect_worse", "not_perfect", "floor", "small"),
    *_claims("playground-playground", "rbf_half"),
)
MOVED_TO_TRAPS = (
    "no-intercept-exemption", "the-half-centred-bug", "what-it-costs-timings",
    "past-the-data", "what-ridge-reports-that-the-dual-cannot", "mercers-condition",
    "a-zero-penalty", "what-a-complete-implementation-declares", "figure-timings",
    *_claims("no_intercept_exemption", "every_entry", "lift", "linear_mean", "curved_above",
             "lowest", "highest", "people_mean", "free_linear", "free_rbf"),
    *_claims("half_centred_bug", "right_agree", "wrong", "collapse", "plausible", "right_mean"),
    *_claims("timings", "kernel_slower", "exponents"),
    *_claims("extrapolation", "closes", "third_step", "fourth_step", "squared", "line"),
    *_claims("what_ridge_reports", "rebuilt", "neither"),
    *_claims("mercer", "refused", "carries", "far_worse", "climbs", "kappa_falls",
             "nearly_singular", "only_largest", "plain_negative", "hidden", "no_warning"),
    *_claims("zero_penalty", "refused", "singular", "no_change"),
    *_claims("declarations", "solver", "copies", "means", "saved", "tiny"),
    *_claims("behaviour", "ones", "weights", "mean", "silent"),
)

page = Page(
    slug="kernel-ridge",
    title="Kernel ridge regression",
    template="kernel_ridge.md.j2",
    summary="Part one: ridge regression with one weight per training row, the table "
            "it reads, and why a training score is not a held-out one.",
    sections=[
        lines.lines,
        dual.two_forms,
        dual.three_people,
        kernels.throw_tables,
        dual.derivation_checked,
        dual.weights_are_residuals,
        kernels.three_people_each_kernel,
        dual.what_is_kept,
        heldout.held_out_error,
        exercises.exercises,
    ],
    figures=[
        Figure("tables", figures.tables,
               alt="Three heat maps of the throws' kernel tables: the linear table bright in "
                   "the same-side corners and dark in the opposite ones, the squared "
                   "polynomial table never negative, and the RBF table a bright band along "
                   "the diagonal"),
    ],
    moved_anchors={**dict.fromkeys(MOVED_TO_PENALTY, PENALTY_PAGE),
                   **dict.fromkeys(MOVED_TO_TRAPS, TRAPS_PAGE)},
)
