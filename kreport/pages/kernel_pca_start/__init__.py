"""Kernel PCA: the short way in.

One motivating figure (the ring: ordinary PCA's first axis against the RBF
kernel's first direction), the method in a few lines of numpy beside the
kreport call (the page runs the very lines it prints), the three settings that
matter (the kernel and its gamma, how many directions to keep, the centring),
where to go next, and exercises whose answers are facts like any other
(``start``). The ring and its settings are the Kernel PCA page's, imported from
``kreport.pages.kernel_pca``.
"""

from kreport.report import Figure, Page

from . import figures, start

page = Page(
    slug="kernel-pca-start",
    title="Kernel PCA: the short way in",
    template="kernel_pca_start.md.j2",
    summary="The short way in: one figure, the method in numpy, the settings, exercises.",
    sections=[start.the_problem, start.numpy_route, start.the_settings, start.exercises],
    figures=[Figure("ring", figures.ring,
                    alt="Left: the ring of people by height and weight, an inner group "
                        "surrounded by an outer one. Right: each person placed by their first "
                        "coordinate under ordinary PCA across and under the RBF kernel up; "
                        "across, the two groups overlap, and up, an empty gap separates "
                        "them")],
)
