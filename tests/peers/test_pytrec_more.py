"""pytrec_eval (trec_eval 9.0.x C code) against `pytrec_eval.NAME` for gm_map, gm_bpref, infAP, G, binG, Rndcg,
ndcg_rel and utility, per query, at several relevance levels (-l), judged-only (-J: unjudged=skip) and with a run
depth (-M: run_depth), on seeded random cases (ties, unjudged docs, grade -1 in the qrels, queries missing on
either side, queries with no relevant doc).

gm_map and gm_bpref: pytrec_eval returns trec_eval's per-topic number, log(max(value, 1e-5)) (m_gm_map.c,
m_gm_bpref.c), and so does `pytrec_eval.gm_map` (rankflavor's gm_map_log), compared as it is. Their summary is
checked against trec_eval's averaging worked from pytrec_eval's per-topic logs (meas_avg.c te_calc_avg_meas_s_gm:
exp(sum / n); with -c, each missing topic adds log(MIN_GEO_MEAN) and n is the number of qrels topics).

Queries whose every judgment is negative are left out: trec_eval's form_res_rels.c keeps the previous topic's
relevance levels for them (see test_pytrec_eval.py).
"""

from __future__ import annotations

import math

import pytest
from peerdata import close, random_case, require, rf_mean, rf_values

pytrec_eval = require("pytrec_eval")

MIN_GEO_MEAN = 1e-5
GEOMETRIC = ("gm_map", "gm_bpref")
JUDGED_ONLY = {"gm_bpref"}  # passes over unjudged docs: -J changes nothing, no axis to set
NO_LEVEL = {"G", "ndcg_rel"}  # they do not read -l: pytrec_eval's value at any level is the one without rel_level


def usable(case):
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    return case


def _cut(run, depth):
    if depth is None:
        return run
    return {q: dict(list(sorted(docs.items(), key=lambda kv: -kv[1]))[:depth]) for q, docs in run.items()}


def _axes(name: str, rel_level: int, judged_only: bool) -> str:
    level = "" if name in NO_LEVEL else f" rel_level={rel_level}"
    return level + (" unjudged=skip" if judged_only and name not in JUDGED_ONLY else "")


def _compare(names, seed, rel_level, judged_only, depth, *, max_grade=3):
    case = usable(random_case(seed, max_docs=30, max_grade=max_grade))
    run = _cut(case.run, depth)
    theirs = pytrec_eval.RelevanceEvaluator(case.qrels, set(names), relevance_level=rel_level,
                                            judged_docs_only_flag=judged_only).evaluate(run)
    for name in names:
        axes = _axes(name, rel_level, judged_only)
        ours = rf_values(f"pytrec_eval.{name}{axes}", case.qrels, run)
        for q, measures in theirs.items():
            value = ours[q]
            assert value is not None, (seed, name, q)
            assert close(value, measures[name]), (
                f"seed {seed} {name}{axes} query {q}: rankflavor {value!r}, pytrec_eval {measures[name]!r}")
        assert {q for q, v in ours.items() if v is not None} == set(theirs), (seed, name)
    return case, run, theirs


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize(("rel_level", "judged_only", "depth"), [(1, False, None), (2, False, None),
                                                                  (1, True, None), (3, True, None), (1, False, 4)])
def test_geometric_means_per_query_match_pytrec_eval(seed, rel_level, judged_only, depth):
    _compare(GEOMETRIC, seed, rel_level, judged_only, depth)


OTHERS = ("infAP", "G", "binG", "Rndcg", "ndcg_rel", "utility")


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize(("rel_level", "judged_only", "depth"), [(1, False, None), (2, False, None),
                                                                  (1, True, None), (3, True, None), (1, False, 4)])
def test_infap_gain_measures_and_utility_per_query_match_pytrec_eval(seed, rel_level, judged_only, depth):
    _compare(OTHERS, seed, rel_level, judged_only, depth)


@pytest.mark.parametrize("seed", range(10))
def test_binary_labels_and_a_high_top_grade(seed):
    _compare(OTHERS + GEOMETRIC, 100 + seed, 1, False, None, max_grade=1)
    _compare(OTHERS + GEOMETRIC, 200 + seed, 4, False, None, max_grade=6)


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("complete", [False, True])
def test_geometric_mean_summary_is_trec_evals(seed, complete):
    """trec_eval's summary from pytrec_eval's per-topic logs: exp(sum / n) (meas_avg.c te_calc_avg_meas_s_gm);
    -c (missing=zero) adds log(MIN_GEO_MEAN) for each qrels topic the run lacks and divides by every topic."""
    case, run, theirs = _compare(GEOMETRIC, seed, 1, False, None)
    for name in GEOMETRIC:
        logs = [m[name] for m in theirs.values()]
        n = len(logs)
        if complete:
            logs += [math.log(MIN_GEO_MEAN)] * (len(case.qrels) - n)
            n = len(case.qrels)
        expected = math.exp(math.fsum(logs) / n) if n else None
        ours = rf_mean(f"pytrec_eval.{name}" + (" missing=zero" if complete else ""), case.qrels, run)
        if expected is None:
            assert ours is None
        else:
            assert ours is not None and math.isclose(ours, expected, rel_tol=1e-12), (seed, name, ours, expected)


def test_trec_format_prints_no_per_query_line_for_a_geometric_mean():
    """trec_eval -q prints gm_map and gm_bpref in the summary only (te_print_single_meas_empty)."""
    import io

    import rankflavor as rf
    from rankflavor.cli.trec_output import write_trec

    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1}}
    run = {"q1": {"a": 1.0, "b": 2.0}, "q2": {"x": 1.0}}
    out = io.StringIO()
    write_trec(rf.evaluate(qrels, run, ["trec_eval.gm_map", "trec_eval.map"]), out, per_query=True)
    lines = [line.split("\t") for line in out.getvalue().splitlines()]
    assert [(n.strip(), q) for n, q, _ in lines] == [("map", "q1"), ("map", "q2"), ("gm_map", "all"), ("map", "all")]
    assert float(lines[2][2]) == round(math.exp((math.log(0.5) + math.log(MIN_GEO_MEAN)) / 2), 4)
