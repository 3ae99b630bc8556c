"""The C/W/L family (metrics/cwl.py) against its reference (reference/cwl.py) and against values worked by hand
from the framework's definitions (Moffat et al., TOIS 2017: W(i) = prod_{j<i} C(j) / sum_r prod_{j<r} C(j),
L(i) = prod_{j<i} C(j) (1 - C(i))); the `cwl_eval.` names (dialects/cwl_eval.py). The live comparison with
cwl_eval itself is tests/peers/test_cwl_eval.py."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor import SpecError, registry
from rankflavor.dialects.lookup import peer_measure
from strategies import flavors, qrels_and_run
from test_engine_vs_reference import check

CWL = [name for name in registry.names() if name.startswith("cwl_")]


def values(qrels, run, spec):
    return {row["query"]: row for row in rf.evaluate(qrels, run, spec).results[0].per_query()}


def test_the_family_is_registered():
    assert {"cwl_p", "cwl_sdcg", "cwl_rbp", "cwl_rr", "cwl_ap", "cwl_inst", "cwl_insq", "cwl_bpm", "cwl_bpm_dynamic",
            "cwl_nerr8", "cwl_nerr9", "cwl_nerr10", "cwl_nerr11", "cwl_npv", "cwl_set", "cwl_tbg",
            "cwl_umeasure"} <= set(CWL)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(qrels_and_run(), st.sampled_from(CWL).flatmap(lambda name: flavors(metric=name)))
def test_cwl_measures_match_the_reference(data, flavor):
    qrels, run = data
    report = check(qrels, run, flavor)
    if report is not None:
        assert report.verify() == []


def test_rbp_worked_by_hand():
    """theta = 0.5 over D = 3 ranks, gains 1, 0, 1: reach E = 1, 1/2, 1/4 (sum 7/4), W = 4/7, 2/7, 1/7;
    stop L = E (1 - 1/2) = 1/2, 1/4, 1/8. EU = 5/7, ETU = 1/2 + 1/4 + 2/8 = 1, EC = 1, ETC = 1/2 + 2/4 + 3/8,
    ED = 7/4; the upper bound is the same (nothing unjudged, no padding): every residual 0."""
    qrels = {"q": {"a": 1, "b": 0, "c": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    row = values(qrels, run, "cwl_rbp(theta=0.5, depth=3)")["q"]
    expected = {"eu": 5 / 7, "etu": 1.0, "ec": 1.0, "etc": 1.375, "ed": 1.75}
    for name, value in expected.items():
        assert math.isclose(row[name], value, rel_tol=1e-12), name
        assert abs(row[f"res_{name}"]) < 1e-12
    assert math.isclose(row["value"], 5 / 7, rel_tol=1e-12)


def test_residual_worked_by_hand():
    """P@2 with rank 2 unjudged: lower bound gains 1, 0 (EU 1/2), upper 1, max_gain=1 (EU 1): ResEU 1/2, and
    ResETU = 1 (L(2) = 1 over the cumulated gain 2 against 1)."""
    row = values({"q": {"a": 1}}, {"q": {"a": 2.0, "x": 1.0}}, "cwl_p@2")["q"]
    assert math.isclose(row["value"], 0.5) and math.isclose(row["res_eu"], 0.5) and math.isclose(row["res_etu"], 1.0)


def test_inst_worked_by_hand():
    """INST with T = 1 and one doc of gain 1 at rank 1, D = 2: C(1) = ((1 + 1 + 0 - 1) / (1 + 1 + 0))^2 = 1/4,
    so W = 1/(1 + 1/4), 1/4 / (5/4): EU = 4/5."""
    row = values({"q": {"a": 1}}, {"q": {"a": 2.0, "b": 1.0}}, "cwl_inst(T=1, depth=2)")["q"]
    assert math.isclose(row["value"], 0.8, rel_tol=1e-12)


def test_cwl_eval_names_resolve():
    etu = peer_measure("cwl_eval.ETU.RBP@0.8")
    assert (etu.metric, etu.params["theta"], etu.params["of"]) == ("cwl_rbp", "0.8", "etu")
    assert etu.axes["ties"] == "input" and etu.axes["negative"] == "error"
    p = peer_measure("cwl_eval.PrecisionCWLMetric(5)")
    assert (p.metric, p.cutoff) == ("cwl_p", 5)
    bpm = peer_measure("cwl_eval.ResED.BPMCWLMetric(2.0,5)")
    assert (bpm.params["T"], bpm.params["K"], bpm.params["of"]) == ("2.0", "5", "res_ed")
    assert peer_measure("cwl_eval.NERR-EQ8@k=3").cutoff == 3
    assert peer_measure("cwl_eval.RBPCWLMetric()").params == {"of": "eu"}
    assert peer_measure("cwl_eval.NoSuchCWLMetric(1)") is None


@pytest.mark.parametrize("spec", ["cwl_eval.NDCGCWLMetric()", "cwl_eval.RBPCWLMetric(x)", "cwl_eval.P@0"])
def test_cwl_eval_names_cwl_eval_refuses(spec):
    with pytest.raises(SpecError):
        rf.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, spec)


def test_grades_outside_the_gain_range_are_refused():
    with pytest.raises(rf.EvaluationError, match="max_gain"):
        rf.evaluate({"q": {"a": 2}}, {"q": {"a": 1.0}}, "cwl_rbp")
    assert values({"q": {"a": 2}}, {"q": {"a": 1.0}}, "cwl_rbp(max_gain=2)")["q"]["value"] > 0
    with pytest.raises(SpecError):
        rf.Flavor.parse("cwl_inst(max_gain=2)")


def test_a_record_shows_the_weights_and_a_changed_one_is_caught():
    qrels, run = {"q": {"a": 1, "b": 0.5}}, {"q": {"a": 1.0, "b": 2.0, "x": 0.5}}
    report = rf.evaluate(qrels, run, "cwl_ap")
    record = report.explain(None, "q", "cwl_ap")
    assert [row["doc"] for row in record.ranked] == ["b", "a", "x"]
    assert [row["gain"] for row in record.ranked] == [0.5, 1.0, 0.0]
    assert record.ranked[0]["weight"] > record.ranked[1]["weight"] > 0 and record.ranked[2]["weight"] == 0
    assert report.verify() == [] and registry.get("cwl_ap").check_record(record, rf.Flavor.parse(record.flavor)) == []
    record.value += 0.01
    assert registry.get("cwl_ap").check_record(record, rf.Flavor.parse(record.flavor))
