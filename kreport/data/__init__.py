"""The committed fixtures, one loader per fixture.

Each loader reads one CSV shipped inside this package (through
``importlib.resources``, so it works from an installed wheel as well as from
a checkout) and returns a :class:`Fixture`: named feature columns as a
read-only ``n x p`` float array, plus a read-only target for the regression
fixtures, a read-only label per row where the fixture has groups, and named
extra numeric columns (``extras``) where a fixture carries more than its
features, such as the clean positions behind noisy points.

===================  ==================  ========================  ==============  ============
loader               file                columns (rows)            target          labels
===================  ==================  ========================  ==============  ============
``measured_four()``  measured_four.csv   height_cm, weight_kg      --              --
``arc()``            arc.csv             height_cm, weight_kg      --              --
``ring()``           ring.csv            height_cm, weight_kg      --              group (str)
``ideal_ring()``     ideal_ring.csv      height_cm, weight_kg      --              group (str)
``three_people()``   three_people.csv    height_cm                 weight_kg       --
``throws()``         throws.csv          time_s                    height_m        --
``crowd()``          crowd.csv           height_cm                 weight_kg       --
``three_clusters()`` three_clusters.csv  x1, x2                    --              cluster (int)
``noisy_circle()``   noisy_circle.csv    x1, x2                    --              --
``scale_rows()``     scale_rows.csv      x1, x2, x3, x4, x5        y               part (str)
===================  ==================  ========================  ==============  ============

Extra columns: ``noisy_circle`` also carries ``clean_x1, clean_x2``, the point
on the unit circle each noisy row was drawn around (``fx.column("clean_x1")``,
``fx.extra_rows("clean_x1", "clean_x2")``); they are not features.

``scale_rows`` is the one large fixture (2,000 rows), for the page on kernel
methods at scale: its labels split it into ``"train"`` (the first 1,500 rows)
and ``"test"`` (the last 500).

``scripts/make_fixtures.py`` shows how every file was first made and writes that
version again; a committed file may depart from it on purpose, and the
regression lock lists each departed cell.

Every value must be a finite number; a cell that is empty, a word, NaN or
infinite is refused with a :class:`FixtureError` naming the file, the row (as
a line of the file) and the column.

**Perturbed fixtures, for the stability check.** When the environment
variable ``KREPORT_PERTURB_FIXTURES`` is set to ``"<seed>:<ulps>"``, every
number read is multiplied by ``1 + k·ε`` (ε the float64 machine epsilon, k a
whole number drawn uniformly from ``-ulps..ulps`` by a generator seeded with
the seed and the file's name). This emulates the last-bit differences between
machines; ``kreport.site.stability`` uses it to measure how many digits of each
printed number are significant. Nothing else sets it.
"""

from __future__ import annotations

import csv
import io
import math
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from types import MappingProxyType

import numpy as np

__all__ = [
    "FIXTURE_FILES",
    "FIXTURE_NAMES",
    "PERTURBATION_VARIABLE",
    "Fixture",
    "FixtureError",
    "all_fixtures",
    "arc",
    "crowd",
    "ideal_ring",
    "load",
    "measured_four",
    "noisy_circle",
    "read",
    "ring",
    "scale_rows",
    "three_clusters",
    "three_people",
    "throws",
]


@dataclass(frozen=True)
class _Spec:
    filename: str
    features: tuple[str, ...]
    target: str | None = None
    label: str | None = None
    label_type: type = str
    n_rows: int | None = None
    extras: tuple[str, ...] = ()  # numeric columns that are neither features nor target


_SPECS: dict[str, _Spec] = {
    "measured_four": _Spec("measured_four.csv", ("height_cm", "weight_kg"), n_rows=4),
    "arc": _Spec("arc.csv", ("height_cm", "weight_kg"), n_rows=12),
    "ring": _Spec("ring.csv", ("height_cm", "weight_kg"), label="group", n_rows=36),
    "ideal_ring": _Spec("ideal_ring.csv", ("height_cm", "weight_kg"), label="group", n_rows=24),
    "three_people": _Spec("three_people.csv", ("height_cm",), target="weight_kg", n_rows=3),
    "throws": _Spec("throws.csv", ("time_s",), target="height_m", n_rows=15),
    "crowd": _Spec("crowd.csv", ("height_cm",), target="weight_kg", n_rows=15),
    "three_clusters": _Spec(
        "three_clusters.csv", ("x1", "x2"), label="cluster", label_type=int, n_rows=90
    ),
    "noisy_circle": _Spec(
        "noisy_circle.csv", ("x1", "x2"), extras=("clean_x1", "clean_x2"), n_rows=80
    ),
    "scale_rows": _Spec(
        "scale_rows.csv", ("x1", "x2", "x3", "x4", "x5"), target="y", label="part", n_rows=2000
    ),
}

FIXTURE_NAMES: tuple[str, ...] = tuple(_SPECS)
"""Every fixture's name, in the order the loaders are listed above."""

_PACKAGE = files(__name__)

FIXTURE_FILES: tuple[Traversable, ...] = tuple(_PACKAGE / s.filename for s in _SPECS.values())
"""The CSV resources, one per fixture (``.name`` and ``.read_bytes()`` work on each;
they are plain ``pathlib.Path`` objects when the package is installed from files)."""


PERTURBATION_VARIABLE = "KREPORT_PERTURB_FIXTURES"


class FixtureError(ValueError):
    """A committed fixture file cannot be read as the table it should be."""


def _perturbation() -> tuple[int, int] | None:
    """(seed, ulps) from ``KREPORT_PERTURB_FIXTURES``, or None when it is unset."""
    setting = os.environ.get(PERTURBATION_VARIABLE, "").strip()
    if not setting:
        return None
    try:
        seed, ulps = (int(part) for part in setting.split(":"))
    except ValueError:
        raise ValueError(
            f"{PERTURBATION_VARIABLE}={setting!r}: expected '<seed>:<ulps>', e.g. '1:4'"
        ) from None
    return seed, ulps


def _perturb(values: np.ndarray, filename: str, column: str) -> np.ndarray:
    setting = _perturbation()
    if setting is None:
        return values
    seed, ulps = setting
    # zlib.crc32 is stable across processes (str hashes are salted).
    rng = np.random.default_rng([seed, zlib.crc32(f"{filename}:{column}".encode())])
    steps = rng.integers(-ulps, ulps + 1, size=values.shape)
    return values * (1.0 + steps * np.finfo(float).eps)


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class Fixture:
    """One committed fixture.

    Attributes:
        name: the loader's name, e.g. ``"ring"``.
        columns: the feature column names, in the order of ``rows``' columns;
            units are part of the name (``height_cm``).
        rows: ``n x p`` float array of the features, read-only.
        labels: one label per row (``"inner"``/``"outer"`` or a cluster index),
            read-only, or ``None``.
        label_column: the CSV column the labels came from, or ``None``.
        target: 1-D float array for the regression fixtures, read-only, or ``None``.
        target_column: the CSV column the target came from, or ``None``.
        filename: the CSV file inside ``kreport.data``.
        extras: the extra numeric columns by name (read-only 1-D float arrays,
            in file order), empty for most fixtures; they are data about the
            rows that are not features, such as ``noisy_circle``'s clean
            positions.
    """

    name: str
    columns: tuple[str, ...]
    rows: np.ndarray
    labels: np.ndarray | None = None
    label_column: str | None = None
    target: np.ndarray | None = None
    target_column: str | None = None
    filename: str = ""
    extras: Mapping[str, np.ndarray] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def n(self) -> int:
        """Number of rows (people, throws or points)."""
        return int(self.rows.shape[0])

    def column(self, name: str) -> np.ndarray:
        """One column by name: a feature, the target, the labels or an extra column."""
        mapping = self.as_mapping()
        if name not in mapping:
            raise KeyError(f"{self.name} has no column {name!r}; it has {tuple(mapping)}")
        return mapping[name]

    def mask(self, label: str | int) -> np.ndarray:
        """Boolean array, True on the rows carrying ``label`` (e.g. ``"inner"``)."""
        if self.labels is None:
            raise ValueError(f"{self.name} has no labels")
        if label not in set(self.labels.tolist()):
            raise ValueError(f"{self.name} has no label {label!r}")
        return self.labels == label

    def extra_rows(self, *names: str) -> np.ndarray:
        """Extra columns side by side as a read-only ``n x len(names)`` float array,
        e.g. ``extra_rows("clean_x1", "clean_x2")``."""
        if not names:
            raise ValueError(f"name at least one extra column of {self.name}")
        missing = [name for name in names if name not in self.extras]
        if missing:
            raise KeyError(
                f"{self.name} has no extra column(s) {missing}; it has {tuple(self.extras)}"
            )
        return _readonly(np.column_stack([self.extras[name] for name in names]))

    def as_mapping(self) -> dict[str, np.ndarray]:
        """{column name: values} for every CSV column, in file order of kinds:
        features, then the target, then the labels, then the extras.  Values
        are read-only."""
        out: dict[str, np.ndarray] = {c: self.rows[:, i] for i, c in enumerate(self.columns)}
        if self.target is not None and self.target_column is not None:
            out[self.target_column] = self.target
        if self.labels is not None and self.label_column is not None:
            out[self.label_column] = self.labels
        out.update(self.extras)
        return out


def _where(directory: Traversable, filename: str) -> str:
    """How an error names the file: by its place in the repository when it is ours."""
    return f"kreport/data/{filename}" if directory == _PACKAGE else str(directory / filename)


def _read_table(directory: Traversable, filename: str, where: str
                ) -> tuple[list[str], list[list[str]], list[int]]:
    """Header, rows and the file line of each row (blank lines skipped)."""
    text = (directory / filename).read_text(encoding="utf-8")
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None:
        raise FixtureError(f"{where} is empty; it needs a header row.")
    body, lines = [], []
    for row in reader:
        if row:
            body.append(row)
            lines.append(reader.line_num)
    return header, body, lines


def _number(cell: str, where: str, line: int, column: str) -> float:
    """One CSV cell as a finite float, or a FixtureError naming where it is."""
    try:
        value = float(cell)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value):
        raise FixtureError(
            f"{where}, line {line}, column {column!r}: {cell!r} is not a "
            "finite number; every cell of a fixture must be one. Fix the file (or "
            "scripts/make_fixtures.py, which writes it)."
        )
    return value


def _column(header: list[str], body: list[list[str]], name: str, where: str) -> list[str]:
    if name not in header:
        raise FixtureError(f"{where}: expected a column {name!r}, found {header}")
    j = header.index(name)
    return [row[j] for row in body]


@cache
def load(name: str) -> Fixture:
    """Load a fixture by name (one of :data:`FIXTURE_NAMES`), from the committed file."""
    return read(name, _PACKAGE)


def read(name: str, directory: Traversable) -> Fixture:
    """Fixture *name* read, uncached, from the file of its name in *directory*.

    :func:`load` is this on the committed files. The tests use it on other
    versions of a fixture: the one ``scripts/make_fixtures.py`` writes, whose
    statistics are the source documents', and deliberately broken copies.
    """
    if name not in _SPECS:
        raise ValueError(f"unknown fixture {name!r}; known: {', '.join(FIXTURE_NAMES)}")
    spec = _SPECS[name]
    where = _where(directory, spec.filename)
    header, body, lines = _read_table(directory, spec.filename, where)
    expected = [
        *spec.features,
        *(c for c in (spec.target, spec.label) if c is not None),
        *spec.extras,
    ]
    if sorted(header) != sorted(expected):
        raise FixtureError(f"{where}: header {header}, expected columns {expected}")
    for line, row in zip(lines, body, strict=True):
        if len(row) != len(header):
            raise FixtureError(f"{where}, line {line}: {len(row)} fields, expected {len(header)}")
    if spec.n_rows is not None and len(body) != spec.n_rows:
        raise FixtureError(f"{where}: {len(body)} rows, expected {spec.n_rows}")

    def floats(col: str) -> np.ndarray:
        cells = _column(header, body, col, where)
        values = np.array([_number(cell, where, line, col)
                           for line, cell in zip(lines, cells, strict=True)])
        return _perturb(values, spec.filename, col)

    def label(cell: str, line: int):
        try:
            return spec.label_type(cell)
        except ValueError:
            raise FixtureError(
                f"{where}, line {line}, column {spec.label!r}: {cell!r} is not a "
                f"{spec.label_type.__name__} label."
            ) from None

    rows = _readonly(np.column_stack([floats(c) for c in spec.features]))
    target = _readonly(floats(spec.target)) if spec.target else None
    labels = None
    if spec.label:
        raw = _column(header, body, spec.label, where)
        labels = _readonly(np.array([label(v, line) for v, line in zip(raw, lines, strict=True)]))
    extras = MappingProxyType({c: _readonly(floats(c)) for c in spec.extras})
    return Fixture(
        name=name,
        columns=spec.features,
        rows=rows,
        labels=labels,
        label_column=spec.label,
        target=target,
        target_column=spec.target,
        filename=spec.filename,
        extras=extras,
    )


def measured_four() -> Fixture:
    """The four measured people, (180, 78), (160, 58), (175, 63), (165, 73); mean (170, 68)."""
    return load("measured_four")


def arc() -> Fixture:
    """Twelve people along a curve: heavy at both ends of the height range, light in the
    middle.  Rows 1-11 are 8 cm apart by height (120-200 cm); row 12 is (156, 33)."""
    return load("arc")


def ring() -> Fixture:
    """Thirty-six people: twelve ``inner`` within about 10 units of (160, 60) (rows 1-12,
    row 1 at (169.7, 60.3)) and twenty-four ``outer`` about 30 units out, listed by angle."""
    return load("ring")


def ideal_ring() -> Fixture:
    """Twenty-four people: eight ``inner`` 4 units from (160, 60) and sixteen ``outer``
    about 32 units out, each in its own direction."""
    return load("ideal_ring")


def three_people() -> Fixture:
    """Heights 169, 170, 171 cm (``rows``) and weights 64, 70, 76 kg (``target``)."""
    return load("three_people")


def throws() -> Fixture:
    """Fifteen times 0-4 s (``rows``) and the ball's height in metres (``target``)."""
    return load("throws")


def crowd() -> Fixture:
    """Fifteen heights 3 cm apart, 152-194 cm (``rows``), weights in kg (``target``),
    mean exactly 72 kg; the person at 173 cm weighs 76 kg."""
    return load("crowd")


def three_clusters() -> Fixture:
    """The notebook's 90 points, 30 round each of (-0.5, -0.2), (0, 0.6), (0.5, 0);
    ``labels`` is the cluster index 0, 1, 2."""
    return load("three_clusters")


def noisy_circle() -> Fixture:
    """Eighty noisy points near the unit circle round the origin (``rows``: x1, x2),
    for de-noising; the extra columns ``clean_x1, clean_x2`` hold the clean point
    each was drawn around, at angles 2π(i + 1/2)/80, moved by normal noise of
    standard deviation 0.15 per coordinate (a single seeded draw)."""
    return load("noisy_circle")


def scale_rows() -> Fixture:
    """Two thousand rows of five standard-normal features (``rows``: x1 … x5) and the
    target ``y`` = sin(x1) plus normal noise of standard deviation 0.1, to four
    decimals: the first rows of the block the at-scale timing study generates with
    ``kreport.approx.distributed.random_block(20250801, 0, 100_000, 5)``. ``labels``
    (column ``part``) is ``"train"`` for the first 1,500 rows and ``"test"`` for
    the last 500."""
    return load("scale_rows")


def all_fixtures() -> Mapping[str, Fixture]:
    """Every fixture by name."""
    return {name: load(name) for name in FIXTURE_NAMES}
