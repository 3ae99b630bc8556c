"""engine/chunks.py: a large run on the general path is evaluated a chunk of whole queries at a time.

Chunks are forced on small runs by shrinking CHUNK_ROWS; the values must be the reference's, and every
per-query field and row count must equal the unchunked evaluation's (which the reference tests cover)."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from unittest.mock import patch

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor import registry
from rankflavor.engine import Engine, QueryResults, chunks, front, select
from rankflavor.engine.lists import ListSpec
from rankflavor.engine.scope import DatasetScope, RunScope
from rankflavor.inputs.pipeline import prepare
from strategies import flavors
from test_engine_fast import _check, _data


@contextmanager
def _small_chunks(rows: int):
    """Chunks of `rows` rows whatever the number of queries."""
    with patch.object(chunks, "CHUNK_ROWS", rows), patch.object(chunks, "ROWS_PER_QUERY", 0):
        yield


def _fields_equal(a: QueryResults, b: QueryResults) -> None:
    assert vars(a).keys() == vars(b).keys()
    for name, x in vars(a).items():
        y = getattr(b, name)
        if name == "parts":
            assert list(x) == list(y)
            for part in x:
                assert np.array_equal(x[part], y[part], equal_nan=True), (part, x[part], y[part])
        elif isinstance(x, np.ndarray):
            assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), (name, x, y)
        else:
            assert x == y, (name, x, y)


def _chunked_and_whole(qrels, rows, flavor, rows_per_chunk=5):
    """The general path (no prefix) split into chunks, and not split."""
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    run = dataset.runs[0]
    with patch.object(front, "select_prefix", lambda *args: None):
        with _small_chunks(rows_per_chunk):
            chunked = Engine(dataset).evaluate(run, [flavor])[0].results
        whole = Engine(dataset, chunked=False).evaluate(run, [flavor])[0].results
    return chunked, whole


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8), st.integers(1, 25), st.booleans(), flavors())
def test_chunked_evaluation_matches_the_reference(seed, queries, max_docs, interleave, flavor):
    qrels, rows = _data(seed, queries, max_docs, interleave)
    with _small_chunks(5), patch.object(select, "DEEP_ROWS", 0):
        _check(qrels, rows, flavor)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8), st.integers(1, 25), st.booleans(), flavors())
def test_chunked_evaluation_of_trec_files_matches_the_reference(tmp_path_factory, seed, queries, max_docs,
                                                                interleave, flavor):
    qrels, rows = _data(seed, queries, max_docs, interleave)  # (the run keeps the reader's per-file codes)
    if rows:
        with _small_chunks(5), patch.object(select, "DEEP_ROWS", 0):
            _check(qrels, rows, flavor, tmp_path_factory.mktemp("trec"))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 8), st.integers(1, 25), st.booleans(), flavors())
def test_chunked_evaluation_equals_the_whole_one_field_by_field(seed, queries, max_docs, interleave, flavor):
    qrels, rows = _data(seed, queries, max_docs, interleave)
    try:
        chunked, whole = _chunked_and_whole(qrels, rows, flavor)
    except rf.EvaluationError:
        return  # (an error is the whole run's: test_an_error_met_in_a_chunk_is_the_whole_runs)
    _fields_equal(chunked, whole)


@pytest.mark.parametrize("spec", ["trec_eval.ndcg", "ndcg ties=average", "ndcg@30 ties=pessimistic",
                                  "ndcg ideal=local negative=drop", "ndcg unjudged=skip", "ndcg self_docs=drop",
                                  "ndcg run_depth=7", "ndcg@40 ideal=max", "dcg ties=random(3)", "ndcg@25 ties=input"])
def test_large_uncut_runs_are_chunked_and_exact(spec):
    qrels, rows = _data(7, 12, 30, True)
    rows.append(("q0", "q0", 2.0))  # a self doc
    calls = []
    original = chunks.evaluate_in_chunks

    def spy(*args, **kwargs):
        calls.append(len(args[2]))
        return original(*args, **kwargs)

    with patch.object(front, "evaluate_in_chunks", spy), _small_chunks(20), \
            patch.object(select, "DEEP_ROWS", 0):
        _check(qrels, rows, rf.Flavor.parse(spec))
    assert calls and calls[0] > 2, "the run was not evaluated in chunks"
    chunked, whole = _chunked_and_whole(qrels, rows, rf.Flavor.parse(spec), rows_per_chunk=20)
    _fields_equal(chunked, whole)


def test_queries_without_rows_stay_present_or_missing_as_in_the_run():
    # e: listed by the run with no docs (present: scored 0); b: not in the run (missing)
    qrels = {"a": {"x": 1}, "b": {"y": 2}, "c": {"z": 1}, "d": {"w": 3}, "e": {"v": 2}}
    run = {"c": {f"n{i}": float(i) for i in range(12)} | {"z": 0.5}, "a": {"x": 1.0}, "e": {},
           "d": {f"m{i}": 1.0 for i in range(9)}}
    for flavor in ("trec_eval.ndcg", "ndcg missing=zero", "ndcg empty=skip"):
        whole = rf.evaluate(qrels, run, flavor)
        with _small_chunks(4):
            chunked = rf.evaluate(qrels, run, flavor)
        assert chunked.result().per_query() == whole.result().per_query()
        assert chunked.result().counts == whole.result().counts
        status = {row["query"]: row["status"] for row in chunked.result().per_query()}
        assert status["b"] == "missing" and status["e"] == "ok"


def test_an_error_met_in_a_chunk_is_the_whole_runs():
    qrels = {f"q{i}": {"d1": 1} for i in range(6)}
    rows = [(f"q{i}", f"d{j}", float(-j)) for i in range(6) for j in (1, 2, 3)]  # d2, d3 unjudged everywhere
    flavor = rf.Flavor.parse("ndcg unjudged=error")
    with pytest.raises(rf.EvaluationError) as whole:
        _chunked_and_whole(qrels, rows, flavor, rows_per_chunk=10**9)
    with pytest.raises(rf.EvaluationError) as chunked:
        _chunked_and_whole(qrels, rows, flavor, rows_per_chunk=4)
    assert str(chunked.value) == str(whole.value) and "12 unjudged docs in all" in str(chunked.value)


@pytest.mark.parametrize(("deep_rows", "in_chunk", "prefix_taken"), [(0, False, False), (10**6, False, True),
                                                                     (0, True, True)])
def test_a_deep_cutoff_leaves_the_prefix_path_only_for_a_prefix_of_many_rows(deep_rows, in_chunk, prefix_taken):
    """The prefix's caches are shared by the flavors that read it (24 flavors cost less than 2x one): a
    prefix of most of a large run's rows, and more than DEEP_ROWS, goes to the chunked general path; in a
    chunk (which is not cut again), the prefix is taken however deep."""
    qrels, rows = _data(7, 12, 30, False)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    flavor = rf.Flavor.parse("trec_eval@40")  # a prefix of every row
    scope = RunScope(DatasetScope(dataset), dataset.runs[0])
    with _small_chunks(5), patch.object(select, "DEEP_ROWS", deep_rows):
        metric = registry.get(flavor.metric)
        spec = ListSpec.of(flavor, metric.depth_read(flavor), metric.reads_whole_list(flavor))
        prefix = select.select_prefix(scope, spec, in_chunk)
    assert (prefix is not None) == prefix_taken


def test_a_run_of_many_short_queries_is_cut_in_fewer_chunks():
    """Each chunk's results are arrays over every query code: with many queries per row, chunks grow so that
    their per-query work stays below their per-row work (ROWS_PER_QUERY rows per query code at least)."""
    qrels, rows = _data(3, 40, 3, False)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    with patch.object(chunks, "CHUNK_ROWS", 4):
        assert chunks.chunk_rows(dataset) == chunks.ROWS_PER_QUERY * dataset.n_queries > len(rows)
        calls = []
        with patch.object(front, "evaluate_in_chunks", lambda *args: calls.append(args)):
            Engine(dataset).evaluate(dataset.runs[0], [rf.Flavor.parse("trec_eval.ndcg")])
    assert not calls  # (fewer rows than one chunk: evaluated whole)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_chunks_evaluated_in_threads_equal_the_whole_run(workers):
    """Chunks evaluated several at a time (threads sharing the dataset's stages) give every field of the
    whole run's results, for several flavors sharing the chunks."""
    qrels, rows = _data(11, 14, 30, True)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    run = dataset.runs[0]
    flavors = [rf.Flavor.parse(s) for s in ("trec_eval.ndcg", "ndcg ties=average", "map", "recall@20",
                                            "ndcg unjudged=skip", "p@5 rel_level=2", "bpref")]
    threads: set[str] = set()
    evaluate_chunk = front.Engine._evaluate_chunk

    def spy(self, sub, chosen):
        threads.add(threading.current_thread().name)
        return evaluate_chunk(self, sub, chosen)

    with patch.object(front, "select_prefix", lambda *args: None):
        whole = Engine(dataset, chunked=False).evaluate(run, flavors)
        with _small_chunks(25), patch.object(chunks, "WORKERS", workers), \
                patch.object(front.Engine, "_evaluate_chunk", spy):
            chunked = Engine(dataset).evaluate(run, flavors)
    for a, b in zip(chunked, whole, strict=True):
        _fields_equal(a.results, b.results)
    helpers = threads - {threading.main_thread().name}  # (a pool reuses an idle thread: up to `workers`)
    assert (0 < len(helpers) <= workers) if workers > 1 else not helpers


def test_chunks_grow_with_the_flavors_that_share_them():
    dataset, _ = prepare({"q": {"a": 1}}, {"q": {"a": 1.0}})
    base = chunks.chunk_rows(dataset)
    assert [chunks.chunk_rows(dataset, n) for n in (1, 7, 8, 16, 24, 32, 500)] == \
        [base, base, base, 2 * base, 3 * base, 4 * base, 4 * base]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 8), st.integers(5, 25), st.booleans())
def test_many_flavors_over_shared_chunks_equal_each_flavor_alone(seed, n_queries, depth, interleave):
    """Several flavors evaluated together over one set of chunks (one chunk memo serving them all, ranked rows
    and qrels-only rows shared) give each flavor's own unchunked results."""
    qrels, rows = _data(seed, n_queries, depth, interleave)
    specs = ["map", "p@3 ties=average", "recall", "bpref rel_level=2", "iprec(level=0.3)", "ndcg@5 gain=exp2",
             "rbp(p=0.8)", "g", "mrr unjudged=skip", "num_rel_ret", "infap", "err@4"]
    wanted = [rf.Flavor.parse(s) for s in specs]
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    run = dataset.runs[0]
    with patch.object(front, "select_prefix", lambda *args: None), _small_chunks(7):
        together = Engine(dataset).evaluate(run, wanted)
        for flavor, got in zip(wanted, together, strict=True):
            _fields_equal(got.results, Engine(dataset, chunked=False).evaluate(run, [flavor])[0].results)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 8), st.integers(8, 25), st.booleans())
def test_a_run_in_chunks_takes_its_shallow_flavors_along_and_each_gets_its_own_results(seed, n_queries, depth,
                                                                                      interleave):
    """Once a large run goes in chunks (its whole-list flavors), its cutoff flavors, which alone would take the
    top-k selection over the whole run, are evaluated over the same chunks (their selections narrowed from each
    chunk's): each flavor's results are still its unchunked ones."""
    qrels, rows = _data(seed, n_queries, depth, interleave)
    specs = ["p@1", "ndcg@3", "map", "recall@5 ties=average", "mrr@2", "num_ret"]
    wanted = [rf.Flavor.parse(s) for s in specs]
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    run = dataset.runs[0]
    if run.n_rows <= 7 or not run.layout.paddable:
        return
    seen: list[str] = []
    original = front.Engine._evaluate_chunk

    def spy(self, sub, chosen):
        seen.extend(str(flavor) for flavor in chosen)
        return original(self, sub, chosen)

    with _small_chunks(7), patch.object(select, "DEEP_ROWS", 0), \
            patch.object(front.Engine, "_evaluate_chunk", spy):
        Engine(dataset).evaluate(run, wanted[:1])
        if seen:
            return  # (p@1 alone goes in chunks: nothing to show)
        together = Engine(dataset).evaluate(run, wanted)
    if seen:  # (else the run is too small or too uneven to go in chunks at all)
        assert set(seen) == {str(flavor) for flavor in wanted}
    for flavor, got in zip(wanted, together, strict=True):
        _fields_equal(got.results, Engine(dataset, chunked=False).evaluate(run, [flavor])[0].results)
