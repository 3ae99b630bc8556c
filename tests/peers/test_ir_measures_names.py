"""`ir_measures.NAME` (dialects/ir_measures.py) against ir_measures 0.4.3 itself, per query, and how the
names parse.

ir_measures is called as users call it: `ir_measures.iter_calc(measures, qrels, run)` (its DefaultPipeline picks
the provider: pytrec_eval, msmarco for RR@k, judged, gdeval, cwl_eval for RBP), one call per case for every name
of a group. The cases (peerdata.random_case) hold tied scores, scores equal only in float32, unjudged docs,
grades -1 to 3 or 0/1, queries with no relevant doc and queries missing on either side; gdeval's names run on
numeric topic ids (gdeval.pl refuses others).
"""

from __future__ import annotations

import math
import shutil

import pytest
from peerdata import close, random_case, require

import rankflavor as rf
from rankflavor import Flavor, SpecError, registry
from rankflavor.dialects import ir_measures as ir_measures_names
from rankflavor.flavor import parse_spec
from rankflavor.flavor.axes import AXES

ir_measures = require("ir_measures")

SEEDS = range(25)
# names the pytrec_eval provider computes, asked in groups that ir_measures computes as it computes each name alone:
# its pytrec_eval provider puts a plain nDCG, NumRet and NumQ into the first pytrec_eval invocation it built
# (providers/pytrec_eval_provider.py), which may be one with judged_only=True (-J) or with gains
PYTREC = ["P@1", "P@5", "P(rel=2)@5", "Precision@10", "RR", "RR(rel=2)", "AP", "AP@5", "AP(rel=2)@100",
          "MAP(rel=3)", "R@1", "R@5", "R(rel=2)@100", "Success@1", "Success@5", "Success(rel=2)@3", "Rprec",
          "Rprec(rel=2)", "Bpref", "Bpref(rel=2)", "IPrec@0.0", "IPrec@0.1", "IPrec@0.5", "IPrec@0.33", "IPrec@0.125",
          "IPrec(rel=2)@0.2", "IPrec@1.0", "SetP", "SetP(rel=2)", "SetRelP", "SetP(relative=True,rel=2)", "SetR",
          "SetR(rel=2)", "SetF", "SetF(beta=0.5)", "SetF(beta=2.0,rel=2)", "SetAP", "SetAP(rel=2)", "NumRet",
          "NumRet(rel=2)", "NumRelRet", "NumRel", "nDCG@1", "nDCG@5", "nDCG@20", "NDCG@3"]
JUDGED_ONLY = ["P(judged_only=True)@5", "RR(judged_only=True)", "AP(judged_only=True)", "R(judged_only=True)@5",
               "Success(judged_only=True)@3", "Rprec(judged_only=True)", "IPrec(judged_only=True)@0.7",
               "SetP(judged_only=True)", "SetF(judged_only=True)", "SetAP(judged_only=True)",
               "nDCG(judged_only=True)@5"]
GAINS = ["nDCG(gains={2:5,3:11})@5", "nDCG(gains={0:1,1:0})@3"]
# uncut nDCG: trec_eval 9's ndcg loops on a topic whose every judgment is negative (tests/peers/test_ir_measures.py)
UNCUT_NDCG = [["nDCG"], ["nDCG(judged_only=True)"], ["nDCG(gains={1:2,2:5})"]]
OTHERS = ["RR@1", "RR@3", "RR(rel=2)@5", "MRR(rel=0)@10", "Judged", "Judged@1", "Judged@5", "Judged@100",
          "RBP(rel=1)", "RBP(p=0.5,rel=1)", "RBP(p=0.95,rel=2)", "RBP(p=0.9,rel=3)"]
GDEVAL = ["nDCG(dcg='exp-log2')@1", "nDCG(dcg='exp-log2')@5", "nDCG(dcg='exp-log2')@20", "ERR@1", "ERR@5", "ERR@20"]


def irm_scores(qrels, run, names) -> dict[str, dict[str, float]]:
    """ir_measures' per-query values of each name, from one iter_calc over all of them."""
    measures = {name: ir_measures.parse_measure(name) for name in names}
    values: dict = {}
    for metric in ir_measures.iter_calc(list(set(measures.values())), qrels, run):
        values.setdefault(metric.measure, {})[metric.query_id] = float(metric.value)
    return {name: values.get(m, {}) for name, m in measures.items()}


def rf_scores(qrels, run, names) -> dict[str, dict[str, float | None]]:
    """rankflavor's per-query values of `ir_measures.NAME` for each name, from one evaluate over all of them."""
    specs = [f"ir_measures.{name}" for name in names]
    report = rf.evaluate(qrels, run, specs)
    by_label = {label: result for result in report.results for label in result.labels}
    return {name: {r["query"]: r["value"] for r in by_label[spec].per_query()} for name, spec in
            zip(names, specs, strict=True)}


def compare(qrels, run, names, label) -> int:
    """Assert rankflavor's values equal ir_measures' for every name and query; the number of values compared."""
    theirs, ours = irm_scores(qrels, run, names), rf_scores(qrels, run, names)
    compared = 0
    for name in names:
        assert set(ours[name]) == set(theirs[name]), (label, name, sorted(ours[name]), sorted(theirs[name]))
        for q, value in theirs[name].items():
            if math.isnan(value):  # (pytrec_eval's 0/0: test_iprec_judged_only_is_nan_on_a_list_minus_j_empties)
                assert name.startswith("IPrec(judged_only=True)"), (label, name, q)
                assert not any(d in qrels[q] and qrels[q][d] >= 0 for d in run.get(q, {})), (label, name, q)
                continue
            assert ours[name][q] is not None and close(ours[name][q], value), (
                f"{label} ir_measures.{name} query {q}: rankflavor {ours[name][q]!r}, ir_measures {value!r}")
            compared += 1
    return compared


def usable(qrels):
    return {q: docs for q, docs in qrels.items() if any(g >= 0 for g in docs.values())}


@pytest.mark.parametrize(("max_docs", "graded"), [(12, True), (30, True), (20, False)])
@pytest.mark.parametrize("seed", SEEDS)
def test_names_match_ir_measures_per_query(seed, max_docs, graded):
    case = random_case(seed, max_docs=max_docs, graded=graded)
    label = f"seed {seed} max_docs {max_docs}"
    assert compare(case.qrels, case.run, PYTREC + OTHERS, label) > 0
    assert compare(case.qrels, case.run, JUDGED_ONLY, label) > 0
    for names in [[name] for name in GAINS] + UNCUT_NDCG:
        compare(usable(case.qrels) if names in UNCUT_NDCG else case.qrels, case.run, names, label)


@pytest.mark.skipif(shutil.which("perl") is None, reason="gdeval.pl needs perl")
@pytest.mark.parametrize("seed", range(12))
def test_gdeval_names_match_ir_measures_per_query(seed):
    case = random_case(seed, numeric_ids=True, max_docs=30)
    assert compare(case.qrels, case.run, GDEVAL, f"seed {seed}") > 0


def test_rbp_reads_1000_ranks():
    """cwl_eval reads 1000 ranks (run_depth=1000); for a p rankflavor takes, what lies below adds less than float64
    resolves (p^1000 < 2^-52), so this checks the long list, not the depth."""
    docs = [f"d{i}" for i in range(1500)]
    run = {"q": {d: 1500.0 - i for i, d in enumerate(docs)}}
    qrels = {"q": {d: 1 for d in docs[::7]}}
    assert compare(qrels, run, ["RBP(p=0.5,rel=1)", "RBP(p=0.95,rel=1)"], "1500 docs") == 2
    assert parse_spec("ir_measures.RBP(p=0.95,rel=1)")[0].run_depth == "1000"


def test_rbp_near_one_is_refused():
    """cwl_eval's weights are normalised over 1000 ranks: (1 - p) / (1 - p^1000) at rank 1, which rbp does not."""
    qrels, run = {"q": {"a": 1}}, {"q": {"a": 1.0}}
    value = irm_scores(qrels, run, ["RBP(p=0.99,rel=1)"])["RBP(p=0.99,rel=1)"]["q"]
    assert close(value, 0.01 / (1 - 0.99 ** 1000)) and not close(value, 0.01)
    with pytest.raises(SpecError, match=r"1/\(1 - p\^1000\)"):
        parse_spec("ir_measures.RBP(p=0.99,rel=1)")


def test_iprec_judged_only_is_nan_on_a_list_minus_j_empties():
    """trec_eval 9's m_iprec_at_recall.c starts from num_rel_ret / num_ret: 0/0 = nan when -J leaves no doc and the
    level counts 0 relevant docs ((long)(level R + 0.9) = 0). ir_measures yields it (and its mean is nan);
    rankflavor scores the empty list 0 (R = 0: empty=zero)."""
    qrels, run = {"q": {"a": 0}, "r": {"a": 1}}, {"q": {"x": 1.0}, "r": {"x": 1.0}}
    theirs = irm_scores(qrels, run, ["IPrec(judged_only=True)@0.0", "IPrec(judged_only=True)@0.7"])
    assert math.isnan(theirs["IPrec(judged_only=True)@0.0"]["q"]) and math.isnan(theirs["IPrec(judged_only=True)@0.0"]["r"])
    assert math.isnan(theirs["IPrec(judged_only=True)@0.7"]["q"]) and theirs["IPrec(judged_only=True)@0.7"]["r"] == 0
    assert rf_scores(qrels, run, ["IPrec(judged_only=True)@0.0"])["IPrec(judged_only=True)@0.0"] == {"q": 0.0, "r": 0.0}


def test_set_f_reads_beta_squared():
    """pytrec_eval's set_F parameter is beta²: SetF(beta=4.0) is F with beta = 2."""
    assert parse_spec("ir_measures.SetF(beta=4.0)")[0].param("beta").number == 2.0
    qrels, run = {"q": {"a": 1, "b": 1, "c": 1}}, {"q": {"a": 2.0, "x": 1.0}}
    value = irm_scores(qrels, run, ["SetF(beta=4.0)"])["SetF(beta=4.0)"]["q"]
    p, r = 0.5, 1 / 3
    assert close(value, 5 * p * r / (4 * p + r))


# ---- parsing ------------------------------------------------------------------------------------------------------

PYTREC_AXES = "missing=zero precision=f32"
# rankflavor spec -> the flavor it stands for, written out by hand from ir_measures' source (ir_measures_names.py)
TABLE = {
    "ir_measures.nDCG@10": "ir_measures@10",
    "ir_measures.nDCG": "ir_measures",
    "ir_measures.NDCG@10": "ir_measures@10",
    "ir_measures.nDCG(judged_only=True)@10": "ir_measures@10 unjudged=skip",
    "ir_measures.nDCG(gains={0:0,1:1,2:5})@10": "ir_measures@10 gain={0:0,1:1,2:5,*:g}",
    "ir_measures.nDCG(gains={})@10": "ir_measures@10",
    "ir_measures.nDCG(dcg='exp-log2')@10": "ir_measures.gdeval@10",
    'ir_measures.nDCG(dcg="exp-log2")@10': "ir_measures.gdeval@10",
    "ir_measures.nDCG(dcg=exp-log2)@10": "ir_measures.gdeval@10",
    "ir_measures.nDCG(dcg='log2')@10": "ir_measures@10",
    "ir_measures.ERR@20": "err(max_grade=4)@20 empty=zero missing=zero round=5 mean_of=rounded",
    "ir_measures.AP(rel=2)@100": f"map@100 rel_level=2 {PYTREC_AXES}",
    "ir_measures.AP": f"map {PYTREC_AXES}",
    "ir_measures.MAP(judged_only=True)": f"map unjudged=skip {PYTREC_AXES}",
    "ir_measures.RR": f"mrr {PYTREC_AXES}",
    "ir_measures.RR@10": "mrr@10 ties=docid_asc negative=keep missing=zero",
    "ir_measures.RR(rel=2)@10": "mrr@10 rel_level=2 ties=docid_asc negative=keep missing=zero",
    "ir_measures.R@1000": f"recall@1000 {PYTREC_AXES}",
    "ir_measures.R(rel=2)@100": f"recall@100 rel_level=2 {PYTREC_AXES}",
    "ir_measures.P@10": f"p@10 {PYTREC_AXES}",
    "ir_measures.P(rel=2)@5": f"p@5 rel_level=2 {PYTREC_AXES}",
    "ir_measures.Success@10": f"success@10 {PYTREC_AXES}",
    "ir_measures.Rprec": f"rprec {PYTREC_AXES}",
    "ir_measures.Rprec(rel=2)": f"rprec rel_level=2 {PYTREC_AXES}",
    "ir_measures.Bpref": f"bpref {PYTREC_AXES}",
    "ir_measures.Bpref(rel=2)": f"bpref rel_level=2 {PYTREC_AXES}",
    "ir_measures.IPrec@0.1": f"iprec(level=0.1,count=add0.9) {PYTREC_AXES}",
    "ir_measures.IPrec@0.125": f"iprec(level=0.12,count=add0.9) {PYTREC_AXES}",  # (iprec_at_recall_{:.2f})
    "ir_measures.SetP": f"p {PYTREC_AXES}",
    "ir_measures.SetRelP": f"recall_cap {PYTREC_AXES}",
    "ir_measures.SetR": f"recall {PYTREC_AXES}",
    "ir_measures.SetF": f"f(beta=1) {PYTREC_AXES}",
    "ir_measures.SetF(beta=0.25)": f"f(beta=0.5) {PYTREC_AXES}",
    "ir_measures.SetAP": f"set_map {PYTREC_AXES}",
    "ir_measures.NumRet": f"num_ret {PYTREC_AXES}",
    "ir_measures.NumRet(rel=2)": f"num_rel_ret rel_level=2 {PYTREC_AXES}",
    "ir_measures.NumRelRet": f"num_rel_ret {PYTREC_AXES}",
    "ir_measures.NumRel": f"num_rel {PYTREC_AXES}",
    "ir_measures.Judged@10": "judged@10 ties=docid_asc negative=keep missing=zero",
    "ir_measures.Judged": "judged ties=docid_asc negative=keep missing=zero",
    "ir_measures.RBP(p=0.8,rel=1)": "rbp(p=0.8,scale=binary) ties=input negative=zero missing=zero run_depth=1000",
    "ir_measures.RBP(rel=2)": "rbp(p=0.8,scale=binary) rel_level=2 ties=input negative=zero missing=zero "
                              "run_depth=1000",
    "ir_measures.nDCG(gains={0: 0, 1: 1})@10": "ir_measures@10 gain={0:0,1:1,*:g}",  # (spaces in brackets)
    "ir_measures.AP@10 rel_level=3": f"map@10 rel_level=3 {PYTREC_AXES}",  # (axes written after override)
}


@pytest.mark.parametrize(("spec", "expected"), list(TABLE.items()))
def test_names_resolve_to_their_flavors(spec, expected):
    flavors = parse_spec(spec)
    assert flavors == parse_spec(expected), (str(flavors[0]), str(parse_spec(expected)[0]))
    flavor = flavors[0]
    assert Flavor.parse(str(flavor)) == flavor
    reads = registry.get(flavor.metric).reads
    assert all(axis.name in reads for axis in AXES if getattr(flavor, axis.name) != axis.default)


def test_every_supported_name_round_trips():
    for name in PYTREC + JUDGED_ONLY + GAINS + [n for [n] in UNCUT_NDCG] + OTHERS + GDEVAL:
        flavor = Flavor.parse(f"ir_measures.{name}")
        assert Flavor.parse(str(flavor)) == flavor, name


# spec -> what the refusal says; every one is a measure ir_measures itself refuses or cannot compute here
REFUSED = {
    "RBP": "requires rel=",
    "RBP(p=0.8)": "requires rel=",
    "RBP(rel=1)@10": "without a cutoff only",
    "RBP(p=0.99,rel=1)": r"p > 0\.963",
    "RBP(p=0.9,rel=0)": "clips negative grades to 0",
    "ERR": "gdeval needs @k",
    "nDCG(dcg='exp-log2')": "ranx provider",
    "nDCG(dcg='exp-log2',judged_only=True)@5": "gains or judged_only",
    "nDCG(dcg='exp-log2',gains={1:2})@5": "gains or judged_only",
    "RR(judged_only=True)@5": "judged_only=True",
    "NumRel(rel=2)": "only with rel=1",
    "BPM(T=1.0,max_rel=3)": r"BPM requires cutoff, written after @ \(e.g. BPM@10\)",
    "AP_IA@5": "AP_IA has no parameter .cutoff.",
    "P": "requires cutoff",
    "R": "requires cutoff",
    "Success": "requires cutoff",
    "IPrec": r"requires recall, written after @ \(e.g. IPrec@0\.5\)",
    "P@x": r"'x' after @ is neither P's cutoff \(e.g. P@10\) nor one of ir_measures' providers",
    "nDCG@pytrec": r"neither nDCG's cutoff \(e.g. nDCG@10\) nor .*did you mean pytrec_eval",
    "IPrec@1": r"write 1\.0",
    "RBP(p=1,rel=1)": r"write 1\.0",
    "P@10.0": "cutoff as int",
    "AP(rel=2.0)": "rel as int",
    "AP(rel=True)": "rel as int",
    "AP(rel=-1)": "negative number",
    "P@-1": "negative number",
    "AP(2)": "named",
    "nDCG(foo=1)": "no parameter 'foo'",
    "SetR(judged_only=True)": "no parameter 'judged_only'",
    "nDCG(gains={1:-1})@5": "negative number",
    "nDCG(gains={1:0.5})@5": "int grades to int gains",
    "SetF(beta=0.0)": "beta > 0",
    "P@0": "at least 1",
    "P(rel=0)@3": "relevance_level should be positive",
    "AP(rel=0)": "relevance_level should be positive",
    "Bpref(rel=0)": "relevance_level should be positive",
    "nDCG(dcg='log3')@5": "dcg among 'log2', 'exp-log2'",
}


@pytest.mark.parametrize(("name", "why"), list(REFUSED.items()))
def test_refusals_say_why(name, why):
    with pytest.raises(SpecError, match=why):
        parse_spec(f"ir_measures.{name}")


@pytest.mark.parametrize("name", ["RBP", "RBP(rel=1)@10", "ERR", "nDCG(dcg='exp-log2',judged_only=True)@5",
                                  "RR(judged_only=True)@5", "NumRel(rel=2)", "P", "AP(rel=0)", "IPrec@1", "AP(rel=-1)",
                                  "P@10.0", "nDCG(dcg='exp-log2')"])
def test_ir_measures_refuses_them_too(name):
    """What ir_measures refuses (parse or validation errors, or no provider here) is refused by name above."""
    case = random_case(1)
    with pytest.raises((ValueError, AssertionError, NameError, TypeError)):
        measure = ir_measures.parse_measure(name)
        list(ir_measures.iter_calc([measure], case.qrels, case.run))


@pytest.mark.parametrize("seed", range(10))
def test_infap_matches_ir_measures(seed):
    """ir_measures' infAP (pytrec_eval's infAP, trec_eval m_infAP.c) is rankflavor's infap, per query."""
    case = random_case(seed, max_docs=30 if seed % 2 else 200)
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    assert compare(case.qrels, case.run, ["infAP", "infAP(rel=2)"], f"seed {seed}") > 0
    assert parse_spec("ir_measures.infAP")[0].metric == "infap"


@pytest.mark.parametrize("name", ["ndcg@10", "Ndcg", "map", "foo", "P_10", "ndcg_cut_10"])
def test_unknown_names_get_readings(name):
    with pytest.raises(NameError):
        ir_measures.parse_measure(name)
    assert ir_measures_names.measure(name, (), None) is None
    with pytest.raises(SpecError, match="unknown metric or preset") as info:
        parse_spec(f"ir_measures.{name}")
    if name.lower().startswith("ndcg@"):
        assert "ir_measures.nDCG" in str(info.value)


def test_presets_named_ir_measures_stay_presets():
    assert parse_spec("ir_measures.gdeval@10") == parse_spec("ir_measures.nDCG(dcg='exp-log2')@10")
    assert len(parse_spec("ir_measures")) == 1


def test_missing_queries_score_zero_in_the_mean():
    qrels, run = {"a": {"d1": 1}, "b": {"d2": 1}}, {"a": {"d1": 1.0}, "z": {"d1": 1.0}}
    for name in ("AP", "RR@5", "Judged@5", "RBP(rel=1)", "P@1"):
        theirs = ir_measures.calc_aggregate([ir_measures.parse_measure(name)], qrels, run)
        assert math.isclose(rf.evaluate(qrels, run, f"ir_measures.{name}").results[0].mean,
                            next(iter(theirs.values()))), name
