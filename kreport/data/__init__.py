"""The committed fixtures, one loader per fixture.

Each loader reads one CSV shipped inside this package (through
``importlib.resources``, so it works from an installed wheel as well as from
a checkout) and returns a :class:`Fixture`: named feature columns as a
read-only ``n x p`` float array, plus a read-only target for the regression
fixtures and a read-only label per row where the fixture has groups.

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
===================  ==================  ========================  ==============  ============

``scripts/make_fixtures.py`` shows how every file was made and regenerates it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

import numpy as np

__all__ = [
    "FIXTURE_FILES",
    "FIXTURE_NAMES",
    "Fixture",
    "all_fixtures",
    "arc",
    "crowd",
    "ideal_ring",
    "load",
    "measured_four",
    "ring",
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
}

FIXTURE_NAMES: tuple[str, ...] = tuple(_SPECS)
"""Every fixture's name, in the order the loaders are listed above."""

_PACKAGE = files(__name__)

FIXTURE_FILES: tuple[Traversable, ...] = tuple(_PACKAGE / s.filename for s in _SPECS.values())
"""The CSV resources, one per fixture (``.name`` and ``.read_bytes()`` work on each;
they are plain ``pathlib.Path`` objects when the package is installed from files)."""


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
    """

    name: str
    columns: tuple[str, ...]
    rows: np.ndarray
    labels: np.ndarray | None = None
    label_column: str | None = None
    target: np.ndarray | None = None
    target_column: str | None = None
    filename: str = ""

    @property
    def n(self) -> int:
        """Number of rows (people, throws or points)."""
        return int(self.rows.shape[0])

    def column(self, name: str) -> np.ndarray:
        """One column by name: a feature, the target or the labels."""
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

    def as_mapping(self) -> dict[str, np.ndarray]:
        """{column name: values} for every CSV column, in file order of kinds:
        features, then the target, then the labels.  Values are read-only."""
        out: dict[str, np.ndarray] = {c: self.rows[:, i] for i, c in enumerate(self.columns)}
        if self.target is not None and self.target_column is not None:
            out[self.target_column] = self.target
        if self.labels is not None and self.label_column is not None:
            out[self.label_column] = self.labels
        return out


def _read_table(filename: str) -> tuple[list[str], list[list[str]]]:
    text = (_PACKAGE / filename).read_text(encoding="utf-8")
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None:
        raise ValueError(f"{filename} is empty")
    body = [row for row in reader if row]
    return header, body


def _column(header: list[str], body: list[list[str]], name: str, filename: str) -> list[str]:
    if name not in header:
        raise ValueError(f"{filename}: expected a column {name!r}, found {header}")
    j = header.index(name)
    return [row[j] for row in body]


@cache
def load(name: str) -> Fixture:
    """Load a fixture by name (one of :data:`FIXTURE_NAMES`)."""
    if name not in _SPECS:
        raise ValueError(f"unknown fixture {name!r}; known: {', '.join(FIXTURE_NAMES)}")
    spec = _SPECS[name]
    header, body = _read_table(spec.filename)
    expected = [*spec.features, *(c for c in (spec.target, spec.label) if c is not None)]
    if sorted(header) != sorted(expected):
        raise ValueError(f"{spec.filename}: header {header}, expected columns {expected}")
    if any(len(row) != len(header) for row in body):
        raise ValueError(f"{spec.filename}: a row does not have {len(header)} fields")
    if spec.n_rows is not None and len(body) != spec.n_rows:
        raise ValueError(f"{spec.filename}: {len(body)} rows, expected {spec.n_rows}")

    def floats(col: str) -> np.ndarray:
        return np.array([float(v) for v in _column(header, body, col, spec.filename)])

    rows = _readonly(np.column_stack([floats(c) for c in spec.features]))
    target = _readonly(floats(spec.target)) if spec.target else None
    labels = None
    if spec.label:
        raw = _column(header, body, spec.label, spec.filename)
        labels = _readonly(np.array([spec.label_type(v) for v in raw]))
    return Fixture(
        name=name,
        columns=spec.features,
        rows=rows,
        labels=labels,
        label_column=spec.label,
        target=target,
        target_column=spec.target,
        filename=spec.filename,
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


def all_fixtures() -> Mapping[str, Fixture]:
    """Every fixture by name."""
    return {name: load(name) for name in FIXTURE_NAMES}
