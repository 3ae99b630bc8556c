"""rankflavor as an ir_measures provider (`import rankflavor.ir_measures`) against ir_measures 0.4.3's own providers.

The peer's side is ir_measures' DefaultPipeline without rankflavor (`ir_measures.iter_calc` / `calc_aggregate`: it
picks pytrec_eval, msmarco for RR@k, judged, cwl_eval for RBP, gdeval for ERR and nDCG(dcg='exp-log2')); ours is
`rankflavor.ir_measures.provider` on the same measure objects and the same inputs. Values agree to 1e-9 per query
and in aggregate (ir_measures' aggregators over each side's per-query values). The installed ir_measures ships no
test inputs (its wheel holds the package only), so the inputs are random: peerdata.random_case (seeded) and
hypothesis (the ci profile's examples). The measures are test_ir_measures_names.py's groups, asked
as it asks them (its pytrec_eval provider shares one invocation between measures, so a group is one that ir_measures
computes as it computes each measure alone); IPrec(judged_only=True) is left out (pytrec_eval's 0/0 = nan on a list
that -J empties; rankflavor scores 0: dialects/ir_measures.py).
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections import namedtuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from peerdata import close, random_case, require

import rankflavor as rf

ir_measures = require("ir_measures")
from test_ir_measures_names import GAINS, GDEVAL, JUDGED_ONLY, OTHERS, PYTREC  # noqa: E402

import rankflavor.ir_measures as rim  # noqa: E402
from rankflavor.adapters.ir_measures_provider import measure_head  # noqa: E402

GROUPS = [PYTREC + OTHERS, [n for n in JUDGED_ONLY if not n.startswith("IPrec")], *([n] for n in GAINS)]


def measures(names: list[str]) -> list:
    return list(dict.fromkeys(ir_measures.parse_measure(n) for n in names))


def per_query(metrics) -> dict:
    out: dict = {}
    for metric in metrics:
        key = (metric.measure, metric.query_id)
        assert key not in out, f"{key} yielded twice"
        out[key] = float(metric.value)
    return out


def assert_same(ms: list, qrels, run, label: str, ours=None) -> int:
    """rankflavor's provider against ir_measures' DefaultPipeline: per query and in aggregate; values compared.
    `ours`: a function giving the (qrels, run) rankflavor's provider reads (a fresh pair per call: generators)."""
    ours = ours or (lambda: (qrels, run))
    theirs = per_query(ir_measures.iter_calc(ms, qrels, run))
    mine = per_query(rim.provider.iter_calc(ms, *ours()))
    assert set(mine) == set(theirs), (label, sorted(map(str, set(mine) ^ set(theirs))))
    for key, value in theirs.items():
        assert close(mine[key], value), f"{label} {key[0]} query {key[1]}: rankflavor {mine[key]!r}, ir_measures {value!r}"
    agg_theirs = ir_measures.calc_aggregate(ms, qrels, run)
    agg_ours = rim.provider.calc_aggregate(ms, *ours())
    assert set(agg_ours) == set(ms)
    for m in ms:
        assert close(agg_ours[m], agg_theirs[m]), f"{label} {m}: mean {agg_ours[m]!r} vs {agg_theirs[m]!r}"
    return len(theirs)


@pytest.mark.parametrize(("max_docs", "graded"), [(12, True), (30, True), (20, False)])
@pytest.mark.parametrize("seed", range(20))
def test_provider_matches_ir_measures(seed, max_docs, graded):
    case = random_case(seed, max_docs=max_docs, graded=graded)
    for names in GROUPS:
        assert assert_same(measures(names), case.qrels, case.run, f"seed {seed}") > 0


@pytest.mark.parametrize("seed", range(8))
def test_gdeval_measures_match(seed):
    """ERR@k and nDCG(dcg='exp-log2')@k: ir_measures runs gdeval.pl (perl, numeric topic ids)."""
    case = random_case(seed, numeric_ids=True, max_docs=30)
    assert assert_same(measures(GDEVAL), case.qrels, case.run, f"seed {seed}") > 0


GRADES = st.sampled_from([-1, 0, 0, 1, 2, 3])
SCORES = st.sampled_from([1.0, 2.0, 2.0, 3.5, 0.1, 1.0 + 1e-9, -4.0]) | st.floats(-10, 10, allow_nan=False)
DOCS = st.sampled_from([f"d{i}" for i in range(9)])


@st.composite
def qrels_and_run(draw):
    """A qrels whose every query has a non-negative judgment (trec_eval's uncut ndcg loops on one that has none),
    and a run over those queries and others."""
    qrels = {}
    for q in draw(st.lists(st.sampled_from(["q1", "q2", "q3", "q4"]), min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(DOCS, min_size=1, max_size=7, unique=True))
        qrels[q] = {d: draw(GRADES) for d in docs}
        qrels[q][docs[0]] = abs(qrels[q][docs[0]])
    run = {q: {d: draw(SCORES) for d in draw(st.lists(DOCS, min_size=1, max_size=9, unique=True))}
           for q in draw(st.lists(st.sampled_from(["q1", "q2", "q3", "q4", "q9"]), max_size=5, unique=True))}
    return qrels, run


HYPOTHESIS_MEASURES = measures(PYTREC + OTHERS + ["nDCG", "nDCG@10", "AP@3"])


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(qrels_and_run())
def test_random_inputs_match_ir_measures(case):
    """Random inputs (hypothesis; the ci profile's 150 examples take about 10 s here, well within 60 s)."""
    qrels, run = case
    assert_same(HYPOTHESIS_MEASURES, qrels, run, "hypothesis")


def _frames(qrels: dict, run: dict):
    import pandas as pd

    q = pd.DataFrame([(qid, d, g) for qid, docs in qrels.items() for d, g in docs.items()],
                     columns=["query_id", "doc_id", "relevance"])
    r = pd.DataFrame([(qid, d, s) for qid, docs in run.items() for d, s in docs.items()],
                     columns=["query_id", "doc_id", "score"])
    return q, r


def test_every_input_form_ir_measures_takes(tmp_path):
    """dicts, DataFrames, PyTerrier's frames renamed as pt.model.to_ir_measures renames them (its `query`, `docid`,
    `rank` columns kept beside), lists and generators of ir_measures' namedtuples, and TREC files read by
    ir_measures' readers: the same values as ir_measures' own providers on the dict form."""
    case = random_case(3, max_docs=15)
    ms = measures(["nDCG@10", "P(rel=2)@5", "AP", "RR@5", "Judged@10", "RBP(rel=1)", "NumRet", "Bpref"])
    qframe, rframe = _frames(case.qrels, case.run)
    pt_run = rframe.assign(query="some text", docid=range(len(rframe)),
                           rank=rframe.groupby("query_id").cumcount())
    qrels_path, run_path = case.write(tmp_path)
    forms = {
        "frames": lambda: (qframe, rframe),
        "pyterrier frames": lambda: (qframe.assign(iteration="0"), pt_run),
        "namedtuple lists": lambda: ([ir_measures.Qrel(*row) for row in qframe.itertuples(index=False)],
                                     [ir_measures.ScoredDoc(*row) for row in rframe.itertuples(index=False)]),
        "generators": lambda: ((ir_measures.Qrel(*row) for row in qframe.itertuples(index=False)),
                               (ir_measures.ScoredDoc(*row) for row in rframe.itertuples(index=False))),
        "trec files": lambda: (ir_measures.read_trec_qrels(str(qrels_path)), ir_measures.read_trec_run(str(run_path))),
    }
    for label, inputs in forms.items():
        assert assert_same(ms, case.qrels, case.run, label, ours=inputs) > 0


def test_queries_the_run_lacks_get_the_default_and_an_empty_run_gives_defaults():
    qrels = {"a": {"d1": 1}, "b": {"d2": 1}, "c": {}}  # (c: listed with no judgment, 0 as ir_measures gives it)
    ms = measures(["nDCG@5", "P@5", "NumRet"])
    assert per_query(rim.provider.iter_calc(ms, qrels, {"a": {"d1": 1.0}, "zz": {"d1": 3.0}})) == per_query(
        ir_measures.iter_calc(ms, qrels, {"a": {"d1": 1.0}, "zz": {"d1": 3.0}}))
    import pandas as pd

    empty = pd.DataFrame([], columns=["query_id", "doc_id", "score"])  # (what pt.Experiment passes for such queries)
    ours = per_query(rim.provider.iter_calc(ms, qrels, empty))
    assert ours == {(m, q): 0.0 for m in ms for q in qrels}
    unjudged = {"c": {}}  # (no judgment at all: rankflavor's own reading refuses it; ir_measures gives the defaults)
    assert per_query(rim.provider.iter_calc(ms, unjudged, {"c": {"d": 1.0}})) == per_query(
        ir_measures.iter_calc(ms, unjudged, {"c": {"d": 1.0}}))


def test_unsupported_measures_are_left_to_other_providers():
    """`supports` is False where rankflavor has no metric or computes otherwise than ir_measures' provider:
    Accuracy and Compat (adapters/ir_measures_provider.py LEFT_TO_IR_MEASURES), RBP without rel (cwl_eval requires
    it), ERR without @k, the diversity measures; asked for one anyway, the provider refuses it as ir_measures'
    providers do."""
    for name in ["Accuracy@5", "Compat", "RBP", "RBP(rel=1)@10", "ERR", "alpha_nDCG@10", "NumRel(rel=2)",
                 "Compat(p=0.8)"]:
        assert not rim.provider.supports(ir_measures.parse_measure(name)), name
    for name in ["nDCG@10", "P(rel=2)@5", "AP", "RR", "R@1000", "Judged@10", "ERR@10", "RBP(p=0.8,rel=1)", "Bpref",
                 "infAP", "NumRet", "NumRel", "SetP", "Success@5", "MAP", "SetRelP", "IPrec@0.1", "NumQ",
                 "SDCG(max_rel=3)@10", "INST(max_rel=3)"]:
        assert rim.provider.supports(ir_measures.parse_measure(name)), name
    with pytest.raises(ValueError, match="Unsupported measures"):
        rim.provider.evaluator([ir_measures.Compat], {"a": {"d": 1}})


@pytest.mark.parametrize("measures", [["nDCG@10"], "nDCG@10", [object()], [ir_measures.nDCG @ 5, "AP"]])
def test_what_is_not_a_measure_is_a_type_error_that_says_how_to_make_one(measures):
    """ir_measures' own providers fail on an attribute (`'str' object has no attribute ...`); rankflavor's names
    the value and ir_measures' way to a measure, in calc_aggregate and iter_calc alike."""
    qrels, run = {"q1": {"A": 1}}, {"q1": {"A": 1.0}}
    for call in (rim.provider.calc_aggregate, lambda m, q, r: list(rim.provider.iter_calc(m, q, r))):
        with pytest.raises(TypeError, match=r"is not an ir_measures measure: .*ir_measures\.parse_measure\("):
            call(measures, qrels, run)
    assert rim.provider.calc_aggregate(ir_measures.nDCG @ 5, qrels, run) == {ir_measures.nDCG @ 5: 1.0}


def test_registered_and_preferred():
    """The import registers the provider; `prefer` puts it first in ir_measures' DefaultPipeline (what
    ir_measures.calc_aggregate and pt.Experiment call), the measures it does not support going to the next
    provider, and undoes it on leaving the block."""
    assert ir_measures.providers.registry["rankflavor"] is rim.provider
    before = list(ir_measures.DefaultPipeline.providers)
    qrels, run = {"a": {"d1": 1, "d2": 2}}, {"a": {"d1": 2.0, "d2": 1.0}}
    with rim.prefer() as provider:
        assert provider is rim.provider and ir_measures.DefaultPipeline.providers[0] is rim.provider
        assert isinstance(ir_measures.evaluator([ir_measures.nDCG @ 10], qrels), rim.RankflavorEvaluator)
        mixed = ir_measures.evaluator([ir_measures.nDCG @ 10, ir_measures.Compat], qrels)
        kinds = {type(e).__name__ for e in mixed.evaluators}
        assert kinds == {"RankflavorEvaluator", "CompatEvaluator"}
        values = ir_measures.calc_aggregate([ir_measures.nDCG @ 10, ir_measures.Compat, ir_measures.NumQ], qrels, run)
    assert ir_measures.DefaultPipeline.providers == before
    assert values[ir_measures.NumQ] == 1
    assert math.isclose(values[ir_measures.Compat], 0.95 / 1.95)  # RBO: overlap 0 at depth 1, all at 2; ideal's 1
    assert math.isclose(values[ir_measures.nDCG @ 10], (1 / 1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))


def test_duplicates_are_refused_unless_a_policy_is_given():
    import pandas as pd

    qrels = pd.DataFrame([("a", "d1", 1), ("a", "d1", 2)], columns=["query_id", "doc_id", "relevance"])
    run = {"a": {"d1": 1.0}}
    with pytest.raises(rf.InputError):
        list(rim.provider.iter_calc([ir_measures.P @ 1], qrels, run))
    firsts = rim.RankflavorProvider(on_duplicate="first")
    assert [m.value for m in firsts.iter_calc([ir_measures.P(rel=2) @ 1], qrels, run)] == [0.0]


def test_rankflavor_never_imports_ir_measures():
    code = ("import sys, rankflavor as rf; rf.evaluate({'q': {'d': 1}}, {'q': {'d': 1.0}}, 'ir_measures.nDCG@10'); "
            "assert 'ir_measures' not in sys.modules, 'imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_measure_head_writes_every_parameter():
    Named = namedtuple("Named", "measure head")
    for case in [Named(ir_measures.nDCG(gains={0: 0, 2: 5}) @ 5, "nDCG(gains={0:0,2:5},cutoff=5)"),
                 Named(ir_measures.MAP(rel=2), "AP(rel=2)"), Named(ir_measures.SetRelP, "SetP(relative=True)"),
                 Named(ir_measures.RBP(p=0.5, rel=1), "RBP(p=0.5,rel=1)"), Named(ir_measures.IPrec @ 0.25,
                                                                                "IPrec(recall=0.25)")]:
        assert measure_head(case.measure) == case.head
