"""pytrec_eval (pytrec-eval-terrier, trec_eval 9.0.x C code) against the `pytrec_eval` and `trec_eval` presets.

pytrec_eval scores in float32 (its trec_eval submodule keeps TEXT_RESULTS.sim as float): scores equal after
float32 rounding tie and fall back to docno descending. The `trec_eval` preset (trec_eval 10.0, double sim)
is checked here on cases whose scores float32 does not merge; its float64-only ties are golden cases in
test_trec_eval.py.
"""

from __future__ import annotations

import pytest
from peerdata import close, random_case, require, rf_values

pytrec_eval = require("pytrec_eval")

SEEDS = range(30)
CUTOFFS = (1, 3, 5, 10)


def peer(case, measures: set[str], **kwargs) -> dict[str, dict[str, float]]:
    return pytrec_eval.RelevanceEvaluator(case.qrels, measures, **kwargs).evaluate(case.run)


def assert_same(ours: dict, theirs: dict[str, float], what: str) -> None:
    scored = {q for q, v in ours.items() if v is not None}
    assert scored == set(theirs), f"{what}: scored queries differ: {sorted(scored ^ set(theirs))}"
    for q, value in theirs.items():
        assert close(ours[q], value), f"{what} query {q}: rankflavor {ours[q]!r}, pytrec_eval {value!r}"


@pytest.mark.parametrize("seed", SEEDS)
def test_ndcg_cut_matches_pytrec_eval(seed):
    case = random_case(seed)
    theirs = peer(case, {"ndcg_cut." + ",".join(map(str, CUTOFFS))})
    for k in CUTOFFS:
        assert_same(rf_values(f"pytrec_eval@{k}", case.qrels, case.run),
                    {q: m[f"ndcg_cut_{k}"] for q, m in theirs.items()}, f"seed {seed} pytrec_eval@{k}")


@pytest.mark.parametrize("seed", SEEDS)
def test_uncut_ndcg_matches_pytrec_eval(seed):
    """trec_eval's `ndcg` cannot take a topic whose every judgment is negative: form_res_rels.c never resets
    the static num_rel_levels for it (its rel_levels loop runs to max_rel = -1), so m_ndcg.c reads the previous
    topic's levels and pytrec_eval can loop forever. Such topics are left out of the qrels here."""
    case = random_case(seed)
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    theirs = {q: m["ndcg"] for q, m in peer(case, {"ndcg"}).items()}
    assert_same(rf_values("trec_eval.ndcg precision=f32", case.qrels, case.run), theirs, f"seed {seed} ndcg")


@pytest.mark.parametrize("seed", SEEDS)
def test_judged_only_matches_minus_j(seed):
    """-J: unjudged docs (and grades < 0, 'in pool, unjudged') are removed and the list condensed."""
    case = random_case(seed)
    theirs = peer(case, {"ndcg_cut.3,10"}, judged_docs_only_flag=True)
    for k in (3, 10):
        assert_same(rf_values(f"pytrec_eval@{k} unjudged=skip", case.qrels, case.run),
                    {q: m[f"ndcg_cut_{k}"] for q, m in theirs.items()}, f"seed {seed} -J @{k}")


@pytest.mark.parametrize("seed", range(15))
def test_trec_eval_preset_on_scores_float32_keeps_apart(seed):
    """trec_eval 10.0 (f64) and pytrec_eval (f32) agree when no two scores merge in float32."""
    case = random_case(seed, f32_distinct=True)
    theirs = peer(case, {"ndcg_cut.5,10"})
    for k in (5, 10):
        assert_same(rf_values(f"trec_eval@{k}", case.qrels, case.run),
                    {q: m[f"ndcg_cut_{k}"] for q, m in theirs.items()}, f"seed {seed} trec_eval@{k}")


def test_float32_ties_fall_back_to_docno_descending():
    """1.0 and 1.0 + 1e-9 are one float32: the tie goes to the larger docno ('b'), so the relevant 'b' is first.
    The f64 flavor (trec_eval 10.0) ranks 'a' first instead: this test fails if precision is ignored."""
    qrels, run = {"q": {"a": 0, "b": 2}}, {"q": {"a": 1.0 + 1e-9, "b": 1.0}}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.1"}).evaluate(run)["q"]["ndcg_cut_1"]
    assert theirs == 1.0
    assert rf_values("pytrec_eval@1", qrels, run)["q"] == 1.0
    assert rf_values("trec_eval@1", qrels, run)["q"] == 0.0


def test_empty_result_list_is_present_and_scores_zero():
    qrels, run = {"q": {"a": 1}, "r": {"b": 1}}, {"q": {}, "s": {"b": 1.0}}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.5"}).evaluate(run)
    assert theirs == {"q": {"ndcg_cut_5": 0.0}}
    assert rf_values("pytrec_eval@5", qrels, run) == {"q": 0.0, "r": None}
