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


# m_iprec_at_recall.c and m_11pt_avg.c (10.0): c = lround(level·R); 9.0.x (pytrec_eval): (long)(level·R + 0.9).
# R = 3; ranked a (rel), b, c, d (rel), x (unjudged), e (rel): P@1 = 1, P@4 = 2/4, P@6 = 3/6.
IPREC_QRELS = {"q": {"a": 1, "b": 0, "c": 0, "d": 1, "e": 1}}
IPREC_RUN = {"q": {"a": 6.0, "b": 5.0, "c": 4.0, "d": 3.0, "x": 2.0, "e": 1.0}}


@pytest.mark.parametrize(("name", "value"), [
    ("iprec_at_recall_0.00", 1.0),  # c = 0: the max over the whole list
    ("iprec_at_recall_0.40", 1.0),  # 0.4·3 = 1.2: lround 1 (9.0.x: (long)2.1 = 2, giving 0.5)
    ("iprec_at_recall_0.50", 0.5),  # 1.5: lround 2: max(P@4, P@6)
    ("iprec_at_recall_1.00", 0.5),  # 3: P@6
    # counts per level 0, .1, ..., 1 (in double: 0.7·3 = 2.0999999999999996): 0 0 1 1 1 2 2 2 2 3 3
    ("11pt_avg", (5 * 1.0 + 6 * 0.5) / 11),
    ("Rprec_mult_0.20", 1.0),  # c = (long)(0.6 + 0.9) = 1: P@1
    ("Rprec_mult_1.00", 1 / 3),  # c = 3: P@3
    ("Rprec_mult_2.00", 3 / 6),  # c = (long)6.9 = 6: P@6
    ("Rprec_mult_3.00", 3 / 9),  # c = 9, beyond the list: num_rel_ret / c
])
def test_recall_levels_round_to_nearest_in_10(name, value):
    assert rf_values(f"trec_eval.{name}", IPREC_QRELS, IPREC_RUN)["q"] == pytest.approx(value, abs=1e-12)


def test_pytrec_eval_counts_recall_levels_as_9_did():
    """9.0.x adds 0.9 and truncates: 0.4 stands for 2 relevant docs, 11pt_avg's counts are 0 1 1 1 2 2 2 2 3 3 3."""
    assert rf_values("pytrec_eval.iprec_at_recall_0.40", IPREC_QRELS, IPREC_RUN)["q"] == 0.5
    assert rf_values("pytrec_eval.11pt_avg", IPREC_QRELS, IPREC_RUN)["q"] == pytest.approx((4 + 7 * 0.5) / 11)


# m_rbp.c, m_rbp_resid.c (10.0 only): p = 0.9; the gains of a query whose top grade exceeds 1 are divided by it;
# rel < 0 (not in the qrels, or a negative grade: RELVALUE_UNJUDGED) gains 0 and counts for the residual.
RBP_QRELS = {"q": {"a": 2, "b": 0, "c": 1, "n": -1}, "bin": {"a": 1, "b": 0}}
RBP_RUN = {"q": {"a": 5.0, "x": 4.0, "c": 3.0, "n": 2.0, "b": 1.0}, "bin": {"b": 2.0, "a": 1.0}}


def test_rbp_divides_the_gains_by_the_top_grade():
    values = rf_values("trec_eval.rbp", RBP_QRELS, RBP_RUN)
    assert values["q"] == pytest.approx(0.1 * (1.0 + 0.5 * 0.9 ** 2), abs=1e-15)  # a: 2/2 at rank 1, c: 1/2 at 3
    assert values["bin"] == pytest.approx(0.1 * 0.9, abs=1e-15)  # top grade 1: gains as they are


def test_rbp_resid_is_zero_without_an_unjudged_doc():
    values = rf_values("trec_eval.rbp_resid", RBP_QRELS, RBP_RUN)
    # x (rank 2) and n (rank 4) unjudged: p^5 past the list + 0.1 (0.9 + 0.9^3)
    assert values["q"] == pytest.approx(0.9 ** 5 + 0.1 * (0.9 + 0.9 ** 3), abs=1e-15)
    assert values["bin"] == 0.0  # (m_rbp_resid.c sets a value only when unj_so_far > 0)


def test_unj_fills_a_short_list_with_judged_docs():
    values = rf_values("trec_eval.unj_10", RBP_QRELS, RBP_RUN)
    assert values["q"] == pytest.approx(2 / 10) and values["bin"] == 0.0  # x and n (negative) of 10
