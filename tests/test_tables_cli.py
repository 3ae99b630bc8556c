"""The CLI's tables a person reads (issue 23 item 4): the flavor listed once under a table, sums not called means,
warnings that make no sense for a measure left out, --quiet, run names, and the presets list."""

from __future__ import annotations

import csv
import io
import json

import pytest

import rankflavor as rf
import rankflavor.compare as rc
from rankflavor.cli.main import main
from rankflavor.errors import UsageError

QRELS = "q1 0 a 2\nq1 0 b 1\nq1 0 c 0\nq2 0 d 1\nq2 0 e 0\nq3 0 f 1\n"  # q3 is judged, absent from run A
RUN_A = "q1 Q0 a 1 3.0 A\nq1 Q0 x 2 2.0 A\nq1 Q0 b 3 1.0 A\nq2 Q0 y 1 5.0 A\nq2 Q0 d 2 4.0 A\nq2 Q0 z 3 3.0 A\n"
RUN_B = "q1 Q0 b 1 3.0 B\nq1 Q0 a 2 2.0 B\nq2 Q0 d 1 5.0 B\nq3 Q0 f 1 1.0 B\nq3 Q0 w 2 0.5 B\n"


@pytest.fixture
def files(tmp_path) -> tuple[str, str, str]:
    (tmp_path / "runs").mkdir()
    paths = tmp_path / "q.txt", tmp_path / "runs" / "a.run", tmp_path / "runs" / "b.run"
    for path, text in zip(paths, (QRELS, RUN_A, RUN_B), strict=True):
        path.write_text(text)
    return tuple(str(p) for p in paths)


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def table_and_key(out: str) -> tuple[list[list[str]], dict[str, str]]:
    """The table's rows (cells split on runs of 2+ spaces) and the `label: flavor` lines under it."""
    import re

    table, key = out.split("\nflavors:\n")
    rows = [re.split(r"\s{2,}", line.strip()) for line in table.strip().splitlines()]
    flavors = dict(line.strip().split(": ", 1) for line in key.split("\n\n")[0].splitlines())
    return rows, flavors


def test_eval_table_lists_each_flavor_once_under_it(capsys, files):
    code, out, _ = run_cli(capsys, "eval", *files, "-m", "ndcg@3", "-m", "ndcg@3 gain=exp2")
    assert code == 0
    rows, key = table_and_key(out)
    assert rows[0] == ["run", "label", "mean", "n", "scored", "zero_ideal", "missing"]
    assert [r[:2] for r in rows[1:]] == [["a.run", "ndcg@3"], ["a.run", "ndcg@3 gain=exp2"], ["b.run", "ndcg@3"],
                                        ["b.run", "ndcg@3 gain=exp2"]]
    assert key == {"ndcg@3": str(rf.Flavor.parse("ndcg@3")), "ndcg@3 gain=exp2": str(rf.Flavor.parse("ndcg@3 gain=exp2"))}
    assert all(len(line) < 80 for line in out.split("\nflavors:")[0].splitlines())
    code, out, _ = run_cli(capsys, "eval", *files, "-m", "ndcg@3", "--format", "csv")
    assert {row["flavor"] for row in csv.DictReader(io.StringIO(out))} == {key["ndcg@3"]}  # (CSV: per row)
    code, out, _ = run_cli(capsys, "eval", *files, "-m", "ndcg@3", "--format", "json")
    assert [r["flavor"] for r in json.loads(out)["results"]] == [key["ndcg@3"]] * 2


def _judged_rows(run: str) -> dict[str, int]:
    """Per run, by hand: rows of judged queries (num_ret) and of relevant judged docs (num_rel_ret)."""
    judged = {line.split()[0] for line in QRELS.splitlines()}
    relevant = {(q, d) for q, _, d, g in (line.split() for line in QRELS.splitlines()) if int(g) >= 1}
    rows = [line.split() for line in run.splitlines() if line.split()[0] in judged]
    return {"num_ret": len(rows), "num_rel_ret": sum((r[0], r[2]) in relevant for r in rows)}


def test_a_sum_is_shown_as_a_sum_not_a_mean(capsys, files):
    code, out, _ = run_cli(capsys, "eval", *files, "-m", "ndcg@3", "-m", "num_ret", "-m", "num_rel_ret",
                           "-m", "gm_map")
    assert code == 0
    rows, _ = table_and_key(out)
    assert rows[0][:4] == ["run", "label", "summary", "kind"] and "mean" not in rows[0]
    by = {(r[0], r[1]): r for r in rows[1:]}
    for run, text in (("a.run", RUN_A), ("b.run", RUN_B)):
        for measure, total in _judged_rows(text).items():
            assert by[(run, measure)][2:4] == [str(total), "sum"]
        assert by[(run, "ndcg@3")][3] == "mean" and by[(run, "gm_map")][3] == "geomean"


def test_no_unjudged_or_missing_warning_where_it_means_nothing(capsys, files):
    code, _, err = run_cli(capsys, "eval", *files, "-m", "ndcg@3", "-m", "num_ret", "-m", "num_rel",
                           "-m", "num_rel_ret")
    assert code == 0
    assert "unjudged docs among the scored ranks" in err.split("a.run ndcg@3: ")[1]  # (the data has them)
    assert "a.run ndcg@3: 1 judged query is absent" in err
    for measure in ("num_ret", "num_rel", "num_rel_ret"):
        assert f"a.run {measure}: " not in err.replace("have no judgments", "")  # (no warning at all for a count)
    report = rf.evaluate(files[0], files[1], ["num_ret", "map"])
    codes = {r.label: {w.code for w in r.warnings} for r in report.results}
    assert codes == {"num_ret": set(), "map": {"unjudged_in_top", "missing"}}


def test_quiet_keeps_the_table_and_counts_what_it_leaves_out(capsys, files):
    argv = ["eval", *files, "-m", "P_3", "-m", "ndcg@3"]
    code, loud_out, loud_err = run_cli(capsys, *argv)
    assert code == 0 and "P_3: trec_eval's P_3" in loud_err
    n = sum(line.startswith("warning") for line in loud_err.splitlines())
    code, out, err = run_cli(capsys, *argv, "-q")
    assert code == 0 and out == loud_out and n > 1
    assert err == f"rankflavor: {n} warnings not shown (--quiet); run without -q to read them\n"
    code, out, err = run_cli(capsys, "compare", *files, "-m", "ndcg@3", "--quiet")
    assert code == 0 and out.startswith("label ") and "verdict" not in out and "warnings" not in out
    assert err.startswith("rankflavor: ") and "not shown (--quiet)" in err


def test_name_names_runs_and_baseline_finds_them(capsys, files):
    qrels, a, b = files
    code, out, _ = run_cli(capsys, "eval", qrels, a, b, "--name", f"{a}=BM25", "--name", "b.run=dense", "-q")
    assert code == 0
    rows, _ = table_and_key(out)
    assert [r[0] for r in rows[1:]] == ["BM25", "dense"]
    for baseline in ("dense", b, "b.run"):  # the name, the path as typed, the file name
        code, out, _ = run_cli(capsys, "compare", qrels, a, b, "--name", "b.run=dense", "--baseline", baseline,
                               "-m", "ndcg@3", "-q", "--format", "json")
        assert code == 0 and [(p["run_a"], p["run_b"]) for p in json.loads(out)["pairs"]] == [("dense", "a.run")]


@pytest.mark.parametrize(("names", "message"), [
    (["nope.run=X"], "no run given is 'nope.run'"),
    (["a.run=X", "b.run=X"], "two runs named 'X'"),
    (["a.run=b.run"], "two runs named 'b.run'"),
    (["a.run"], "write FILE=NAME"),
    (["a.run=X", "a.run=Y"], "given twice"),
])
def test_a_bad_name_is_a_usage_error(capsys, files, names, message):
    for command in ("eval", "compare"):
        code, out, err = run_cli(capsys, command, *files, *(x for n in names for x in ("--name", n)))
        assert code == 2 and out == "" and message in err


def test_names_in_python(files):
    qrels, a, b = files
    assert [r.run for r in rf.evaluate(qrels, [a, b], "p@3", names=["A", "B"]).results] == ["A", "B"]
    assert [r.run for r in rf.evaluate(qrels, [a, b], "p@3", names={b: "B"}).results] == ["a.run", "B"]
    cmp = rc.compare(qrels, [a, b], ["p@3"], names={"a.run": "A"}, baseline=a)
    assert cmp.baseline == "A"
    for bad in (["A"], {"c.run": "A"}, ["A", "A"], ["A", ""]):
        with pytest.raises(UsageError):
            rf.evaluate(qrels, [a, b], "p@3", names=bad)


def test_same_file_name_in_two_folders_is_named_by_path(tmp_path, files):
    qrels, a, _ = files
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.run").write_text(RUN_B)
    with pytest.raises(UsageError, match="2 runs have that file name"):
        rf.evaluate(qrels, [a, str(other / "a.run")], "p@3", names={"a.run": "X"})
    report = rf.evaluate(qrels, [a, str(other / "a.run")], "p@3", names={str(other / "a.run"): "X"})
    assert [r.run for r in report.results] == [a, "X"]  # (the unnamed one keeps its path: the file names collide)


def test_compare_and_diff_tables_have_no_flavor_column(capsys, files):
    code, out, _ = run_cli(capsys, "compare", *files, "-m", "ndcg@3", "-m", "num_ret", "--queries", "0")
    table = out.split("\nlabel ")[1].split("\n\n")[0]
    assert code == 0 and "gain=linear" not in table and "ties=" not in table
    assert f"  num_ret: {rf.Flavor.parse('num_ret')}\n" in out
    assert "note: num_ret: mean_a and mean_b are sums" in out
    code, out, _ = run_cli(capsys, "diff", *files[:2], "-m", "ndcg@3", "-m", "ndcg@2 gain=exp2")
    table = out.split("\n\n")[1]
    assert code == 0 and table.splitlines()[0].split() == ["step", "change", "a.run", "mean", "delta"]
    steps = out.split("flavor of each step between A and B:\n")[1].split("\n\n")[0].splitlines()
    assert steps == [f"  step 1: {rf.Flavor.parse('ndcg@2')}"]  # (A and B are printed above the table)


def test_presets_list_one_line_each_within_100_columns(capsys):
    code, out, _ = run_cli(capsys, "presets")
    lines = out.split("\n\n")[0].splitlines()
    assert code == 0 and len(lines) == 1 + len(rf.PRESETS) and all(len(line) <= 100 for line in out.splitlines())
    full = {row["preset"]: row for row in json.loads(run_cli(capsys, "presets", "--format", "json")[1])}
    for line in lines[1:]:
        name, rest = line.split(maxsplit=1)
        differs = rest[40:].strip()
        whole = full[name]["differs"]
        assert differs == whole or (differs.endswith("...") and (whole + " ").startswith(differs[:-3] + " "))
    assert full["sklearn"]["differs"].split() == [f"{axis}={token}" for axis, _, token in
                                                  rf.Flavor.parse("ndcg@10").differences(rf.Flavor.parse("sklearn@10"))]


def test_presets_name_shows_one_in_full(capsys):
    code, out, _ = run_cli(capsys, "presets", "trec_eval")
    flavor = " ".join(out.split("flavor: ")[1].split("\ndiffers")[0].split())
    assert code == 0 and flavor == str(rf.parse_spec("trec_eval")[0])
    assert out.count("\n") > 5 and all(len(line) <= 100 for line in out.splitlines())
    code, out, err = run_cli(capsys, "presets", "skleran")
    assert code == 2 and "did you mean sklearn?" in err
    code, out, _ = run_cli(capsys, "presets", "sklearn", "--format", "json")
    assert json.loads(out)["preset"] == "sklearn"


def test_explain_on_a_deep_query_fits_a_screen(capsys, tmp_path):
    """143 judged docs, @10: the ranked and ideal lists down to 10, the universe left to --all."""
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("".join(f"q1 0 d{i} {i % 4}\n" for i in range(143)))
    run.write_text("".join(f"q1 Q0 d{i * 3} {i + 1} {1000 - i} s\n" for i in range(1000)))
    code, out, _ = run_cli(capsys, "explain", str(qrels), str(run), "-q", "q1", "-m", "ndcg@10")
    assert code == 0 and len(out.splitlines()) < 40
    code, whole, _ = run_cli(capsys, "explain", str(qrels), str(run), "-q", "q1", "-m", "ndcg@10", "--all")
    added = int(out.splitlines()[-1].split("--all adds ")[1].split()[0])
    assert added == len(whole.splitlines()) - len(out.splitlines())
