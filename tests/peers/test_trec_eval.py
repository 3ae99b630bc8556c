"""trec_eval 10.0 (not installable here: pytrec_eval bundles the 9.0.x code) as golden cases from its source.

usnistgov/trec_eval at the 10.0 tag: form_res_rels.c (sorts by sim, a double since 10.0 in trec_format.h,
then docno descending; cuts the list at -M max_num_docs_per_topic; only then, under -J, drops every doc
whose rel is < 0, i.e. not in the qrels or judged negative, and renumbers), m_ndcg_cut.c, m_ndcg_p.c.
"""

from __future__ import annotations

import math

import pytest
from peerdata import rf_values

D = [0.0] + [1 / math.log2(i + 1) for i in range(1, 12)]  # D[i] = 1/log2(i+1)


def test_scores_are_compared_in_double():
    """sim 1.0 + 1e-9 > 1.0 in double: 'a' (grade 0) first, 'b' (grade 2) second (pytrec_eval: the reverse)."""
    qrels, run = {"q": {"a": 0, "b": 2}}, {"q": {"a": 1.0 + 1e-9, "b": 1.0}}
    assert rf_values("trec_eval@2", qrels, run)["q"] == pytest.approx(2 * D[2] / (2 * D[1]))
    assert rf_values("trec_eval@1", qrels, run)["q"] == 0.0


def test_equal_scores_fall_back_to_docno_descending():
    qrels, run = {"q": {"d1": 1, "d2": 0}}, {"q": {"d1": 1.0, "d2": 1.0}}
    assert rf_values("trec_eval@1", qrels, run)["q"] == 0.0  # strcmp("d2", "d1") > 0: d2 first


def test_minus_m_cuts_before_minus_j_removes_unjudged():
    """-M 2 -J: sorted u, a, c; -M keeps u, a; -J drops u: a alone at rank 1. DCG 1, IDCG@2 1 + D(2)."""
    qrels, run = {"q": {"a": 1, "c": 1}}, {"q": {"u": 3.0, "a": 2.0, "c": 1.0}}
    value = rf_values("trec_eval@2 run_depth=2 unjudged=skip", qrels, run)["q"]
    assert value == pytest.approx(1 / (1 + D[2]))
    assert value != pytest.approx(1.0)  # what -J before -M would give (a, c both kept)


def test_negative_grades_are_unjudged_in_pool():
    """rel < 0: gain 0, left out of rel_levels (the IDCG), and removed with the unjudged docs under -J."""
    qrels, run = {"q": {"n": -1, "a": 1}}, {"q": {"n": 2.0, "a": 1.0}}
    assert rf_values("trec_eval@5", qrels, run)["q"] == pytest.approx(D[2] / D[1])
    assert rf_values("trec_eval@5 unjudged=skip", qrels, run)["q"] == pytest.approx(1.0)


def test_ndcg_is_uncut_and_ideal_over_all_judged():
    qrels, run = {"q": {"a": 2, "b": 1, "c": 3}}, {"q": {"a": 3.0, "x": 2.0, "c": 1.0}}
    dcg = 2 * D[1] + 3 * D[3]
    idcg = 3 * D[1] + 2 * D[2] + 1 * D[3]
    assert rf_values("trec_eval.ndcg", qrels, run)["q"] == pytest.approx(dcg / idcg)


def test_ndcg_p_discounts_rank_one_by_one_then_log2_i():
    """m_ndcg_p.c: gain at rank 1 undiscounted, rank i > 1 divided by log2(i); ideal likewise, uncut."""
    qrels, run = {"q": {"a": 2, "b": 1, "c": 3}}, {"q": {"a": 3.0, "x": 2.0, "c": 1.0}}
    dcg = 2 + 0 + 3 / math.log2(3)
    idcg = 3 + 2 / math.log2(2) + 1 / math.log2(3)
    assert rf_values("trec_eval.ndcg_p", qrels, run)["q"] == pytest.approx(dcg / idcg)
    # no relevant doc retrieved: the value is never set and stays 0
    assert rf_values("trec_eval.ndcg_p", qrels, {"q": {"x": 1.0}})["q"] == 0.0


def test_default_cutoffs_print_like_trec_eval():
    from rankflavor import parse_spec

    assert [f.cutoff for f in parse_spec("trec_eval")] == [5, 10, 15, 20, 30, 100, 200, 500, 1000]
