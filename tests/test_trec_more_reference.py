"""gm_map, gm_bpref, infap, g, bin_g, rndcg, ndcg_rel and utility: the engine against the reference (transliterated
from trec_eval's loops: reference/binary.py, reference/trec_gains.py) on more random cases than the shared test
gives each metric, every axis they read drawn; and records verify."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import flavors, qrels_and_run
from test_engine_vs_reference import check

NEW = ["gm_map", "gm_bpref", "infap", "g", "bin_g", "rndcg", "ndcg_rel", "utility"]


@settings(max_examples=400, deadline=None)
@given(qrels_and_run(), st.sampled_from(NEW).flatmap(lambda name: flavors(metric=name)))
def test_trec_measures_match_the_reference(data, flavor):
    qrels, run = data
    report = check(qrels, run, flavor)
    if report is not None:
        assert report.verify() == []
