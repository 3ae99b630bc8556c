"""Column-layout mistakes are named, never turned into a silent number, and every fix rankflavor prints,
applied as printed, gives the numbers of the file written right (inputs/column_order.py)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import rankflavor as rf
from rankflavor.cli.main import main

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq2 0 A 1\nq2 0 D 2\n"
RUN = ("q1 Q0 C 1 2.5 t\nq1 Q0 A 2 1.5 t\nq1 Q0 B 3 0.5 t\nq1 Q0 X 4 0.25 t\n"
       "q2 Q0 D 1 9.0 t\nq2 Q0 A 2 4.0 t\n")
SPECS = ["ndcg@2", "ndcg@10 gain=exp2", "dcg@3"]


def _columns(text: str, order: list[int]) -> str:
    return "".join(" ".join(line.split()[i] for i in order) + "\n" for line in text.splitlines())


def _means(qrels: Path, run: Path) -> list[float | None]:
    report = rf.evaluate(qrels, run, SPECS)
    return [report.mean(flavor=s) for s in SPECS]


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _apply_fix(fix: str, cwd: Path) -> Path:
    """Run the command a message suggests (awk ... FILE > fixed.txt) in `cwd`; the file it wrote."""
    command = re.search(r"e\.g\. (.+)$", fix).group(1)
    assert command.startswith(("awk ", "tr ")) and command.endswith("> fixed.txt"), command
    if shutil.which(command.split()[0]) is None:  # (the same rewrite in Python, where the tool is missing)
        raise AssertionError(f"{command.split()[0]} is not installed here")
    subprocess.run(command, shell=True, cwd=cwd, check=True)
    return cwd / "fixed.txt"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {"qrels": tmp_path / "qrels.txt", "run": tmp_path / "run.txt"}
    paths["qrels"].write_text(QRELS)
    paths["run"].write_text(RUN)
    return paths


@pytest.mark.parametrize("on_duplicate", ["error", "first", "max"])
def test_qrels_written_qid_doc_iter_grade_is_named_and_its_fix_works(files, tmp_path, on_duplicate):
    bad = tmp_path / "bad_qrels.txt"
    bad.write_text(_columns(QRELS, [0, 2, 1, 3]))
    with pytest.raises(rf.InputError, match="looks written as 'qid docid iter grade'") as caught:
        rf.evaluate(bad, files["run"], SPECS, on_duplicate=on_duplicate)  # (never the duplicate advice)
    code, _, err = _cli("eval", str(bad), str(files["run"]), "--on-duplicate", on_duplicate)
    assert code == 3 and "swap the second and third columns" in err
    fixed = _apply_fix(caught.value.fix, tmp_path)
    assert _means(fixed, files["run"]) == _means(files["qrels"], files["run"])


def test_a_qrels_whose_docid_column_is_a_constant_iteration_is_named(files, tmp_path):
    bad = tmp_path / "bad_qrels.txt"
    bad.write_text("q1 A 0 3\nq2 D 0 2\n")  # one judgment per query: no duplicate would have said anything
    with pytest.raises(rf.InputError, match="holds only '0'"):
        rf.evaluate(bad, files["run"], SPECS)


def test_real_small_integer_doc_ids_are_not_taken_for_a_layout_mistake(tmp_path):
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("q1 0 1 2\nq1 0 2 1\nq2 0 1 1\n")
    run.write_text("q1 Q0 2 1 3.0 t\nq1 Q0 1 2 2.0 t\nq2 Q0 1 1 1.0 t\n")
    assert rf.evaluate(qrels, run, "ndcg@10").mean() is not None


def test_run_written_qid_doc_q0_is_named_and_its_fix_works(files, tmp_path):
    bad = tmp_path / "bad_run.txt"
    bad.write_text(_columns(RUN, [0, 2, 1, 3, 4, 5]))
    with pytest.raises(rf.InputError, match="looks written as 'qid docid Q0 rank score tag'") as caught:
        rf.evaluate(files["qrels"], bad, SPECS)
    assert _cli("eval", str(files["qrels"]), str(bad))[0] == 3
    fixed = _apply_fix(caught.value.fix, tmp_path)
    assert _means(files["qrels"], fixed) == _means(files["qrels"], files["run"])


def test_swapped_rank_and_score_columns_are_a_warning_and_its_fix_works(files, tmp_path):
    bad = tmp_path / "bad_run.txt"
    bad.write_text(_columns(RUN, [0, 1, 2, 4, 3, 5]))  # scores 1, 2, 3 ... down each query: the ranks
    report = rf.evaluate(files["qrels"], bad, SPECS)
    warning = next(w for w in report.provenance["input_warnings"] if "rank and score columns swapped" in w)
    assert [report.mean(flavor=s) for s in SPECS] != _means(files["qrels"], files["run"])  # (the order reversed)
    code, _, err = _cli("eval", str(files["qrels"]), str(bad), "-m", "ndcg@2", "--format", "json")
    assert code == 0 and "rank and score columns swapped" in err  # (stderr: the JSON stays parseable)
    fixed = _apply_fix(warning, tmp_path)
    again = rf.evaluate(files["qrels"], fixed, SPECS)
    assert [again.mean(flavor=s) for s in SPECS] == _means(files["qrels"], files["run"])
    assert not any("swapped" in w for w in again.provenance["input_warnings"])


def test_scores_that_only_look_like_ranks_in_some_queries_are_not_flagged(files, tmp_path):
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 A 1 1 t\nq1 Q0 B 2 2 t\nq2 Q0 A 1 5 t\nq2 Q0 D 2 3 t\n")
    assert not any("swapped" in w for w in rf.evaluate(files["qrels"], run, "ndcg@2").provenance["input_warnings"])


def test_a_csv_file_is_named_and_its_fix_works(files, tmp_path):
    bad = tmp_path / "bad_qrels.txt"
    bad.write_text(QRELS.replace(" ", ","))
    with pytest.raises(rf.InputError, match=r"looks comma-separated \(CSV\); TREC files are whitespace-separated") as caught:
        rf.evaluate(bad, files["run"], SPECS)
    fixed = _apply_fix(caught.value.fix, tmp_path)
    assert _means(fixed, files["run"]) == _means(files["qrels"], files["run"])
