"""Issue 41, item 4: text stays text (rankflavor/escape.py). ANSI and OSC sequences (an OSC 8 link, an OSC 52
clipboard write, ESC[2J), C1 controls and bidi overrides in Parquet ids, file names, --name and saved JSON are
shown as \\uXXXX by eval (table, --per-query, csv, trec, json), explain, warnings and errors; CSV cells a
spreadsheet would evaluate are quoted (--csv-formulas keeps them); the notebook views show bidi controls."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from rankflavor import escape

SRC = Path(__file__).resolve().parents[1] / "src"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # (what must never reach a terminal)
CLEAR, LINK, CLIP = "\x1b[2J", "\x1b]8;;http://evil.example/\x07x\x1b]8;;\x07", "\x1b]52;c;ZWNobyBwd25lZA==\x07"
CSI, OVERRIDE = "\x9b31m", "\u2069\u202e"
IDS = [f"q{CLEAR}1", f"q{LINK}2", f"q{CLIP}3", f"q{CSI}4", f"q{OVERRIDE}5", "q\x7f6"]


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A Parquet qrels and run whose query and doc ids carry the sequences, a run file named with one."""
    docs = [f"d{LINK}", "=1+2*3", "@SUM(9*9)"]
    pd.DataFrame({"query": [q for q in IDS for _ in docs], "doc": docs * len(IDS),
                  "relevance": [1, 0, 2] * len(IDS)}).to_parquet(tmp_path / "q.parquet")
    run = pd.DataFrame({"query": [q for q in IDS for _ in docs], "doc": docs * len(IDS),
                        "score": [3.0, 2.0, 1.0] * len(IDS)})
    run.to_parquet(tmp_path / f"r{CLEAR}{OVERRIDE}.parquet")
    run.to_parquet(tmp_path / "plain.parquet")
    return tmp_path


def _cli(cwd: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rankflavor", *argv], cwd=cwd, capture_output=True,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin", "RANKFLAVOR_PROCESSES": "1"},
                          timeout=120)


def _clean(done: subprocess.CompletedProcess) -> tuple[str, str]:
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert not RAW.search(out), [m.group() for m in RAW.finditer(out)][:5]
    assert not RAW.search(err), [m.group() for m in RAW.finditer(err)][:5]
    return out, err


def _run_file(folder: Path) -> str:
    return next(p.name for p in folder.iterdir() if p.name.startswith("r"))


@pytest.mark.parametrize("form", [["--per-query"], ["--format", "csv", "--per-query"], ["--format", "trec", "--per-query"],
                                  ["--format", "json", "--per-query"], []])
def test_eval_shows_every_control_character(planted, form):
    out, _ = _clean(_cli(planted, "eval", "q.parquet", _run_file(planted), "-m", "ndcg@2", "-m", "p@1", *form))
    assert "\\u001b[2J" in out and "\\u202e" in out
    if "--per-query" in form:
        assert "q\\u001b]52;c;ZWNobyBwd25lZA==\\u00075" not in out and "q\\u009b31m4" in out
    if form[:2] == ["--format", "json"]:
        queries = {row["query"] for result in json.loads(out)["results"] for row in result["per_query"]}
        assert set(IDS) <= queries  # (a JSON escape: the same ids once decoded)


def test_explain_names_warnings_and_errors_show_them(planted):
    out, _ = _clean(_cli(planted, "explain", "q.parquet", _run_file(planted), "-q", IDS[1], "-m", "ndcg@3"))
    assert "d\\u001b]8;;http://evil.example/\\u0007x" in out and "=1+2*3" in out
    out, err = _clean(_cli(planted, "eval", "q.parquet", "plain.parquet", "--name", "plain.parquet=n\x1b]52;c;ZWNobw\x07",
                           "-m", "ndcg@2", "-m", "p@1", "-m", "ndcg@3 unjudged=skip"))
    assert "n\\u001b]52;c;ZWNobw\\u0007" in out, err  # (--name: the table's run column)
    _, err = _clean(_cli(planted, "eval", "q.parquet", f"missing{LINK}.run"))
    assert "missing\\u001b]8;;" in err
    done = _cli(planted, "eval", "q.parquet", "plain.parquet", "-m", f"ndcg@{CLEAR}")
    _, err = _clean(done)
    assert done.returncode == 2 and "\\u001b[2J" in err


def test_a_saved_report_with_sequences_is_shown_safely(planted):
    saved = planted / "saved.json"
    done = _cli(planted, "eval", "q.parquet", "plain.parquet", "-m", "ndcg@2", "--format", "json")
    data = json.loads(done.stdout)
    for result in data["results"]:
        result["run"] = f"plain{CLEAR}"
    saved.write_text(json.dumps(data))
    _clean(_cli(planted, "eval", "q.parquet", "plain.parquet", "-m", "ndcg@2", "--against", "saved.json"))
    loaded = subprocess.run([sys.executable, "-c", "import rankflavor as rf; print(repr(rf.load('saved.json')))"],
                            cwd=planted, capture_output=True, env={"PYTHONPATH": str(SRC)}, timeout=120)
    assert loaded.returncode == 0 and b"\x1b" not in loaded.stdout, loaded.stderr  # (a repr's own escapes)


@pytest.mark.parametrize(("cell", "written"), [("=1+2*3", "'=1+2*3"), ("@SUM(9*9)", "'@SUM(9*9)"),
                                               ("-2+3", "'-2+3"), ("+1+1", "'+1+1"), ("\t=1", "'\t=1"),
                                               ("\r=1", "'\r=1"), ("-0.5", "-0.5"), ("+3", "+3"), ("1e-3", "1e-3"),
                                               ("bm25", "bm25"), ("a=b", "a=b")])
def test_csv_cells_a_spreadsheet_would_evaluate_are_quoted(cell, written):
    assert escape.formula_safe(cell) == written
    with escape.keep_formulas(True):
        assert escape.formula_safe(cell) == cell


def test_csv_names_are_quoted_unless_kept(planted):
    argv = ["eval", "q.parquet", "plain.parquet", "-m", "ndcg@2", "--format", "csv", "--name", "plain.parquet=@SUM(9*9)"]
    out, _ = _clean(_cli(planted, *argv))
    assert "\n'@SUM(9*9)," in out
    out, _ = _clean(_cli(planted, *argv, "--csv-formulas"))
    assert "\n@SUM(9*9)," in out
    out, _ = _clean(_cli(planted, "eval", "q.parquet", "plain.parquet", "-m", "ndcg@2", "--format", "csv", "--per-query"))
    assert ",'=1+2*3," not in out  # (a doc id is not a cell of eval's CSV; the query ids are)


def test_the_notebook_views_and_figures_show_bidi_controls():
    import rankflavor as rf
    from rankflavor.display.text import html_text, plotly_text

    qrels = {"q1": {"d1": 1}, "q2": {"d1": 1}}
    runs = {f"a{OVERRIDE}": {"q1": {"d1": 1.0}, "q2": {"d1": 1.0}}, f"b{CLEAR}": {"q1": {"d1": 1.0}, "q2": {}}}
    report = rf.evaluate(qrels, runs, ["ndcg@2"])
    for html in (report._repr_html_(), html_text(f"x{OVERRIDE}y"), plotly_text(f"x{OVERRIDE}y")):
        assert not re.search("[\u202a-\u202e\u2066\u2067\x1b]", html)
        assert "\u2069\u202e" not in html
    assert escape.html(f"<b>{OVERRIDE}") == "&lt;b&gt;\\u2069\\u202e"


def test_the_page_script_escapes_in_its_own_panels():
    core = (SRC / "rankflavor" / "display" / "assets" / "core.js").read_text()
    assert "const esc = (s) => vis(s)" in core and "const t = vis(s)" in core
    assert r"\x7f-\x9f\u202a-\u202e\u2066-\u2069" in core


@pytest.mark.parametrize("text", ["plain", "tab\there", "new\nline", f"a{CLEAR}", f"{CSI}", "\x7f", OVERRIDE])
def test_visible_and_cell(text):
    shown, one = escape.visible(text), escape.cell(text)
    assert not RAW.search(shown) and not RAW.search(one) and "\t" not in one and "\n" not in one
    as_json = '"' + shown.replace("\t", "\\t").replace("\n", "\\n") + '"'
    assert json.loads(as_json) == text  # (the form is a JSON escape)
