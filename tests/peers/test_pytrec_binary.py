"""pytrec_eval (trec_eval 9.0.x C code) against `pytrec_eval.NAME` for the binary-relevance measures: map,
map_cut, P, recall, recip_rank, Rprec, Rprec_mult, success, set_P, set_recall, iprec_at_recall, 11pt_avg, bpref,
set_F, set_map, relative_P, set_relative_P and the counts (num_nonrel_judged_ret too), at several relevance levels
(trec_eval -l), judged-only (-J: unjudged=skip) and with a run depth (-M: run_depth), per query.

A list that -J leaves empty gets nan from iprec_at_recall and 11pt_avg (m_iprec_at_recall.c divides
num_rel_ret by num_ret = 0, and the nan makes trec_eval's mean nan); rankflavor gives 0, as for any list without
a relevant doc, and the test checks that this is the only difference.

Queries whose every judgment is negative are left out: trec_eval's form_res_rels.c keeps the previous topic's
relevance levels for them (see test_pytrec_eval.py).
"""

from __future__ import annotations

import math

import pytest
from peerdata import close, random_case, require, rf_mean, rf_values

pytrec_eval = require("pytrec_eval")

MEASURES = {"map", "map_cut.1,3,10", "P.1,3,10", "recall.1,3,10", "recip_rank", "Rprec", "success.1,5,10",
            "set_P", "set_recall", "num_ret", "num_rel", "num_rel_ret", "iprec_at_recall", "11pt_avg", "Rprec_mult",
            "bpref", "num_nonrel_judged_ret", "set_F", "set_map", "set_relative_P", "relative_P.1,3,10"}
NAMES = ["map", "map_cut_1", "map_cut_3", "map_cut_10", "P_1", "P_3", "P_10", "recall_1", "recall_3",
         "recall_10", "recip_rank", "Rprec", "success_1", "success_5", "success_10", "set_P", "set_recall",
         "num_ret", "num_rel", "num_rel_ret", "11pt_avg", *(f"iprec_at_recall_{i / 10:3.2f}" for i in range(11)),
         *(f"Rprec_mult_{i / 5:3.2f}" for i in range(1, 11)), "bpref", "num_nonrel_judged_ret", "set_F", "set_map",
         "set_relative_P", "relative_P_1", "relative_P_3", "relative_P_10"]
JUDGED_ONLY = {"bpref", "num_nonrel_judged_ret"}  # they pass over unjudged docs: -J changes nothing, no axis to set


def usable(case):
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    return case


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize(("rel_level", "judged_only", "depth"), [(1, False, None), (2, False, None),
                                                                  (1, True, None), (3, True, None), (1, False, 4)])
def test_binary_measures_match_pytrec_eval(seed, rel_level, judged_only, depth):
    case = usable(random_case(seed, max_docs=30))
    run = case.run if depth is None else {q: dict(list(sorted(docs.items(), key=lambda kv: -kv[1]))[:depth])
                                          for q, docs in case.run.items()}
    theirs = pytrec_eval.RelevanceEvaluator(case.qrels, MEASURES, relevance_level=rel_level,
                                            judged_docs_only_flag=judged_only).evaluate(run)
    for name in NAMES:
        axes = f" rel_level={rel_level}" + (" unjudged=skip" if judged_only and name not in JUDGED_ONLY else "")
        ours = rf_values(f"pytrec_eval.{name}{axes}", case.qrels, run)
        for q, measures in theirs.items():
            if math.isnan(measures[name]):  # iprec on a list -J left empty: 0/0 in C; rankflavor gives 0
                assert name.startswith(("iprec", "11pt")) and judged_only
                assert not any(case.qrels.get(q, {}).get(d, -1) >= 0 for d in run[q]), (seed, name, q)
                assert ours[q] == 0.0
                continue
            assert ours[q] is not None and close(ours[q], measures[name]), (
                f"seed {seed} {name}{axes} query {q}: rankflavor {ours[q]!r}, pytrec_eval {measures[name]!r}")
        assert {q for q, v in ours.items() if v is not None} == set(theirs), (seed, name)


@pytest.mark.parametrize("seed", range(10))
def test_counts_sum_and_the_rest_average_as_trec_eval_prints_them(seed):
    """trec_eval's summary of num_ret, num_rel and num_rel_ret is the sum over queries; of the rest, the mean."""
    case = usable(random_case(seed, max_docs=20))
    theirs = pytrec_eval.RelevanceEvaluator(case.qrels, MEASURES).evaluate(case.run)
    for name in ("num_ret", "num_rel_ret", "num_rel"):
        assert rf_mean(f"pytrec_eval.{name}", case.qrels, case.run) == sum(m[name] for m in theirs.values())
    if theirs:
        mean = sum(m["map"] for m in theirs.values()) / len(theirs)
        assert close(rf_mean("pytrec_eval.map", case.qrels, case.run), mean)
