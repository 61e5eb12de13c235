"""kreport.approx.distributed: the Dask fit equals the in-memory fit, on a
LocalCluster this module starts and stops itself (threads only, 127.0.0.1)."""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

from kreport import InvalidInputError, InvalidParameterError, kernels  # noqa: E402
from kreport.approx import NystroemKernelRidge  # noqa: E402
from kreport.approx.distributed import fit_distributed, random_block, random_rows  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        scheduler_port=0,
        dashboard_address=None,
    )
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def relative_error(actual, expected) -> float:
    return float(np.abs(np.asarray(actual) - expected).max() / np.abs(expected).max())


def assert_same_fit(ours, reference, query):
    np.testing.assert_array_equal(ours.landmark_indices_, reference.landmark_indices_)
    np.testing.assert_array_equal(ours.landmarks_, reference.landmarks_)
    assert ours.rank_ == reference.rank_
    assert ours.n_rows_ == reference.n_rows_
    # Compensated sums make the means independent of the chunking, to the bit.
    np.testing.assert_array_equal(ours.feature_means_, reference.feature_means_)
    assert ours.target_mean_ == reference.target_mean_
    assert relative_error(ours.weights_, reference.weights_) < 1e-9
    assert relative_error(ours.predict(query), reference.predict(query)) < 1e-9


@pytest.mark.parametrize("kernel", [kernels.rbf(0.3), kernels.polynomial(2, 0.2, 1.0)])
def test_dask_fit_equals_in_memory_fit(client, kernel):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(3000, 4)) + 2.0
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=3000) + 5.0
    query = rng.normal(size=(40, 4)) + 2.0
    # Odd row chunks, split columns and a target chunked differently from X.
    X_dask = da.from_array(X, chunks=(401, 2))
    y_dask = da.from_array(y, chunks=700)
    with distributed.get_task_stream(client) as stream:
        ours = fit_distributed(NystroemKernelRidge(kernel, 0.5, 60, seed=9, block_size=128),
                               X_dask, y_dask)
    assert len(stream.data) > 8, "the fit did not run on the cluster"
    reference = NystroemKernelRidge(kernel, 0.5, 60, seed=9, block_size=128).fit(X, y)
    assert_same_fit(ours, reference, query)


def test_streamed_rows_follow_the_block_rule_and_fit_like_memory(client):
    X_dask, y_dask = random_rows(2500, 3, block_rows=600, seed=5)
    assert X_dask.chunks[0] == (600, 600, 600, 600, 100)
    blocks = [random_block(5, index, size, 3) for index, size in enumerate(X_dask.chunks[0])]
    X = np.vstack([rows for rows, _ in blocks])
    y = np.concatenate([target for _, target in blocks])
    np.testing.assert_array_equal(X_dask.compute(), X)
    np.testing.assert_array_equal(y_dask.compute(), y)
    # Each block depends on (seed, index) alone, not on the block count.
    first, _ = random_rows(600, 3, block_rows=600, seed=5)
    np.testing.assert_array_equal(first.compute(), X[:600])
    model = NystroemKernelRidge(kernels.rbf(0.5), 0.2, 50, seed=1, block_size=256)
    ours = fit_distributed(model, X_dask, y_dask)
    reference = NystroemKernelRidge(kernels.rbf(0.5), 0.2, 50, seed=1, block_size=256).fit(X, y)
    assert_same_fit(ours, reference, X[:30] + 0.1)


def test_dask_fit_refuses_bad_input(client):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = rng.normal(size=200)
    model = NystroemKernelRidge(kernels.rbf(0.5), 1.0, 20)
    broken = X.copy()
    broken[150, 2] = np.nan
    with pytest.raises(InvalidInputError, match="1 NaN and 0 infinite"):
        fit_distributed(model, da.from_array(broken, chunks=(50, 3)), da.from_array(y))
    with pytest.raises(InvalidInputError, match="y contains 0 NaN and 1 infinite"):
        fit_distributed(model, da.from_array(X, chunks=(50, 3)),
                        da.from_array(np.where(np.arange(200) == 7, np.inf, y)))
    with pytest.raises(InvalidInputError, match="at most 200"):
        fit_distributed(NystroemKernelRidge(kernels.rbf(0.5), 1.0, 201), X, y)
    with pytest.raises(InvalidInputError, match="199 values"):
        fit_distributed(model, da.from_array(X), da.from_array(y[:-1]))
    X_dask = da.from_array(X, chunks=(50, 3))
    with pytest.raises(InvalidInputError, match="unknown chunk sizes"):
        fit_distributed(model, X_dask[X_dask[:, 0] > 0], y)
    with pytest.raises(InvalidInputError, match="two-dimensional"):
        fit_distributed(model, da.from_array(y), y)
    with pytest.raises(InvalidParameterError, match="NystroemKernelRidge"):
        fit_distributed(object(), X, y)
    assert "_kept_weights" not in vars(model), "a refused fit must leave the model unfitted"
