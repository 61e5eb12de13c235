"""Which kernels pass Mercer's condition: probing tables built on the fixtures."""

from __future__ import annotations

import numpy as np

from kreport import kernels
from kreport.report import bound, claim, within

from .common import (
    centred_rows,
    median_gamma,
    relative_smallest,
    rounding_floor,
    sigmoid_grid,
    spectrum,
)
from .settings import (
    NEGATIVE_COEF0S,
    NEGATIVE_POLYNOMIAL,
    POLY_COEF0S,
    POLY_DEGREES,
    PROBE_FIXTURES,
    RBF_FACTORS,
    REFUSED_SIGMOID,
    SIGMOID_COEF0S,
    SIGMOID_FIXTURES,
    SIGMOID_GAMMAS,
    ZERO_THRESHOLD,
)

# Worked kernels on the throws, in the order of the table and the figure.
POSITIVE_COEF0 = 1.0
#: The polynomials' gamma in the probes (their c0 and degree vary).
PROBE_POLY_GAMMA = 1.0
WORKED = (
    ("linear", kernels.linear()),
    ("polynomial", kernels.polynomial(2, 1.0, POSITIVE_COEF0)),
    ("rbf", kernels.rbf(1.0)),
    ("negative polynomial", kernels.polynomial(NEGATIVE_POLYNOMIAL[0], 1.0,
                                               NEGATIVE_POLYNOMIAL[1])),
    ("sigmoid", kernels.sigmoid(*REFUSED_SIGMOID)),
)
#: Below this (relative to the largest eigenvalue) a Mercer kernel's smallest
#: eigenvalue is rounding: printed as a bound.
NOISE_EXPONENT = -13


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def worked_kernels():
    """Five kernels on the throws: the smallest eigenvalue of each table."""
    rows = []
    for name, kernel in WORKED:
        values = spectrum("throws", kernel)
        ratio = relative_smallest(values)
        if kernel.positive_semidefinite and ratio < 1e-12:
            smallest = bound(min(ratio, 0.0), NOISE_EXPONENT)
        else:
            smallest = within(ratio, 1e-5)
        rows.append({"name": name, "kernel": repr(kernel), "declared": _yes(
            kernel.positive_semidefinite), "smallest": smallest,
            "negatives": int(np.count_nonzero(values < -ZERO_THRESHOLD * np.abs(values).max())),
            "nonzero": int(np.count_nonzero(np.abs(values) > ZERO_THRESHOLD
                                            * np.abs(values).max()))})
    by_name = dict(zip([name for name, _ in WORKED], rows, strict=True))
    linear = float(spectrum("throws", WORKED[0][1])[0])
    degree, coef0 = NEGATIVE_POLYNOMIAL
    negative = float(spectrum("throws", WORKED[3][1]).min())
    rbf_values = spectrum("throws", WORKED[2][1])
    rbf_smallest = float(rbf_values.min())
    floor = rounding_floor(rbf_values)
    claim("every kernel the library declares positive semidefinite has no eigenvalue below "
          "−{limit} of its largest on the throws, and each kernel it does not declare has one",
          all((row["negatives"] == 0) == (row["declared"] == "yes") for row in rows),
          id="declared_match", limit=ZERO_THRESHOLD)
    times = centred_rows("throws")[:, 0]
    claim("the centred times are symmetric about zero (each is minus another, to within "
          "{limit})", lambda limit: np.max(np.abs(np.sort(times) + np.sort(times)[::-1])) < limit,
          id="symmetric_times", limit=1e-12)
    claim("the negative eigenvalue of the polynomial kernel with c₀ = {coef0} is {twice} c₀ times "
          "the linear table's eigenvalue, to a relative {tolerance}",
          lambda twice,
          tolerance: abs(negative - twice * coef0 * linear) <= tolerance * abs(negative),
          id="twice_linear", coef0=coef0, twice=2, tolerance=1e-12)
    rounding = [spectrum("throws", kernel) for _, kernel in WORKED[:2]]
    claim("the linear and the positive-constant polynomial tables' smallest eigenvalues are "
          "within their rounding floor n ε λ₁ of zero",
          all(abs(values.min()) <= rounding_floor(values) for values in rounding),
          id="rounding")
    claim("the RBF table's smallest eigenvalue is positive and over {factor} times the rounding "
          "floor n ε λ₁", lambda factor: rbf_smallest > factor * floor, id="rbf_definite",
          factor=1000)
    return {
        "rows": rows,
        "linear": by_name["linear"],
        "polynomial": by_name["polynomial"],
        "rbf": by_name["rbf"],
        "negative_polynomial": by_name["negative polynomial"],
        "sigmoid": by_name["sigmoid"],
        "linear_eigenvalue": linear,
        "negative_eigenvalue": negative,
        "degree": degree,
        "coef0": coef0,
        "positive_coef0": POSITIVE_COEF0,
        "rbf_smallest": within(rbf_smallest, 1e-5),
        "rbf_floor": floor,
        "count": len(rows),
        "n": len(rbf_values),
        "twice": 2,
        "factor": 1000,
    }


def _mercer_settings(fixture: str):
    """Every linear, polynomial (c₀ ≥ 0) and RBF kernel the probe builds on one fixture."""
    settings = [kernels.linear()]
    settings += [kernels.polynomial(d, PROBE_POLY_GAMMA, c) for d in POLY_DEGREES
                 for c in POLY_COEF0S]
    settings += [kernels.rbf(factor * median_gamma(fixture)) for factor in RBF_FACTORS]
    return settings


def mercer_kernels():
    """Linear, polynomial with c₀ ≥ 0 and RBF tables on four fixtures: no negative eigenvalue
    beyond rounding."""
    # Each table's smallest eigenvalue in units of its own rounding floor: above −1 is
    # positive or rounding.
    in_floors, count = [], 0
    for fixture in PROBE_FIXTURES:
        for kernel in _mercer_settings(fixture):
            values = spectrum(fixture, kernel)
            in_floors.append(float(values.min()) / rounding_floor(values))
            count += 1
    negatives, broken = [], 0
    for fixture in PROBE_FIXTURES:
        for degree in POLY_DEGREES[1:]:
            for coef0 in NEGATIVE_COEF0S:
                kernel = kernels.polynomial(degree, PROBE_POLY_GAMMA, coef0)
                ratio = relative_smallest(spectrum(fixture, kernel))
                negatives.append(ratio)
                broken += ratio < -ZERO_THRESHOLD
    claim("over {count} tables of Mercer kernels, none has a negative eigenvalue larger in size "
          "than its table's rounding floor n ε λ₁", min(in_floors) > -1,
          id="none_negative", count=count)
    claim("every polynomial table with a negative constant has an eigenvalue below −{limit} of "
          "its largest", broken == len(negatives), id="negative_constant_breaks",
          limit=ZERO_THRESHOLD)
    return {
        "fixtures": len(PROBE_FIXTURES),
        "count": count,
        "per_fixture": count // len(PROBE_FIXTURES),
        "rbf_settings": len(RBF_FACTORS),
        "rbf_low": RBF_FACTORS[0],
        "rbf_high": RBF_FACTORS[-1],
        "degrees_low": POLY_DEGREES[0],
        "degrees_high": POLY_DEGREES[-1],
        "coef0_high": POLY_COEF0S[-1], "coef0s": list(POLY_COEF0S),
        "poly_gamma": PROBE_POLY_GAMMA,
        "negative_coef0s": list(NEGATIVE_COEF0S),
        "negative_degree_low": POLY_DEGREES[1],
        "negative_count": len(negatives),
        "negative_broken": int(broken),
        "negative_mildest": within(max(negatives), 1e-5),
        "negative_coef0_low": NEGATIVE_COEF0S[-1],
        "negative_coef0_high": NEGATIVE_COEF0S[0],
    }


def sigmoid_sweep():
    """The sigmoid on a grid of gamma and c₀: how negative its tables are, and how often."""
    per_fixture, everything = [], []
    for fixture in SIGMOID_FIXTURES:
        grid = sigmoid_grid(fixture, SIGMOID_GAMMAS, SIGMOID_COEF0S)
        broken = int(np.count_nonzero(grid < -ZERO_THRESHOLD))
        everything.append(grid)
        per_fixture.append({"fixture": fixture, "settings": int(grid.size), "broken": broken,
                            "mildest": within(float(grid.max()), 1e-5),
                            "worst": within(float(grid.min()), 1e-5)})
    grids = np.concatenate([grid.ravel() for grid in everything])
    total = int(grids.size)
    broken = int(np.count_nonzero(grids < -ZERO_THRESHOLD))
    mildest = float(grids.max())
    claim("every one of the {total} sigmoid settings has an eigenvalue below −{limit} of its "
          "largest", broken == total, id="all_break", total=total, limit=ZERO_THRESHOLD)
    claim("even the mildest setting's negative eigenvalue is over {factor} times that threshold",
          lambda factor: mildest < -factor * ZERO_THRESHOLD, id="far_from_threshold", factor=100)
    return {
        "fixtures": per_fixture,
        "total": total,
        "broken": broken,
        "fraction": within(broken / total, 1e-5),
        "mildest": within(mildest, 1e-5),
        "gamma_low": SIGMOID_GAMMAS[0],
        "gamma_high": SIGMOID_GAMMAS[-1],
        "gamma_count": len(SIGMOID_GAMMAS),
        "coef0_low": SIGMOID_COEF0S[0],
        "coef0_high": SIGMOID_COEF0S[-1],
        "coef0_count": len(SIGMOID_COEF0S),
        "threshold": ZERO_THRESHOLD,
    }
