"""kreport.Ridge: the per-feature control."""

import numpy as np
import pytest

from kreport import (
    FeatureMismatchError,
    InvalidInputError,
    InvalidParameterError,
    NotFittedError,
    Ridge,
)

PEOPLE_X = np.array([[169.0], [170.0], [171.0]])
PEOPLE_Y = np.array([64.0, 70.0, 76.0])


def test_three_people():
    model = Ridge(1.0).fit(PEOPLE_X, PEOPLE_Y)
    # (2 + 1) w = 12  →  w = 4, intercept = 70 − 170·4
    np.testing.assert_allclose(model.coef_, [4.0], rtol=1e-14)
    assert model.intercept_ == pytest.approx(-610.0, rel=1e-13)
    np.testing.assert_allclose(model.predict([[170.5]]), [72.0], rtol=1e-14)
    assert model.target_mean_ == 70.0


def test_closed_form_on_random_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    y = X @ [1.0, -2.0, 0.5, 0.0] + 3.0 + 0.1 * rng.normal(size=30)
    model = Ridge(2.5).fit(X, y)
    Xc, yc = X - X.mean(0), y - y.mean()
    expected = np.linalg.solve(Xc.T @ Xc + 2.5 * np.eye(4), Xc.T @ yc)
    np.testing.assert_allclose(model.coef_, expected, rtol=1e-12)
    np.testing.assert_allclose(model.predict(X), X @ model.coef_ + model.intercept_, rtol=1e-12)
    assert 0.9 < model.score(X, y) <= 1.0


def test_column_target_is_flattened():
    model = Ridge(1.0).fit(PEOPLE_X, PEOPLE_Y.reshape(-1, 1))
    np.testing.assert_allclose(model.coef_, [4.0])


def test_constant_column_is_refused_by_name():
    data = {"height": [169.0, 170.0, 171.0], "shoe": [42.0, 42.0, 42.0]}
    with pytest.raises(InvalidInputError, match=r"'shoe'.*constant.*Drop it"):
        Ridge(1.0).fit(data, PEOPLE_Y)
    with pytest.raises(InvalidInputError, match="column 1"):
        Ridge(1.0).fit(np.column_stack([PEOPLE_X, [0.1, 0.1, 0.1]]), PEOPLE_Y)


@pytest.mark.parametrize("penalty", [0, 0.0, -1.0, float("nan"), float("inf"), None, "1", True])
def test_penalty_must_be_positive_finite(penalty):
    with pytest.raises(InvalidParameterError, match="penalty"):
        Ridge(penalty)


def test_names_matched_and_refused():
    data = {"a": [1.0, 2.0, 3.0, 4.0], "b": [1.0, 0.0, 2.0, 5.0]}
    model = Ridge(0.5).fit(data, [1.0, 2.0, 2.5, 6.0])
    swapped = model.predict({"b": [1.0], "a": [1.0]})
    np.testing.assert_allclose(swapped, model.predict({"a": [1.0], "b": [1.0]}))
    with pytest.raises(FeatureMismatchError, match="'c'"):
        model.predict({"a": [1.0], "b": [1.0], "c": [0.0]})


def test_score_of_constant_target_is_refused():
    model = Ridge(1.0).fit(PEOPLE_X, PEOPLE_Y)
    with pytest.raises(InvalidInputError, match="constant"):
        model.score(PEOPLE_X, [5.0, 5.0, 5.0])


def test_calls_before_fit():
    with pytest.raises(NotFittedError, match=r"fit\(X, y\)"):
        Ridge(1.0).predict(PEOPLE_X)
    assert repr(Ridge(2)) == "Ridge(penalty=2.0)"


def test_ridge_and_kernel_ridge_centre_the_same_way():
    """Rows and target are centred by one helper (kreport._centring), so the two
    models' means agree bit for bit and the linear kernel reproduces Ridge."""
    from kreport import KernelRidge, kernels
    from kreport._centring import centre_rows_and_target

    rng = np.random.default_rng(8)
    X = rng.normal(size=(12, 2)) + np.array([170.0, 70.0])
    y = rng.normal(size=12) + 60.0
    primal = Ridge(0.5).fit(X, y)
    dual = KernelRidge(kernels.linear(), 0.5).fit(X, y)
    centred = centre_rows_and_target(X, y)
    np.testing.assert_array_equal(primal.feature_means_, centred.feature_means)
    np.testing.assert_array_equal(dual.feature_means_, centred.feature_means)
    assert primal.target_mean_ == dual.target_mean_ == centred.target_mean == float(y.mean())
    np.testing.assert_array_equal(centred.rows, X - X.mean(axis=0))
    np.testing.assert_array_equal(centred.target, y - y.mean())
    np.testing.assert_allclose(dual.predict(X), primal.predict(X), rtol=1e-12)
