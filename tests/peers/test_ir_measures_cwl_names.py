"""ir_measures 0.4.3's C/W/L names (INST, INSQ, BPM, SDCG, NERR8..11, AP@cwl_eval) against ir_measures' cwl_eval
provider itself (`ir_measures.cwl_eval.iter_calc` / `calc_aggregate`), per query and mean, on peerdata's random
cases: grades 0..4 and -1, unjudged docs, tied scores (and float32 twins), queries on one side only; each measure
with its defaults and with other T, p, cutoffs, min_rel and max_rel (grades above max_rel and below min_rel).
"""

from __future__ import annotations

import pytest
from peerdata import close, random_case, require

import rankflavor as rf
from rankflavor.flavor import parse_spec

ir_measures = require("ir_measures")
pytest.importorskip("cwl")

NAMES = [
    "INST(max_rel=4)", "INST(T=2.0,max_rel=3)", "INST(T=0.5,min_rel=1,max_rel=3)",
    "INSQ(max_rel=4)", "INSQ(T=2.5,min_rel=1,max_rel=2)",
    "BPM(max_rel=4)@10", "BPM(T=2.0,max_rel=3)@5", "BPM(T=0.5,min_rel=2,max_rel=4)@3",
    "SDCG(max_rel=4)@10", "SDCG(min_rel=1,max_rel=3)@5",
    "NERR8(max_rel=4)@10", "NERR8(min_rel=1,max_rel=2)@3",
    "NERR9(max_rel=4)@10", "NERR9(min_rel=2,max_rel=3)@5",
    "NERR10(max_rel=4)", "NERR10(p=0.5,min_rel=1,max_rel=3)",
    "NERR11(max_rel=4)", "NERR11(T=2.0,min_rel=1,max_rel=4)",
    "AP@cwl_eval", "AP(rel=2)@cwl_eval", "AP(rel=0)@cwl_eval",
]
SEEDS = range(12)


def theirs(name: str, qrels, run) -> tuple[dict[str, float], float]:
    """ir_measures' cwl_eval provider's per-query values and mean of `name` (its `@cwl_eval` dropped)."""
    measure = ir_measures.parse_measure(name.removesuffix("@cwl_eval"))
    per_query = {m.query_id: float(m.value) for m in ir_measures.cwl_eval.iter_calc([measure], qrels, run)}
    return per_query, float(ir_measures.cwl_eval.calc_aggregate([measure], qrels, run)[measure])


def agree(name: str, qrels, run, label: str) -> int:
    expected, mean = theirs(name, qrels, run)
    result = rf.evaluate(qrels, run, f"ir_measures.{name}").results[0]
    got = {row["query"]: row["value"] for row in result.per_query()}
    assert {q for q, v in got.items() if v is not None} == set(expected), (label, name, got, expected)
    for q, value in expected.items():
        assert close(got[q], value), f"{label} {name} {q}: rankflavor {got[q]!r}, ir_measures {value!r}"
    assert close(result.mean, mean), f"{label} {name} mean: rankflavor {result.mean!r}, ir_measures {mean!r}"
    return len(expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_cwl_names_match_ir_measures_cwl_eval(seed):
    case = random_case(seed, max_docs=15, max_grade=4)
    assert sum(agree(name, case.qrels, case.run, f"seed {seed}") for name in NAMES) > 0


def test_deep_lists_are_read_to_1000_ranks():
    """RankingMaker(max_n=1000): ranks past 1000 are not read, a shorter list padded with gain 0."""
    qrels = {"q1": {f"d{i}": (i * 7) % 5 - (i % 11 == 0) for i in range(0, 1200, 3)}, "q2": {"d1": 2, "d999": 4}}
    run = {"q1": {f"d{i}": float(-i // 2) for i in range(1200)}, "q2": {f"d{i}": 1.0 / (i + 1) for i in range(1005)}}
    for name in ("INST(T=3.0,max_rel=4)", "NERR10(p=0.99,max_rel=3)", "AP@cwl_eval", "INSQ(T=5.0,min_rel=1,max_rel=4)"):
        assert agree(name, qrels, run, "deep") == 2


def test_grades_are_mapped_as_ir_measures_maps_them():
    """max(grade, 0), then clipped to [min_rel, max_rel] and scaled (or, for AP, binary at rel): the flavor says
    so in its `grades` parameter."""
    assert parse_spec("ir_measures.INST(T=2.0,min_rel=1,max_rel=3)") == parse_spec(
        "cwl_inst(T=2,grades=1:3) ties=input negative=zero missing=zero run_depth=1000")
    assert parse_spec("ir_measures.BPM(max_rel=3)@10") == parse_spec(
        "cwl_bpm(T=1,K=10,grades=0:3) ties=input negative=zero missing=zero run_depth=1000")
    assert parse_spec("ir_measures.AP(rel=2)@cwl_eval") == parse_spec(
        "cwl_ap(grades=rel(2)) ties=input negative=zero missing=zero run_depth=1000")
    assert parse_spec("ir_measures.SDCG(max_rel=3)@5") == parse_spec(
        "cwl_sdcg(grades=0:3)@5 ties=input negative=zero missing=zero run_depth=1000")
    for flavor in parse_spec("ir_measures.NERR10(p=0.5,max_rel=2)") + parse_spec("ir_measures.AP(rel=0)@cwl_eval"):
        assert parse_spec(str(flavor)) == [flavor]
    # a grade above MAX has gain 1, one below MIN (or negative) 0
    qrels, run = {"q": {"a": 4, "b": -1, "c": 1, "d": 2}}, {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}
    report = rf.evaluate(qrels, run, "cwl_p(grades=1:3)@4 negative=zero")
    record = report.explain(None, "q", "cwl_p(grades=1:3)@4 negative=zero")
    assert [row["gain"] for row in record.ranked] == [1.0, 0.0, 0.0, 0.5]
    assert record.value == pytest.approx(1.5 / 4)
    assert report.verify() == []


@pytest.mark.parametrize(("spec", "fragment"), [
    ("ir_measures.INST", "requires max_rel"),
    ("ir_measures.INST(T=1,max_rel=3)", "write 1.0"),
    ("ir_measures.INST(min_rel=3,max_rel=3)", "min_rel < max_rel"),
    ("ir_measures.SDCG(max_rel=3)", "requires cutoff"),
    ("ir_measures.AP(rel=1)@5@cwl_eval", "does not compute AP"),
    ("ir_measures.AP(judged_only=True)@cwl_eval", "does not compute AP"),
    ("ir_measures.INST(max_rel=3)@pytrec_eval", "providers that do: cwl_eval"),
    ("cwl_inst(grades=3:1)", "MIN must be below MAX"),
    ("cwl_inst(grades=0:3,max_gain=0.5)", "max_gain must be at least 1"),
    ("cwl_inst(grades=x)", "rel(N)"),
])
def test_cwl_refusals_say_why(spec, fragment):
    with pytest.raises(rf.SpecError) as info:
        parse_spec(spec)
    assert fragment in str(info.value)


@pytest.mark.parametrize("seed", range(3))
def test_rankflavor_provider_computes_them_as_cwl_eval(seed):
    """rankflavor's ir_measures provider (rankflavor.ir_measures) now supports these measures: its values equal
    ir_measures' cwl_eval provider's, per query and in aggregate."""
    import rankflavor.ir_measures as rim

    case = random_case(seed, max_docs=15, max_grade=4)
    measures = [ir_measures.parse_measure(n) for n in NAMES if not n.startswith("AP")]
    assert all(rim.provider.supports(m) for m in measures)
    ours = {(m.measure, m.query_id): m.value for m in rim.provider.iter_calc(measures, case.qrels, case.run)}
    expected = {(m.measure, m.query_id): m.value
                for m in ir_measures.cwl_eval.iter_calc(measures, case.qrels, case.run)}
    assert set(ours) == set(expected)
    assert all(close(ours[key], value) for key, value in expected.items())
    got = rim.provider.calc_aggregate(measures, case.qrels, case.run)
    for measure, value in ir_measures.cwl_eval.calc_aggregate(measures, case.qrels, case.run).items():
        assert close(got[measure], value), measure
