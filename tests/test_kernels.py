"""kreport.kernels: formulas, immutability, repr/params round trip, parameter checks."""

import dataclasses
import json

import numpy as np
import pytest

from kreport import InvalidInputError, InvalidParameterError, kernels

RNG = np.random.default_rng(7)
A = RNG.normal(size=(5, 3))
B = RNG.normal(size=(4, 3))


def looped(function, A, B):
    return np.array([[function(a, b) for b in B] for a in A])


@pytest.mark.parametrize(
    ("kernel", "formula"),
    [
        (kernels.linear(), lambda a, b: a @ b),
        (kernels.polynomial(3, gamma=0.5, coef0=2.0), lambda a, b: (0.5 * (a @ b) + 2.0) ** 3),
        (kernels.rbf(0.7), lambda a, b: np.exp(-0.7 * np.sum((a - b) ** 2))),
        (kernels.sigmoid(0.3, -0.5), lambda a, b: np.tanh(0.3 * (a @ b) - 0.5)),
    ],
)
def test_table_matches_formula_row_by_row(kernel, formula):
    table = kernel(A, B)
    assert table.shape == (5, 4)
    np.testing.assert_allclose(table, looped(formula, A, B), rtol=1e-12, atol=1e-14)


def test_rbf_diagonal_is_exactly_one_even_for_large_rows():
    rows = np.array([[180.0, 78.0], [160.0, 58.0], [1e6, -1e6]])
    table = kernels.rbf(0.005)(rows, rows)
    assert np.array_equal(np.diag(table), np.ones(3))


def test_polynomial_degree_one_equals_affine_linear():
    table = kernels.polynomial(1, gamma=1.0, coef0=0.0)(A, B)
    np.testing.assert_array_equal(table, kernels.linear()(A, B))


@pytest.mark.parametrize(
    ("kernel", "text"),
    [
        (kernels.linear(), "linear()"),
        (kernels.rbf(0.005), "rbf(gamma=0.005)"),
        (kernels.polynomial(2), "polynomial(degree=2, gamma=1.0, coef0=1.0)"),
        (kernels.sigmoid(1, -0.5), "sigmoid(gamma=1.0, coef0=-0.5)"),
    ],
)
def test_repr_states_every_parameter(kernel, text):
    assert repr(kernel) == text


@pytest.mark.parametrize(
    "kernel",
    [kernels.linear(), kernels.rbf(0.1), kernels.polynomial(3, 0.5, 0.0), kernels.sigmoid(2, 1)],
)
def test_params_are_json_and_rebuild_an_equal_kernel(kernel):
    text = json.dumps(kernel.params)
    rebuilt = kernels.from_params(json.loads(text))
    assert rebuilt == kernel
    assert repr(rebuilt) == repr(kernel)
    assert kernel.params["name"] == repr(kernel).split("(")[0]


def test_kernels_are_immutable():
    kernel = kernels.rbf(0.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        kernel.gamma = 2.0


def test_translation_invariant_flags():
    assert kernels.rbf(0.5).translation_invariant
    for kernel in (kernels.linear(), kernels.polynomial(2), kernels.sigmoid(1.0, 0.0)):
        assert not kernel.translation_invariant, kernel


@pytest.mark.parametrize(
    "kernel",
    [kernels.linear(), kernels.rbf(0.7), kernels.polynomial(2, 0.5), kernels.sigmoid(0.3, 0.1)],
)
def test_translation_invariant_means_moving_every_row_changes_nothing(kernel):
    shift = np.array([3.0, -1.0, 0.5])
    moved = kernel(A + shift, B + shift)
    unchanged = np.allclose(moved, kernel(A, B), rtol=1e-12, atol=1e-12)
    assert unchanged == kernel.translation_invariant


def test_positive_semidefinite_flags():
    assert kernels.linear().positive_semidefinite
    assert kernels.rbf(1.0).positive_semidefinite
    assert kernels.polynomial(2, coef0=0.0).positive_semidefinite
    assert not kernels.polynomial(2, coef0=-1.0).positive_semidefinite
    assert not kernels.sigmoid(1.0, 0.0).positive_semidefinite


@pytest.mark.parametrize(
    ("build", "words"),
    [
        (lambda: kernels.rbf(0), "greater than zero"),
        (lambda: kernels.rbf(-1.0), "greater than zero"),
        (lambda: kernels.rbf(float("nan")), "finite"),
        (lambda: kernels.rbf(float("inf")), "finite"),
        (lambda: kernels.rbf(True), "real number"),
        (lambda: kernels.rbf("0.5"), "real number"),
        (lambda: kernels.polynomial(2.5), "whole number"),
        (lambda: kernels.polynomial(True), "whole number"),
        (lambda: kernels.polynomial(0), "at least 1"),
        (lambda: kernels.polynomial(2, gamma=0.0), "gamma"),
        (lambda: kernels.polynomial(2, coef0=float("nan")), "coef0"),
        (lambda: kernels.sigmoid(0.0, 1.0), "gamma"),
        (lambda: kernels.sigmoid(1.0, float("inf")), "coef0"),
    ],
)
def test_bad_parameters_are_refused_at_construction(build, words):
    with pytest.raises(InvalidParameterError, match=words):
        build()


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"name": "laplacian", "gamma": 1.0}, "unknown kernel"),
        ({"name": "rbf"}, "takes parameters"),
        ({"name": "rbf", "gamma": 1.0, "coef0": 0.0}, "takes parameters"),
        ({"gamma": 1.0}, "name"),
        ("rbf", "dict"),
        ({"name": "rbf", "gamma": -1.0}, "greater than zero"),
    ],
)
def test_from_params_refuses_bad_dicts(params, words):
    with pytest.raises(InvalidParameterError, match=words):
        kernels.from_params(params)


def test_kernel_call_checks_its_inputs():
    kernel = kernels.rbf(1.0)
    with pytest.raises(InvalidInputError, match="same columns"):
        kernel(A, B[:, :2])
    with pytest.raises(InvalidInputError, match="NaN"):
        kernel(np.array([[np.nan, 1.0, 2.0]]), B)
    with pytest.raises(InvalidInputError, match="two-dimensional"):
        kernel(np.ones(3), B)
