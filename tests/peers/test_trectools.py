"""trectools TrecEval.get_ndcg (trec_eval=True) against the `trectools` preset.

trectools 0.0.50 reads the run sorted by query, score desc, docid asc (trec_run.py), drops qrels rows
with rel < 0 (trec_qrel.py), keeps only rel > 0 for gains and cuts the IDCG at depth (trec_eval.py).
Per query it returns NaN when no relevant doc is in the top depth (rankflavor: 0) and leaves zero-ideal
queries out; its mean divides by the number of run topics, run topics absent from the qrels included
(unjudged_queries=zero).
"""

from __future__ import annotations

import math
import warnings

import pytest
from peerdata import close, random_case, require, rf_mean, rf_values

require("trectools")
from trectools import TrecEval, TrecQrel, TrecRun  # noqa: E402

SEEDS = range(15)


def trectools_ndcg(case, tmp_path, depth: int):
    qrels_path, run_path = case.write(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        te = TrecEval(TrecRun(str(run_path)), TrecQrel(str(qrels_path)))
        frame = te.get_ndcg(depth=depth, per_query=True, trec_eval=True)
        mean = te.get_ndcg(depth=depth, per_query=False, trec_eval=True)
    return {str(q): float(v) for q, v in frame[f"NDCG@{depth}"].items()}, float(mean)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("depth", [1, 3, 10, 1000])
def test_get_ndcg_matches(seed, depth, tmp_path):
    case = random_case(seed)
    theirs, their_mean = trectools_ndcg(case, tmp_path, depth)
    spec = f"trectools@{depth}"
    ours = rf_values(spec, case.qrels, case.run)
    for q, value in theirs.items():
        if math.isnan(value):  # nothing relevant in the top depth (or the query is missing from the run)
            assert ours[q] in (0.0, None), f"seed {seed} @{depth} {q}"
        else:
            assert close(ours[q], value), f"seed {seed} @{depth} {q}: rankflavor {ours[q]} trectools {value}"
    # the mean: sum over judged run topics / number of run topics: unjudged run topics count as 0
    # (unjudged_queries=zero), judged topics missing from the run are left out (missing=skip)
    if case.run:
        assert close(their_mean, rf_mean(spec, case.qrels, case.run)), f"seed {seed} @{depth} mean"
        unjudged = [q for q in case.run if q not in case.qrels]
        if unjudged and their_mean > 0:  # (where the axis matters, the usual mean differs)
            assert not close(their_mean, rf_mean(f"{spec} unjudged_queries=skip", case.qrels, case.run))


def test_ties_are_docid_ascending_and_ideal_is_cut(tmp_path):
    case = random_case(0)
    case.qrels, case.run = {"q": {"a": 0, "b": 1, "c": 3, "e": 3, "f": 2}}, {"q": {"b": 1.0, "a": 1.0, "c": 0.5}}
    theirs, _ = trectools_ndcg(case, tmp_path, 1)
    assert math.isnan(theirs["q"])  # 'a' (grade 0) before 'b' on the tie: nothing relevant at rank 1
    assert rf_values("trectools@1", case.qrels, case.run)["q"] == 0.0
    assert rf_values("trectools@1 ties=docid_desc", case.qrels, case.run)["q"] > 0
    theirs, _ = trectools_ndcg(case, tmp_path, 3)  # IDCG cut at 3: 3 + 3/log2(3) + 2/2, not + 1/log2(5)
    assert theirs["q"] == pytest.approx(rf_values("trectools@3", case.qrels, case.run)["q"])
    assert theirs["q"] != pytest.approx(rf_values("trectools@3 ideal_depth=all", case.qrels, case.run)["q"])
