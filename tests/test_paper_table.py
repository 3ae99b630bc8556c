"""The systems x measures table of a paper (compare/paper.py, `compare --table`): marks from the pairs'
Holm-corrected significance, the baseline's arrows or the runs' letters, text / Markdown / LaTeX / JSON / CSV,
and p-values at the Monte Carlo floor printed as a bound."""

from __future__ import annotations

import csv
import io
import json

import pytest

import rankflavor.compare as rc
from rankflavor.cli.main import main
from rankflavor.compare.paper import BOLD, PaperTable

N = 30  # queries: 2^30 sign vectors, so the randomization test is Monte Carlo (its floor is 1/(R+1))
QRELS = {f"q{i}": {"rel": 1, "non": 0} for i in range(N)}
GOOD = {f"q{i}": {"rel": 2.0, "non": 1.0} for i in range(N)}  # ndcg@1 = 1 everywhere
BAD = {f"q{i}": {"rel": 1.0, "non": 2.0} for i in range(N)}  # 0 everywhere
HALF = {f"q{i}": (GOOD if i % 2 else BAD)[f"q{i}"] for i in range(N)}  # 1 on odd queries
RUNS = {"good": GOOD, "bad": BAD, "half": HALF}


def test_letters_mark_the_runs_each_beats_significantly():
    cmp = rc.compare(QRELS, RUNS, ["ndcg@1", "p@1"], n_resamples=2000)
    table = cmp.paper_table()
    assert table.letters == {"good": "a", "bad": "b", "half": "c"}
    assert [table.marks(r, "ndcg@1") for r in ("good", "bad", "half")] == ["bc", "", "b"]
    assert table.means[("half", "p@1")] == pytest.approx(0.5)
    text = table.render("text")
    assert "(a) good" in text and "1.0000 bc" in text and "Holm's correction over the 3 comparisons" in text
    for row in cmp.pairs.itertuples():  # every mark is a significant pair, and every significant pair a mark
        winner = row.winner if row.significant else None
        loser = row.run_b if winner == row.run_a else row.run_a
        marked = table.letters[loser] in table.marks(winner, row.label) if winner else False
        assert marked == bool(row.significant)


def test_a_baseline_gets_arrows_and_no_mark_of_its_own():
    cmp = rc.compare(QRELS, RUNS, ["ndcg@1"], baseline="half", n_resamples=2000)
    table = cmp.paper_table()
    assert {r: table.marks(r, "ndcg@1") for r in table.runs} == {"good": "▲", "bad": "▼", "half": ""}
    markdown = table.render("markdown")
    low, high = cmp.means.set_index("run").loc["half", ["ci_low", "ci_high"]]
    assert 0 <= low < 0.5 < high <= 1 and table.interval("half", "ndcg@1") == f"[{low:.4f}, {high:.4f}]"
    assert f"| half (baseline) | 0.5000 [{low:.4f}, {high:.4f}] |" in markdown
    assert "| good | **1.0000**<sup>▲</sup> [1.0000, 1.0000] |" in markdown
    assert "| bad | 0.0000<sup>▼</sup> [0.0000, 0.0000] |" in markdown
    assert "significantly better / worse than half" in markdown


def test_latex_escapes_names_and_bolds_the_best():
    runs = {"run_a": GOOD, "run_b": BAD}
    latex = rc.compare(QRELS, runs, ["ndcg@1", "p@1 rel_level=1"], n_resamples=2000).paper_table().render("latex")
    assert "\\begin{tabular}{lrr}" in latex and "\\toprule" in latex and "\\bottomrule" in latex
    interval = " {\\scriptsize [1.0000, 1.0000]}"
    assert (f"(a) run\\_a & \\textbf{{1.0000}}\\textsuperscript{{b}}{interval} & "
            f"\\textbf{{1.0000}}\\textsuperscript{{b}}{interval} \\\\") in latex
    assert "Run & ndcg@1 & p@1 rel\\_level=1 \\\\" in latex
    with pytest.raises(ValueError, match="markdown"):
        rc.compare(QRELS, runs, ["ndcg@1"], n_resamples=500).paper_table().render("html")



# LaTeX's text-mode spellings of its special characters (as a LaTeX reader reads them back: one command each)
LATEX_READS = {"\\textbackslash{}": "\\", "\\textasciitilde{}": "~", "\\textasciicircum{}": "^", "\\&": "&", "\\%": "%",
               "\\$": "$", "\\#": "#", "\\_": "_", "\\{": "{", "\\}": "}"}


def _read_latex_text(tex: str) -> str:
    """The text a LaTeX cell spells, read left to right; a special character left bare is an error."""
    out, i = [], 0
    while i < len(tex):
        spelled = next((s for s in LATEX_READS if tex.startswith(s, i)), None)
        if spelled is None:
            assert tex[i] not in "\\&%$#_{}~^", f"bare {tex[i]!r} at {i} in {tex!r}"
            out.append(tex[i])
            i += 1
        else:
            out.append(LATEX_READS[spelled])
            i += len(spelled)
    return "".join(out)


def test_latex_spells_every_special_character_of_a_name_once():
    names = ["a\\b", "{x}_1 & 50% #2", "~^$", "UPenn DOWN \\{\\}"]  # (the last one the baseline)
    table = PaperTable(runs=names, measures=["m\\1"], flavors=["ndcg@1"], means={(r, "m\\1"): 0.5 for r in names},
                       better={(r, "m\\1"): [] for r in names}, worse={(r, "m\\1"): [] for r in names},
                       baseline=names[-1], note=f"▲ / ▼: significantly better / worse than {names[-1]} (t).")
    lines = table.render("latex").splitlines()
    body = lines[lines.index("\\midrule") + 1: lines.index("\\bottomrule")]
    assert [_read_latex_text(row.split(" & ")[0]) for row in body] == [table.run_name(r) for r in names]
    assert _read_latex_text(lines[lines.index("\\toprule") + 1].split(" & ")[1].removesuffix(" \\\\")) == "m\\1"
    caption = next(line for line in lines if line.startswith("\\caption{"))[len("\\caption{"):-1]
    marks = caption.replace("$\\blacktriangle$", "▲").replace("$\\blacktriangledown$", "▼")
    assert _read_latex_text(marks) == table.note + BOLD
    assert table.render("markdown").rstrip().endswith(table.note + BOLD) and BOLD not in table.render("text")

def test_the_cli_prints_each_style_and_the_cells_as_json_and_csv(tmp_path, capsys):
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()))
    paths = []
    for name, run in RUNS.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{q} Q0 {d} 0 {s} {name}\n" for q, docs in run.items() for d, s in docs.items()))
        paths.append(str(path))
    base = ["compare", str(qrels), *paths, "-m", "ndcg@1", "-m", "sklearn@1", "--resamples", "2000"]
    assert main([*base, "--table", "markdown", "--baseline", paths[2]]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| run | ndcg@1 | sklearn@1 |") and "| half.run (baseline) |" in out
    assert main([*base, "--table"]) == 0
    assert "(a) good.run  1.0000 bc" in capsys.readouterr().out
    assert main([*base, "--table", "--format", "json"]) == 0
    cells = json.loads(capsys.readouterr().out)["cells"]
    assert {(c["run"], c["measure"]): c["marks"] for c in cells}[("half.run", "sklearn@1")] == "b"
    assert main([*base, "--table", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows[0]["better_than"] == "bad.run half.run" and rows[0]["measure"] == "ndcg@1"
    assert main([*base[:-2], "-m", "ndcg_cutt_1", "--table"]) == 2  # (a spec of the user's own that is no metric)
    assert "did you mean" in capsys.readouterr().err


def test_p_values_at_the_monte_carlo_floor_print_as_a_bound(tmp_path, capsys):
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()))
    paths = []
    for name in ("good", "bad"):
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{q} Q0 {d} 0 {s} t\n" for q, docs in RUNS[name].items() for d, s in docs.items()))
        paths.append(str(path))
    assert main(["compare", str(qrels), *paths, "-m", "ndcg@1", "--resamples", "999", "--queries", "0"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("ndcg@1 "))
    assert "  <0.0010  <0.0010*  " in line  # (1/(999+1): no resample was as extreme as the observed difference)
    assert main(["compare", str(qrels), *paths, "-m", "ndcg@1", "--queries", "0"]) == 0  # (10,000 resamples)
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("ndcg@1 "))
    assert "  <1e-04  <1e-04*  " in line
