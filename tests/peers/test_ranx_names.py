"""`ranx.NAME` (dialects/ranx.py) against ranx 0.3.21 itself, per query, and how the names parse.

ranx is called the way each name says, on a fresh Run, its per-query scores read from `run.scores`: `ranx.NAME`
where the run and the qrels hold the same queries, as `evaluate(Qrels(qrels), Run(run), names)` (the plain call:
the Run sorted once when built, ties=quicksort(1)); `ranx.make_comparable.NAME` where they differ, as
`evaluate(..., make_comparable=True)` (sorted again by make_comparable: ties=quicksort(2)), the only call ranx
accepts then. The cases (peerdata.random_case) hold tied scores in short lists (input order) and long ones
(numba's quicksort), unjudged docs, grades -1 to 3 or 0/1, queries with no relevant doc and queries missing on
either side. ranx writes the relevance level after the cutoff (`map@5-l2`); rankflavor's grammar puts the cutoff
last (`ranx.map-l2@5`): `rf_spec` turns one into the other.

What ranx computes and no flavor gives is a test of its own: bpref's nan (N = 0) and its loop stopped by a
query without a relevant doc, ndcg's division by a negative IDCG under a negative level.
"""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given
from peerdata import close, random_case, require, rf_mean, rf_values

import rankflavor as rf
from rankflavor import Flavor, SpecError, registry
from rankflavor.dialects import ranx as ranx_names
from rankflavor.flavor import parse_spec
from rankflavor.flavor.axes import AXES
from rankflavor.reference import RefError, reference_evaluate
from strategies import flavors, qrels_and_run

ranx = require("ranx")

SEEDS = range(25)
# ranx's names as ranx spells them; every name ranx's metric_switch knows but bpref and rbp (below)
PLAIN = ["hits", "hits@1", "hits@5", "hit_rate@1", "hit_rate@5", "precision", "precision@1", "precision@5", "recall",
         "recall@1", "recall@5", "f1", "f1@1", "f1@5", "r-precision", "mrr", "mrr@1", "mrr@3", "map", "map@1", "map@5",
         "dcg", "dcg@1", "dcg@5", "dcg_burges", "dcg_burges@5", "ndcg", "ndcg@1", "ndcg@5", "ndcg_burges",
         "ndcg_burges@5"]
LEVELS = ["hits-l2", "hits@5-l0", "hits@3-l-1", "hit_rate@5-l2", "hit_rate@3-l0", "precision@5-l0", "precision@3-l-1",
          "precision-l2", "recall-l3", "recall@5-l0", "recall@3-l-1", "f1@5-l2", "f1-l0", "r-precision-l2",
          "r-precision-l0", "r-precision-l-1", "mrr-l2", "mrr@3-l-1", "mrr-l0", "map-l2", "map@5-l0", "map-l-1",
          "map@3-l3", "dcg@5-l2", "dcg-l0", "dcg-l-1", "dcg_burges@5-l-1", "dcg_burges-l0", "ndcg@5-l2", "ndcg-l0",
          "ndcg-l3", "ndcg_burges-l3", "ndcg_burges@5-l0"]


def comparable(qrels, run) -> bool:
    """Whether ranx needs make_comparable=True: the run's query set is not the qrels' (meta/evaluate.py check_keys)."""
    return set(qrels) != set(run)


def rf_spec(name: str, make_comparable: bool = False) -> str:
    """rankflavor's spelling of a ranx name: `map@5-l2` -> `ranx.map-l2@5` (`ranx.make_comparable.map-l2@5`)."""
    head, sep, level = name.partition("-l")
    metric, _, k = head.partition("@")
    prefix = "ranx.make_comparable." if make_comparable else "ranx."
    return f"{prefix}{metric}{sep}{level}" + (f"@{k}" if k else "")


def ranx_scores(qrels, run, names, make_comparable: bool | None = None) -> dict[str, dict[str, float]]:
    """ranx's per-query scores of each name (one evaluate call on a fresh Qrels and Run): the plain call when the
    query sets match, make_comparable=True when they differ (or as asked)."""
    if make_comparable is None:
        make_comparable = comparable(qrels, run)
    r = ranx.Run({q: dict(docs) for q, docs in run.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's uint64 -> int64 hash cast warning
        ranx.evaluate(ranx.Qrels({q: dict(docs) for q, docs in qrels.items()}), r, list(names),
                      make_comparable=make_comparable)
    return {name: {q: float(v) for q, v in r.scores[name].items()} for name in names}


def ranx_refuses(name: str) -> bool:
    try:
        ranx_scores({"q": {"a": 1}}, {"q": {"a": 1.0}}, [name])
    except (ValueError, AssertionError):
        return True
    return False


def compare(qrels, run, names, label) -> int:
    """Assert rankflavor's per-query values equal ranx's for every name; the number of values compared."""
    theirs = ranx_scores(qrels, run, names)
    compared = 0
    for name in names:
        ours = rf_values(rf_spec(name, comparable(qrels, run)), qrels, run)
        assert set(ours) == set(theirs[name]), (label, name)
        for q, value in theirs[name].items():
            assert ours[q] is not None and close(ours[q], value), (
                f"{label} {name} ({rf_spec(name)}) query {q}: rankflavor {ours[q]!r}, ranx {value!r}")
            compared += 1
    return compared


@pytest.mark.parametrize(("max_docs", "graded"), [(12, True), (60, True), (30, False)])
@pytest.mark.parametrize("seed", SEEDS)
def test_names_match_ranx_per_query(seed, max_docs, graded):
    """Queries on one side only: ranx.make_comparable.NAME; the same case cut to the common queries: ranx.NAME,
    the plain call."""
    case = random_case(seed, max_docs=max_docs, graded=graded)
    assert compare(case.qrels, case.run, PLAIN + LEVELS, f"seed {seed} max_docs {max_docs}") > 0
    common = set(case.qrels) & set(case.run)
    qrels = {q: d for q, d in case.qrels.items() if q in common}
    run = {q: d for q, d in case.run.items() if q in common}
    if qrels:
        assert compare(qrels, run, PLAIN + LEVELS, f"seed {seed} max_docs {max_docs} common") > 0


def test_plain_and_make_comparable_calls_differ_on_ties_and_each_name_follows_its_call():
    """Matching query sets, many ties: ranx's plain call sorts once, make_comparable twice; `ranx.NAME` gives the
    first, `ranx.make_comparable.NAME` the second, and on this case the two differ."""
    import numpy as np

    rng = np.random.default_rng(5)
    qrels, run = {}, {}
    for q in range(40):
        docs = [f"d{i}" for i in rng.choice(500, size=40, replace=False)]
        run[f"q{q}"] = {d: float(s) for d, s in zip(docs, np.round(rng.normal(size=40), 0), strict=True)}
        qrels[f"q{q}"] = {d: int(rng.integers(0, 3)) for d in rng.choice(docs, size=15, replace=False)}
    names = ["ndcg@5", "hit_rate@3", "map@10", "precision@5"]
    plain, twice = ranx_scores(qrels, run, names, False), ranx_scores(qrels, run, names, True)
    assert plain != twice
    for name in names:
        for spec, theirs in ((rf_spec(name), plain[name]), (rf_spec(name, True), twice[name])):
            ours = rf_values(spec, qrels, run)
            assert all(close(ours[q], v) for q, v in theirs.items()), (spec, name)


def test_long_tie_groups():
    """200 queries of 300 docs in few tie groups: numba's quicksort decides, once (the plain call), for every
    measure."""
    import numpy as np

    rng = np.random.default_rng(11)
    qrels, run = {}, {}
    for q in range(200):
        docs = [f"d{i}" for i in rng.choice(5000, size=300, replace=False)]
        run[f"q{q}"] = {d: float(s) for d, s in zip(docs, np.round(rng.normal(size=300), 1), strict=True)}
        qrels[f"q{q}"] = {d: int(rng.integers(-1, 4)) for d in rng.choice(docs, size=30, replace=False)}
    names = ["hits@10", "hit_rate@5", "precision@20", "recall@50", "f1@10", "r-precision", "mrr@10", "map@100",
             "dcg@10", "dcg_burges@20", "ndcg@10", "ndcg_burges", "map-l2", "precision@10-l3"]
    assert compare(qrels, run, names, "long ties") == 200 * len(names)


def relevant_count(docs: dict[str, int], level: int) -> int:
    return sum(1 for g in docs.values() if g >= level)


@pytest.mark.parametrize("level", [1, 2, 0, -1])
@pytest.mark.parametrize("seed", SEEDS)
def test_bpref_matches_ranx_where_ranx_defines_it(seed, level):
    """ranx's bpref on queries with a relevant judgment (one without stops ranx's loop: next test); where it gives
    nan the query has no judged nonrelevant doc (N = 0) and ranks a relevant one."""
    case = random_case(seed, max_docs=30)
    qrels = {q: docs for q, docs in case.qrels.items() if relevant_count(docs, level) > 0}
    if not qrels:
        return
    name = "bpref" if level == 1 else f"bpref-l{level}"
    theirs = ranx_scores(qrels, case.run, [name])[name]
    ours = rf_values(rf_spec(name, comparable(qrels, case.run)), qrels, case.run)
    assert set(ours) == set(theirs)
    for q, value in theirs.items():
        if math.isnan(value):
            nonrelevant = len(qrels[q]) - relevant_count(qrels[q], level)
            assert nonrelevant == 0 and any(qrels[q].get(d, level - 1) >= level for d in case.run.get(q, {})), q
            continue
        assert close(ours[q], value), (seed, name, q, ours[q], value)


def test_bpref_nan_where_nothing_judged_is_nonrelevant():
    """ranx: 1 - 0/0 = nan; rankflavor (trec_eval's m_bpref.c): 1 for each relevant doc ranked, over R."""
    qrels, run = {"q": {"a": 1, "b": 2}}, {"q": {"a": 2.0, "x": 1.0}}
    assert math.isnan(ranx_scores(qrels, run, ["bpref"])["bpref"]["q"])
    assert rf_values("ranx.bpref", qrels, run)["q"] == 0.5


def test_bpref_stops_at_a_query_without_relevant_doc():
    """ranx divides 0.0 by R = 0 inside numba's prange loop: the error stops the loop, and every query from there on
    keeps 0.0. `ranx.bpref` (ranx_bpref) gives ranx's numbers and warns that they are degenerate; rankflavor's
    bpref scores each query on its own (empty=zero for R = 0)."""
    good = {"d1": 1, "d2": 0}
    qrels = {"a": good, "b": {"d1": 0}, "c": good, "d": {"d2": 1, "d1": 0}}
    run = {q: {"d1": 2.0, "d2": 1.0} for q in qrels}
    theirs = ranx_scores(qrels, run, ["bpref"])["bpref"]
    assert theirs == {"a": 1.0, "b": 0.0, "c": 0.0, "d": 0.0}
    assert rf_values("ranx.bpref", qrels, run) == theirs
    result = rf.evaluate(qrels, run, "ranx.bpref").results[0]
    degenerate = [w for w in result.warnings if w.code == "peer_degenerate"]
    assert len(degenerate) == 1 and degenerate[0].numbers["queries"] == 2, result.warnings
    assert "ranx" in degenerate[0] and "R = 0" in degenerate[0]
    assert rf_values("bpref empty=zero", qrels, run) == {"a": 1.0, "b": 0.0, "c": 1.0, "d": 0.0}


@pytest.mark.parametrize("seed", SEEDS)
def test_bpref_batches_as_ranx(seed):
    """On random multi-query cases with queries without a relevant doc: every query's ranx.bpref is ranx's number
    (the nan of N = 0 left aside: test above), and the warning counts the queries ranx zeroed."""
    case = random_case(seed, max_docs=30)
    theirs = ranx_scores(case.qrels, case.run, ["bpref"])["bpref"]
    spec = rf_spec("bpref", comparable(case.qrels, case.run))
    ours = rf_values(spec, case.qrels, case.run)
    assert set(ours) == set(theirs)
    for q, value in theirs.items():
        if not math.isnan(value):
            assert close(ours[q], value), (seed, q, ours[q], value)
    result = rf.evaluate(case.qrels, case.run, spec).results[0]
    warned = sum(w.numbers["queries"] for w in result.warnings if w.code == "peer_degenerate")
    order = sorted(case.qrels)
    first = next((i for i, q in enumerate(order) if relevant_count(case.qrels[q], 1) == 0), len(order))
    answered = [q for q in order[first + 1:] if case.run.get(q)]  # (a query the run lacks is 0 by missing=zero)
    assert warned == sum(1 for q in answered if relevant_count(case.qrels[q], 1) > 0), seed


def test_ndcg_with_a_negative_level_divides_by_a_negative_idcg():
    """Why `ranx.ndcg-l-1` is refused: ranx scores a list of one doc of grade -1 as (-1)/(-1) = 1."""
    qrels, run = {"q": {"a": -1, "b": 1}, "r": {"a": -1}}, {"q": {"b": 1.0}, "r": {"a": 1.0}}
    assert ranx_scores(qrels, run, ["ndcg-l-1"])["ndcg-l-1"]["r"] == 1.0
    with pytest.raises(SpecError, match="negative relevance level"):
        parse_spec("ranx.ndcg-l-1@10")
    with pytest.raises(SpecError, match="negative relevance level"):
        parse_spec("ranx.ndcg_burges-l-2")


def test_rbp_weighs_raw_grades():
    """ranx's rbp is (1 - p) sum grade_i p^(i-1) with the raw grade: a doc of grade 2 at rank 1 gives 2 (1 - p)."""
    qrels, run = {"q": {"a": 2, "b": 1, "c": 0}}, {"q": {"a": 3.0, "c": 2.0, "b": 1.0}}
    value = ranx_scores(qrels, run, ["rbp.5"])["rbp.5"]["q"]
    assert close(value, 0.5 * (2 + 1 * 0.25))
    assert close(rf_values("ranx.rbp.5", qrels, run)["q"], value)
    assert str(parse_spec("ranx.rbp.5")[0]).startswith("rbp(p=0.5,scale=grade)")


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("name", ["rbp.95", "rbp.5", "rbp.8-l2", "rbp.9-l0", "rbp.7-l-1"])
def test_rbp_matches_ranx(seed, name):
    """ranx.rbp.NN[-lN] per query, graded cases with ties, unjudged docs, negative grades and missing queries."""
    case = random_case(seed, max_docs=30 if seed % 2 else 1200)
    theirs = ranx_scores(case.qrels, case.run, [name])[name]
    head, sep, level = name.partition("-l")
    prefix = "ranx.make_comparable." if comparable(case.qrels, case.run) else "ranx."
    ours = rf_values(f"{prefix}{head}{sep}{level}", case.qrels, case.run)
    assert set(ours) == set(theirs)
    for q, value in theirs.items():
        assert close(ours[q], value), (seed, name, q, ours[q], value)


def test_rbp_with_p_zero_is_refused():
    with pytest.raises(SpecError, match="p > 0"):
        parse_spec("ranx.rbp.0")


# ---- parsing ------------------------------------------------------------------------------------------------------

RANX = "ties=quicksort(1) negative=zero missing=zero"
# rankflavor spec -> the flavor it stands for, written out by hand from ranx's source (dialects/ranx.py)
TABLE = {
    "ranx.hits@10": f"hits@10 rel_level=1 {RANX}",
    "ranx.hits": f"hits rel_level=1 {RANX}",
    "ranx.hit_rate@10": f"success@10 rel_level=1 {RANX}",
    "ranx.precision@10": f"p@10 rel_level=1 {RANX}",
    "ranx.precision": f"p rel_level=1 {RANX}",
    "ranx.recall@100": f"recall@100 rel_level=1 empty=zero {RANX}",
    "ranx.f1@10": f"f(beta=1)@10 rel_level=1 {RANX}",
    "ranx.r-precision": f"rprec rel_level=1 {RANX}",
    "ranx.mrr@10": f"mrr@10 rel_level=1 {RANX}",
    "ranx.mrr": f"mrr rel_level=1 {RANX}",
    "ranx.map@100": f"map@100 rel_level=1 {RANX}",
    "ranx.map": f"map {RANX}",
    "ranx.bpref": f"ranx_bpref rel_level=1 {RANX}",
    "ranx.dcg@10": f"dcg@10 gain=linear min_grade=1 {RANX}",
    "ranx.dcg_burges@10": f"dcg@10 gain=exp2 min_grade=1 {RANX}",
    "ranx.ndcg@10": "ranx@10",
    "ranx.ndcg": "ranx",
    "ranx.ndcg_burges@10": "ranx.burges@10",
    "ranx.ndcg_burges": "ranx.burges",
    "ranx.ndcg-l2@5": "ranx@5 min_grade=2",
    "ranx.ndcg_burges-l0": "ranx.burges min_grade=0",
    "ranx.make_comparable.ndcg@10": "ranx.make_comparable@10",
    "ranx.make_comparable.ndcg_burges": "ranx.burges.make_comparable",
    "ranx.make_comparable.map-l2@5": "map@5 rel_level=2 ties=quicksort(2) negative=zero missing=zero",
    "ranx.make_comparable.rbp.95": "rbp(p=0.95,scale=grade) rel_level=1 ties=quicksort(2) negative=zero missing=zero",
    "ranx.make_comparable.hit_rate@3": "success@3 rel_level=1 ties=quicksort(2) negative=zero missing=zero",
    "ranx.map-l2@100": f"map@100 rel_level=2 {RANX}",
    "ranx.precision-l0@5": f"p@5 rel_level=0 {RANX}",
    "ranx.hits-l3": f"hits rel_level=3 {RANX}",
    "ranx.map-l-1": "map rel_level=-1 ties=quicksort(1) negative=keep missing=zero",
    "ranx.dcg-l-1@5": "dcg@5 min_grade=-1 ties=quicksort(1) negative=keep missing=zero",
    "ranx.dcg_burges-l2": f"dcg gain=exp2 min_grade=2 {RANX}",
    "ranx.bpref-l2": f"ranx_bpref rel_level=2 {RANX}",
    "ranx.map@10 rel_level=2": f"map@10 rel_level=2 {RANX}",  # (axes written after the name override its own)
    "ranx.ndcg@10 ties=input": "ranx@10 ties=input",
}


@pytest.mark.parametrize(("spec", "expected"), list(TABLE.items()))
def test_names_resolve_to_their_flavors(spec, expected):
    flavors = parse_spec(spec)
    assert flavors == parse_spec(expected), (str(flavors[0]), str(parse_spec(expected)[0]))
    flavor = flavors[0]
    assert Flavor.parse(str(flavor)) == flavor
    reads = registry.get(flavor.metric).reads
    assert all(axis.name in reads for axis in AXES if getattr(flavor, axis.name) != axis.default)


def test_every_name_in_the_table_resolves():
    """Every ranx name in the table gives a measure that sets only axes its metric reads."""
    for name, entry in ranx_names.ranx_names().items():
        for level in (1, 0, 3, -1):
            spelled = name if level == 1 else f"{name}-l{level}"
            cutoff = None if entry.cutoff == "ignored" else 5
            if entry.metric == "ndcg" and level < 0:
                continue
            found = ranx_names.measure(spelled, (), cutoff)
            assert found is not None and found.metric == entry.metric and found.cutoff == cutoff, spelled
            assert set(found.axes) <= set(registry.get(found.metric).reads), spelled
            assert found.axes["ties"] == "quicksort(1)" and found.axes["missing"] == "zero", spelled
            found = ranx_names.measure(f"make_comparable.{spelled}", (), cutoff)
            assert found is not None and found.axes["ties"] == "quicksort(2)", spelled


@pytest.mark.parametrize("name", ["map-l", "map-lx", "map-l2.5", "map-l2-l3", "rbp", "rbp.95@10", "ndcg@5-l"])
def test_names_ranx_refuses_are_refused(name):
    assert ranx_refuses(name), name
    with pytest.raises(SpecError, match=r"ranx\."):
        parse_spec(rf_spec(name))


@pytest.mark.parametrize("name", ["bpref", "r-precision"])
def test_a_cutoff_ranx_ignores_is_refused(name):
    qrels, run = {"q": {"a": 1, "b": 1, "c": 0}}, {"q": {"c": 3.0, "a": 2.0, "x": 1.5, "b": 1.0}}
    scores = ranx_scores(qrels, run, [name, f"{name}@1"])
    assert scores[name] == scores[f"{name}@1"]  # (ranx reads no k)
    with pytest.raises(SpecError, match="ignores @k"):
        parse_spec(f"ranx.{name}@1")


def test_rbp_spellings():
    """ranx reads rbp@95 and rbp.95 alike, and rbp.9.5 as rbp.9: rankflavor names what it refuses."""
    qrels, run = {"q": {"a": 1, "b": 1}}, {"q": {"a": 2.0, "x": 1.5, "b": 1.0}}
    scores = ranx_scores(qrels, run, ["rbp.95", "rbp@95", "rbp.9", "rbp.9.5"])
    assert scores["rbp.95"] == scores["rbp@95"] and scores["rbp.9"] == scores["rbp.9.5"]
    with pytest.raises(SpecError, match=r"write it ranx\.rbp\.95"):
        parse_spec("ranx.rbp@95")
    for spec in ("ranx.rbp.9.5", "ranx.rbp.x5", "ranx.rbp."):
        with pytest.raises(SpecError, match="digits of its persistence"):
            parse_spec(spec)
    with pytest.raises(SpecError, match="no cutoff and no parameters"):
        parse_spec("ranx.rbp.95(1)")


def test_hit_rate_without_a_cutoff_is_refused():
    """ranx's hit_rate without k reads the whole list; rankflavor's success needs a cutoff (metrics/precision.py),
    so the name is refused with the cutoff that gives the same values."""
    case = random_case(3, max_docs=30)
    scores = ranx_scores(case.qrels, case.run, ["hit_rate", "hit_rate@1000"])
    assert scores["hit_rate"] == scores["hit_rate@1000"]
    with pytest.raises(SpecError, match=r"write ranx\.hit_rate@k"):
        parse_spec("ranx.hit_rate")
    assert rf_values("ranx.hit_rate@1000", case.qrels, case.run) == pytest.approx(scores["hit_rate"])


def test_parameters_are_refused():
    with pytest.raises(SpecError, match="no parameters"):
        parse_spec("ranx.map(2)@10")


@pytest.mark.parametrize("name", ["foo", "NDCG", "ndcg_cut", "interpolated_precision_at_recall", "foo-l2", "xrbp.95",
                                  "map.5", "P_10"])
def test_unknown_names_return_none(name):
    assert ranx_refuses(name)
    assert ranx_names.measure(name, (), None) is None
    with pytest.raises(SpecError, match="unknown metric or preset"):
        parse_spec(f"ranx.{name}")


# ---- the hits metric: engine against its reference ----------------------------------------------------------------

@given(qrels_and_run(), flavors(metric="hits"))
def test_hits_engine_matches_its_reference(data, flavor):
    qrels, run = data
    try:
        expected = reference_evaluate(flavor, qrels, run)
    except RefError:
        with pytest.raises(rf.EvaluationError):
            rf.evaluate(qrels, run, flavor)
        return
    report = rf.evaluate(qrels, run, flavor)
    rows = {r["query"]: r for r in report.results[0].per_query()}
    assert set(rows) == set(expected)
    for query, ref in expected.items():
        assert rows[query]["status"] == ref.status
        assert (rows[query]["value"] is None) == (ref.value is None)
        if ref.value is not None:
            assert close(rows[query]["value"], ref.value), (query, rows[query], ref)
    kept = [r.raw_value for r in expected.values() if r.raw_value is not None]
    kept += [0.0] * (sum(1 for q in run if not qrels.get(q)) if flavor.unjudged_queries == "zero" else 0)
    if flavor.weights == "none" and flavor.round.decimals is None:
        mean = report.mean()
        assert (mean is None and not kept) or close(mean, sum(kept) / len(kept))  # (a mean, not a sum)
    assert report.verify() == []


def test_hits_summary_is_the_mean():
    qrels, run = {"q": {"a": 1, "b": 1}, "r": {"a": 1}}, {"q": {"a": 2.0, "b": 1.0}, "r": {"x": 1.0}}
    assert rf_values("hits", qrels, run) == {"q": 2.0, "r": 0.0}
    assert rf_mean("hits", qrels, run) == 1.0
