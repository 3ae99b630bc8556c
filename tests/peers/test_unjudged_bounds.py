"""compare/unjudged_bounds.py against pytrec_eval: the low end is pytrec_eval on the qrels as they are, the high
end pytrec_eval on qrels completed by hand with each run's unjudged docs (within the cutoff) at the grade."""

from __future__ import annotations

import numpy as np
import pytest
from peerdata import require

from rankflavor.compare.query_set import query_set
from rankflavor.compare.scores import Scores
from rankflavor.compare.unjudged_bounds import robustness, unjudged_bounds
from rankflavor.flavor import Flavor

pytrec_eval = require("pytrec_eval")

MEASURES = {"ndcg@10": ("ndcg_cut_10", 10), "ap": ("map", None), "P@5": ("P_5", 5), "ndcg": ("ndcg", None)}


def collection(seed: int) -> tuple[dict, dict[str, dict]]:
    """A graded qrels and three runs, scores distinct in float32, about a third of the retrieved docs unjudged."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    runs: dict[str, dict[str, dict[str, float]]] = {f"r{r}": {} for r in range(3)}
    for q in range(6):
        docs = [f"d{i}" for i in range(25)]
        qrels[f"q{q}"] = {d: int(rng.integers(0, 3 + q % 2)) for d in docs if rng.random() < 0.6}
        for name in runs:
            picked = rng.choice(25, size=int(rng.integers(8, 20)), replace=False)
            runs[name][f"q{q}"] = {docs[i]: float(rank) + 0.25 for rank, i in enumerate(picked[::-1])}
    return qrels, runs


def filled(qrels: dict, run: dict, depth: int | None, grade: int | None) -> dict:
    """The qrels with every doc of the run's top `depth` (all when None) absent from them at `grade` (None: the
    query's top grade, at least 1)."""
    out = {q: dict(docs) for q, docs in qrels.items()}
    for q, scored in run.items():
        if q not in qrels:
            continue
        ranked = sorted(scored, key=lambda d: (-scored[d], d))[:depth]
        g = grade if grade is not None else max(1, max(qrels[q].values()))
        for d in ranked:
            out[q].setdefault(d, g)
    return out


def peer_mean(qrels: dict, run: dict, measure: str) -> float:
    values = pytrec_eval.RelevanceEvaluator(qrels, {measure.rsplit("_", 1)[0] if "cut" in measure or
                                                    measure.startswith("P_") else measure}).evaluate(run)
    return float(np.mean([v[measure] for v in values.values()]))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("grade", [None, 2])
def test_bounds_are_pytrec_eval_on_completed_qrels(tmp_path, seed, grade):
    qrels, runs = collection(seed)
    scores = Scores.load(qrels, runs)
    flavors = [Flavor.parse(spec) for spec in MEASURES]
    qs = query_set(scores, "common", flavors)
    assert qs.size == 6
    bounds = unjudged_bounds(scores, qs, flavors, "top" if grade is None else grade)
    for spec, flavor in zip(MEASURES, flavors, strict=True):
        measure, depth = MEASURES[spec]
        for name, run in runs.items():
            low, high = bounds.means[(name, str(flavor))]
            assert low == pytest.approx(peer_mean(qrels, run, measure), abs=1e-9), (spec, name)
            assert high == pytest.approx(peer_mean(filled(qrels, run, depth, grade), run, measure), abs=1e-9)
            assert high >= low - 1e-12 or spec in ("ap", "ndcg")  # (a whole-list measure's ideal grows too)
        low, high = bounds.difference("r0", "r1", str(flavor))
        ends_a, ends_b = bounds.means[("r0", str(flavor))], bounds.means[("r1", str(flavor))]
        assert low == pytest.approx(min(ends_a) - max(ends_b)) and high == pytest.approx(max(ends_a) - min(ends_b))
        assert low <= high


def test_robustness_verdicts():
    assert robustness(0.01, 0.2, "A", "A", "B") == "robust"
    assert robustness(-0.2, -0.01, "B", "A", "B") == "robust"
    assert robustness(-0.01, 0.2, "A", "A", "B") == "not robust"
    assert robustness(-0.2, 0.01, "B", "A", "B") == "not robust"
    assert robustness(-0.2, 0.01, "tie", "A", "B") == "tie"
