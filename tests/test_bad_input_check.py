"""`rankflavor check`, `--on-duplicate` through the CLI and the API, and `--debug`."""

from __future__ import annotations

import json
import pathlib

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.cli.main import main

QRELS = "# judged by A\nq1 0 A 3\nq1 0 B 2\n\nq2 0 A 1\n007 0 Z 1\n"
RUN = "q1 Q0 B 1 4 X\nq1 Q0 A 2 3 X\nq1 Q0 B 3 1 X\n7 Q0 Z 1 1 X\nq9 Q0 A 1 1 X\nq9 Q0 B 2 0 X\n"


@pytest.fixture
def files(tmp_path: pathlib.Path) -> tuple[str, str]:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "X.run"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return str(qrels), str(run)


def test_check_prints_every_count_and_warning_without_a_metric(files, capsys) -> None:
    qrels, run = files
    assert main(["check", qrels, run, "--on-duplicate", "first"]) == 0
    out = capsys.readouterr().out
    for expected in ("comment_lines                  1", "blank_lines                    1",
                     "queries_not_in_qrels           2", "rows_of_queries_not_in_qrels   3",
                     "qrels_queries_not_in_run       2", "duplicates_removed             0 identical, 1 conflicting",
                     "on_duplicate=first", "only up to leading zeros (run '7', qrels '007')",
                     "1 duplicate rows removed by the on_duplicate policy"):
        assert expected in out, (expected, out)
    assert "ndcg" not in out.lower()


def test_check_json_is_the_provenance_of_eval(files, capsys) -> None:
    qrels, run = files
    assert main(["check", qrels, run, "--on-duplicate", "max", "--format", "json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    report = rf.evaluate(qrels, run, "ndcg@3", on_duplicate="max")
    assert checked == json.loads(json.dumps(report.provenance))
    assert checked["policies"]["on_duplicate"] == "max"


def test_check_exits_3_on_unreadable_input(files, capsys) -> None:
    qrels, _ = files
    assert main(["check", qrels, "/nonexistent/X.run"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("rankflavor: /nonexistent/X.run: file not found") and "Traceback" not in err


def test_duplicates_default_to_an_error_in_every_command(files, capsys) -> None:
    qrels, run = files
    for argv in (["eval", qrels, run], ["explain", qrels, run, "-q", "q1"], ["check", qrels, run]):
        assert main(argv) == 3
        err = capsys.readouterr().err
        assert f"{run}:3: duplicate document in the run (conflicting)" in err and "--on-duplicate" in err


@pytest.mark.parametrize(("policy", "expected"), [("first", 4.0), ("max", 4.0)])
def test_on_duplicate_keeps_first_or_max_in_eval_and_explain(files, capsys, policy, expected) -> None:
    qrels, run = files
    assert main(["explain", qrels, run, "-q", "q1", "-m", "dcg@3", "--on-duplicate", policy, "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [r["doc"] for r in record["ranked"]] == ["B", "A"] and record["ranked"][0]["score"] == expected
    assert main(["eval", qrels, run, "-m", "dcg@3", "--on-duplicate", policy, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["provenance"]["policies"]["on_duplicate"] == policy


def test_first_and_max_differ_when_the_later_row_is_higher(tmp_path) -> None:
    run = {"q": {"a": 1.0, "b": 2.0}}
    qrels = tmp_path / "q.txt"
    qrels.write_text("q 0 a 1\nq 0 b 0\nq 0 a 3\n")
    first = rf.evaluate(qrels, run, "dcg@1", on_duplicate="first").explain(query="q")
    highest = rf.evaluate(qrels, run, "dcg@1", on_duplicate="max").explain(query="q")
    assert first.universe != highest.universe
    assert {u["doc"]: u["grade"] for u in first.universe}["a"] == 1
    assert {u["doc"]: u["grade"] for u in highest.universe}["a"] == 3
    with pytest.raises(rf.SpecError):
        rf.evaluate(qrels, run, "dcg@1", on_duplicate="last")


def test_debug_shows_the_traceback(files) -> None:
    qrels, _ = files
    with pytest.raises(rf.InputError) as info:
        main(["--debug", "eval", qrels, "/nonexistent/X.run"])
    assert info.value.source == "/nonexistent/X.run" and info.value.fix


def test_input_error_is_a_value_error_with_its_parts(tmp_path) -> None:
    run = tmp_path / "X.run"
    run.write_text("q1 Q0 A 1 high X\n")
    with pytest.raises(ValueError) as info:  # InputError is a ValueError and a RankflavorError
        rf.evaluate({"q1": {"A": 1}}, run)
    error = info.value
    assert isinstance(error, rf.InputError) and isinstance(error, rf.RankflavorError)
    assert (error.source, error.line, error.text) == (str(run), 1, "q1 Q0 A 1 high X")
    assert "plain decimal number" in error.fix
    assert str(error).splitlines()[0] == f"{run}:1: score 'high' is not a number"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["q1", "q2"]), st.sampled_from("ABC"), st.sampled_from([0, 1, 2, 3])),
                min_size=1, max_size=12), st.sampled_from(["first", "max"]))
def test_on_duplicate_keeps_what_it_says_and_counts_the_rest(rows, policy) -> None:
    """Against a plain-Python model: the grade kept per (query, doc), and the identical/conflicting counts."""
    frame = pd.DataFrame(rows, columns=["query", "doc", "grade"])
    report = rf.evaluate(frame, {"q1": {"A": 1.0}, "q2": {"A": 1.0}}, "dcg@3", on_duplicate=policy)
    kept: dict[tuple[str, str], int] = {}
    seen: dict[tuple[str, str], list[int]] = {}
    for query, doc, grade in rows:
        seen.setdefault((query, doc), []).append(grade)
        if (query, doc) not in kept or (policy == "max" and grade > kept[(query, doc)]):
            kept[(query, doc)] = grade
    ds = report.dataset
    got = {(ds.query_ids[q], ds.doc_ids[d]): g for q, d, g in zip(ds.qrels.q, ds.qrels.d, ds.qrels.grade, strict=True)}
    assert got == kept
    removed = report.provenance["inputs"][0]["duplicates_removed"]
    assert removed["identical"] == sum(len(v) - 1 for v in seen.values() if len(set(v)) == 1)
    assert removed["conflicting"] == sum(len(v) - 1 for v in seen.values() if len(set(v)) > 1)


def _write(tmp_path: pathlib.Path, **files: str) -> dict[str, str]:
    for name, text in files.items():
        (tmp_path / name.replace("_", ".")).write_text(text)
    return {name: str(tmp_path / name.replace("_", ".")) for name in files}


def test_check_names_every_unreadable_run_not_only_the_first(tmp_path, capsys) -> None:
    f = _write(tmp_path, q_txt="q1 0 A 1\nq1 0 B 0\n", good_run="q1 Q0 A 1 2 X\nq1 Q0 B 2 1 X\n",
               bad_run="q1 Q0 A 1 2 X\nq1 Q0 B 2 abc X\n", dup_run="q1 Q0 A 1 2 X\nq1 Q0 A 2 1 X\n",
               short_run="q1 Q0 A\n")
    missing = str(tmp_path / "missing.run")
    argv = ["check", f["q_txt"], f["good_run"], f["bad_run"], f["dup_run"], f["short_run"], missing]
    assert main(argv) == 3
    err = capsys.readouterr().err
    assert err.startswith("rankflavor: 4 of the 6 inputs cannot be read:"), err
    order = [err.index(f"{name}:") for name in ("bad.run:2", "dup.run:2", "short.run:1", "missing.run")]
    assert order == sorted(order), err
    assert "good.run" not in err and "score 'abc' is not a number" in err and "duplicate document" in err
    with pytest.raises(rf.InputError) as caught:  # (eval still stops at the first, as it must)
        rf.evaluate(f["q_txt"], [f["good_run"], f["bad_run"], f["dup_run"]], "ndcg@3")
    assert "bad.run:2" in str(caught.value) and "dup.run" not in str(caught.value)


def test_check_names_a_bad_qrels_once_and_reads_the_runs_anyway(tmp_path, capsys) -> None:
    f = _write(tmp_path, q_txt="q1 0 A x\n", good_run="q1 Q0 A 1 2 X\n", bad_run="q1 Q0 A 1\n")
    assert main(["check", f["q_txt"], f["good_run"], f["bad_run"]]) == 3
    err = capsys.readouterr().err
    assert err.startswith("rankflavor: 2 of the 3 inputs cannot be read:") and err.count("q.txt:1") == 1, err
    assert "bad.run:1" in err and "good.run" not in err


def test_check_with_one_bad_input_gives_its_own_message(tmp_path, capsys) -> None:
    f = _write(tmp_path, q_txt="q1 0 A 1\n", good_run="q1 Q0 A 1 2 X\n", bad_run="q1 Q0 A 1 2\n")
    assert main(["check", f["q_txt"], f["good_run"], f["bad_run"]]) == 3
    err = capsys.readouterr().err
    assert err.startswith("rankflavor: ") and "bad.run:1" in err and "inputs cannot be read" not in err, err


def test_check_of_the_standard_input_keeps_the_first_error(tmp_path, monkeypatch, capsys) -> None:
    import io
    import sys

    f = _write(tmp_path, q_txt="q1 0 A 1\n", bad_run="q1 Q0 A 1\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"q1 Q0 A 1 x X\n")))
    assert main(["check", f["q_txt"], "-", f["bad_run"]]) == 3
    err = capsys.readouterr().err
    assert "inputs cannot be read" not in err and err.count("offending text") == 1 and "bad.run" not in err, err


def test_a_directory_of_runs_gets_the_shell_pattern_for_its_files(tmp_path, capsys) -> None:
    f = _write(tmp_path, q_txt="q1 0 A 1\n")
    (tmp_path / "runs").mkdir()
    assert main(["eval", f["q_txt"], str(tmp_path / "runs")]) == 3
    err = capsys.readouterr().err
    assert "runs: is a directory, not a file" in err and f"let the shell list them: {tmp_path / 'runs' / '*'}" in err
