"""Ids that never meet (inputs/id_match.py, issue 24 item 3): loose doc matches per query, a run with no judged
doc, and a run whose query and doc columns are swapped, each against a plain-Python model of its definition."""

from __future__ import annotations

import re

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.inputs import id_match
from rankflavor.inputs.kernels import trimmed_lower, without


def model_key(value: str) -> str:
    """The loose key as its docstring defines it, written independently: strip, lower, digit runs as integers."""
    return re.sub(r"[0-9]+", lambda m: str(int(m.group())), value.strip().lower())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="0071aAbB- \t_é", max_size=8), min_size=1, max_size=20))
def test_loose_key_python_and_arrow_agree_with_the_definition(ids) -> None:
    arrow = id_match._loose_keys(pa.array(ids, pa.string())).to_pylist()
    assert [id_match.loose_key(i) for i in ids] == arrow == [model_key(i) for i in ids]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="0071aAbZz-_é ~!@[`{", max_size=6), min_size=1, max_size=12), st.integers(0, 3))
def test_printable_coarse_keys_are_arrows(ids, skip) -> None:
    """The numpy coarse key (printable ASCII ids) equals the Arrow kernels' one, sliced arrays too; None otherwise."""
    values = pa.array(ids, pa.string()).slice(min(skip, len(ids) - 1))
    fast = id_match._printable_coarse_keys(values)
    printable = "".join(values.to_pylist())
    if printable and all("!" <= c <= "~" for c in printable):
        assert fast is not None
        assert fast.to_pylist() == without(trimmed_lower(values), "0").to_pylist()
        assert fast.to_pylist() == [model_key(i).replace("0", "") for i in values.to_pylist()]
    else:
        assert fast is None


@pytest.mark.parametrize(("a", "b", "how"), [("1040", "0001040", "leading zeros"), ("a", "A", "case"),
                                             ("d007", "D7", "leading zeros and case"),
                                             (" x", "x", "surrounding whitespace")])
def test_how_two_ids_differ(a, b, how) -> None:
    assert id_match.how_they_differ(a, b) == how


DOCS = ["7", "007", "07", "70", "700", "A", "a", "b", "d01", "D1", "d10", "x", "x0", "X00"]  # (70 and 7: one coarse key)


def _model(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]) -> tuple[int, int, bool]:
    """(rows matching a judged doc of their query only loosely, their queries, whether any row is judged)."""
    rows, queries, judged_row = 0, set(), False
    for query, docs in run.items():
        judged = qrels.get(query, {})
        for doc in docs:
            if doc in judged:
                judged_row = True
            elif any(model_key(j) == model_key(doc) for j in judged):
                rows += 1
                queries.add(query)
    return rows, len(queries), judged_row


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["q1", "q2", "q3"]), st.dictionaries(st.sampled_from(DOCS), st.integers(0, 2),
                                                                            min_size=1, max_size=4), min_size=1),
       st.dictionaries(st.sampled_from(["q1", "q2", "q4"]), st.dictionaries(st.sampled_from(DOCS), st.floats(0, 1),
                                                                            max_size=5), min_size=1))
def test_loose_docs_and_nothing_judged_match_a_plain_model(qrels, run) -> None:
    report = rf.evaluate(qrels, run, "ndcg@3")
    item = report.provenance["inputs"][1]
    warnings = report.provenance["input_warnings"]
    rows, queries, judged_row = _model(qrels, run)
    assert item.get("docs_judged_only_loosely", 0) == rows
    loose = [w for w in warnings if "a doc judged for" in w]
    assert len(loose) == (rows > 0)
    if rows:
        assert f"{rows} retrieved doc" in loose[0] and f"in {queries} quer" in loose[0]
        example = re.search(r"query '(\w+)': run '([^']*)', qrels '([^']*)'", loose[0])
        query, run_doc, qrels_doc = example.groups()
        assert run_doc in run[query] and run_doc not in qrels[query] and qrels_doc in qrels[query]
        assert model_key(run_doc) == model_key(qrels_doc)
    in_common = any(q in qrels and docs for q, docs in run.items())  # (a judged query retrieving something)
    nothing = [w for w in warnings if "NO RETRIEVED DOC IS JUDGED" in w]
    assert len(nothing) == (in_common and not judged_row)
    if nothing:
        assert warnings[0] == nothing[0]  # first: before every other input warning


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["q1", "q2", "q3"]), st.dictionaries(st.sampled_from(DOCS), st.integers(0, 2),
                                                                            min_size=1, max_size=4), min_size=1),
       st.dictionaries(st.sampled_from(["q1", "q2", "q4"]), st.dictionaries(st.sampled_from(DOCS), st.floats(0, 1),
                                                                            min_size=1, max_size=5), min_size=1))
def test_loose_docs_of_trec_files_match_the_plain_model(qrels, run) -> None:
    """As above from TREC files: the doc column arrives dictionary-encoded and its codes stand in for a second look-up
    of the strings (id_match._run_docs)."""
    import tempfile
    from pathlib import Path

    qrels, run = {**qrels, "q9": {"b": 1}}, {**run, "q9": {"b": 0.5}}  # (ids not all numbers: no column-order error)
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = Path(folder) / "qrels.txt", Path(folder) / "run.txt"
        qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()))
        run_path.write_text("".join(f"{q} Q0 {d} {i + 1} {s!r} tag\n" for q, docs in run.items()
                                    for i, (d, s) in enumerate(docs.items())))
        report = rf.evaluate(qrels_path, run_path, "ndcg@3")
    rows, queries, _ = _model(qrels, run)
    assert report.provenance["inputs"][1].get("docs_judged_only_loosely", 0) == rows
    loose = [w for w in report.provenance["input_warnings"] if "a doc judged for" in w]
    assert len(loose) == (rows > 0)
    if rows:
        assert f"{rows} retrieved doc" in loose[0] and f"in {queries} quer" in loose[0]


def test_a_judged_row_after_the_sample_is_found(monkeypatch) -> None:
    """The sample of the first rows holds no judged doc: every row is then looked up."""
    monkeypatch.setattr(id_match, "SAMPLE_ROWS", 2)
    run = {"q1": {"u1": 3.0, "u2": 2.0, "u3": 1.5}, "q2": {"u4": 1.0, "A": 0.5}}
    report = rf.evaluate({"q1": {"A": 1}, "q2": {"A": 1}}, run, "ndcg@3")
    assert not any("NO RETRIEVED DOC" in w for w in report.provenance["input_warnings"])
    del run["q2"]["A"]
    report = rf.evaluate({"q1": {"A": 1}, "q2": {"A": 1}}, run, "ndcg@3")
    assert "NO RETRIEVED DOC IS JUDGED" in report.provenance["input_warnings"][0]


def test_no_nothing_judged_warning_without_a_retrieved_doc_of_a_judged_query() -> None:
    """No query in common, or only empty lists for the judged queries: other warnings say so."""
    for run in ({"q9": {"B": 1.0}}, {"q1": {}, "q9": {"B": 1.0}}):
        report = rf.evaluate({"q1": {"A": 1}}, run, "ndcg@3")
        assert not any("NO RETRIEVED DOC" in w for w in report.provenance["input_warnings"])


QRELS = {f"q{i}": {f"D{i}-{j}": j % 3 for j in range(5)} for i in range(10)}


def test_swapped_dict_and_frame_are_refused_with_their_fix() -> None:
    swapped = {}
    for query, docs in QRELS.items():
        for doc in docs:
            swapped.setdefault(doc, {})[query] = 1.0
    with pytest.raises(rf.InputError) as info:
        rf.evaluate(QRELS, swapped, "ndcg@3")
    assert "query and doc columns look swapped (50 of its 50 query ids" in str(info.value)
    assert "{qid: {docid: score}}" in info.value.fix
    frame = pd.DataFrame([(d, q, 1.0) for d, scores in swapped.items() for q in scores], columns=["query", "doc", "score"])
    with pytest.raises(rf.InputError) as info:
        rf.evaluate(QRELS, frame, "ndcg@3")
    assert "its query column looks to hold the doc ids" in str(info.value) and "rename" in info.value.fix


def test_runs_that_are_not_swapped_are_read() -> None:
    """Mostly other queries than the qrels', numeric ids shared by queries and docs: no layout error."""
    numeric_qrels = {str(q): {str(d): 1 for d in range(q, q + 3)} for q in range(1, 5)}
    others = {str(q): {str(d): 1.0 for d in range(1, 4)} for q in range(100, 110)}  # docs are ids of queries 1..3
    rf.evaluate(numeric_qrels, others, "ndcg@3")
    answered = {str(q): {str(q): 1.0, "1": 0.5} for q in range(1, 5)}  # docs named like queries, queries answered
    rf.evaluate(numeric_qrels, answered, "ndcg@3")


def test_the_report_page_shows_the_nothing_judged_warning(tmp_path) -> None:
    from heavy import need_group
    from rankflavor.cli.main import main

    need_group("report")
    qrels, run, out = tmp_path / "qrels.txt", tmp_path / "X.run", tmp_path / "page.html"
    qrels.write_text("q1 0 0001040 3\nq2 0 0002000 1\n")
    run.write_text("q1 Q0 1040 1 4 X\nq1 Q0 77 2 3 X\nq2 Q0 2000 1 4 X\n")
    assert main(["report", str(qrels), str(run), "-m", "ndcg@3", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "NO RETRIEVED DOC IS JUDGED" in page and "run &#x27;1040&#x27;, qrels &#x27;0001040&#x27;" in page
