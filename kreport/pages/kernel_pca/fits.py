"""The data, the cached fits and the readings every section (and, later, the
playground) shares.

Data sets are named ``"four"`` (the measured four), ``"arc"`` (the arc of
twelve, read by height), ``"ring"`` and ``"ideal"`` (the ideal ring). Fits are
cached by data set, kernel and parameters, so a section that asks for the
ring's RBF fit at gamma 0.005 gets the one every other section uses.

:func:`read` is how the page reads a fit's leading directions: eigenvalues
closer than :data:`~.settings.TIE_RTOL` of the largest are a tied group, whose
single directions are the solver's arbitrary choice; such a group is read
whole, by each person's radius in it (the length of their coordinates on its
directions), which no turn inside the group changes. A lone direction is read
along its coordinate, whose sign the library's rule fixes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from kreport import PCA, KernelPCA, kernels, measure
from kreport import data as fixtures

from .settings import TIE_RTOL, TOP

#: The four data sets of the page, in the order the introduction lists them.
DATASETS = ("ring", "ideal", "arc", "four")


@cache
def rows(dataset: str) -> np.ndarray:
    """Heights (cm) and weights (kg), one person per row; the arc sorted by height."""
    loaders = {"four": fixtures.measured_four, "arc": fixtures.arc, "ring": fixtures.ring,
               "ideal": fixtures.ideal_ring}
    table = np.asarray(loaders[dataset]().rows, dtype=float)
    if dataset == "arc":
        table = table[np.argsort(table[:, 0], kind="stable")]
    table.flags.writeable = False
    return table


@cache
def inner(dataset: str) -> np.ndarray:
    """The inner group's mask on the ring or the ideal ring."""
    loaded = fixtures.ring() if dataset == "ring" else fixtures.ideal_ring()
    mask = np.asarray(loaded.mask("inner"), dtype=bool)
    mask.flags.writeable = False
    return mask


def kernel_fit(dataset: str, kernel_name: str, *params, n_components=None) -> KernelPCA:
    """KernelPCA of a data set with ``kernels.<kernel_name>(*params)``, cached."""
    return _fit(dataset, kernel_name, tuple(params), n_components)


@cache
def _fit(dataset: str, kernel_name: str, params: tuple, n_components) -> KernelPCA:
    kernel = getattr(kernels, kernel_name)(*params)
    return KernelPCA(kernel, n_components=n_components).fit(rows(dataset))


def rbf_fit(dataset: str, gamma: float, n_components=None) -> KernelPCA:
    return kernel_fit(dataset, "rbf", gamma, n_components=n_components)


@cache
def pca(dataset: str, n_components=None) -> PCA:
    return PCA(n_components=n_components).fit(rows(dataset))


def split(coordinates, mask) -> measure.Separation:
    """How the inner group (``mask``) and the outer group sit along one coordinate."""
    coordinates = np.asarray(coordinates, dtype=float)
    return measure.separation(coordinates[mask], coordinates[~mask])


def signed_gap(coordinates, mask) -> float:
    """The gap between the groups if they separate, else minus their overlap."""
    result = split(coordinates, mask)
    return result.gap if result.separated else -result.overlap


def symmetric_eigen(table):
    """Eigenvalues (descending) and eigenvectors of a symmetric table, each
    vector signed by the library's rule (kreport._signs)."""
    from kreport._signs import orientation_signs

    values, vectors = np.linalg.eigh(table)
    values, vectors = values[::-1], vectors[:, ::-1]
    return values, vectors * orientation_signs(vectors)


def whole(values, scale=None):
    """Whole numbers of exact data (sums and products of whole heights and
    weights), returned as ints after checking that they are whole to rounding."""
    array = np.asarray(values, dtype=float)
    scale = float(np.max(np.abs(array))) if scale is None else scale
    rounded = np.rint(array)
    if np.max(np.abs(array - rounded)) > 1e-9 * max(scale, 1.0):
        raise ValueError(f"not whole numbers: {array}")
    return rounded.astype(int).tolist() if array.ndim else int(rounded)


# ---------------------------------------------------------------- ties and readings


def tie_groups(eigenvalues, rtol: float = TIE_RTOL) -> list[tuple[int, ...]]:
    """Runs of eigenvalues (0-based indices) whose neighbours differ by at most
    ``rtol`` times the largest eigenvalue."""
    values = np.asarray(eigenvalues, dtype=float)
    groups, current = [], [0]
    for j in range(1, len(values)):
        if values[j - 1] - values[j] <= rtol * values[0]:
            current.append(j)
        else:
            groups.append(tuple(current))
            current = [j]
    groups.append(tuple(current))
    return groups


def relative_gaps(eigenvalues, count: int) -> np.ndarray:
    """(λ_j − λ_{j+1}) / λ_1 for the first ``count`` neighbouring pairs."""
    values = np.asarray(eigenvalues, dtype=float)
    return (values[:count] - values[1:count + 1]) / values[0]


def radii(scores, group) -> np.ndarray:
    """Each person's distance from the centre within a group of directions."""
    return np.sqrt((np.asarray(scores)[:, list(group)] ** 2).sum(axis=1))


@dataclass(frozen=True)
class Reading:
    """What the first :data:`TOP` directions of one fit say about the two groups.

    ``singles`` maps a lone direction's rank (1 = largest eigenvalue) to the
    signed gap of the groups along it (the gap if they separate, minus their
    overlap if not); ``planes`` maps the ranks of a tied group to the signed
    gap of the groups' radii in it. Groups that run past the last direction read are left out.
    """

    gamma: float
    singles: dict
    planes: dict

    @property
    def first_tied(self) -> bool:
        return 1 not in self.singles

    @property
    def first(self) -> float | None:
        """The margin along the first direction, or None when it is tied."""
        return self.singles.get(1)

    @property
    def best(self) -> tuple[int, float] | None:
        """(rank, margin) of the lone direction that best separates, or None."""
        if not self.singles:
            return None
        rank = max(self.singles, key=lambda r: (self.singles[r], -r))
        return rank, self.singles[rank]

    @property
    def separating(self) -> int:
        """The rank of the best-separating lone direction, or 0 when none separates."""
        best = self.best
        return best[0] if best and best[1] > 0 else 0

    @property
    def top_plane(self) -> tuple[tuple[int, ...], float] | None:
        """The tied group among the first three directions and its radius margin."""
        for ranks, margin in self.planes.items():
            if ranks[0] <= 3:
                return ranks, margin
        return None


def reading_of(fitted: KernelPCA, mask, gamma: float, top: int = TOP) -> Reading:
    singles, planes = {}, {}
    for group in tie_groups(fitted.eigenvalues_):
        if group[0] >= top:
            break
        if group[-1] >= top:
            continue  # runs past the directions read: left out whole
        ranks = tuple(j + 1 for j in group)
        if len(group) == 1:
            singles[ranks[0]] = signed_gap(fitted.scores_[:, group[0]], mask)
        else:
            planes[ranks] = signed_gap(radii(fitted.scores_, group), mask)
    return Reading(gamma=gamma, singles=singles, planes=planes)


@cache
def read(dataset: str, gamma: float) -> Reading:
    """The reading of a ring's (or the ideal ring's) RBF fit at ``gamma``."""
    return reading_of(rbf_fit(dataset, gamma), inner(dataset), gamma)
