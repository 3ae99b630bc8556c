"""Issue 24 item 4: presets exact against the installed peers, on random cases (tied scores, graded and negative
grades, unjudged docs, queries on one side only: peerdata.random_case), each number compared with ==.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peerdata import random_case, require, rf_mean, rf_values

SEEDS = st.integers(0, 2**32 - 1)
DROPIN = Path(__file__).resolve().parents[1] / "dropin"


@settings(max_examples=40)
@given(seed=SEEDS, beta=st.sampled_from([2.0, 3.0, 0.5, 1.0, 5.0]))
def test_set_f_is_exactly_ir_measures(seed, beta):
    """SetF(beta=b) is trec_eval's set_F.b, (b + 1) P R / (b P + R) (m_set_F.c): beta² = b, not sqrt(b)²."""
    ir_measures = require("ir_measures")
    case = random_case(seed)
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    measure = ir_measures.SetF(rel=1, beta=beta)
    provider = ir_measures.providers.registry["pytrec_eval"]
    theirs = {m.query_id: m.value for m in provider.iter_calc([measure], case.qrels, case.run)}
    ours = rf_values(f"ir_measures.{measure}", case.qrels, case.run)
    assert {q: ours[q] for q in theirs} == theirs


def test_set_f_beta_squared_example():
    """P = 1/2, R = 1/2 over one list: F with beta² = 2 is 3 (1/4) / (3/2) = 0.5 exactly."""
    qrels, run = {"q": {"a": 1, "b": 1, "c": 0}}, {"q": {"a": 2.0, "x": 1.0}}
    assert rf_values("ir_measures.SetF(rel=1,beta=2.0)", qrels, run) == {"q": 0.5}
    assert rf_values("f(beta=sqrt(2))", qrels, run) == {"q": 0.5}
    assert rf_values("f(beta=sqrt(0))", qrels, run) == {"q": 0.5}  # (trec_eval's set_F.0: (0 + 1) P R / R = P)
    with pytest.raises(Exception, match="beta"):
        rf_values("f(beta=0)", qrels, run)


@settings(max_examples=40)
@given(seed=SEEDS, judged_only=st.booleans(), rel_level=st.sampled_from([1, 2]))
def test_gm_per_query_and_mean_are_pytrec_evals(seed, judged_only, rel_level):
    """pytrec_eval's gm_map / gm_bpref per query are log(max(value, 1e-5)) (m_gm_map.c), compared exactly; its
    mean is compute_aggregated_measure's exp(sum / n) (the same logs, summed in another order: 1e-12)."""
    pytrec_eval = require("pytrec_eval")
    case = random_case(seed, max_docs=20)
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    names = ("gm_map", "gm_bpref")
    theirs = pytrec_eval.RelevanceEvaluator(case.qrels, set(names), relevance_level=rel_level,
                                            judged_docs_only_flag=judged_only).evaluate(case.run)
    for name in names:
        axes = f" rel_level={rel_level}" + (" unjudged=skip" if judged_only and name == "gm_map" else "")
        ours = rf_values(f"pytrec_eval.{name}{axes}", case.qrels, case.run)
        assert {q: v for q, v in ours.items() if v is not None} == {q: m[name] for q, m in theirs.items()}
        if theirs:
            mean = pytrec_eval.compute_aggregated_measure(name, [m[name] for m in theirs.values()])
            assert math.isclose(rf_mean(f"pytrec_eval.{name}{axes}", case.qrels, case.run), mean, rel_tol=1e-12)


@settings(max_examples=40)
@given(seed=SEEDS, rel_level=st.sampled_from([1, 2]))
def test_num_q_and_num_rel_are_pytrec_evals(seed, rel_level):
    """pytrec_eval's num_q (1 per query with results and judgments) and num_rel, per query and summed."""
    pytrec_eval = require("pytrec_eval")
    case = random_case(seed)
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    theirs = pytrec_eval.RelevanceEvaluator(case.qrels, {"num_q", "num_rel"},
                                            relevance_level=rel_level).evaluate(case.run)
    for name in ("num_q", "num_rel"):
        spec = f"pytrec_eval.{name} rel_level={rel_level}"
        ours = rf_values(spec, case.qrels, case.run)
        assert {q: v for q, v in ours.items() if v is not None} == {q: m[name] for q, m in theirs.items()}
        if theirs:
            assert rf_mean(spec, case.qrels, case.run) == sum(m[name] for m in theirs.values())


def _c_lines(name: str) -> dict[tuple[str, str], str]:
    """(measure, query) -> value of a C trec_eval 10.0 output of tests/dropin (c_outputs/trec, record_c.py)."""
    text = (DROPIN / "c_outputs" / "trec" / f"{name}.out").read_text()
    return {(m.strip(), q): v for m, q, v in (line.split("\t") for line in text.splitlines())}


def test_num_q_under_missing_zero_is_c_trec_evals():
    """trec_eval -q -c (missing_c: graded.qrels, missing.run lacks queries 5 and 10): a qrels query absent from
    the run counts in num_q (trec_eval.c's bogus ranking). Its num_rel (trec_eval prints its R) is not checked:
    rankflavor's missing=zero gives it 0, as ir_measures does (see the report of issue 24)."""
    import rankflavor as rf

    printed = _c_lines("missing_c")
    qrels, run = DROPIN / "inputs" / "graded.qrels", DROPIN / "inputs" / "missing.run"
    report = rf.evaluate(str(qrels), str(run), ["trec_eval.num_rel missing=zero", "trec_eval.num_q missing=zero"])
    num_rel, num_q = report.results
    assert {row["query"] for row in num_rel.per_query()} == {q for m, q in printed if m == "num_rel" and q != "all"}
    assert num_q.mean == float(printed["num_q", "all"])


def _ranx_scores(ranx, qrels, run, metric: str, make_comparable: bool, passes: int = 1) -> dict[str, float]:
    """ranx's per-query scores of one Run object evaluated `passes` times (the last call's scores)."""
    import warnings

    the_run = ranx.Run({q: dict(docs) for q, docs in run.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's uint64 -> int64 hash cast warning
        for _ in range(passes):
            ranx.evaluate(ranx.Qrels(qrels), the_run, metric, make_comparable=make_comparable)
    return dict(the_run.scores[metric])


@settings(max_examples=30)
@given(seed=SEEDS, cut=st.sampled_from(["", "@5", "@10"]), burges=st.booleans())
def test_ranx_preset_is_the_default_call_and_make_comparable_the_other(seed, cut, burges):
    """evaluate(qrels, run, metric) sorts a fresh Run once (ties=quicksort(1)); make_comparable=True sorts it
    again (quicksort(2)). The plain call needs one query set: the case keeps the queries on both sides."""
    ranx = require("ranx")
    case = random_case(seed, max_docs=60)
    both = [q for q in case.run if q in case.qrels and any(g >= 1 for g in case.qrels[q].values())]
    if not both:
        return
    qrels, run = {q: case.qrels[q] for q in both}, {q: case.run[q] for q in both}
    metric, preset = ("ndcg_burges", "ranx.burges") if burges else ("ndcg", "ranx")
    assert rf_values(preset + cut, qrels, run) == pytest.approx(_ranx_scores(ranx, qrels, run, metric + cut, False),
                                                                 rel=1e-12, abs=1e-12)
    comparable = rf_values(f"{preset}.make_comparable{cut}", qrels, run)
    assert comparable == pytest.approx(_ranx_scores(ranx, qrels, run, metric + cut, True), rel=1e-12, abs=1e-12)


def test_a_reused_run_object_drifts_one_sort_per_make_comparable_call():
    """Each evaluate(..., make_comparable=True) of one Run object sorts it once more: call n is ties=quicksort(n+1)."""
    ranx = require("ranx")
    drifted = 0
    for seed in range(6):
        case = random_case(seed, max_docs=60)
        values = []
        for calls in (1, 2, 3):
            theirs = _ranx_scores(ranx, case.qrels, case.run, "ndcg", True, passes=calls)
            ours = rf_values(f"ranx.make_comparable ties=quicksort({calls + 1})", case.qrels, case.run)
            assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-12), (seed, calls)
            values.append(ours)
        drifted += values[0] != values[1] or values[1] != values[2]
    assert drifted  # (the drift shows on these cases)


@settings(max_examples=40)
@given(seed=SEEDS, level=st.sampled_from([1, 2]), queries=st.integers(3, 20))
def test_ranx_bpref_is_ranx_with_its_departures(seed, level, queries):
    """ranx.make_comparable.bpref per query (ranx's call with make_comparable=True: the query sets differ), which
    gives ranx's 0.0 for the first query with R = 0 in sorted id order and every query after it, with
    dialects/ranx.py bpref_departures (N = 0 with a relevant doc ranked: nan), is ranx 0.3.21's bpref."""
    ranx = require("ranx")
    from rankflavor.dialects.ranx import bpref_departures

    case = random_case(seed, max_docs=30)
    rng = random.Random(seed)
    extra = {f"z{i:02d}": {f"d{j}": rng.choice([0, 1, 2, 3]) for j in range(rng.randint(1, 4))} for i in range(queries)}
    qrels = {**case.qrels, **extra}
    run = {**case.run, **{q: {f"d{j}": float(rng.choice([1, 2])) for j in range(5)} for q in extra}}
    name = "bpref" if level == 1 else f"bpref-l{level}"
    theirs = _ranx_scores(ranx, qrels, run, name, True)
    ours = {**rf_values(f"ranx.make_comparable.{name}", qrels, run),
            **{q: v for q, v in bpref_departures(qrels, run, level).items() if math.isnan(v)}}
    assert set(ours) == set(theirs)
    for q, value in theirs.items():
        assert (math.isnan(value) and math.isnan(ours[q])) or ours[q] == pytest.approx(value, abs=1e-12), (q, value)


def test_trec_eval_drop_in_reads_set_f_parameter_as_beta_squared(capsys):
    """`rankflavor trec_eval -m set_F.2` is (2 + 1) P R / (2 P + R) per query (m_set_F.c), as pytrec_eval's set_F.2."""
    pytrec_eval = require("pytrec_eval")
    from rankflavor.cli.main import main

    qrels_path, run_path = DROPIN / "inputs" / "graded.qrels", DROPIN / "inputs" / "full.run"
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for line in qrels_path.read_text().splitlines():
        if line and not line.startswith("#"):
            q, _, d, g = line.split()[:4]
            qrels.setdefault(q, {})[d] = int(g)
    for line in run_path.read_text().splitlines():
        if line and not line.startswith("#"):
            q, _, d, _, s = line.split()[:5]
            run.setdefault(q, {})[d] = float(s)
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"set_F.2"}).evaluate(run)
    main(["trec_eval", "-q", "-m", "set_F.2", str(qrels_path), str(run_path)])
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    printed = {q: v for _, q, v in lines if q != "all"}
    assert printed == {q: f"{m['set_F']:.4f}" for q, m in theirs.items()}
