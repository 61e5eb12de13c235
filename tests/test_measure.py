"""kreport.measure on cases small enough to check by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kreport import measure as m

# ---------------------------------------------------------------------------
# separation
# ---------------------------------------------------------------------------


def test_separation_gap_is_distance_between_nearest_pair():
    s = m.separation([0.0, 1.0, 0.5], [3.0, 5.0])
    assert s.separated
    assert s.gap == 2.0 and s.overlap == 0.0 and s.shift == 0.0 and s.margin == 2.0


def test_separation_is_symmetric_in_groups_and_sign():
    a, b = [0.0, 1.0], [3.0, 5.0]
    ref = m.separation(a, b)
    assert m.separation(b, a) == ref
    assert m.separation([-v for v in a], [-v for v in b]) == ref


def test_separation_partial_overlap():
    # [0, 4] and [3, 10] share [3, 4]
    s = m.separation([0.0, 4.0], [3.0, 10.0])
    assert not s.separated
    assert s.gap == 0.0
    assert s.overlap == pytest.approx(1.0)
    assert s.shift == pytest.approx(1.0)  # no containment: the two agree
    assert s.margin == pytest.approx(-1.0)


def test_separation_nested_intervals():
    # an inner group inside an outer group's stretch, as on the ring
    s = m.separation([-10.0, 10.0], [-30.0, 30.0])
    assert not s.separated
    assert s.overlap == pytest.approx(20.0)  # length of the intersection
    assert s.shift == pytest.approx(40.0)  # slide the inner group 40 to clear
    assert s.margin == pytest.approx(-40.0)


def test_separation_touching_and_degenerate():
    s = m.separation([0.0, 1.0], [1.0, 2.0])
    assert not s.separated and s.gap == 0.0 and s.overlap == 0.0
    s = m.separation([1.0, 1.0], [0.0, 2.0])  # a single point inside b's interval
    assert not s.separated and s.overlap == 0.0 and s.shift == pytest.approx(1.0)


def test_separation_at_most_one_positive():
    rng = np.random.default_rng(3)
    for _ in range(200):
        a = rng.normal(rng.normal(), 1, rng.integers(1, 6))
        b = rng.normal(rng.normal(), 1, rng.integers(1, 6))
        s = m.separation(a, b)
        assert not (s.gap > 0 and s.overlap > 0)
        assert s.separated == (s.gap > 0) == (s.margin > 0)
        assert s.shift >= s.overlap


@pytest.mark.parametrize("bad", [[], [[1.0, 2.0]], [1.0, float("nan")], ["x"]])
def test_separation_refuses_bad_input(bad):
    with pytest.raises(ValueError):
        m.separation(bad, [1.0])
    with pytest.raises(ValueError):
        m.separation([1.0], bad)


def test_separated_band():
    g = [0.001, 0.002, 0.003, 0.004, 0.005, 0.006]
    assert m.separated_band(g, [False, True, True, True, False, True]) == (0.002, 0.004)
    assert m.separated_band(g, [False] * 6) is None
    assert m.separated_band(g, [True] * 6) == (0.001, 0.006)
    with pytest.raises(ValueError):
        m.separated_band(g, [True] * 5)
    with pytest.raises(ValueError):
        m.separated_band([2.0, 1.0], [True, True])


# ---------------------------------------------------------------------------
# reversals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([1, 2, 3, 4], 0),
        ([4, 3, 2, 1], 0),
        ([1, 3, 2], 1),
        ([1, 3, 2, 4, 3], 3),
        ([1, 2, 2, 3], 0),  # a flat step does not break a direction
        ([1, 2, 2, 1], 1),  # nor hide a turn
        ([5, 5, 5], 0),
        ([7], 0),
        ([1, 2], 0),
    ],
)
def test_reversals(values, expected):
    assert m.reversals(values) == expected


def test_reversals_on_the_arcs_stated_coordinates():
    first = [-0.49, -0.44, -0.07, 0.35, 0.58, 0.61, 0.58, 0.40, 0.05, -0.37, -0.63, -0.57]
    assert m.reversals(first) == 2


def test_reversals_refuses_empty():
    with pytest.raises(ValueError):
        m.reversals([])


# ---------------------------------------------------------------------------
# R²
# ---------------------------------------------------------------------------


def test_r_squared_hand_cases():
    y = [1.0, 2.0, 3.0]
    assert m.r_squared(y, y) == 1.0
    assert m.r_squared(y, [2.0, 2.0, 2.0]) == 0.0
    # residuals (-1, 0, 1): 1 - 2/2
    assert m.r_squared(y, [2.0, 2.0, 2.0]) == pytest.approx(0.0)
    assert m.r_squared(y, [0.0, 2.0, 4.0]) == pytest.approx(0.0)
    assert m.r_squared(y, [3.0, 2.0, 1.0]) == pytest.approx(-3.0)
    # three people: fitted 66, 70, 74 against 64, 70, 76 -> 1 - 8/72
    assert m.r_squared([64, 70, 76], [66, 70, 74]) == pytest.approx(1 - 8 / 72)


def test_r_squared_refuses():
    with pytest.raises(ValueError, match="constant"):
        m.r_squared([2.0, 2.0], [1.0, 3.0])
    with pytest.raises(ValueError):
        m.r_squared([1.0, 2.0], [1.0])
    with pytest.raises(ValueError):
        m.r_squared([], [])


def test_r_squared_from_residuals():
    y = [1.0, 2.0, 3.0]
    assert m.r_squared_from_residuals(y, [0.0, 0.0, 1.0]) == 0.5  # 1 - 1/2
    with pytest.raises(ValueError, match="constant"):
        m.r_squared_from_residuals([2.0, 2.0], [0.0, 1.0])
    with pytest.raises(ValueError):
        m.r_squared_from_residuals([1.0, 2.0], [0.0])
    rng = np.random.default_rng(3)
    for _ in range(50):
        target = rng.normal(size=12) * 5 + 70
        prediction = target + rng.normal(size=12)
        assert m.r_squared_from_residuals(target, target - prediction) == m.r_squared(
            target, prediction
        )


def test_one_r_squared_for_measure_and_both_models():
    """R² lives once: kreport.measure.r_squared, behind Ridge.score and
    KernelRidge.score, and still importable as kreport.ridge.r_squared."""
    from kreport import KernelRidge, Ridge, data, kernels, ridge
    from kreport.errors import InvalidInputError

    assert ridge.r_squared is m.r_squared
    crowd = data.crowd()
    rows, target = np.asarray(crowd.rows), np.asarray(crowd.target)
    for model in (Ridge(1.0), KernelRidge(kernels.rbf(0.01), 1.0)):
        model.fit(rows, target)
        assert model.score(rows, target) == m.r_squared(target, model.predict(rows))
        with pytest.raises(InvalidInputError, match="constant"):
            model.score(rows, np.full(len(target), 72.0))
    # independent of the library: the definition
    fitted = Ridge(1.0).fit(rows, target).predict(rows)
    expected = 1 - np.sum((target - fitted) ** 2) / np.sum((target - target.mean()) ** 2)
    assert m.r_squared(target, fitted) == pytest.approx(expected, rel=1e-14)


def test_r_squared_reads_a_strided_column_as_a_contiguous_one():
    table = np.random.default_rng(4).normal(size=(20, 3))
    column, prediction = table[:, 1], table[:, 2]
    assert not column.flags.c_contiguous
    assert m.r_squared(column, prediction) == m.r_squared(column.copy(), prediction.copy())


# ---------------------------------------------------------------------------
# condition number
# ---------------------------------------------------------------------------


def test_condition_number():
    assert m.condition_number([4.0, 1.0]) == 4.0
    assert m.condition_number([4.0, 1.0, 2.0], 1.0) == pytest.approx(2.5)
    # the radial table on the throw: (5.650 + 1) / (8.1e-9 + 1)
    assert m.condition_number([5.650, 8.1e-9], 1.0) == pytest.approx(6.65, abs=1e-6)
    assert m.condition_number([5.650, 8.1e-9], 1e-9) == pytest.approx(6.2e8, rel=0.01)


def test_condition_number_refuses_indefinite():
    with pytest.raises(ValueError, match="positive definite"):
        m.condition_number([1.0, -4.313], 1.0)
    with pytest.raises(ValueError):
        m.condition_number([1.0, 0.0])
    with pytest.raises(ValueError):
        m.condition_number([])
    with pytest.raises(ValueError):
        m.condition_number([1.0, 2.0], float("nan"))


# ---------------------------------------------------------------------------
# median rule
# ---------------------------------------------------------------------------


def test_median_rule_hand_case():
    # pairs of (0), (1), (3): squared distances 1, 9, 4 -> median 4
    r = m.median_rule_gamma([[0.0], [1.0], [3.0]])
    assert r == m.MedianRule(median=4.0, gamma=0.25)
    assert m.median_rule_gamma([0.0, 1.0, 3.0]) == r  # 1-D is one feature


def test_median_rule_uses_each_pair_once():
    # the measured four: squared distances 800, 250, 250, 50 ... (six pairs)
    x = np.array([[180, 78], [160, 58], [175, 63], [165, 73]], dtype=float)
    d = [((x[i] - x[j]) ** 2).sum() for i in range(4) for j in range(i + 1, 4)]
    r = m.median_rule_gamma(x)
    assert r.median == pytest.approx(float(np.median(d)))
    assert r.gamma == pytest.approx(1 / r.median)


def test_median_rule_refuses():
    with pytest.raises(ValueError):
        m.median_rule_gamma([[1.0, 2.0]])
    with pytest.raises(ValueError):
        m.median_rule_gamma([[1.0], [1.0], [1.0]])
    with pytest.raises(ValueError):
        m.median_rule_gamma(np.zeros((2, 2, 2)))


# ---------------------------------------------------------------------------
# shares and cumulative count
# ---------------------------------------------------------------------------


def test_shares():
    np.testing.assert_allclose(m.shares([400.0, 100.0]), [0.8, 0.2])
    np.testing.assert_allclose(m.shares([3.0, 1.0, -1e-15]), [0.75, 0.25, 0.0])
    with pytest.raises(ValueError):
        m.shares([0.0, -1.0])


def test_cumulative_count():
    s = [0.5, 0.3, 0.2]
    assert m.cumulative_count(s, 0.5) == 1  # reaching counts as passing (>=)
    assert m.cumulative_count(s, 0.51) == 2
    assert m.cumulative_count(s, 0.8) == 2
    assert m.cumulative_count(s, 1.0) == 3
    # eigenvalues are normalised; a trailing zero is never needed
    assert m.cumulative_count([6.0, 3.0, 1.0, 0.0], 1.0) == 3
    # floating rounding does not push "the whole" past the last direction
    third = [1 / 3] * 3
    assert m.cumulative_count(third, 1.0) == 3


@pytest.mark.parametrize("fraction", [0.0, -0.1, 1.1, math.nan])
def test_cumulative_count_refuses_fraction(fraction):
    with pytest.raises(ValueError):
        m.cumulative_count([0.5, 0.5], fraction)


def test_max_abs_difference():
    assert m.max_abs_difference([1.0, 2.0], [1.5, 1.0]) == 1.0
    assert m.max_abs_difference([[1.0]], [[1.0]]) == 0.0
    with pytest.raises(ValueError):
        m.max_abs_difference([1.0], [1.0, 2.0])
    with pytest.raises(ValueError):
        m.max_abs_difference([], [])
