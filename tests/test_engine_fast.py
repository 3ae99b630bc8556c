"""The fast path (query-major layout, top-k prefix selection, caches shared across flavors) against the
slow reference, on runs bigger and more tied than the hypothesis strategies draw, in input orders that are
not grouped by query, and on layouts too uneven to pad (never against the engine itself)."""

from __future__ import annotations

import hashlib
import math
import random
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.engine import Engine, front, join, select
from rankflavor.inputs.pipeline import prepare
from rankflavor.inputs.query_major import build_layout
from rankflavor.inputs.trec_fast import read_fast
from rankflavor.reference import RefError, reference_evaluate
from rankflavor.report.result import Result
from strategies import flavors

SCORES = [0.0, 0.5, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 1.0 + 1e-9, -1.0]
GRADES = [0, 0, 1, 2, 3, -1]


def _same(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _data(seed: int, queries: int, max_docs: int, interleave: bool):
    rng = random.Random(seed)
    qrels, rows = {}, []
    for qi in range(queries):
        q = f"q{qi}"
        docs = [f"d{i}" for i in rng.sample(range(3 * max_docs), rng.randint(0, max_docs))]
        qrels[q] = {d: rng.choice(GRADES) for d in rng.sample(docs + [f"x{i}" for i in range(5)], k=min(8, len(docs)))}
        rows += [(q, d, rng.choice(SCORES)) for d in docs]
    if not any(qrels.values()):  # (a qrels without a judgment is refused: docs/input-catalogue.md)
        qrels["q0"] = {"x0": 1}
    if interleave:
        rng.shuffle(rows)
    return qrels, rows


def _as_trec(qrels, rows, directory: Path) -> tuple[Path, Path]:
    """The same data as TREC files: the reader keeps the run's ids dictionary-encoded (data.Codes tables)."""
    directory.mkdir(parents=True, exist_ok=True)
    qrels_path, run_path = directory / "qrels.txt", directory / "run.txt"
    qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()))
    run_path.write_text("".join(f"{q} Q0 {d} {i + 1} {s!r} sys\n" for i, (q, d, s) in enumerate(rows)))
    return qrels_path, run_path


def _check(qrels, rows, flavor, trec_dir: Path | None = None):
    if trec_dir is not None:  # a TREC qrels cannot list a query without a judgment
        qrels = {q: docs for q, docs in qrels.items() if docs}
        if not qrels:
            return None  # (refused before any evaluation)
    run: dict[str, dict[str, float]] = {}
    for q, d, s in rows:
        run.setdefault(q, {})[d] = s
    try:
        expected = reference_evaluate(flavor, qrels, run)
    except RefError:
        expected = None
    if trec_dir is None:
        dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    else:
        dataset, _ = prepare(*_as_trec(qrels, rows, trec_dir))
        assert dataset.runs[0].d_codes.table is not None  # the per-file codes path is the one under test
    try:  # the engine alone: the warnings' extra evaluations are not under test here
        result = Engine(dataset).evaluate(dataset.runs[0], [flavor])[0].results
    except rf.EvaluationError:
        assert expected is None, "the engine refused data the reference accepts"
        return None
    assert expected is not None, "the engine accepted data the reference refuses"
    got = {r["query"]: r for r in Result("run", flavor, result, dataset.query_ids, 0).per_query()}
    assert set(got) == set(expected)
    for query, ref in expected.items():
        assert got[query]["status"] == ref.status, (query, got[query], ref)
        assert _same(got[query]["value"], ref.value), (query, got[query], ref)
        if ref.status != "missing":
            assert _same(got[query]["dcg"], ref.dcg), (query, got[query], ref)
    return result


@pytest.fixture
def prefixes(monkeypatch):
    """Records whether the fast path was taken (select_prefix returned rows)."""
    taken: list[bool] = []
    original = select.select_prefix

    def spy(*args, **kwargs):
        out = original(*args, **kwargs)
        taken.append(out is not None)
        return out

    monkeypatch.setattr(front, "select_prefix", spy)
    return taken


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8), st.integers(1, 25), st.booleans(), flavors())
def test_fast_path_matches_reference(seed, queries, max_docs, interleave, flavor):
    qrels, rows = _data(seed, queries, max_docs, interleave)
    _check(qrels, rows, flavor)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8), st.integers(1, 25), st.booleans(), flavors())
def test_fast_path_on_trec_files_matches_reference(tmp_path_factory, seed, queries, max_docs, interleave, flavor):
    qrels, rows = _data(seed, queries, max_docs, interleave)
    if rows:
        _check(qrels, rows, flavor, tmp_path_factory.mktemp("trec"))


@pytest.mark.parametrize("filtered", [False, True, "crowded", "numpy gathers"])
@pytest.mark.parametrize("interleave", [False, True])
@pytest.mark.parametrize("spec", [
    "ndcg@3", "ndcg@5 ties=average", "ndcg@5 ties=input", "ndcg@3 ties=pessimistic", "ndcg@3 ties=optimistic",
    "ndcg@4 ties=random(5)", "ndcg@3 ideal=local", "ndcg@3 ideal=local negative=keep ideal_depth=all",
    "ndcg@3 ideal=recall(6)", "ndcg@3 unjudged=skip", "ndcg@3 unjudged=skip ideal=local negative=keep",
    "ndcg@3 run_depth=5", "ndcg@3 run_depth=2 unjudged=skip", "ndcg@3 run_depth=8 ideal=local",
    "ndcg@3 self_docs=drop", "ndcg@3 negative=drop", "ndcg@3 precision=f32 ideal_depth=returned",
    "dcg@4 ties=average", "ndcg@2 ideal=max", "pytrec_eval@10", "trec_eval@20",
])
@pytest.mark.parametrize("source", ["frame", "trec"])
def test_fast_path_is_taken_and_exact(spec, interleave, filtered, source, prefixes, monkeypatch, tmp_path):
    if filtered:  # the join's per-query slots, which only runs of many rows use (the C pass in halves on 2 threads)
        monkeypatch.setattr(join, "FILTER_ROWS", 0)
        monkeypatch.setattr(join, "JOIN_SLICE", 7)
        monkeypatch.setattr(join, "PARALLEL_ROWS", 0)
    if filtered == "crowded":  # one slot per query: it holds its judgments, several found by binary search
        monkeypatch.setattr(join, "FILTER_MIN_BITS", 0)
        monkeypatch.setattr(join, "FILTER_SLOTS_PER_JUDGMENT", 0)
    if filtered == "numpy gathers":  # the slots read by numpy (engine/_slot_join.c absent)
        monkeypatch.setattr(join, "_compiled_join", lambda: None)
    qrels, rows = _data(7, 12, 30, interleave)
    rows.append(("q0", "q0", 2.0))  # a self doc
    _check(qrels, rows, rf.Flavor.parse(spec), tmp_path if source == "trec" else None)
    assert prefixes and prefixes[0], "the fast path was not taken"


@pytest.mark.parametrize("spec", ["ndcg@3", "ndcg@5 ties=average", "ndcg@1 ties=input", "ndcg@3 unjudged=skip",
                                  "ndcg@3 ideal=local", "trec_eval@20", "ndcg@3 run_depth=5", "ndcg@4 negative=drop"])
@pytest.mark.parametrize("source", ["frame", "trec"])
def test_runs_listed_by_descending_score_take_the_sorted_shortcut_and_stay_exact(spec, source, prefixes, tmp_path):
    # as TREC runs are written: each query's docs by descending score (ties at and across every cutoff)
    qrels, rows = _data(5, 12, 30, False)
    rows.sort(key=lambda row: (row[0], -row[2]))
    calls = []
    original = select._top_cells

    def spy(block, need):
        calls.append(bool((block[:, 1:] <= block[:, :-1]).all()))
        return original(block, need)

    select._top_cells = spy
    try:
        _check(qrels, rows, rf.Flavor.parse(spec), tmp_path if source == "trec" else None)
    finally:
        select._top_cells = original
    assert prefixes and prefixes[0], "the fast path was not taken"
    if "skip" not in spec and "drop" not in spec:  # (rows the ranking leaves out are holes in the order)
        assert calls and calls[0], "the selection did not see rows in descending order"


def test_uneven_runs_take_the_general_path_and_stay_exact(prefixes):
    qrels, rows = _data(3, 30, 5, False)
    rows += [("q0", f"long{i}", float(i % 7)) for i in range(70_000)]  # padding 30 queries to it is too much
    qrels["q0"].update({f"long{i}": i % 4 for i in range(0, 70_000, 37)})
    _check(qrels, rows, rf.Flavor.parse("ndcg@10"))
    assert prefixes and prefixes[0] is False  # (the warnings may evaluate smaller runs after it)


def test_many_flavors_share_one_layout_and_give_each_its_reference_values():
    qrels, rows = _data(11, 20, 40, True)
    specs = [f"ndcg@{k} gain={g} ideal={i} ties={t}" for k in (3, 10) for g in ("linear", "exp2")
             for i in ("global", "local") for t in ("docid_desc", "average", "input")]
    frame = pd.DataFrame(rows, columns=["query", "doc", "score"])
    report = rf.evaluate(qrels, frame, specs)
    run: dict[str, dict[str, float]] = {}
    for q, d, s in rows:
        run.setdefault(q, {})[d] = s
    for spec in specs:
        flavor = rf.Flavor.parse(spec)
        expected = reference_evaluate(flavor, qrels, run)
        got = {r["query"]: r["value"] for r in report.result(None, flavor).per_query()}
        assert all(_same(got[q], e.value) for q, e in expected.items()), spec
    dataset, _ = prepare(qrels, frame)  # one engine: one selection per cutoff, one join of it per gain
    engine = Engine(dataset)
    engine.evaluate(dataset.runs[0], [rf.Flavor.parse(spec) for spec in specs])
    computed = engine.scope(dataset.runs[0]).memo.computed
    assert computed["top_rows"] == 2 and computed["top_gains"] == 4 and computed["score_matrix"] == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8), st.integers(1, 25), st.booleans(), st.sampled_from(["f64", "f32"]),
       st.booleans())
def test_a_selection_narrowed_from_a_wider_one_equals_the_one_made_directly(seed, queries, max_docs, interleave,
                                                                            precision, condensed):
    """select.narrow (what the engine does for every cutoff below the widest) against select._select."""
    import numpy as np

    from rankflavor.engine.lists import ListSpec
    from rankflavor.engine.scope import DatasetScope, RunScope

    qrels, rows = _data(seed, queries, max_docs, interleave)
    if not rows:
        return
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    scope = RunScope(DatasetScope(dataset), dataset.runs[0])
    spec = ListSpec.of(rf.Flavor.parse(f"ndcg@3 precision={precision}" + " unjudged=skip" * condensed), 3, False)
    policy, chosen = spec.drops, spec.precision
    if scope.stage(select.has_minus_infinity, chosen) or not dataset.runs[0].layout.paddable:
        return
    direct = {need: select._select(scope, chosen, policy, need) for need in range(1, max_docs + 2)}
    for wide in direct:
        for need in range(1, wide):
            narrowed, made = select.narrow(direct[wide], need), direct[need]
            for name in ("rows", "q", "d", "score", "index", "found", "grade"):
                assert np.array_equal(getattr(narrowed, name), getattr(made, name), equal_nan=name == "grade"), \
                    (wide, need, name)


def test_layout_of_interleaved_codes_groups_each_query_in_input_order():
    import numpy as np

    q = np.array([2, 0, 2, 1, 0, 2])
    layout = build_layout(q, 3)
    assert layout.perm is not None
    assert layout.seg_q.tolist() == [0, 1, 2]
    assert layout.length.tolist() == [2, 1, 3]
    assert layout.perm.tolist() == [1, 4, 3, 0, 2, 5]
    m = layout.matrix(np.arange(6, dtype=np.float64), -1.0)
    assert m.tolist() == [[1, 4, -1], [3, -1, -1], [0, 2, 5]]


def test_duplicate_in_a_grouped_run_is_still_an_error(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 a 1\n")
    run = tmp_path / "run"
    run.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\nq1 Q0 a 3 0.5 t\n")
    with pytest.raises(rf.InputError, match="duplicate"):
        rf.evaluate(qrels, run, "ndcg@10")


def _tidy_run(path: Path, rows: int = 300) -> Path:
    rng = random.Random(1)
    path.write_text("".join(f"q{i // 30} Q0 d{rng.randint(0, 999)}x{i} {i % 30 + 1} {rng.random():.3f} sys\n"
                            for i in range(rows)))
    return path


def test_fast_reader_hashes_the_bytes_it_parses(tmp_path):
    path = _tidy_run(tmp_path / "run")
    fast = read_fast(path, ("query", "q0", "doc", "rank", "score", "tag"), 4)
    assert fast is not None
    assert fast.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert fast.table.num_rows == 300
    assert fast.table.column_names == ["query", "doc", "score"]  # a tidy ASCII file: ids and scores only


@pytest.mark.parametrize("change", [
    lambda t: t.replace(" Q0 ", " Q0  ", 1),  # an empty field in a column the fast read skips
    lambda t: t.replace(" sys\n", " \n", 1),  # an empty tag: trailing space
    lambda t: t.replace(" sys\n", " sys\t\n", 1),
    lambda t: t.replace("\n", "\r\n"),
    lambda t: "\ufeff" + t,
    lambda t: t.replace(" sys\n", " sÿs\n", 1),  # UTF-8: every column is converted and checked
])
def test_untidy_files_read_exactly_like_the_line_reader(tmp_path, change):
    from rankflavor.inputs.trec_lines import read_lines

    path = tmp_path / "run"
    text = change(_tidy_run(tmp_path / "tidy").read_text())
    path.write_bytes(text.encode())
    columns = ("query", "q0", "doc", "rank", "score", "tag")
    fast = read_fast(path, columns, 4)
    try:
        lines = read_lines(path, columns, 4, "score")
    except rf.InputError:
        assert fast is None  # the line reader rejects it: the fast reader must not accept it
        return
    if fast is not None:
        assert fast.table.column("query").to_pylist() == lines.query.to_pylist()
        assert fast.table.column("doc").to_pylist() == lines.doc.to_pylist()
        assert fast.table.column("score").to_pylist() == lines.value.tolist()


def _speculative_and_settled(qrels_path: Path, run_path: Path, on_duplicate: str = "error"):
    """(outcome of rf.evaluate, which reads speculatively, outcome of a settled prepare + build_report)."""
    from rankflavor.report.report import build_report

    def outcome(fn):
        try:
            report = fn()
        except rf.RankflavorError as exc:
            return type(exc).__name__, str(exc)
        return [(r["query"], r["value"]) for r in report.result().per_query()], report.provenance["inputs"]

    def settled():
        dataset, provenance = prepare(qrels_path, run_path, on_duplicate)
        return build_report(dataset, [rf.Flavor.parse("trec_eval@10")], provenance)

    return (outcome(lambda: rf.evaluate(qrels_path, run_path, "trec_eval@10", on_duplicate=on_duplicate)),
            outcome(settled))


@pytest.mark.parametrize("run_text", [
    "q1 Q0 d1 1 2.0 t\nq1 Q0 dé 2 1.0 t\n",  # UTF-8 id: not plain, accepted (every column checked)
    "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 a\tb\n",  # a tab in the tag: the line reader's error
    "q1 Q0 d1 1 2.0 t\nq1 Q0 d1 2 1.0 a\tb\n",  # ... even when the speculative table has a duplicate
    "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t \n",  # an empty last field
    "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\n",  # plain
    "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq1 Q0 d1 3 0.5 t\n",  # a duplicate: the deferred check finds it
])
@pytest.mark.parametrize("on_duplicate", ["error", "first", "max"])
def test_speculative_read_gives_the_settled_result_or_error(tmp_path, run_text, on_duplicate):
    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_path.write_text("q1 0 d1 1\nq1 0 d2 2\nq1 0 d3 3\n")  # plain: only the run decides the path
    run_path.write_bytes(run_text.encode())
    speculative, settled = _speculative_and_settled(qrels_path, run_path, on_duplicate)
    assert speculative == settled
    if isinstance(speculative[1], list):  # the provenance hashes the bytes once the scan is settled
        assert speculative[1][1]["sha256"] == hashlib.sha256(run_path.read_bytes()).hexdigest()
        assert speculative[1][0]["sha256"] == hashlib.sha256(qrels_path.read_bytes()).hexdigest()


def test_speculative_read_of_a_file_that_changes_under_it_is_read_again(tmp_path, monkeypatch):
    from rankflavor.inputs import trec_compiled, trec_fast

    monkeypatch.setattr(trec_compiled, "_trec_reader", None)  # (the pyarrow reader's speculation, tested here)

    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_path.write_text("q1 0 d1 1\nq1 0 d2 2\n")
    run_path.write_text("q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\n")
    original = trec_fast._hash_and_scan
    calls = []

    def not_plain_once(path, check):
        digest, plain = original(path, check)
        calls.append(check)
        return digest, plain and len(calls) > 1  # the deferred scan says "not plain": read again strictly

    monkeypatch.setattr(trec_fast, "_hash_and_scan", not_plain_once)
    report = rf.evaluate(qrels_path, run_path, "trec_eval@10")
    assert calls[:2] == [True, True] and len(calls) == 4  # two deferred scans, then both files read strictly
    assert report.provenance["inputs"][1]["sha256"] == hashlib.sha256(run_path.read_bytes()).hexdigest()
    assert report.mean() == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))
