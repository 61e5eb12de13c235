"""Kernel PCA in five steps: the algorithm worked by hand on the measured four.

Every intermediate table of the five steps (raw kernel table, averages,
centred table, eigenvalues, unit eigenvectors, coefficients, coordinates) is
computed with ``kreport.KernelPCA`` and checked against ordinary PCA and
against the relations the page states (``four``); then the kernel changes
(``kernels``): what the squared kernel can reach on the ring, the RBF kernel on
the four, and its reach swept from ordinary PCA to everyone alone.
"""

from kreport.report import Figure, Page

from . import exercises, figures, four, kernels

page = Page(
    slug="kernel-pca-steps",
    title="Kernel PCA in five steps",
    template="kernel_pca_steps.md.j2",
    summary="The algorithm on four people, with every intermediate table printed.",
    sections=[
        four.algorithm,
        four.four_data,
        four.step_table,
        four.step_centre,
        four.step_uncentred,
        four.step_decompose,
        four.step_rescale,
        four.step_coordinates,
        four.query,
        four.written_out,
        kernels.choosing,
        kernels.rbf_run,
        kernels.reach,
        exercises.exercises,
    ],
    figures=[
        Figure("four", figures.four,
               alt="Left: the measured four by height and weight, their mean, the first "
                   "direction through it and a new person. Right: the four people's "
                   "coordinates from kernel PCA with the linear kernel, on top of ordinary "
                   "PCA's, and the new person's."),
        Figure("reach", figures.reach,
               alt="The shares of three directions of the RBF kernel on the measured four "
                   "as gamma grows from a wide reach to a narrow one: A against B, C against "
                   "D, and one pair against the other. Their curves cross twice and all "
                   "three end level, against ordinary PCA's two shares drawn dashed."),
    ],
)
