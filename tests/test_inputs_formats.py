"""Inputs beyond TREC text files, used as a person would: `-` (standard input), Parquet and Arrow files,
ir_datasets' namedtuples, polars frames, UTF-16/32 text, CSV files, and float32 overflow under precision=f32."""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import re
import subprocess
import sys
import warnings
from collections import namedtuple
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.cli.main import main

SRC = str(Path(__file__).resolve().parent.parent / "src")
QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 2\nq1 0 D 0\nq2 0 A 1\nq2 0 E 2\n"
RUN = "q1 Q0 B 1 4 X\nq1 Q0 C 2 3 X\nq1 Q0 A 3 2 X\nq1 Q0 D 4 1 X\nq2 Q0 E 1 0.5 X\nq2 Q0 F 2 0.25 X\n"
FLAVORS = ["ndcg@3", "ndcg gain=exp2 ties=average", "map", "p@2"]
Qrel = namedtuple("Qrel", "query_id doc_id relevance iteration")
ScoredDoc = namedtuple("ScoredDoc", "query_id doc_id score")
QREL_ROWS = [Qrel(q, d, int(g), i) for q, i, d, g in (line.split() for line in QRELS.splitlines())]
RUN_ROWS = [ScoredDoc(q, d, float(s)) for q, _, d, _, s, _ in (line.split() for line in RUN.splitlines())]


def values(report: rf.Report) -> list[Any]:
    return [(str(r.flavor), r.per_query(), r.mean) for r in report.results]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "X.run").write_text(RUN)
    return {"qrels": tmp_path / "qrels.txt", "run": tmp_path / "X.run"}


@pytest.fixture
def expected(files: dict[str, Path]) -> list[Any]:
    """The TREC files' numbers: what every other form of the same data must give."""
    return values(rf.evaluate(files["qrels"], files["run"], FLAVORS))


def columns(rows: list[Any]) -> dict[str, list[Any]]:
    return {name: [getattr(row, name) for row in rows] for name in rows[0]._fields}


def cli(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """`rankflavor ARGV` as a separate process, `stdin` piped in: (exit code, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "rankflavor", *argv], input=stdin, capture_output=True, timeout=120,
                          env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"})
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def main_with_stdin(argv: list[str], data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """cli.main(argv) in this process, `data` as its standard input."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


# ---- `-`: the standard input -----------------------------------------------------------------------------------------
def test_run_from_stdin_gives_the_file_numbers_and_is_named_stdin(files: dict[str, Path]) -> None:
    code, out, err = cli(["eval", str(files["qrels"]), "-", "-m", "ndcg@3", "--format", "json"], RUN.encode())
    assert code == 0, err
    piped = json.loads(out)
    code, out, err = cli(["eval", str(files["qrels"]), str(files["run"]), "-m", "ndcg@3", "--format", "json"])
    assert code == 0, err
    from_file = json.loads(out)
    run = piped["provenance"]["inputs"][1]
    assert (run["name"], run["path"], run["kind"]) == ("<stdin>", None, "trec")
    assert run["sha256"] == hashlib.sha256(RUN.encode()).hexdigest()
    assert piped["results"][0]["mean"] == from_file["results"][0]["mean"]
    assert piped["results"][0]["run"] == "<stdin>"


def test_qrels_from_stdin_gzip_and_parquet(files: dict[str, Path], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    reference = rf.evaluate(files["qrels"], files["run"], "ndcg@3").mean()
    sink = pa.BufferOutputStream()
    pq.write_table(pa.table(columns(QREL_ROWS)), sink)
    for data, kind in ((QRELS.encode(), "trec"), (gzip.compress(QRELS.encode()), "trec"),
                       (sink.getvalue().to_pybytes(), "parquet")):
        code, out, err = main_with_stdin(["eval", "-", str(files["run"]), "-m", "ndcg@3", "--format", "json"], data,
                                         monkeypatch)
        assert code == 0, err
        report = json.loads(out)
        assert report["results"][0]["mean"] == reference
        qrels = report["provenance"]["inputs"][0]
        assert (qrels["name"], qrels["kind"], qrels["sha256"]) == ("<stdin>", kind, hashlib.sha256(data).hexdigest())


def test_two_dashes_are_a_usage_error(files: dict[str, Path]) -> None:
    code, _, err = cli(["eval", "-", "-"], QRELS.encode())
    assert code == 2
    assert "more than one input is '-'" in err and "Traceback" not in err
    code, _, err = cli(["check", str(files["qrels"]), "-", "-"], RUN.encode())
    assert code == 2 and "more than one input is '-'" in err
    with pytest.raises(rf.RankflavorError, match="more than one input"):
        rf.evaluate("-", ["-"], "ndcg@3")


def test_stdin_errors_name_stdin_and_the_line(files: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    data = (RUN + "q1 Q0 B 9 1 X\n").encode()  # a duplicate: its message reads the line back from the kept bytes
    for command in ("eval", "check"):
        code, _, err = main_with_stdin([command, str(files["qrels"]), "-"], data, monkeypatch)
        assert code == 3
        assert err.startswith("rankflavor: <stdin>:7: duplicate document in the run") and "'q1 Q0 B 9 1 X'" in err


def test_explain_and_check_read_stdin(files: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = main_with_stdin(["explain", str(files["qrels"]), "-", "-q", "q1", "-m", "ndcg@3",
                                      "--format", "json"], RUN.encode(), monkeypatch)
    assert code == 0, err
    assert json.loads(out)["value"] == rf.explain(files["qrels"], files["run"], "q1", "ndcg@3").value
    code, out, err = main_with_stdin(["check", "-", str(files["run"])], QRELS.encode(), monkeypatch)
    assert code == 0, err
    assert out.startswith("qrels <stdin>\n")


# ---- Parquet and Arrow files -----------------------------------------------------------------------------------------
def write(table: pa.Table, path: Path, kind: str) -> Path:
    if kind == "parquet":
        pq.write_table(table, path)
    elif kind == "feather":
        feather.write_feather(table, path)
    else:
        with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
    return path


@pytest.mark.parametrize("kind", ["parquet", "feather", "stream"])
def test_columnar_files_give_the_text_files_numbers(kind: str, tmp_path: Path, expected: list[Any]) -> None:
    qrels = write(pa.table(columns(QREL_ROWS)), tmp_path / "qrels.txt", kind)  # told by the bytes, not the name
    run = write(pa.table(columns(RUN_ROWS)), tmp_path / "bm25.run", kind)
    report = rf.evaluate(qrels, run, FLAVORS)
    assert values(report) == expected
    inputs = report.provenance["inputs"]
    assert [i["kind"] for i in inputs] == ["parquet" if kind == "parquet" else "arrow"] * 2
    assert inputs[1]["sha256"] == hashlib.sha256(run.read_bytes()).hexdigest()


def test_columnar_files_from_the_cli(tmp_path: Path, files: dict[str, Path]) -> None:
    qrels = write(pa.table(columns(QREL_ROWS)), tmp_path / "qrels.parquet", "parquet")
    run = write(pa.table({"qid": [r.query_id for r in RUN_ROWS], "docno": [r.doc_id for r in RUN_ROWS],
                          "score": pa.array([r.score for r in RUN_ROWS], pa.float32())}), tmp_path / "r.arrow",
                "feather")
    code, out, err = cli(["eval", str(qrels), str(run), str(files["run"]), "-m", "ndcg@3", "--format", "json"])
    assert code == 0, err
    means = [r["mean"] for r in json.loads(out)["results"]]
    assert means[0] == means[1] == rf.evaluate(files["qrels"], files["run"], "ndcg@3").mean()


def test_columnar_ids_may_be_integers_or_dictionary_encoded(tmp_path: Path) -> None:
    qrels = pa.table({"query_id": pa.array([1, 1, 2], pa.int64()), "doc_id": pa.array(["a", "b", "a"]).dictionary_encode(),
                      "relevance": [1, 0, 2]})
    run = pa.table({"query_id": ["1", "1", "2"], "doc_id": ["b", "a", "a"], "score": [2.0, 1.0, 1.0]})
    report = rf.evaluate(write(qrels, tmp_path / "q", "parquet"), write(run, tmp_path / "r", "parquet"), "p@1")
    assert (report.value("1"), report.value("2")) == (0.0, 1.0)


def test_columnar_bad_columns_name_the_file_the_columns_found_and_expected(tmp_path: Path) -> None:
    run = write(pa.table({"query_id": ["q1"], "doc_id": ["A"], "value": [1.0]}), tmp_path / "r.parquet", "parquet")
    with pytest.raises(rf.InputError) as info:
        rf.evaluate({"q1": {"A": 1}}, run, "ndcg@3")
    assert info.value.source == str(run)
    assert "['query_id', 'doc_id', 'value']" in info.value.reason and "score, sim, prediction" in info.value.fix
    code, _, err = cli(["eval", str(tmp_path / "r.parquet"), str(run)])
    assert code == 3 and "no grade column among ['query_id', 'doc_id', 'value']" in err


@pytest.mark.parametrize(("score", "fragment"), [
    (pa.array([1.0, None]), "score at row 1 (query 'q1', doc 'B') is missing"),
    (pa.array([1.0, float("inf")]), "score at row 1 (query 'q1', doc 'B') is not a finite number"),
    (pa.array([True, False]), "holds booleans"),
    (pa.array(["1", "x"]), "holds string values, not numbers (score at row 0 (query 'q1', doc 'A'): '1')"),
])
def test_columnar_values_are_checked(score: pa.Array, fragment: str, tmp_path: Path) -> None:
    run = write(pa.table({"query": ["q1", "q1"], "doc": ["A", "B"], "score": score}), tmp_path / "r.pq", "parquet")
    with pytest.raises(rf.InputError) as info:
        rf.evaluate({"q1": {"A": 1}}, run, "ndcg@3")
    assert fragment in str(info.value)


def test_columnar_duplicates_follow_the_policy(tmp_path: Path) -> None:
    run = write(pa.table({"query": ["q1", "q1", "q1"], "doc": ["A", "B", "A"], "score": [1.0, 2.0, 3.0]}),
                tmp_path / "r.arrow", "feather")
    with pytest.raises(rf.InputError, match="score 1 on row 0, 3 on row 2"):
        rf.evaluate({"q1": {"A": 1}}, run, "p@1")
    report = rf.evaluate({"q1": {"A": 1}}, run, "p@1", on_duplicate="max")
    assert report.mean() == 1.0  # A (3) above B (2)
    assert report.provenance["inputs"][1]["duplicates_removed"] == {"identical": 0, "conflicting": 1}


def test_a_corrupt_parquet_file_is_named(tmp_path: Path) -> None:
    path = write(pa.table(columns(RUN_ROWS)), tmp_path / "r.parquet", "parquet")
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(rf.InputError, match="not a readable Parquet file") as info:
        rf.evaluate({"q1": {"A": 1}}, path, "ndcg@3")
    assert info.value.source == str(path)


# ---- ir_datasets' namedtuples, polars -----------------------------------------------------------------------------
def test_namedtuples_as_lists_generators_and_lists_of_runs(expected: list[Any]) -> None:
    assert values(rf.evaluate(QREL_ROWS, RUN_ROWS, FLAVORS)) == expected
    assert values(rf.evaluate(iter(QREL_ROWS), (row for row in RUN_ROWS), FLAVORS)) == expected
    report = rf.evaluate(QREL_ROWS, [RUN_ROWS, RUN_ROWS[:4]], "ndcg@3")  # a list of two runs, not one
    assert [r.run for r in report.results] == ["run1", "run2"]
    assert report.provenance["inputs"][0]["kind"] == "namedtuples"
    assert values(rf.evaluate(QREL_ROWS, {"bm25": iter(RUN_ROWS)}, FLAVORS)) == expected


def test_namedtuple_errors() -> None:
    Other = namedtuple("Other", "query_id doc_id score")
    with pytest.raises(rf.InputError, match="row 1 is a tuple, not a ScoredDoc"):
        rf.evaluate(QREL_ROWS, [RUN_ROWS[0], ("q1", "B", 1.0)], "ndcg@3")
    assert rf.evaluate(QREL_ROWS, [RUN_ROWS[0], Other("q1", "Z", 1.0)], "ndcg@3").mean() is not None
    with pytest.raises(rf.InputError, match="no score column among"):
        rf.evaluate(QREL_ROWS, [Qrel("q1", "A", 1, "0")], "ndcg@3")
    with pytest.raises(rf.InputError, match="score 'high' of query 'q1' doc 'B' is a str"):
        rf.evaluate(QREL_ROWS, [ScoredDoc("q1", "A", 1.0), ScoredDoc("q1", "B", "high")], "ndcg@3")
    with pytest.raises(rf.InputError, match=r"score at row 0 \(query 'q1', doc 'A'\) is missing"):
        rf.evaluate(QREL_ROWS, [ScoredDoc("q1", "A", None)], "ndcg@3")
    with pytest.raises(rf.InputError, match=r"query id 1\.5 is a float"):
        rf.evaluate(QREL_ROWS, [ScoredDoc("q1", "A", 1.0), ScoredDoc(1.5, "A", 1.0)], "ndcg@3")


def test_polars_frames(expected: list[Any]) -> None:
    pl = pytest.importorskip("polars")
    qrels, run = pl.DataFrame(columns(QREL_ROWS)), pl.DataFrame(columns(RUN_ROWS))
    assert values(rf.evaluate(qrels, run, FLAVORS)) == expected
    assert values(rf.evaluate(qrels.lazy(), run.lazy(), FLAVORS)) == expected
    assert [r.run for r in rf.evaluate(qrels, {"a": run, "b": run.lazy()}, "ndcg@3").results] == ["a", "b"]
    with pytest.raises(rf.InputError, match=r"score at row 1 \(query 'q1', doc 'C'\) is missing"):
        rf.evaluate(qrels, run.with_columns(pl.when(pl.col("doc_id") == "C").then(None).otherwise(pl.col("score"))
                                            .alias("score")), "ndcg@3")


def test_polars_is_not_imported_for_other_inputs(files: dict[str, Path]) -> None:
    code = (f"import sys, rankflavor as rf; rf.evaluate({str(files['qrels'])!r}, {{'q1': {{'A': 1.0}}}}, 'ndcg@3'); "
            "assert 'polars' not in sys.modules, 'polars imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env={"PYTHONPATH": SRC}, timeout=120)
    assert done.returncode == 0, done.stderr.decode()


# ---- UTF-16 and UTF-32 text ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be-bom", "utf-32", "utf-16-gz"])
def test_utf16_and_utf32_with_a_bom_are_decoded(encoding: str, tmp_path: Path, expected: list[Any]) -> None:
    def encode(text: str) -> bytes:
        if encoding == "utf-16-be-bom":
            return b"\xfe\xff" + text.encode("utf-16-be")
        if encoding == "utf-16-gz":
            return gzip.compress(text.encode("utf-16"))
        return text.encode(encoding)

    (tmp_path / "q").write_bytes(encode(QRELS))
    (tmp_path / "r").write_bytes(encode(RUN.replace("\n", "\r\n")))
    report = rf.evaluate(tmp_path / "q", tmp_path / "r", FLAVORS)
    assert values(report) == expected
    named = {"utf-16": "UTF-16LE", "utf-16-be-bom": "UTF-16BE", "utf-32": "UTF-32LE", "utf-16-gz": "UTF-16LE"}
    assert report.provenance["inputs"][0]["encoding"] == named[encoding]
    assert any("UTF-" in w and "byte-order mark" in w for w in report.provenance["input_warnings"])


@pytest.mark.parametrize(("encoding", "name"), [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE"),
                                                ("utf-32-le", "UTF-32LE")])
def test_utf16_without_a_bom_is_named_never_binary(encoding: str, name: str, tmp_path: Path,
                                                   files: dict[str, Path]) -> None:
    path = tmp_path / "run.txt"
    path.write_bytes(RUN.encode(encoding))
    code, _, err = cli(["eval", str(files["qrels"]), str(path)])
    assert code == 3
    assert f"the file is {name} encoded" in err and f"iconv -f {name} -t UTF-8 {path}" in err
    assert "not a text file" not in err


# ---- CSV ---------------------------------------------------------------------------------------------------------
def test_a_csv_run_is_read_by_its_header_and_a_line_before_it_is_named(tmp_path: Path, files: dict[str, Path]) -> None:
    path = tmp_path / "run.csv"
    path.write_text("query,doc,score\n" + "".join(f"{q},{d},{s}\n" for q, _, d, _, s, _ in
                                                  (line.split() for line in RUN.splitlines())))
    assert values(rf.evaluate(files["qrels"], path, FLAVORS)) == values(rf.evaluate(files["qrels"], files["run"],
                                                                                    FLAVORS))
    path.write_text("# exported\nquery,doc,score\nq1,A,1.5\n")
    code, _, err = cli(["check", str(files["qrels"]), str(path)])
    assert code == 3
    assert err.startswith(f"rankflavor: {path}:1: no query column among ['# exported'] in the header")
    assert "the first line of a CSV file is its header" in err


def test_a_csv_without_a_header_in_a_trec_named_file_says_csv_with_file_and_line(tmp_path: Path,
                                                                                   files: dict[str, Path]) -> None:
    path = tmp_path / "run.txt"
    path.write_text("q1,A,1.5\n")
    code, _, err = cli(["check", str(files["qrels"]), str(path)])
    assert code == 3
    assert err.startswith(f"rankflavor: {path}:1: this file looks comma-separated (CSV); TREC files are "
                          "whitespace-separated: QID Q0 DOC RANK SCORE TAG for a run, QID ITER DOC GRADE for qrels")
    assert "a first line naming its columns" in err


def test_ids_with_commas_are_still_ids(tmp_path: Path) -> None:
    (tmp_path / "q").write_text("q,1 0 a,b 1\n")
    (tmp_path / "r").write_text("q,1 Q0 a,b 1 1 X\n")
    assert rf.evaluate(tmp_path / "q", tmp_path / "r", "p@1").value("q,1") == 1.0


# ---- float32 overflow under precision=f32 ------------------------------------------------------------------------
@pytest.mark.parametrize("flavor", ["ndcg@3 precision=f32", "ndcg precision=f32", "map precision=f32"])
def test_f32_overflow_is_an_error_naming_the_scores_without_a_numpy_warning(flavor: str) -> None:
    run = {"q1": {"A": 1e308, "B": 1.0, "C": -3e39, "D": 4e38, "E": 5e38}, "q2": {"A": 1.0}}
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(rf.EvaluationError) as info:
            rf.evaluate({"q1": {"A": 1}, "q2": {"A": 1}}, run, flavor)
        message = str(info.value)
        assert "run: precision=f32: 4 scores overflow float32" in message
        assert "1e+308 (query 'q1', doc 'A'), -3e+39 (query 'q1', doc 'C'), 4e+38 (query 'q1', doc 'D') and 1 more" \
            in message
        assert rf.evaluate({"q1": {"A": 1}, "q2": {"A": 1}}, run, flavor.replace("f32", "f64")).mean() == 1.0
        # the largest float32 and what rounds to it are fine
        top = float(pa.array([3.4028235e38], pa.float32()).to_pylist()[0])
        assert rf.evaluate({"q1": {"A": 1}}, {"q1": {"A": top, "B": 1.0}}, flavor).mean() == 1.0


def test_f32_overflow_from_the_cli_exits_3(files: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "big.run").write_text(RUN.replace(" 0.5 X", " 1e300 X"))
    code, _, err = cli(["eval", str(files["qrels"]), str(tmp_path / "big.run"), "-m", "ndcg@10 precision=f32"])
    assert code == 3
    assert "big.run: precision=f32: 1 score overflows float32" in err and "1e+300 (query 'q2', doc 'E')" in err
    assert "RuntimeWarning" not in err and "Traceback" not in err


@given(st.lists(st.sampled_from(["a", "b c", "#", " ", "\t", "\r", "\n", "\r\n", "é"]), max_size=14).map("".join),
       st.booleans())
def test_the_first_line_sniffed_is_the_first_neither_blank_nor_a_comment(text: str, cut: bool) -> None:
    """formats.first_line against its definition: the text's lines (split at \\r\\n, \\r, \\n; a cut text's last
    line unread), each stripped of spaces and tabs, the first neither empty nor starting with #."""
    from rankflavor.inputs.formats import first_line

    lines = [line.strip(" \t") for line in re.split(r"\r\n|\r|\n", text)]
    wanted = next((line for line in (lines[:-1] if cut else lines) if line and not line.startswith("#")), None)
    assert first_line(text, cut) == wanted
