"""rankflavor.ndcg_score / dcg_score on arrays against scikit-learn 1.9.1's own (sklearn/metrics/_ranking.py), and
rankflavor.sklearn.ndcg_scorer in GridSearchCV against make_scorer(sklearn.metrics.ndcg_score) and a by-hand loop.

Rows hold ties (scores rounded to 0.5), fractional labels and all-zero rows; the group= and qid= forms of the
same documents must give the same numbers as the 2-D form, query by query.
"""

from __future__ import annotations

import numpy as np
import pytest
from peerdata import close, require

import rankflavor as rf

sklearn = require("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402
from sklearn.metrics import dcg_score, make_scorer, ndcg_score  # noqa: E402
from sklearn.model_selection import GridSearchCV, GroupKFold  # noqa: E402
from sklearn.tree import DecisionTreeRegressor  # noqa: E402

import rankflavor.sklearn as rfs  # noqa: E402


def rows(seed: int, n: int = 12, m: int = 7) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    labels = rng.choice([0, 0, 1, 2, 3, 0.5], size=(n, m))
    labels[0] = 0  # a query with no relevant document
    scores = np.round(rng.normal(size=(n, m)) * 2) / 2  # ties
    return labels, scores


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("k", [None, 1, 3, 10])
def test_ndcg_and_dcg_score_are_sklearns(seed, k):
    y, s = rows(seed)
    ours = rf.ndcg_score(y, s, k=k)
    assert close(ours, ndcg_score(y, s, k=k))
    assert close(rf.dcg_score(y, s, k=k), dcg_score(y, s, k=k))
    assert close(rf.dcg_score(y, s, k=k, log_base=10), dcg_score(y, s, k=k, log_base=10))
    per_row = [ndcg_score(y[i:i + 1], s[i:i + 1], k=k) for i in range(len(y))]
    assert np.allclose(ours.per_query, per_row, rtol=0, atol=1e-12)
    assert rf.Flavor.parse(ours.flavor_string) == ours.flavor == rf.Flavor.parse("sklearn" if k is None else f"sklearn@{k}")


@pytest.mark.parametrize("seed", range(8))
def test_group_and_qid_forms_are_the_rows(seed):
    y, s = rows(seed)
    n, m = y.shape
    expected = ndcg_score(y, s, k=3)
    by_group = rf.ndcg_score(y.ravel(), s.ravel(), k=3, group=[m] * n)
    order = np.random.default_rng(seed).permutation(n * m)  # documents shuffled: qid gathers each query's
    qid = np.repeat(np.arange(100, 100 + n), m)
    by_qid = rf.ndcg_score(y.ravel()[np.sort(order)], s.ravel()[np.sort(order)], k=3, qid=qid[np.sort(order)])
    shuffled = rf.ndcg_score(y.ravel()[order], s.ravel()[order], k=3, qid=qid[order])
    assert close(by_group, expected) and close(by_qid, expected) and close(shuffled, expected)
    assert by_qid.queries.tolist() == list(range(100, 100 + n))
    assert set(shuffled.queries.tolist()) == set(range(100, 100 + n))
    want = dict(zip(range(100, 100 + n), by_qid.per_query.tolist(), strict=True))
    assert all(close(v, want[q]) for q, v in zip(shuffled.queries.tolist(), shuffled.per_query.tolist(), strict=True))


@pytest.mark.parametrize("seed", range(6))
def test_sample_weight_is_np_average(seed):
    y, s = rows(seed)
    w = np.random.default_rng(seed).integers(0, 5, size=len(y)).astype(float) + (np.arange(len(y)) == 1)
    assert close(rf.ndcg_score(y, s, k=4, sample_weight=w), ndcg_score(y, s, k=4, sample_weight=w))
    assert close(rf.dcg_score(y, s, sample_weight=w), dcg_score(y, s, sample_weight=w))


@pytest.mark.parametrize("seed", range(6))
def test_ignore_ties_on_distinct_scores(seed):
    """Without ties, ignore_ties=True is the same number (sklearn's order on ties depends on numpy's sort)."""
    y, _ = rows(seed)
    s = np.random.default_rng(seed + 100).normal(size=y.shape)
    assert close(rf.ndcg_score(y, s, k=3, ignore_ties=True), ndcg_score(y, s, k=3, ignore_ties=True))
    assert rf.ndcg_score(y, s, k=3, ignore_ties=True).flavor.ties == "docid_desc"


def test_another_flavor_by_spec_changes_the_number():
    y, s = rows(3)
    plain, exp2 = rf.ndcg_score(y, s, k=3), rf.ndcg_score(y, s, k=3, flavor="sklearn gain=exp2")
    assert not close(plain, exp2)
    assert str(exp2.flavor).startswith("ndcg@3 gain=exp2 ")


def test_one_document_rows_refused_as_sklearn_does():
    with pytest.raises(ValueError, match="more than 1 document"):
        ndcg_score([[1.0], [0.0]], [[0.5], [0.2]])
    with pytest.raises(rf.InputError, match="more than 1 document"):
        rf.ndcg_score([[1.0], [0.0]], [[0.5], [0.2]])


def grouped_data(seed: int, queries: int = 30, docs: int = 8):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(queries * docs, 4))
    y = np.clip(np.round(X[:, 0] + X[:, 1] * 0.5 + rng.normal(size=len(X))), 0, 3)
    return X, y, np.repeat(np.arange(queries), docs), docs


@pytest.mark.parametrize("k", [3, None])
def test_scorer_with_groups_in_grid_search(k):
    """groups routed to GroupKFold and to the scorer: each split's score is sklearn's ndcg_score of that test fold,
    one row per query (equal query sizes, so the by-hand check can be a 2-D call)."""
    X, y, qid, docs = grouped_data(0)
    grid = {"max_depth": [1, 3]}
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(DecisionTreeRegressor(random_state=0), grid, cv=GroupKFold(3),
                              scoring=rfs.ndcg_scorer(k=k)).fit(X, y, groups=qid)
    for i, params in enumerate(search.cv_results_["params"]):
        for split, (train, test) in enumerate(GroupKFold(3).split(X, y, qid)):
            model = clone(DecisionTreeRegressor(random_state=0)).set_params(**params).fit(X[train], y[train])
            theirs = ndcg_score(y[test].reshape(-1, docs), model.predict(X[test]).reshape(-1, docs), k=k)
            assert close(search.cv_results_[f"split{split}_test_score"][i], theirs)
    assert len(set(search.cv_results_["mean_test_score"].round(12))) == 2  # (the grid's two models differ)


def test_scorer_on_2d_targets_is_make_scorer_of_ndcg_score():
    rng = np.random.default_rng(1)
    Y = rng.integers(0, 4, size=(60, 6)).astype(float)
    X = rng.normal(size=(60, 3)) + Y[:, :3]
    scoring = {"rankflavor": rfs.ndcg_scorer(k=3), "sklearn": make_scorer(ndcg_score, k=3)}
    search = GridSearchCV(Ridge(), {"alpha": [0.01, 100.0]}, cv=3, scoring=scoring, refit=False).fit(X, Y)
    for split in range(3):
        ours, theirs = (search.cv_results_[f"split{split}_test_{n}"] for n in scoring)
        assert np.allclose(ours, theirs, rtol=0, atol=1e-12)


def test_scorer_without_routing_says_how_to_pass_queries():
    X, y, _, _ = grouped_data(2)
    scorer = rfs.ndcg_scorer(k=3)
    with pytest.raises(rf.InputError, match=r"group= .* or qid="):
        scorer(Ridge().fit(X, y), X, y)
