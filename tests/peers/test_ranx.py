"""ranx (evaluate with make_comparable=True) against the `ranx.make_comparable` and `ranx.burges.make_comparable`
presets (the plain call, against `ranx`: test_exact_presets.py).

ranx orders a query's results with numba's argsort of -score (data_structures/common.py): an insertion sort,
so input order on ties, for at most 15 documents; longer lists go through a quicksort whose tie order is its
own. `ties=quicksort` is that algorithm (engine/ties.py), checked here against numba itself and against ranx
on long tied lists.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from peerdata import close, random_case, require, rf_values

from rankflavor.engine.ties import quicksort_order

ranx = require("ranx")
numba = require("numba")

SEEDS = range(25)


def peer(case, metric: str) -> dict[str, float]:
    qrels = ranx.Qrels({q: dict(docs) for q, docs in case.qrels.items()})
    run = ranx.Run({q: dict(docs) for q, docs in case.run.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's uint64 -> int64 hash cast warning
        ranx.evaluate(qrels, run, metric, make_comparable=True)
    return dict(run.scores[metric])


@pytest.mark.parametrize("max_docs", [12, 60])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("metric", "preset"), [
    ("ndcg", "ranx.make_comparable"), ("ndcg@1", "ranx.make_comparable@1"), ("ndcg@5", "ranx.make_comparable@5"),
    ("ndcg@10", "ranx.make_comparable@10"), ("ndcg_burges@5", "ranx.burges.make_comparable@5"),
    ("ndcg_burges", "ranx.burges.make_comparable"), ("ndcg@5-l2", "ranx.make_comparable@5 min_grade=2"),
])
def test_ndcg_matches_ranx(seed, metric, preset, max_docs):
    case = random_case(seed, max_docs=max_docs)
    theirs = peer(case, metric)
    ours = rf_values(preset, case.qrels, case.run)
    assert set(theirs) == set(ours), f"seed {seed}"
    for q, value in theirs.items():
        assert close(ours[q], value), f"seed {seed} {metric} {q}: rankflavor {ours[q]} ranx {value}"


def test_ties_follow_input_order():
    qrels = {"q": {"a": 1, "b": 0}}
    for first, expected in (("a", 1.0), ("b", 0.0)):
        run = {"q": {first: 1.0, ("b" if first == "a" else "a"): 1.0}}
        theirs = peer(type("C", (), {"qrels": qrels, "run": run})(), "ndcg@1")["q"]
        assert theirs == expected == rf_values("ranx@1", qrels, run)["q"]


def test_long_tie_groups_take_the_quicksorts_order_as_ranx_does():
    """20 docs in two tie groups, the relevant one first in input order: ranx (numba's quicksort) moves it
    down, and so does ties=quicksort; 15 documents keep input order."""
    docs = [f"d{i:02d}" for i in range(20)]
    scores = {d: (2.0 if i % 3 == 0 else 1.0) for i, d in enumerate(docs)}
    qrels = {"q": {"d00": 1}}
    theirs = peer(type("C", (), {"qrels": qrels, "run": {"q": scores}})(), "ndcg")["q"]
    assert theirs < 1.0 and close(rf_values("ranx.make_comparable", qrels, {"q": scores})["q"], theirs)
    short = {d: s for d, s in scores.items() if d < "d15"}  # 15 documents: input order again
    assert peer(type("C", (), {"qrels": qrels, "run": {"q": short}})(), "ndcg")["q"] == 1.0
    assert rf_values("ranx.make_comparable", qrels, {"q": short})["q"] == 1.0


def test_the_quicksort_order_is_numbas():
    argsort = numba.njit(lambda a: np.argsort(a))
    rng = np.random.default_rng(0)
    for n in (2, 15, 16, 17, 33, 100, 1000):
        for _ in range(20):
            keys = -np.round(rng.normal(size=n), 1)  # many ties
            assert argsort(keys).tolist() == quicksort_order(keys.tolist()), n


def test_ranx_on_200_queries_of_1000_tied_docs():
    rng = np.random.default_rng(7)
    qrels, run = {}, {}
    for q in range(200):
        docs = [f"d{i}" for i in rng.choice(20_000, size=1000, replace=False)]
        run[f"q{q}"] = {d: float(s) for d, s in zip(docs, np.round(rng.normal(size=1000), 2), strict=True)}
        qrels[f"q{q}"] = {d: int(rng.integers(0, 4)) for d in rng.choice(docs, size=40, replace=False)}
    case = type("C", (), {"qrels": qrels, "run": run})()
    for metric, preset in (("ndcg@100", "ranx.make_comparable@100"), ("ndcg", "ranx.make_comparable"),
                           ("ndcg_burges@10", "ranx.burges.make_comparable@10")):
        theirs, ours = peer(case, metric), rf_values(preset, qrels, run)
        differing = [q for q in theirs if not close(ours[q], theirs[q])]
        assert not differing, (metric, differing[:5])
