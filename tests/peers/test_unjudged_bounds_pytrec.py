"""compare/unjudged_bounds.py against pytrec_eval: each run's lowest and highest value over the fills of its holes
are the least and greatest of pytrec_eval's values over every assignment of the grades 0..g to those holes (the
qrels completed by hand), per query and per mean."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from peerdata import require

from rankflavor.compare.fills import query_ends
from rankflavor.compare.query_set import query_set
from rankflavor.compare.scores import Scores
from rankflavor.compare.unjudged_bounds import robustness, unjudged_bounds
from rankflavor.flavor import Flavor

pytrec_eval = require("pytrec_eval")

# rankflavor's spec: (pytrec_eval's measure, the depth whose holes are filled: None, the whole list)
MEASURES = {"ndcg@5": ("ndcg_cut_5", 5), "ap": ("map", None), "P@5": ("P_5", 5), "ndcg": ("ndcg", None)}


def collection(seed: int) -> tuple[dict, dict[str, dict]]:
    """A graded qrels and three runs, scores distinct in float32, each query with three unjudged docs (u0..u2)."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    runs: dict[str, dict[str, dict[str, float]]] = {f"r{r}": {} for r in range(3)}
    for q in range(5):
        docs = [f"d{i}" for i in range(7)] + ["u0", "u1", "u2"]
        qrels[f"q{q}"] = {d: int(rng.integers(0, 2 + q % 2)) for d in docs[:7]}
        for name in runs:
            picked = rng.choice(10, size=int(rng.integers(4, 9)), replace=False)
            runs[name][f"q{q}"] = {docs[i]: float(rank) + 0.25 for rank, i in enumerate(picked[::-1])}
    return qrels, runs


def holes(qrels: dict, ranked: dict[str, float], depth: int | None) -> list[str]:
    top = sorted(ranked, key=lambda d: (-ranked[d], d))[:depth]
    return sorted(d for d in top if d not in qrels)


def peer_ends(qrels: dict, run: dict, measure: str, depth: int | None, grade: int | None) -> dict[str, tuple]:
    """Per query: pytrec_eval's least and greatest value over every assignment of 0..g to the run's holes."""
    filled, of = {}, {}
    for q, ranked in run.items():
        found = holes(qrels[q], ranked, depth)
        g = grade if grade is not None else max(1, max(qrels[q].values()))
        for k, grades in enumerate(itertools.product(range(g + 1), repeat=len(found))):
            filled[f"{q}|{k}"] = {**qrels[q], **dict(zip(found, grades, strict=True))}
            of[f"{q}|{k}"] = q
    asked = measure.rsplit("_", 1)[0] if "cut" in measure or measure.startswith("P_") else measure
    values = pytrec_eval.RelevanceEvaluator(filled, {asked}).evaluate({k: run[of[k]] for k in filled})
    out: dict[str, list[float]] = {}
    for k, v in values.items():
        out.setdefault(of[k], []).append(v[measure])
    return {q: (min(v), max(v)) for q, v in out.items()}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("grade", [None, 2])
def test_bounds_are_pytrec_evals_least_and_greatest_over_the_fills(seed, grade):
    qrels, runs = collection(seed)
    scores = Scores.load(qrels, runs)
    flavors = [Flavor.parse(spec) for spec in MEASURES]
    qs = query_set(scores, "common", flavors)
    assert qs.size == 5
    bounds = unjudged_bounds(scores, qs, flavors, "top" if grade is None else grade)
    ds = scores.dataset
    for name, run in runs.items():
        ends = query_ends(ds, [ds.run(name)], flavors, "top" if grade is None else grade)
        for (spec, (measure, depth)), flavor, e in zip(MEASURES.items(), flavors, ends, strict=True):
            peer = peer_ends(qrels, run, measure, depth, grade)
            queries = [str(q) for q in ds.query_ids[np.flatnonzero(ds.judged)]]
            assert e.low == pytest.approx([peer[q][0] for q in queries], abs=1e-9), (spec, name)
            assert e.high == pytest.approx([peer[q][1] for q in queries], abs=1e-9), (spec, name)
            interval = bounds.means[(name, str(flavor))]
            assert (interval.low, interval.high) == pytest.approx((np.mean(e.low), np.mean(e.high)), abs=1e-12)
            assert interval.exact == 5 and interval.by_range == 0


def test_robustness_verdicts():
    assert robustness(0.01, 0.2, "A", "A", "B") == "robust"
    assert robustness(-0.2, -0.01, "B", "A", "B") == "robust"
    assert robustness(-0.01, 0.2, "A", "A", "B") == "not robust"
    assert robustness(-0.2, 0.01, "B", "A", "B") == "not robust"
    assert robustness(-0.2, 0.01, "tie", "A", "B") == "tie"
    assert robustness(-np.inf, np.inf, "A", "A", "B") == "not robust"
