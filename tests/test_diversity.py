"""The subtopic qrels input kind and the diversity metrics: the engine against reference/diversity.py on random
subtopic qrels and runs (never against itself), records and verify, the bad inputs and the CLI.
ndeval itself: tests/peers/test_ndeval.py."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.cli.main import main
from rankflavor.inputs.subtopics import read_subtopic_qrels, subtopic_qrels_from_python
from rankflavor.reference import diversity as ref
from rankflavor.reference.lists import ranked_list

DOCS = [f"d{i}" for i in range(8)]


@st.composite
def subtopic_case(draw):
    """({qid: {subtopic: {doc: grade}}}, {qid: {doc: score}}): ties, unjudged docs, queries on one side only."""
    qrels, run = {}, {}
    for q in ("q1", "q2", "q3"):
        if draw(st.booleans()) or q == "q1":
            subs = draw(st.lists(st.sampled_from(["1", "2", "3", "10"]), min_size=1, max_size=3, unique=True))
            qrels[q] = {s: draw(st.dictionaries(st.sampled_from(DOCS), st.sampled_from([0, 0, 1, 2, 3]), min_size=1,
                                                max_size=5)) for s in subs}
        if draw(st.booleans()) or q == "q1":
            run[q] = draw(st.dictionaries(st.sampled_from(DOCS), st.sampled_from([1.0, 2.0, 2.5, 3.0]), max_size=7))
    return qrels, run


FLAVORS = st.builds(
    lambda metric, alpha, norm, beta, k, ties, unjudged, depth, rel: (
        f"{metric}" + {"alpha_ndcg": f"(alpha={alpha},norm={norm})", "err_ia": f"(alpha={alpha},norm={norm})",
                       "nrbp": f"(alpha={alpha},beta={beta},norm={norm})"}.get(metric, "")
        + ("" if metric in ("nrbp", "ap_ia") else f"@{k}")
        + f" ties={ties} unjudged={unjudged} run_depth={depth} rel_level={rel}"),
    st.sampled_from(["alpha_ndcg", "err_ia", "nrbp", "p_ia", "s_recall", "ap_ia"]),
    st.sampled_from(["0.5", "0.25", "1", "0"]),
    st.sampled_from(["greedy", "ideal_ideal"]), st.sampled_from(["0.5", "0.8"]), st.sampled_from([1, 2, 3, 5]),
    st.sampled_from(["docid_desc", "docid_asc", "input", "random(3)"]), st.sampled_from(["zero", "skip"]),
    st.sampled_from(["all", "3"]), st.sampled_from([1, 2]))


def reference_value(flavor: rf.Flavor, subtopics: dict, ranking: dict, query: str) -> float | None:
    """The reference/diversity.py value of one query (the ranked list as reference/lists.py makes it)."""
    doc_level: dict[str, float] = {}
    for docs in subtopics.values():
        for doc, grade in docs.items():
            doc_level[doc] = max(doc_level.get(doc, grade), grade)
    ranked = ranked_list(flavor, doc_level, ranking, list(ranking), query).docs
    sets, m = ref.relevant_sets(subtopics, flavor.rel_level.threshold)
    k = flavor.cutoff
    if flavor.metric == "p_ia":
        value, _, undefined = ref.precision_ia(ranked, sets, m, k)
    elif flavor.metric == "s_recall":
        value, _, undefined = ref.subtopic_recall(ranked, sets, m, k)
    elif flavor.metric == "ap_ia":
        value, _, undefined = ref.ap_ia(ranked, sets, m)
    else:
        kind = {"alpha_ndcg": "log2", "err_ia": "reciprocal", "nrbp": "geometric"}[flavor.metric]
        beta = flavor.param("beta").number if flavor.metric == "nrbp" else 0.5
        value, _, undefined = ref.normalised(kind, ranked, sets, m, flavor.param("alpha").number, k,
                                             str(flavor.param("norm")), beta)
    return 0.0 if undefined else value  # (empty=zero)


AP_IA_FLAVORS = st.builds(lambda ties, unjudged, depth, rel: f"ap_ia ties={ties} unjudged={unjudged} "
                          f"run_depth={depth} rel_level={rel}",
                          st.sampled_from(["docid_desc", "docid_asc", "input", "random(3)"]),
                          st.sampled_from(["zero", "skip"]), st.sampled_from(["all", "3", "1"]), st.sampled_from([1, 2]))


@settings(max_examples=80)
@given(subtopic_case(), FLAVORS)
def test_engine_matches_the_reference(case, spec):
    engine_against_reference(case, spec)


@settings(max_examples=60)
@given(subtopic_case(), AP_IA_FLAVORS)
def test_ap_ia_matches_the_reference(case, spec):
    """ap_ia (ndeval's MAP-IA) on its own, so that it meets many random cases."""
    engine_against_reference(case, spec)


def engine_against_reference(case, spec):
    qrels, run = case
    flavor = rf.Flavor.parse(spec)
    report = rf.evaluate(qrels, run, flavor)
    rows = {row["query"]: row for row in report.results[0].per_query()}
    scored = [q for q in qrels if q in run]
    assert {q for q, row in rows.items() if row["status"] != "missing"} == set(scored)
    for query in scored:
        expected = reference_value(flavor, qrels[query], run[query], query)
        assert math.isclose(rows[query]["value"], expected, rel_tol=1e-9, abs_tol=1e-12), (query, rows[query], expected)
    if scored:
        assert math.isclose(report.results[0].mean, sum(rows[q]["value"] for q in scored) / len(scored), abs_tol=1e-12)
        assert report.verify() == []


def test_a_worked_query():
    """alpha = 0.5, k = 3: d4 covers subtopics 1 and 3 (g = 2), d1 covers 1 again (g = 0.5), d2 covers 2 (g = 1).
    DCG = 2 + 0.5 / log2(3) + 1 / 2; the greedy ideal d4, d2, then d1 or d3 (0.5 each; d3, the greater id):
    2 + 1 / log2(3) + 0.5 / 2."""
    qrels = {"q": {"1": {"d1": 1, "d4": 1}, "2": {"d2": 1, "d1": 0}, "3": {"d3": 2, "d4": 1}}}
    run = {"q": {"d4": 3.0, "d1": 2.0, "d2": 1.0}}
    report = rf.evaluate(qrels, run, ["alpha_ndcg@3", "p_ia@3", "s_recall@2", "err_ia@3", "ap_ia"])
    ndcg, p_ia, s_recall, err_ia, ap_ia = (r.mean for r in report.results)
    assert math.isclose(ndcg, (2 + 0.5 / math.log2(3) + 0.5) / (2 + 1 / math.log2(3) + 0.25))
    assert math.isclose(p_ia, 4 / (3 * 3))
    assert math.isclose(s_recall, 2 / 3)
    assert math.isclose(err_ia, (2 + 0.5 / 2 + 1 / 3) / (3 * (1 + 0.5 / 2 + 0.25 / 3)))
    # AP-IA: subtopic 1 (d4, d1 at ranks 1, 2 of 2 relevant): (1 + 1) / 2; 2 (d2 at 3): 1/3; 3 (d4 at 1; d3 unranked)
    assert math.isclose(ap_ia, ((1 + 2 / 2) / 2 + (1 / 3) / 1 + (1 / 1) / 2) / 3)


@pytest.mark.parametrize(("spec", "column", "broken"), [("alpha_ndcg@2", "gain", 0.5), ("nrbp", "weight", 0.1),
                                                        ("err_ia(norm=greedy)@2", "gain", 2.0),
                                                        ("p_ia@2", "subtopics", 2.0), ("s_recall@2", "new", 0.0),
                                                        ("ap_ia", "gain", 0.0)])
def test_a_broken_record_is_caught(spec, column, broken):
    qrels = {"q": {"1": {"d1": 1}, "2": {"d2": 1}}}
    flavor = rf.Flavor.parse(spec)
    record = rf.explain(qrels, {"q": {"d1": 2.0, "d2": 1.0}}, "q", flavor)
    metric = rf.registry.get(flavor.metric)
    assert metric.check_record(record, flavor) == []
    record.ranked[1][column] = broken
    assert metric.check_record(record, flavor)


@pytest.mark.parametrize(("text", "message", "line"), [
    ("1 1 d1 1\n1 2 d1\n", "expected 4 columns", 2),
    ("1 1 d1 1\n1 2 d1 high\n", "grade 'high' is not a finite number", 2),
    ("1 1 d1 1\n# c\n1 1 d1 0\n", "judged twice (first at line 1)", 3),
    ("1 0 d1 1\n2 0 d2 0\n", "this is a plain qrels", None),
])
def test_bad_subtopic_qrels_name_file_line_and_fix(tmp_path, text, message, line):
    path = tmp_path / "div.qrels"
    path.write_text(text)
    with pytest.raises(rf.InputError, match=re.escape(message)) as caught:
        read_subtopic_qrels(path)
    assert caught.value.line == line and caught.value.fix and caught.value.source == str(path)


def test_a_plain_python_qrels_is_refused_for_a_diversity_measure():
    with pytest.raises(rf.InputError, match="needs a subtopic qrels"):
        rf.evaluate({"q": {"d1": 1}}.items().__iter__(), {"q": {"d1": 1.0}}, "alpha_ndcg@5")
    with pytest.raises(rf.InputError, match="not a dict of \\(query, doc\\) judgments"):
        rf.evaluate({"q": {"d1": 1}}, {"q": {"d1": 1.0}}, "alpha_ndcg@5")


def test_rows_and_nested_dicts_are_one_qrels():
    rows = subtopic_qrels_from_python([("q", "a", "d1", 1), ("q", "b", "d1", 0), ("q", "b", "d2", 2)])
    nested = subtopic_qrels_from_python({"q": {"a": {"d1": 1}, "b": {"d1": 0, "d2": 2}}})
    assert rows.judgments.subtopic == nested.judgments.subtopic
    assert sorted(zip(rows.doc.to_pylist(), rows.grade, strict=True)) == [("d1", 1.0), ("d2", 2.0)]  # doc level


def test_a_subtopic_qrels_given_to_a_doc_level_measure_says_what_it_is(tmp_path):
    path = tmp_path / "div.qrels"
    path.write_text("1 1 d1 1\n1 2 d1 0\n")
    run = tmp_path / "run"
    run.write_text("1 Q0 d1 1 1.0 r\n")
    with pytest.raises(rf.InputError, match="duplicate judgment") as caught:
        rf.evaluate(str(path), str(run), "ndcg@5")
    assert "subtopic (diversity) qrels" in caught.value.fix
    both = rf.evaluate(str(path), str(run), ["alpha_ndcg@5", "ndcg@5"])  # the doc-level view: d1 at its top grade
    assert [r.mean for r in both.results] == [1.0, 1.0]


def test_the_cli_evaluates_a_subtopic_qrels(tmp_path, capsys):
    path = tmp_path / "div.qrels"
    path.write_text("7 1 a 1\n7 2 b 1\n7 2 a 0\n")
    run = tmp_path / "run"
    run.write_text("7 Q0 b 1 2.0 r\n7 Q0 c 2 1.0 r\n7 Q0 a 3 0.5 r\n")
    assert main(["eval", str(path), str(run), "-m", "s_recall@2", "-m", "ndeval.P-IA@2", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert "s_recall@2" in out and "0.5" in out and "0.25" in out


@pytest.mark.parametrize(("spec", "message"), [("alpha_ndcg", "needs a cutoff"), ("nrbp@5", "takes no cutoff"),
                                               ("ap_ia@5", "takes no cutoff"),
                                               ("alpha_ndcg@5 ties=average", "ties=average"),
                                               ("nrbp(beta=1)", "beta")])
def test_refused_specs(spec, message):
    with pytest.raises(rf.SpecError, match=message):
        rf.Flavor.parse(spec)


def test_compare_reads_a_subtopic_qrels(tmp_path, capsys):
    path = tmp_path / "div.qrels"
    path.write_text("7 1 a 1\n7 2 b 1\n8 1 c 1\n8 3 a 1\n")
    for name, scores in (("x", "a 2.0 b 1.0"), ("y", "b 2.0 a 1.0")):
        docs = scores.split()
        (tmp_path / name).write_text("".join(f"{q} Q0 {d} 1 {s} r\n" for q in ("7", "8")
                                             for d, s in zip(docs[::2], docs[1::2], strict=True)))
    assert main(["compare", str(path), str(tmp_path / "x"), str(tmp_path / "y"), "-m", "s_recall@1",
                 "--format", "json"]) == 0
    assert '"s_recall@1"' in capsys.readouterr().out


@settings(max_examples=30)
@given(subtopic_case(), FLAVORS)
def test_chunks_give_the_whole_evaluations_numbers(case, spec):
    """A run evaluated a chunk of queries at a time (engine/chunks.py) scores as when evaluated whole."""
    from unittest.mock import patch

    import numpy as np

    from rankflavor.engine import Engine, chunks, front
    from rankflavor.inputs.pipeline import prepare

    qrels, run = case
    dataset, _ = prepare(subtopic_qrels_from_python(qrels), run)
    flavor = rf.Flavor.parse(spec)
    with patch.object(front, "select_prefix", lambda *args: None):
        with patch.object(chunks, "CHUNK_ROWS", 1), patch.object(chunks, "ROWS_PER_QUERY", 0):  # a query a chunk
            chunked = Engine(dataset).evaluate(dataset.runs[0], [flavor])[0].results
        whole = Engine(dataset, chunked=False).evaluate(dataset.runs[0], [flavor])[0].results
    assert np.array_equal(chunked.value, whole.value, equal_nan=True)


def test_ir_measures_judged_only_keeps_a_negatively_graded_doc():
    """pyndeval_provider.py's judged_only filter keeps every (query, doc) of the qrels, a negative grade included:
    `a` (grade -2) stays at rank 1 with no gain, `b` is at rank 2: 1 / log2(3) (dropping `a` would give 1)."""
    qrels = {"q": {"1": {"a": -2, "b": 1}}}
    report = rf.evaluate(qrels, {"q": {"a": 2.0, "b": 1.0}}, "ir_measures.alpha_nDCG(judged_only=True)@5")
    assert math.isclose(report.results[0].mean, 1 / math.log2(3))
