"""Readers for the core input kinds: TREC (plain, .gz), nested dicts, pandas; ids stay strings."""

from __future__ import annotations

import gzip

import pandas as pd
import pytest

import rankflavor as rf

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 2\nq1 0 D 0\n01 0 x 1\n"
RUN = "q1 Q0 B 1 4 X\nq1 Q0 C 2 3 X\nq1 Q0 A 3 2 X\nq1 Q0 D 4 1 X\n1 Q0 x 1 1.0 X\n"


@pytest.fixture
def files(tmp_path):
    qrels, run = tmp_path / "qrels.txt", tmp_path / "X.run"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return qrels, run


def test_trec_files_plain_and_gz_agree(files, tmp_path):
    qrels, run = files
    gz_q, gz_r = tmp_path / "qrels.txt.gz", tmp_path / "X.run.gz"
    gz_q.write_bytes(gzip.compress(qrels.read_bytes()))
    gz_r.write_bytes(gzip.compress(run.read_bytes()))
    plain = rf.evaluate(qrels, run, "ndcg@3").results[0].per_query()
    packed = rf.evaluate(gz_q, gz_r, "ndcg@3").results[0].per_query()
    assert plain == packed
    assert rf.evaluate(qrels, run, "ndcg@3").value("q1") == pytest.approx(0.904976558, abs=1e-9)


def test_ids_are_strings_leading_zeros_matter(files):
    qrels, run = files
    report = rf.evaluate(qrels, run, "ndcg@3")
    counts = report.results[0].counts
    # qrels has query "01", the run has query "1": different queries
    assert report.value("01") is None
    assert counts["missing"] == 1 and counts["unjudged_queries"] == 1


def test_dicts_and_dataframes_give_the_same_numbers(files):
    qrels, run = files
    from_files = rf.evaluate(qrels, run, ["ndcg@3", "ndcg@4 gain=exp2"])
    qd = {"q1": {"A": 3, "B": 2, "C": 2, "D": 0}, "01": {"x": 1}}
    rd = {"q1": {"B": 4, "C": 3, "A": 2, "D": 1}, "1": {"x": 1.0}}
    from_dicts = rf.evaluate(qd, rd, ["ndcg@3", "ndcg@4 gain=exp2"])
    qf = pd.DataFrame([(q, d, g) for q, docs in qd.items() for d, g in docs.items()], columns=["qid", "docid", "grade"])
    rf_ = pd.DataFrame([(q, d, s) for q, docs in rd.items() for d, s in docs.items()], columns=["query", "doc", "score"])
    from_frames = rf.evaluate(qf, rf_, ["ndcg@3", "ndcg@4 gain=exp2"])
    for a, b, c in zip(from_files.results, from_dicts.results, from_frames.results, strict=True):
        assert a.per_query() == b.per_query() == c.per_query()


def test_duplicate_run_rows_name_the_file_and_line(tmp_path, files):
    qrels, _ = files
    run = tmp_path / "dup.run"
    run.write_text("q1 Q0 A 1 3 X\nq1 Q0 B 2 2 X\nq1 Q0 A 3 1 X\n")
    with pytest.raises(rf.InputError) as info:
        rf.evaluate(qrels, run, "ndcg@3")
    assert info.value.source == str(run) and info.value.line == 3
    assert "duplicate" in str(info.value) and "line 1" in str(info.value)


def test_duplicate_judgments_name_the_file_and_line(tmp_path, files):
    _, run = files
    qrels = tmp_path / "dup.qrels"
    qrels.write_text("q1 0 A 3\nq1 0 A 3\n")
    with pytest.raises(rf.InputError) as info:
        rf.evaluate(qrels, run, "ndcg@3")
    assert info.value.line == 2 and "duplicate judgment" in str(info.value)


def test_bad_line_names_file_line_text_and_fix(tmp_path, files):
    qrels, _ = files
    run = tmp_path / "bad.run"
    run.write_text("q1 Q0 A 1 3 X\nq1 Q0 B 2 high X\n")
    with pytest.raises(rf.InputError) as info:
        rf.evaluate(qrels, run, "ndcg@3")
    err = info.value
    assert (err.source, err.line) == (str(run), 2)
    assert "high" in str(err) and "fix:" in str(err)


def test_empty_python_list_is_present_not_missing():
    report = rf.evaluate({"q": {"a": 1}}, {"q": {}}, "ndcg@5 missing=skip")
    assert report.results[0].per_query()[0]["status"] == "ok"
    assert report.value("q") == 0.0


def test_several_runs_and_name_collisions(tmp_path, files):
    qrels, run = files
    other = tmp_path / "sub"
    other.mkdir()
    (other / "X.run").write_text(RUN)
    report = rf.evaluate(qrels, [run, other / "X.run"], "ndcg@3")
    assert report.runs == [str(run), str(other / "X.run")]
    assert rf.evaluate(qrels, {"a": str(run), "b": str(run)}, "ndcg@3").runs == ["a", "b"]
