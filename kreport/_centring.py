"""Centring, written once: the rows and target of the regressions, the kernel
tables of KernelPCA.

* Ridge and KernelRidge centre the rows by their column means and the target by
  its mean (:func:`centre_rows_and_target`); PCA centres its rows the same way
  (:func:`centre_columns`).
* KernelPCA centres its training table by K_c = K − 1ₙK − K1ₙ + 1ₙK1ₙ
  (:func:`centre_training_table`) and a query's kernel rows by the matching
  identity with the training averages (:func:`centre_query_table`).

Each function states the exact floating-point recipe, because fitted numbers
printed on the pages depend on it to the last bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


def centre_columns(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows − column means, column means), the means from ``rows.mean(axis=0)``."""
    means = rows.mean(axis=0)
    return rows - means, means


class CentredData(NamedTuple):
    """Rows and target with their means removed, and the means."""

    rows: np.ndarray
    feature_means: np.ndarray
    target: np.ndarray
    target_mean: float


def centre_rows_and_target(rows: np.ndarray, target: np.ndarray) -> CentredData:
    """Centre the rows by their column means and the target by its mean.

    ``target_mean`` is a Python float (``float(target.mean())``); the centred
    target is ``target − target_mean``.
    """
    centred_rows, feature_means = centre_columns(rows)
    target_mean = float(target.mean())
    return CentredData(centred_rows, feature_means, target - target_mean, target_mean)


def centre_training_table(table: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """K_c = K − 1ₙK − K1ₙ + 1ₙK1ₙ, done with means; returns (K_c, column means, grand mean).

    Entry (i, j) is K[i, j] − (m[i] + m[j]) + grand mean, with m the column
    means. Since m[i] + m[j] = m[j] + m[i] exactly, a symmetric K gives an
    exactly symmetric K_c, with no separate symmetrising pass.
    """
    column_means = table.mean(axis=0)
    grand_mean = float(column_means.mean())
    centred = np.add.outer(column_means, column_means)
    np.subtract(table, centred, out=centred)
    centred += grand_mean
    return centred, column_means, grand_mean


def centre_query_table(
    query_table: np.ndarray, column_means: np.ndarray, grand_mean: float
) -> np.ndarray:
    """Centre kernel rows of queries against the training rows.

    Row k (the query's kernel values against the n training rows) becomes
    k − mean(k) − (training column means) + (training grand mean): the
    query-side form of K_c = K − 1ₙK − K1ₙ + 1ₙK1ₙ. Sent the training table
    itself, it reproduces K_c up to rounding.
    """
    centred = query_table - query_table.mean(axis=1, keepdims=True)
    centred -= column_means[np.newaxis, :]
    centred += grand_mean
    return centred


__all__ = [
    "CentredData",
    "centre_columns",
    "centre_query_table",
    "centre_rows_and_target",
    "centre_training_table",
]
