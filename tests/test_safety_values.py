"""Issue 41, item 6: odd values are usage errors (exit 2 from the CLI; SpecError, UsageError or InputError from
Python), never an internal error nor a silent default: trec_eval -M 99999999999999999999, huge --resamples,
power --delta 1e-300, run_depth=9223372036854775808, odd RANKFLAVOR_* variables, deeply nested JSON and TOML, a
saved JSON with Infinity, a loaded report whose counts are strings; then variants (a cutoff past an int32, a
seed past an int64, --queries -5, --top huge, weights whose total overflows)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rankflavor as rf
from rankflavor.compare.stats import TestSettings
from rankflavor.compare.topic_size import topic_set_size
from rankflavor.errors import InputError, SpecError, UsageError

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "q.qrels").write_text("".join(f"q{q} 0 d{d} {(q + d) % 3}\n" for q in range(6) for d in range(5)))
    for name in "AB":
        (tmp_path / f"{name}.run").write_text("".join(f"q{q} Q0 d{(d + ord(name)) % 7} {d + 1} {9 - d} {name}\n"
                                                      for q in range(6) for d in range(6)))
    return tmp_path


def _cli(cwd: Path, *argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rankflavor", *argv], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin", **(env or {})}, timeout=120)


def _usage(done: subprocess.CompletedProcess, *says: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert all(s in done.stderr for s in says), done.stderr


def test_trec_eval_m_beyond_a_long_is_read_as_c_reads_it(files):
    """glibc's atol saturates at LONG_MAX: every row is read, as without -M (was an OverflowError)."""
    plain = _cli(files, "trec_eval", "q.qrels", "A.run")
    huge = _cli(files, "trec_eval", "-M", "99999999999999999999", "q.qrels", "A.run")
    assert huge.returncode == 0 and huge.stdout == plain.stdout, huge.stderr
    low = _cli(files, "trec_eval", "-M", "-99999999999999999999", "q.qrels", "A.run")
    assert low.returncode != 0 and "-M -9223372036854775808" in low.stderr and "internal" not in low.stderr


@pytest.mark.parametrize(("spec", "says"), [
    ("ndcg@10 run_depth=9223372036854775808", "run_depth: '9223372036854775808' is too large"),
    ("ndcg@99999999999999999999", "cutoff @99999999999999999999 in"),
    ("ndcg@2147483648", "give a whole number from 1 to 2,147,483,647"),
    ("ndcg@10 ideal=recall(99999999999999999999)", "is too large"),
    ("ndcg@10 ties=quicksort(99999999999999999999)", "is too large"),
    ("ndcg@10 ties=random(9223372036854775808)", "0 to 2^63 - 1"),
])
def test_spec_parameters_beyond_their_range(files, spec, says):
    _usage(_cli(files, "eval", "q.qrels", "A.run", "-m", spec), says)
    with pytest.raises(SpecError, match=r"too large|2\^63"):
        rf.evaluate(files / "q.qrels", files / "A.run", [spec])


def test_huge_resamples_and_a_tiny_delta(files):
    _usage(_cli(files, "compare", "q.qrels", "A.run", "B.run", "--resamples", "99999999999999999999"),
           "is not a number of resamples: give a whole number from 1 to 100,000,000")
    _usage(_cli(files, "power", "q.qrels", "A.run", "B.run", "-m", "ndcg@5", "--delta", "1e-300"),
           "give a number from 1e-09 to 1e+09")
    with pytest.raises(UsageError, match="n_resamples=10000000000"):
        TestSettings(n_resamples=10 ** 10)
    with pytest.raises(UsageError, match="delta=1e-300"):
        topic_set_size(1e-300, 0.01)
    with pytest.raises(UsageError, match="too small to design for"):
        topic_set_size(1e-9, 1e300)


@pytest.mark.parametrize("name", ["RANKFLAVOR_PROCESSES", "RANKFLAVOR_PROGRESS_AFTER", "RANKFLAVOR_MAX_DEPTH",
                                  "RANKFLAVOR_JEMALLOC_DECAY", "RANKFLAVOR_MAX_MEMORY", "RANKFLAVOR_MAX_INPUT"])
@pytest.mark.parametrize("value", ["-1", "nan", "1e400", "99999999999999999999999", "abc"])
def test_odd_environment_variables(files, name, value):
    _usage(_cli(files, "eval", "q.qrels", "A.run", "-m", "ndcg@5", env={name: value}), name)


def test_an_odd_variable_is_refused_in_python_where_it_is_read(monkeypatch):
    from rankflavor import environment

    monkeypatch.setenv("RANKFLAVOR_PROCESSES", "lots")
    with pytest.raises(UsageError, match="RANKFLAVOR_PROCESSES='lots' is not a whole number: give a whole number "
                                         "from 1 to 256"):
        environment.whole("RANKFLAVOR_PROCESSES", 4)
    monkeypatch.setenv("RANKFLAVOR_PROCESSES", " ")
    assert environment.whole("RANKFLAVOR_PROCESSES", 4) == 4


@pytest.mark.parametrize("argv", [["compare", "q.qrels", "A.run", "B.run", "-m", "ndcg@5", "--queries", "-5"],
                                  ["compare", "q.qrels", "A.run", "B.run", "-m", "ndcg@5", "--queries", "1e9"],
                                  ["diff", "q.qrels", "A.run", "-m", "ndcg@5", "-m", "ndcg@5 gain=exp2", "--top",
                                   "99999999999999999999"],
                                  ["compare", "q.qrels", "A.run", "B.run", "-k", "99999999999999999999"],
                                  ["compare", "q.qrels", "A.run", "B.run", "--seed", "9223372036854775808"]])
def test_count_options_beyond_their_range(files, argv):
    _usage(_cli(files, *argv), "give a whole number")


def _saved(files: Path) -> dict:
    done = _cli(files, "eval", "q.qrels", "A.run", "-m", "ndcg@5", "--format", "json", "--per-query")
    return json.loads(done.stdout)


@pytest.mark.parametrize(("change", "says"), [
    (lambda r: r["counts"].update({k: str(v) for k, v in r["counts"].items()}), "is not a count"),
    (lambda r: r["counts"].update(scored=-5), "counts.scored is not a count"),
    (lambda r: r["counts"].update(scored=10 ** 30), "counts.scored is not a count"),
    (lambda r: r["per_query"][0].update(value="0.5"), "per_query[0].value is not a number or null"),
    (lambda r: r["per_query"][0].update(query=7), "per_query[0] is not an object with a text 'query'"),
    (lambda r: r.update(warnings=[{"x": 1}]), "warnings[0] is not a text"),
    (lambda r: r.update(denominator=[1]), "denominator is not an object"),
])
def test_a_saved_report_with_mistyped_fields_is_refused_on_load(files, change, says):
    saved = _saved(files)
    change(saved["results"][0])
    (files / "saved.json").write_text(json.dumps(saved))
    with pytest.raises(InputError, match=re.escape(says)):
        rf.load(files / "saved.json")
    _usage(_cli(files, "eval", "q.qrels", "A.run", "-m", "ndcg@5", "--against", "saved.json"), says)


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e999"])
def test_a_saved_json_with_a_non_finite_number_is_refused(files, number):
    text = json.dumps(_saved(files)).replace('"mean": 0', f'"mean": {number}, "was": 0', 1)
    (files / "saved.json").write_text(text)
    with pytest.raises(InputError):
        rf.load(files / "saved.json")
    _usage(_cli(files, "eval", "q.qrels", "A.run", "-m", "ndcg@5", "--against", "saved.json"))


def test_deeply_nested_json_and_toml_are_refused(files):
    (files / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputError, match="nests 100000 levels deep, more than 64"):
        rf.load(files / "deep.json")
    (files / "rankflavor.toml").write_text("a = " + "{b = " * 5000 + "1" + "}" * 5000 + "\n")
    _usage(_cli(files, "eval", "q.qrels", "A.run"), "nests 5000 levels deep", "RANKFLAVOR_MAX_DEPTH")


def test_weights_whose_total_overflows_are_refused(files):
    (files / "w.txt").write_text("".join(f"q{q} 1.7e308\n" for q in range(6)))
    done = _cli(files, "eval", "q.qrels", "A.run", "-m", "ndcg@5 weights=w", "--weights", "w=w.txt")
    assert done.returncode == 3 and "sum past the largest number" in done.stderr and "Warning" not in done.stderr
    (files / "w.txt").write_text("".join(f"q{q} 1e-320\n" for q in range(6)))  # (subnormal: equal weights)
    weighted = rf.evaluate(files / "q.qrels", files / "A.run", ["ndcg@5 weights=w"], weights={"w": files / "w.txt"})
    assert weighted.results[0].mean == rf.evaluate(files / "q.qrels", files / "A.run", ["ndcg@5"]).results[0].mean


def test_an_early_error_never_crashes_the_process_at_exit(files):
    """A variant: a weights error while the prefetch thread parsed the run ended in a segmentation fault (exit
    139, one run in four): the CLI now stops and joins that thread before the interpreter finalises."""
    codes = {_cli(files, "eval", "q.qrels", "A.run", "B.run", "-m", "ndcg@5 weights=w", "--weights",
                  "w=missing.txt").returncode for _ in range(12)}
    assert codes == {3}


def test_cutoffs_past_an_int32_are_refused_in_python(files):
    from rankflavor.flavor import Flavor

    with pytest.raises(SpecError, match="cutoff must be a whole number from 1 to 2,147,483,647"):
        Flavor.parse("ndcg@10").with_(cutoff=2 ** 63)
    with pytest.raises(SpecError, match="cutoff must be a whole number"):
        rf.compare.compare(files / "q.qrels", [files / "A.run", files / "B.run"], grid="gain", cutoffs=[2 ** 40])
