"""The at-scale page's constants, each printed on the page as a fact (never typed).

``scripts/refresh_timings.py`` (``make timings``) reads the timing study's sizes
from here too, so the page and the measurements it reports cannot disagree.
"""

from __future__ import annotations

from kreport.pages._settings import PENALTY as PENALTY

# ---------------------------------------------------------------- in the build
#: Bytes per stored number (float64), and the binary units every size on both parts is
#: printed in (MiB, GiB, TiB: powers of two, as memory is counted).
BYTES_PER_NUMBER = 8
MEBIBYTE = 2**20
GIBIBYTE = 2**30
TEBIBYTE = 2**40
#: The RBF gamma of every fit on the page and in its timing study (1 over the
#: squared units of the standard-normal features). Smooth for five features.
GAMMA = 0.1
#: A rougher kernel, for the one comparison that asks how the answer depends on
#: the kernel's spectrum.
ROUGH_GAMMA = 1.0
#: The noise of the rows' rule: the target is sin(x1) plus normal noise of this
#: standard deviation (kreport.approx.distributed.random_block's default).
NOISE = 0.1
#: Landmark counts M (and random-feature counts D, equal to them) swept in the build.
COUNTS = (10, 20, 50, 100, 200, 400)
#: The seed of the landmark draw (kreport.approx's default). The landmarks are
#: the first M entries of one seeded permutation, so smaller sets sit inside larger.
LANDMARK_SEED = 0
#: Seeds of the random Fourier features: each count is drawn this many times.
RANDOM_SEEDS = (0, 1, 2, 3, 4)
#: Kernel PCA directions compared with the exact ones.
DIRECTIONS = 6

# ---------------------------------------------------------------- the timing study
#: The seed and block size of the rows ``make timings`` generates
#: (kreport.approx.distributed.random_block); the fixture scale_rows is the
#: first rows of block 0 of the same rule.
ROWS_SEED = 20250801
BLOCK_ROWS = 100_000
#: Held-out rows for the large fits: one block with an index no fit uses.
HELD_OUT_BLOCK = 1_000_000
HELD_OUT_ROWS = 20_000
#: Exact fits: the rows, doubling and then half as much again, and the rows from which
#: growth exponents are fitted. (Not 16,000: there scipy's Cholesky factorisation, in the
#: scipy-openblas 0.3.31 build pinned here, crashed the process with a segmentation fault
#: when it ran on two threads; on one thread it finished.)
WALL_SIZES = (1000, 2000, 4000, 8000, 12000)
WALL_FIT_FROM = 4000
#: Nyström kernel ridge: centres at the large sizes, and the two sweeps.
LARGE_CENTRES = 1000
MILLION = 1_000_000
ROW_COUNTS = (125_000, 250_000, 500_000, 1_000_000)
CENTRE_STUDY_ROWS = 100_000
CENTRE_COUNTS = (125, 250, 500, 1000, 2000)
#: scikit-learn's Nystroem + Ridge pipeline is timed beside ours at this size only
#: (at a million rows it would hold two n × M tables, about sixteen gigabytes).
SKLEARN_ROWS = 100_000
#: Landmarks of the Nyström kernel PCA at a million rows (its n × M features are held).
PCA_CENTRES = 100
#: Rows of the streamed fit on Dask.
STREAMED_ROWS = 10_000_000
