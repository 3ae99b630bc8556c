"""The rest of ir_measures 0.4.3's names (Compat, Accuracy, NumQ) and `ir_measures.NAME@provider` against
ir_measures itself: each name through the provider it names (`ir_measures.<provider>.iter_calc`) or the one its
DefaultPipeline picks, per query, on peerdata's random cases (ties, float32 twins, graded and negative grades,
unjudged docs, queries on one side only); which provider ir_measures picks, against its DefaultPipeline.
"""

from __future__ import annotations

import math

import pytest
from peerdata import close, random_case, require

import rankflavor as rf
from rankflavor import SpecError
from rankflavor.dialects import ir_measures_providers as providers
from rankflavor.flavor import parse_spec

ir_measures = require("ir_measures")

SEEDS = range(20)


def theirs(provider, name, qrels, run) -> dict[str, float] | None:
    """ir_measures' per-query values of `name` by one provider (None: the provider raised ZeroDivisionError)."""
    measure = ir_measures.parse_measure(name)
    source = ir_measures if provider is None else getattr(ir_measures, provider)
    try:
        return {m.query_id: float(m.value) for m in source.iter_calc([measure], qrels, run)}
    except ZeroDivisionError:  # accuracy_provider.py: a top k of relevant docs only (0 nonrelevant / 0)
        return None


def ours(spec, qrels, run) -> dict[str, float | None]:
    result = rf.evaluate(qrels, run, spec).results[0]
    return {row["query"]: row["value"] for row in result.per_query()}


def agree(provider, name, qrels, run, label, nan_is_zero=False) -> int:
    """Assert rankflavor's `ir_measures.NAME[@provider]` equals the provider's per query; values compared."""
    expected = theirs(provider, name, qrels, run)
    if expected is None:
        return 0
    got = ours(f"ir_measures.{name}" + (f"@{provider}" if provider else ""), qrels, run)
    assert {q for q, v in got.items() if v is not None} == set(expected), (label, name, got, expected)
    for q, value in expected.items():
        if math.isnan(value):  # trectools' NaN: no relevant judgment, or no relevant doc in the top k
            assert nan_is_zero and got[q] == 0.0, (label, name, q, got[q])
            continue
        assert close(got[q], value), f"{label} {name}@{provider} {q}: rankflavor {got[q]!r}, ir_measures {value!r}"
    return len(expected)


COMPAT = ["Compat", "Compat(p=0.8)", "Compat(p=0.5,normalize=False)", "Compat(normalize=False)"]
ACCURACY = ["Accuracy", "Accuracy@3", "Accuracy@10", "Accuracy(rel=2)", "Accuracy(rel=2)@5"]
TRECTOOLS = ["P@1", "P@5", "P@20", "RR", "AP", "AP@5", "nDCG@3", "nDCG@10", "nDCG(dcg='exp-log2')@5", "nDCG"]
CWL = ["P@1", "P@5", "P(rel=2)@10", "RR", "RR(rel=2)"]
MSMARCO = ["RR", "RR(rel=2)", "RR@3"]


@pytest.mark.parametrize("seed", SEEDS)
def test_compat_and_accuracy_match_their_providers(seed):
    case = random_case(seed, max_docs=15)  # (the qrels' docs in random order: the ideal's ties follow it)
    compared = sum(agree(None, name, case.qrels, case.run, f"seed {seed}") for name in COMPAT + ACCURACY)
    assert compared > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_compat_and_cwl_precision_are_theirs_to_the_last_bit(seed):
    """Compat (compat_provider.py's rbo loop) and P@k by cwl_eval (np.dot of the weights and gains) summed in the
    peer's order: every per-query value equal to ir_measures', not only close."""
    case = random_case(seed, max_docs=15)
    for name in [*COMPAT, "P@1@cwl_eval", "P@5@cwl_eval", "P(rel=2)@10@cwl_eval"]:
        provider = name.split("@")[-1] if name.endswith("@cwl_eval") else None
        measure = name.removesuffix("@cwl_eval")
        expected = theirs(provider, measure, case.qrels, case.run)
        assert expected is not None
        got = ours(f"ir_measures.{name}", case.qrels, case.run)
        assert {q: v for q, v in got.items() if v is not None} == expected, (seed, name)


# the ideal's ties: docs of one grade and one run score (1.0 for d2 and d1; 0 for the unretrieved d5 and d4), the
# qrels listing them out of doc id order
TIED_QRELS = {"q": {"d9": 2, "d2": 1, "d5": 1, "d3": 1, "d1": 1, "d4": 1, "d0": 0}}
TIED_RUN = {"q": {"x": 3.0, "d1": 2.0, "d2": 2.0, "d3": 1.0, "d0": 0.5}}


@pytest.mark.parametrize("name", COMPAT)
def test_compat_ideal_ties_follow_the_qrels_order(tmp_path, name):
    """compat_provider.py compatibility: the ideal is the qrels dict's relevant docs sorted by run score, then by
    grade, both stable, so its ties keep the qrels' order (d9, d2, d1, d3, d5, d4 here; by doc id d9, d1, d2, d3,
    d4, d5): from a dict and from a TREC file read by each tool, rankflavor's value is ir_measures' exactly."""
    expected = theirs(None, name, TIED_QRELS, TIED_RUN)
    assert ours(f"ir_measures.{name}", TIED_QRELS, TIED_RUN) == expected
    qrels_file, run_file = tmp_path / "tied.qrels", tmp_path / "tied.run"
    qrels_file.write_text("".join(f"q 0 {d} {g}\n" for d, g in TIED_QRELS["q"].items()))
    run_file.write_text("".join(f"q Q0 {d} {i} {s} r\n" for i, (d, s) in enumerate(TIED_RUN["q"].items(), 1)))
    from_files = theirs(None, name, list(ir_measures.read_trec_qrels(str(qrels_file))),
                        list(ir_measures.read_trec_run(str(run_file))))
    assert from_files == expected
    assert ours(f"ir_measures.{name}", str(qrels_file), str(run_file)) == expected
    by_doc_id = rf.Flavor.parse(f"ir_measures.{name}").with_(ideal_ties="docid_asc")
    assert ours(by_doc_id, TIED_QRELS, TIED_RUN) != expected  # (the ties decide the value here)


@pytest.mark.parametrize("seed", SEEDS)
def test_provider_forms_match_those_providers(seed):
    case = random_case(seed, max_docs=15)
    label = f"seed {seed}"
    for name in TRECTOOLS:
        agree("trectools", name, case.qrels, case.run, label, nan_is_zero=True)
    for name in CWL:
        agree("cwl_eval", name, case.qrels, case.run, label)
    for name in MSMARCO:
        agree("msmarco", name, case.qrels, case.run, label)
    for name in ("P@5", "AP", "nDCG@5", "Rprec"):
        agree("pytrec_eval", name, case.qrels, case.run, label)


@pytest.mark.parametrize("seed", range(8))
def test_num_q_counts_the_queries_scored(seed):
    case = random_case(seed)
    expected = theirs(None, "NumQ", case.qrels, case.run)
    got = ours("ir_measures.NumQ", case.qrels, case.run)
    # ir_measures lists a qrels query the run misses as 0 (its Evaluator's DEFAULT); rankflavor leaves it out
    assert {q: v for q, v in expected.items() if v} == {q: v for q, v in got.items() if v is not None}
    assert sum(expected.values()) == rf.evaluate(case.qrels, case.run, "ir_measures.NumQ").results[0].mean


def test_accuracy_skips_what_its_provider_does_not_report():
    qrels = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"x": 1}, "q3": {"y": 0}}
    run = {"q1": {"b": 3.0, "a": 2.0, "z": 1.0, "c": 0.5}, "q2": {"w": 1.0}, "q3": {"y": 1.0}}
    expected = theirs(None, "Accuracy", qrels, run)
    assert expected == {"q1": pytest.approx(1 - (1 + 2) / (2 * 2))}  # q2, q3: no relevant doc retrieved
    assert ours("ir_measures.Accuracy", qrels, run) == {"q1": pytest.approx(0.25), "q2": None, "q3": None}
    assert theirs(None, "Accuracy", {"q": {"a": 1}}, {"q": {"a": 1.0}}) is None  # ZeroDivisionError
    assert ours("ir_measures.Accuracy", {"q": {"a": 1}}, {"q": {"a": 1.0}}) == {"q": None}


# measures with the parameters that decide a provider's support (ir_measures' own supports() is the judge)
PICKED = ["P@5", "P(judged_only=True)@5", "RR", "RR@10", "RR(judged_only=True)", "AP", "AP@10", "R@5", "Rprec",
          "nDCG", "nDCG@10", "nDCG(dcg='exp-log2')@10", "nDCG(dcg='exp-log2')", "Bpref", "infAP", "IPrec@0.5",
          "Judged@10", "ERR@10", "RBP(rel=1)", "RBP", "NumRet", "NumRel", "NumQ", "SetP", "SetR", "SetF", "SetAP",
          "Success@5", "Compat", "Compat(p=0.5)", "Accuracy", "Accuracy@5", "alpha_nDCG@10", "ERR_IA@10", "INST(max_rel=3)",
          "SDCG(max_rel=3)@10", "BPM(max_rel=3)@10", "NERR10(max_rel=3)", "P_IA@5", "StRecall@10", "NRBP"]


@pytest.mark.parametrize("name", PICKED)
def test_the_default_provider_is_the_one_ir_measures_picks(name):
    measure = ir_measures.parse_measure(name)
    picked = next((p.NAME for p in ir_measures.DefaultPipeline.providers if p.supports(measure)), None)
    from ir_measures.providers.base import NOT_PROVIDED

    base = measure.NAME
    values = {k: providers.NOT_GIVEN if measure[k] is NOT_PROVIDED else measure[k] for k in measure.SUPPORTED_PARAMS}
    assert providers.default_provider(base, values) == picked
    for provider in providers.PROVIDERS:  # and every provider's support, as its own supports() says
        supported = ir_measures.providers.registry[provider].supports(measure)
        assert providers.supports(provider, base, values) == supported, (name, provider)


@pytest.mark.parametrize(("spec", "fragment"), [
    ("ir_measures.P@10@trectool", "did you mean trectools"),
    ("ir_measures.P@10@gdeval", "providers that do: pytrec_eval, cwl_eval, ranx, trectools"),
    ("ir_measures.INST", "requires max_rel"),
    ("ir_measures.AP_IA@5", "AP_IA has no parameter 'cutoff'"),
    ("ir_measures.Bpref@trectools", "not yet supported"),
    ("ir_measures.P@5@ranx", "ranx.NAME"),
    ("ir_measures.Accuracy(rel=0)", "unjudged doc relevant"),
])
def test_provider_refusals_say_why(spec, fragment):
    with pytest.raises(SpecError, match=None) as info:
        parse_spec(spec)
    assert fragment in str(info.value)


@pytest.mark.parametrize(("spec", "canonical"), [
    ("ir_measures.Compat", "compat(ideal_ties=qrels) ties=docid_asc missing=zero"),
    ("ir_measures.Compat(p=0.8,normalize=False)",
     "compat(p=0.8,normalize=false,ideal_ties=qrels) ties=docid_asc missing=zero"),
    ("ir_measures.Accuracy@5", "accuracy@5 ties=input empty=skip"),
    ("ir_measures.P@5@trectools", "p@5 ties=input missing=zero"),
    ("ir_measures.nDCG(dcg='exp-log2')@5@trectools", "ndcg@5 gain=exp2 ties=input missing=zero"),
    ("ir_measures.RR@msmarco", "mrr ties=docid_asc negative=keep missing=zero"),
    ("ir_measures.RR@10", "mrr@10 ties=docid_asc negative=keep missing=zero"),
    ("ir_measures.P@5@pytrec_eval", "p@5 missing=zero precision=f32"),
])
def test_provider_forms_resolve_to_their_flavors(spec, canonical):
    assert parse_spec(spec) == parse_spec(canonical)


@pytest.mark.parametrize(("spec", "metric"), [("ir_measures.alpha_nDCG@10", "alpha_ndcg"),
                                              ("ir_measures.ERR_IA@5@pyndeval", "err_ia")])
def test_the_diversity_names_resolve_to_the_diversity_families(spec, metric):
    """(merged with the diversity branch: pyndeval's measures are rankflavor's, dialects/ndeval.py)"""
    assert [f.metric for f in parse_spec(spec)] == [metric]
