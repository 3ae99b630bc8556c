"""dropin/te_files.py: EarlyRead reads and parses a command's qrels and results on a thread, and hands over what the
main thread's own reading would have found (the same parse, the same exit at the same point); the main thread reads
what the early read does not hold (another path, another `known`, the standard input)."""

from __future__ import annotations

import numpy as np
import pytest

from rankflavor.dropin import te_files, te_parse
from rankflavor.dropin.c_reading import TrecEvalExit
from rankflavor.dropin.getopt import parse_command_line
from rankflavor.dropin.standard_read import read_qrels, results_table

pytestmark = pytest.mark.skipif(not te_files.compiled(), reason="the early read needs the compiled reader")

QRELS = b"q1 0 a 1\nq1 0 b 0\nq2 0 c 2\n"
RESULTS = b"q1 Q0 b 1 2.0 r\nq1 Q0 x 2 1.0 r\nq2 Q0 c 1 0x10 r\n"


@pytest.fixture
def files(tmp_path):
    qrels, results = tmp_path / "qrels", tmp_path / "results"
    qrels.write_bytes(QRELS)
    results.write_bytes(RESULTS)
    return str(qrels), str(results)


def early(qrels: str, results: str, *flags: str) -> te_files.EarlyRead | None:
    return te_files.EarlyRead.start(parse_command_line([*flags, qrels, results]).options)


def test_the_early_read_is_what_the_main_thread_reads(files):
    qrels_path, results_path = files
    read = early(qrels_path, results_path)
    assert read is not None
    data, answer = read.qrels(qrels_path)
    assert data == b"" and answer == te_parse._te_reader.parse_qrels(QRELS)  # (parsed: the bytes were let go)
    read = early(qrels_path, results_path)
    qrels = read_qrels(qrels_path, read)
    for name, value in read_qrels(qrels_path)._asdict().items():
        assert str(getattr(qrels, name)) == str(value)
    got = results_table(results_path, [], None, qrels.doc_ids, read)
    want = results_table(results_path, [], None, qrels.doc_ids)
    assert (got.query_ids, got.doc_ids, got.q.tolist(), got.d.tolist(), got.score.tolist(), got.run_id) == \
        (want.query_ids, want.doc_ids, want.q.tolist(), want.d.tolist(), want.score.tolist(), want.run_id)
    assert got.score.tolist() == [2.0, 1.0, 16.0]
    assert want.doc_ranks is None and got.doc_ranks is not None  # (ranked on the early thread, in strcmp's order)
    assert np.argsort(got.doc_ranks).tolist() == np.argsort(te_parse.id_ranks(np.array(got.doc_ids))).tolist()


def test_the_early_ranks_rank_the_stand_in_doc_of_c_too(tmp_path, files):
    qrels_path, results_path = files
    (tmp_path / "results").write_bytes(b"q1 Q0 zz 1 1 r\nq1 Q0 b 2 1 r\nq1 Q0 ceci 3 1 r\n")  # (q2 missing: -c)
    read = early(qrels_path, results_path, "-c")
    qrels = read_qrels(qrels_path, read)
    got = results_table(results_path, ["q1", "q2"], None, qrels.doc_ids, read)
    assert got.doc_ids[-1] == te_files.STAND_IN and len(got.doc_ranks) == len(got.doc_ids)
    assert np.argsort(got.doc_ranks).tolist() == np.argsort(te_parse.id_ranks(np.array(got.doc_ids))).tolist()
    assert read.doc_ranks() is None  # (handed once)


def test_the_bytes_are_kept_only_for_the_python_reader():
    assert te_files._kept(b"q 0 d 1", None) == b"q 0 d 1"  # (declined by the compiled reader: the loop reads them)
    assert te_files._kept(b"q 0 d 1", (["q"], b"", ["d"], b"", b"", None)) == b""


def test_other_paths_and_other_known_ids_are_left_to_the_main_thread(files):
    qrels_path, results_path = files
    read = early(qrels_path, results_path)
    assert read.qrels(results_path) is None and read.results(qrels_path, ["a", "b", "c"]) is None
    assert read.results(results_path, ["z"]) is None  # (codes seeded with other ids: not this parse)
    assert read.doc_ranks() is None  # (nor its ranks)
    assert read.results(results_path, ["a", "b", "c"]) is not None
    assert read.results(results_path, ["a", "b", "c"]) is None  # (handed over once: the bytes are not held on)
    assert read.qrels(qrels_path) is not None and read.qrels(qrels_path) is None


def test_a_file_that_cannot_be_read_stops_where_trec_eval_reads_it(tmp_path, files):
    qrels_path, results_path = files
    missing = str(tmp_path / "absent")
    read = early(missing, results_path)  # (no error yet: the thread keeps it)
    with pytest.raises(TrecEvalExit, match="cannot read the qrels file") as caught:
        read_qrels(missing, read)
    assert caught.value.code == 2
    read = early(qrels_path, missing)
    qrels = read_qrels(qrels_path, read)
    with pytest.raises(TrecEvalExit, match="cannot read the results file"):
        results_table(missing, [], None, qrels.doc_ids, read)


def test_a_malformed_qrels_is_reported_and_its_results_not_read(tmp_path, files):
    _, results_path = files
    bad = tmp_path / "bad"
    bad.write_bytes(b"q1 0 a\n")
    read = early(str(bad), results_path)
    with pytest.raises(TrecEvalExit, match=r"bad:1: malformed qrels line"):
        read_qrels(str(bad), read)
    assert read._results is None


def test_no_early_read_for_other_formats_the_standard_input_or_the_python_reader(files, monkeypatch):
    qrels_path, results_path = files
    assert early(qrels_path, results_path, "-R", "prefs") is None
    read = early(qrels_path, "-")
    assert read.results("-", ["a", "b", "c"]) is None  # (stdin: the main thread reads it)
    monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", "1")
    assert early(qrels_path, results_path) is None
