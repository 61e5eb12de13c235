"""Pre-images and de-noising: a background page.

Why kernel PCA has no inverse, the two standard ways back to the rows (the
fixed-point iteration for the RBF kernel and a learned kernel ridge map), and
how well each de-noises the noisy circle against ordinary PCA.
"""

from __future__ import annotations

from kreport.report import Figure, Page

from . import denoise, exercises, figures, inverse, methods

page = Page(
    slug="preimages",
    title="Pre-images and de-noising",
    template="preimages.md.j2",
    summary="Kernel PCA has no way back to the rows; two approximations, and what they do "
            "to a noisy circle.",
    sections=[inverse.no_way_back, methods.fixed_point_method, methods.learned_map,
              denoise.denoising, exercises.exercises],
    figures=[
        Figure("denoised", figures.denoised, rtol=1e-5,
               alt="Four panels of points round a circle: the noisy rows, ordinary PCA's "
                   "reconstruction from one direction (a line through the middle), the fixed "
                   "point's pre-images and the learned map's, each joined to its clean point."),
        Figure("errors", figures.errors, rtol=1e-5,
               alt="The mean squared distance to the clean points against the number of kept "
                   "directions, for the fixed point and the learned map, with ordinary PCA's "
                   "two points and the noisy rows' level as a dashed line."),
    ],
)
