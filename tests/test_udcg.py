"""UDCG (metrics/udcg.py): the authors' definition on the example of their repository, the +1/0/-1 labels with a
log2 discount on hand-worked lists, the engine against the slow reference (reference/udcg.py), records and
verify, and the refusals."""

from __future__ import annotations

import math
from unittest.mock import patch

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.engine import Engine, front, select
from rankflavor.errors import SpecError
from rankflavor.inputs.duplicates import COUNT
from rankflavor.inputs.pipeline import prepare
from strategies import flavors, qrels_and_run
from test_chunks import _chunked_and_whole, _fields_equal, _small_chunks
from test_engine_fast import _data
from test_engine_vs_reference import check
from test_spark_partials import _assert_close, _case, _spark_side

MODEL = "meta-llama/Llama-3.2-3B-Instruct"
# GiovanniTRA/UDCG data/dataset_with_scores.json (commit a02faf3): per example, each passage in the order given
# with its is_relevant label and its no_res_prob for MODEL (the model's abstention probability).
AUTHORS_EXAMPLE = {
    "example_1": [("doc_1", True, 2.086162567138672e-06), ("doc_2", True, 1.341104507446289e-05),
                  ("doc_3", False, 0.1318359375), ("doc_4", False, 0.1812744140625),
                  ("doc_5", False, 0.02081298828125)],
    "example_2": [("doc_6", True, 5.960464477539063e-08), ("doc_7", True, 6.616115570068359e-06),
                  ("doc_8", False, 0.00018215179443359375), ("doc_9", False, 0.006114959716796875),
                  ("doc_10", False, 0.0093536376953125)],
    "example_3": [("doc_11", True, 3.0100345611572266e-05), ("doc_12", False, 0.00010311603546142578),
                  ("doc_13", False, 0.007602691650390625), ("doc_14", False, 0.01299285888671875),
                  ("doc_15", False, 0.00013053417205810547)],
}
# the same repository's data/dataset_with_udcg.json: the udcg its compute_udcg_scores.py wrote for MODEL, run by
# example_pipeline.sh with --irrelevant_weight -0.333 (not the script's default -1/3)
AUTHORS_PRINTED = {"example_1": 0.5553808928170055, "example_2": 0.5501411475208001,
                   "example_3": 0.4837510250741193}


def authors_by_hand(passages, irrelevant_weight: float = -1 / 3) -> float:
    """compute_udcg_score (src/compute_udcg_scores.py): sum of (1 - no_res_prob) x (1 if relevant else
    irrelevant_weight) over the passages, divided by their number, through 1 / (1 + e^-x)."""
    score = sum((1.0 - p) * (1.0 if relevant else irrelevant_weight) for _, relevant, p in passages) / len(passages)
    return 1.0 / (1.0 + math.exp(-score))


def authors_inputs():
    """The example as rankflavor reads it: a utility qrels (1 - no_res_prob, negative for an irrelevant passage)
    and a run ranking the passages in the order the authors list them."""
    qrels = {q: {doc: (1.0 - p) * (1 if relevant else -1) for doc, relevant, p in passages}
             for q, passages in AUTHORS_EXAMPLE.items()}
    run = {q: {doc: float(len(passages) - i) for i, (doc, _, _) in enumerate(passages)}
           for q, passages in AUTHORS_EXAMPLE.items()}
    return qrels, run


def per_query(report) -> dict[str, float]:
    return {row["query"]: row["value"] for row in report.results[0].per_query()}


def test_the_authors_definition_on_their_example():
    qrels, run = authors_inputs()
    got = per_query(rf.evaluate(qrels, run, "udcg_authors"))
    pipeline = per_query(rf.evaluate(qrels, run, "udcg_authors(distracting=0.333)"))
    for query, passages in AUTHORS_EXAMPLE.items():
        assert got[query] == pytest.approx(authors_by_hand(passages), abs=1e-12)
        assert pipeline[query] == pytest.approx(authors_by_hand(passages, -0.333), abs=1e-12)
        assert pipeline[query] == pytest.approx(AUTHORS_PRINTED[query], abs=1e-12)
        assert got[query] != pytest.approx(AUTHORS_PRINTED[query], abs=1e-6)


def test_the_authors_reading_is_the_family_with_their_parameters_and_no_discount():
    qrels, run = authors_inputs()
    spelled = per_query(rf.evaluate(qrels, run, "udcg(distracting=0.3333333333333333,norm=sigmoid_mean) "
                                                "discount=none"))
    assert spelled == pytest.approx(per_query(rf.evaluate(qrels, run, "udcg_authors")), abs=1e-15)
    assert rf.Flavor.parse("udcg(distracting=1/3,norm=sigmoid_mean) discount=none").param("distracting") == \
        rf.Flavor.parse("udcg_authors").param("distracting")
    with pytest.raises(SpecError, match="no positional discount"):
        rf.Flavor.parse("udcg_authors discount=reciprocal")


def test_the_labels_with_a_log2_discount_worked_by_hand():
    qrels = {"q1": {"a": 1, "b": -1, "c": 0, "d": 1}, "q2": {"x": -1, "y": 1}}
    run = {"q1": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0, "u": 0.5}, "q2": {"x": 2.0, "u": 1.5, "y": 1.0}}
    # q1: +1 at 1, -1 at 2, 0 at 3, +1 at 4, an unjudged doc (utility 0) at 5; q2: -1 at 1, 0 at 2, +1 at 3
    q1_at_4 = 1 / math.log2(2) - 1 / math.log2(3) + 0 + 1 / math.log2(5)
    q2_at_4 = -1 / math.log2(2) + 0 + 1 / math.log2(4)
    assert per_query(rf.evaluate(qrels, run, "udcg@4")) == pytest.approx({"q1": q1_at_4, "q2": q2_at_4})
    assert per_query(rf.evaluate(qrels, run, "udcg@2")) == pytest.approx({"q1": 1 - 1 / math.log2(3), "q2": -1.0})
    means = per_query(rf.evaluate(qrels, run, "udcg(norm=mean)@5"))
    assert means == pytest.approx({"q1": q1_at_4 / 5, "q2": q2_at_4 / 3})
    # norm=ideal: q1's best list holds its two +1s at ranks 1 and 2
    ideal = per_query(rf.evaluate(qrels, run, "udcg(norm=ideal)@4"))
    assert ideal["q1"] == pytest.approx(q1_at_4 / (1 + 1 / math.log2(3)))


def test_labels_mapped_by_a_gain_table_and_the_weights():
    qrels = {"q": {"a": 2, "b": 1, "c": 0}}  # 2 relevant, 1 a distractor, 0 neutral
    run = {"q": {"b": 3.0, "a": 2.0, "c": 1.0}}
    table = "gain={0:0,1:-1,2:1}"
    assert per_query(rf.evaluate(qrels, run, f"udcg@3 {table}"))["q"] == pytest.approx(-1 + 1 / math.log2(3))
    weighted = per_query(rf.evaluate(qrels, run, f"udcg(relevant=2,distracting=0.5)@3 {table}"))["q"]
    assert weighted == pytest.approx(-0.5 + 2 / math.log2(3))
    with pytest.raises(rf.EvaluationError, match="no gain in the table"):
        rf.evaluate(qrels, run, "udcg@3 gain={0:0,2:1}")


def test_a_positional_profile_of_weights_per_rank():
    qrels = {"q": {"a": 1, "b": 1, "c": -1}}
    run = {"q": {"a": 3.0, "c": 2.0, "b": 1.0}}
    value = per_query(rf.evaluate(qrels, run, "udcg(positions=1:0.5:0.8)@3 discount=none"))["q"]
    assert value == pytest.approx(1 * 1 - 1 * 0.5 + 1 * 0.8)
    with pytest.raises(SpecError, match="k <= 3"):
        rf.Flavor.parse("udcg(positions=1:0.5:0.8)@4")


@pytest.mark.parametrize("spec, message", [
    ("udcg ties=average", "ties=average"),
    ("udcg empty=skip", "norm=ideal"),
    ("udcg negative=keep", "distractor"),
    ("udcg unjudged=skip", "utility 0"),
    ("udcg(positions=1:-1)@2", ">= 0"),
    ("udcg(norm=max)", "valid values"),
    ("udcg(distracting=1/0)", "divides by 0"),
    ("udcg(relevant=-1)", "not in"),
])
def test_refusals(spec, message):
    with pytest.raises(SpecError, match=message):
        rf.Flavor.parse(spec)


def test_records_show_each_passage_and_verify_catches_a_wrong_one():
    qrels, run = authors_inputs()
    report = rf.evaluate(qrels, run, "udcg_authors")
    assert report.verify() == []
    record = report.explain(query="example_3")
    first = record.ranked[0]
    assert (first["doc"], first["weight"], first["discount"]) == ("doc_11", 1.0, 1.0)
    assert first["utility"] == pytest.approx(1 - 3.0100345611572266e-05)
    assert record.ranked[1]["contribution"] == pytest.approx(-(1 - 0.00010311603546142578) / 3)
    assert record.passages == 5
    record.ranked[1]["contribution"] = 0.0
    assert rf.registry.get("udcg_authors").check_record(record, rf.Flavor.parse("udcg_authors"))


@given(qrels_and_run(), flavors(metric="udcg"))
def test_udcg_matches_the_reference(data, flavor):
    check(*data, flavor)


@given(qrels_and_run(), flavors(metric="udcg_authors"))
def test_udcg_authors_matches_the_reference(data, flavor):
    check(*data, flavor)


@given(qrels_and_run(), flavors(metric="udcg"))
def test_udcg_records_verify(data, flavor):
    try:
        report = rf.evaluate(*data, flavor)
    except rf.EvaluationError:
        return
    assert report.verify() == []


def test_the_spark_engine_gives_the_local_results():
    """Spark's executor and driver sides, run by hand without Spark (tests/test_spark_partials.py): the same
    per-query values and means as the local engine, a distractor's negative utility and norm=ideal included."""
    qrels, runs, weights = _case(3)
    qrels = {q: {d: (-0.75 if g == 0 else g) for d, g in docs.items()} for q, docs in qrels.items()}
    specs = ["udcg@5", "udcg_authors", "udcg(norm=ideal)@5 empty=skip", "udcg(norm=mean,positions=1:0.5:0.8)@3",
             "udcg@5 missing=zero unjudged_queries=zero weights=w"]
    local = rf.evaluate(qrels, runs, specs, weights=weights)
    spark = _spark_side(specs, qrels, runs, weights)
    _assert_close(spark.to_dict(per_query=True)["results"], local.to_dict(per_query=True)["results"])


def test_a_utility_file_is_a_qrels_with_real_signed_grades(tmp_path):
    """The authors' example written as files: `qid 0 doc ±(1 - no_res_prob)` and a run in their order; a utility
    that is no finite number is refused with the file, the line and the fix."""
    qrels, run = authors_inputs()
    qrels_file, run_file = tmp_path / "utilities.qrels", tmp_path / "passages.run"
    qrels_file.write_text("".join(f"{q} 0 {d} {u!r}\n" for q, docs in qrels.items() for d, u in docs.items()))
    run_file.write_text("".join(f"{q} Q0 {d} {i} {s!r} llm\n" for q, docs in run.items()
                                for i, (d, s) in enumerate(docs.items(), start=1)))
    got = per_query(rf.evaluate(str(qrels_file), str(run_file), "udcg_authors"))
    assert got == pytest.approx({q: authors_by_hand(p) for q, p in AUTHORS_EXAMPLE.items()}, abs=1e-12)
    qrels_file.write_text("example_1 0 doc_1 0.99\nexample_1 0 doc_3 nan\n")
    with pytest.raises(rf.InputError) as refused:
        rf.evaluate(str(qrels_file), str(run_file), "udcg_authors")
    assert ":2" in str(refused.value) and "not a finite number" in str(refused.value)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 8), st.integers(1, 25), st.booleans(),
       st.sampled_from(["udcg", "udcg_authors"]).flatmap(lambda name: flavors(metric=name)))
def test_a_run_in_chunks_equals_the_reference_and_the_whole(seed, queries, max_docs, interleave, flavor):
    """engine/chunks.py: a chunk of whole queries at a time (tests/test_chunks.py's helpers), norm=ideal's
    qrels-wide utilities included."""
    qrels, rows = _data(seed, queries, max_docs, interleave)
    run: dict[str, dict[str, float]] = {}
    for query, doc, score in rows:
        run.setdefault(query, {})[doc] = score
    with _small_chunks(5), patch.object(select, "DEEP_ROWS", 0):
        check(qrels, run, flavor)
    try:
        chunked, whole = _chunked_and_whole(qrels, rows, flavor)
    except rf.EvaluationError:
        return
    _fields_equal(chunked, whole)


def test_a_utility_frame_is_a_qrels_frame_with_real_grades():
    qrels = pd.DataFrame({"query": ["q1"] * 3, "doc": ["a", "b", "c"], "relevance": [0.9, -0.4, 0.0]})
    run = pd.DataFrame({"query": ["q1"] * 3, "doc": ["b", "a", "c"], "score": [3.0, 2.0, 1.0]})
    assert rf.evaluate(qrels, run, "udcg_authors").mean() == pytest.approx(
        1 / (1 + math.exp(-(0.9 - 0.4 / 3) / 3)), abs=1e-15)
    with pytest.raises(rf.InputError, match="missing"):
        rf.evaluate(qrels.assign(relevance=[0.9, float("nan"), 0.0]), run, "udcg_authors")


def compute_udcg_score_by_hand(passages, irrelevant_weight: float = -1 / 3) -> float:
    """GiovanniTRA/UDCG src/compute_udcg_scores.py compute_udcg_score, worked by hand: `if len(passages) == 0: return
    0.0`; a passage without no_res_prob (None here) is skipped in the sum (`continue`) but counted in
    len(passages); every entry of the list counts, its id never read (a passage listed twice adds twice); then
    sigmoid(score / len(passages))."""
    if not passages:
        return 0.0
    score = sum((1.0 - p) * (1.0 if relevant else irrelevant_weight) for _, relevant, p in passages if p is not None)
    return 1.0 / (1.0 + math.exp(-score / len(passages)))


# the edges of compute_udcg_score, as (passage id, is_relevant, no_res_prob or None) lists
EDGES = {
    "none_scored": [("p1", True, None), ("p2", False, None)],  # no passage has a utility: sigmoid(0) = 0.5
    "repeated": [("p3", True, 0.25), ("p4", False, 0.5), ("p3", True, 0.25), ("p9", False, None)],
    "mixed": [("p5", True, 0.125), ("p6", False, None), ("p7", False, 0.75)],
}


def edge_inputs(edges):
    """A utility qrels (one row per scored passage id: a passage listed twice has one utility) and a run frame
    listing the passages in the order given (a repeated id twice), scores descending."""
    qrels = pd.DataFrame([(q, doc, (1.0 - p) * (1 if relevant else -1)) for q, passages in edges.items()
                          for doc, relevant, p in dict.fromkeys(passages) if p is not None],
                         columns=["query", "doc", "relevance"])
    run = pd.DataFrame([(q, doc, float(len(passages) - i)) for q, passages in edges.items()
                        for i, (doc, _, _) in enumerate(passages)], columns=["query", "doc", "score"])
    return qrels, run


def test_the_authors_edges_under_udcg_authors_own_defaults():
    """compute_udcg_score's edges (compute_udcg_score_by_hand): a list none of whose passages has a utility (a run
    query absent from the utilities: unjudged_queries=score) scores 0.5, a repeated passage counts twice
    (repeats=count), and an empty list 0.0 (a query of the utilities absent from the run: missing=empty; a run
    query with an empty list), each in the mean, as `udcg_authors` reads them with no axis written."""
    qrels, run = edge_inputs(EDGES)
    qrels = pd.concat([qrels, pd.DataFrame([("not_retrieved", "p8", 0.5)], columns=qrels.columns)])
    report = rf.evaluate(qrels, run, "udcg_authors")
    expected = {q: compute_udcg_score_by_hand(p) for q, p in EDGES.items()} | {"not_retrieved": 0.0}
    assert per_query(report) == pytest.approx(expected, abs=1e-15)
    assert expected["none_scored"] == 0.5
    assert report.mean() == pytest.approx(sum(expected.values()) / 4, abs=1e-15)
    assert report.verify() == []
    assert any("1 row lists a doc again" in w for w in report.provenance["input_warnings"])
    assert report.provenance["inputs"][1]["repeats_counted"] == 1
    empty = rf.evaluate({"q": {"p1": 0.5}}, {"q": {"p1": 1.0}, "empty": {}}, "udcg_authors")
    assert per_query(empty)["empty"] == 0.0 == compute_udcg_score_by_hand([])


def test_repeats_are_counted_by_every_path_of_the_engine(tmp_path):
    """The repeated passage through a TREC file (its fast reader), the prefix and the row paths, in chunks."""
    qrels, run = edge_inputs(EDGES)
    qrels_file, run_file = tmp_path / "u.qrels", tmp_path / "p.run"
    qrels_file.write_text("".join(f"{q} 0 {d} {u!r}\n" for q, d, u in qrels.itertuples(index=False)))
    run_file.write_text("".join(f"{q} Q0 {d} 1 {s!r} t\n" for q, d, s in run.itertuples(index=False)))
    expected = {q: compute_udcg_score_by_hand(p) for q, p in EDGES.items()}
    assert per_query(rf.evaluate(str(qrels_file), str(run_file), "udcg_authors")) == pytest.approx(expected, abs=1e-15)
    rows = list(run.itertuples(index=False, name=None))
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]), COUNT)
    flavor = rf.Flavor.parse("udcg_authors")
    with patch.object(front, "select_prefix", lambda *args: None):
        with _small_chunks(3):
            chunked = Engine(dataset).evaluate(dataset.runs[0], [flavor])[0].results
        whole = Engine(dataset, chunked=False).evaluate(dataset.runs[0], [flavor])[0].results
    _fields_equal(chunked, whole)
    fast = Engine(dataset).evaluate(dataset.runs[0], [flavor])[0].results
    _fields_equal(fast, whole)
    got = dict(zip(dataset.query_ids[whole.query].tolist(), whole.value.tolist(), strict=True))
    assert got == pytest.approx(expected, abs=1e-15)


def test_a_repeated_doc_is_refused_unless_every_flavor_counts_repeats():
    qrels, run = edge_inputs(EDGES)
    for specs in (["udcg@3"], ["udcg_authors(repeats=refuse)"], ["udcg_authors", "udcg@3"], ["udcg_authors", "ndcg@3"]):
        with pytest.raises(rf.InputError, match="duplicate document in the run"):
            rf.evaluate(qrels, run, specs)
    both = rf.evaluate(qrels, run, ["udcg_authors", "udcg(repeats=count)@3"])
    passages = [{row["query"]: row["passages"] for row in r.per_query()}["repeated"] for r in both.results]
    assert passages == [4.0, 3.0]  # (p3, p4, p3, p9; the top 3)
    first = rf.evaluate(qrels, run, "udcg_authors", on_duplicate="first")  # (resolved at reading, for every flavor)
    assert per_query(first)["repeated"] == pytest.approx(compute_udcg_score_by_hand(EDGES["repeated"][1:]), abs=1e-15)
    conflicting = pd.concat([qrels, pd.DataFrame([("repeated", "p3", 0.5)], columns=qrels.columns)])
    with pytest.raises(rf.InputError, match="judgments must agree"):
        rf.evaluate(conflicting, run, "udcg_authors")
    identical = pd.concat([qrels, qrels.iloc[:1]])
    assert per_query(rf.evaluate(identical, run, "udcg_authors")) == per_query(rf.evaluate(qrels, run, "udcg_authors"))


def test_udcg_authors_declares_the_authors_handling_and_the_axes_say_so():
    flavor = rf.Flavor.parse("udcg_authors")
    assert (flavor.param("repeats"), flavor.missing, flavor.unjudged_queries) == ("count", "empty", "score")
    assert flavor.short == flavor.head and rf.Flavor.parse(flavor.short) == rf.Flavor.parse(str(flavor)) == flavor
    plain = rf.Flavor.parse("udcg")
    assert (plain.param("repeats"), plain.missing, plain.unjudged_queries) == ("refuse", "skip", "skip")
    with pytest.raises(SpecError, match="unjudged_queries=score"):
        rf.Flavor.parse("ndcg@10 unjudged_queries=score")
