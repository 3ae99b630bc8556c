"""Help a person can use without reading the source: --version, examples that run, `rankflavor axes`,
did-you-mean everywhere a name can be mistyped, and explain's trimmed ranked list."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import rankflavor as rf
from rankflavor.cli.commands import COMMANDS
from rankflavor.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse: --help, --version, usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


# ---- --version --------------------------------------------------------------------------------------------

def test_version_prints_the_packages_version_and_exits_0():
    done = subprocess.run([sys.executable, "-m", "rankflavor", "--version"], capture_output=True, text=True)
    import importlib.metadata

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" in pyproject["project"]["dynamic"]  # (read from the one place it is written)
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "rankflavor.version.__version__"}
    installed = importlib.metadata.version("rankflavor")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"rankflavor {installed}\n", "")
    assert rf.__version__ == installed


# ---- every subcommand's help ends with examples that run ------------------------------------------------

def _examples(help_text: str) -> list[str]:
    """The commands of the examples block that ends a help text, $EX expanded as the block's EX= line sets it."""
    lines = help_text.rstrip("\n").splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("examples"))
    block = [line.strip() for line in lines[start + 1:]]
    env = {}
    if block and block[0].startswith("EX="):
        env["EX"] = shlex.split(block.pop(0))[0].split("=", 1)[1]
    out = []
    for line in block:
        for name, value in env.items():
            line = line.replace(f"${name}", shlex.quote(value))
        out.append(line)
    return out


@pytest.mark.parametrize("command", COMMANDS)
def test_each_subcommands_help_ends_with_examples_that_run(command, capsys, tmp_path, monkeypatch):
    code, text, _ = run_cli(capsys, command, "--help")
    assert code == 0
    examples = _examples(text)
    assert 1 <= len(examples) <= 3 and all(e.startswith(f"rankflavor {command}") for e in examples), examples
    assert text.rstrip().splitlines()[-1].startswith(f"  rankflavor {command}")  # the examples come last
    monkeypatch.chdir(tmp_path)  # no project file around: the examples' defaults are the plain ones
    for example in examples:
        code, out, err = run_cli(capsys, *shlex.split(example)[1:])
        assert code == 0, (example, err)
        assert out, example


def test_the_examples_read_the_built_in_files(capsys):
    _, text, _ = run_cli(capsys, "eval", "--help")
    ex = next(line.strip() for line in text.splitlines() if line.strip().startswith("EX="))
    assert Path(shlex.split(ex)[0].split("=", 1)[1], "seed000.qrels") == Path(rf.__file__).parent / "examples" / \
        "seed000.qrels"
    assert "rankflavor eval $EX/seed000.qrels $EX/X.run -m trec_eval.official --format trec" in text


def test_top_level_help_keeps_the_axes_summary_and_names_rankflavor_axes(capsys):
    code, text, _ = run_cli(capsys, "--help")
    assert code == 0
    assert any(line.strip().startswith("ties ") and "docid_desc" in line for line in text.splitlines())
    assert "rankflavor axes [AXIS]" in text and "--version" in text and "axes" in text.split("positional")[1]


# ---- rankflavor axes ----------------------------------------------------------------------------------------

def test_axes_prints_every_value_its_meaning_source_presets_and_default(capsys):
    from rankflavor.flavor.axes import AXES

    code, out, _ = run_cli(capsys, "axes")
    assert code == 0
    for axis in AXES:
        assert f"## {axis.name}: {axis.meaning} (default {axis.default})" in out
        for value in axis.values:
            assert f"- {value.pattern}" in out and value.meaning in out and value.source in out
    ties = out.split("## ties:")[1].split("\n## ")[0]
    average = ties.split("- average")[1].split("\n- ")[0]
    assert "presets: sklearn, torchmetrics" in average
    assert "- docid_desc (default):" in ties and "  - e.g. random(7), random(0)" in ties


def test_axes_one_axis_and_docs_axes_md_are_the_same_text(capsys):
    import docs

    code, one, _ = run_cli(capsys, "axes", "ties")
    assert code == 0 and one.startswith("## ties:") and "## gain" not in one
    _, every, _ = run_cli(capsys, "axes")
    assert one.strip() in every
    assert (ROOT / "docs" / "axes.md").read_text() == docs.AXES_MD_HEAD + every  # one rendering for both


def test_an_unknown_axis_gets_did_you_mean_and_exit_2(capsys):
    code, out, err = run_cli(capsys, "axes", "tie")
    assert code == 2 and not out
    assert "no axis 'tie'; did you mean ties?" in err


# ---- did-you-mean: one mechanism (flavor/suggest.py) --------------------------------------------------------

EX = Path(rf.__file__).parent / "examples"
Q, X = str(EX / "seed000.qrels"), str(EX / "X.run")


@pytest.mark.parametrize(("argv", "message"), [
    (["eval", Q, X, "-m", "ndcg@10 gain=exp"], "unknown value 'exp' for gain; did you mean exp2? valid values:"),
    (["eval", Q, X, "-m", "ndcg@10 gian=exp2"], "unknown key 'gian' in 'ndcg@10 gian=exp2'; did you mean gain?"),
    (["eval", Q, X, "-m", "ndcg@10 ties=random"], "did you mean random(seed)?"),
    (["eval", Q, X, "-m", "ndcg@10 empty=zeor"], "did you mean zero or error?"),
    (["eval", Q, X, "-m", "Ndcg@10"],
     "did you mean trec_eval.ndcg or pytrec_eval.ndcg or ir_measures.nDCG or ir_measures.NDCG or ndcg?"),
    (["evl", Q, X], "invalid choice: 'evl'; did you mean eval? (choose from 'eval', 'explain'"),
    (["metric"], "did you mean metrics?"),
    (["eval", Q, X, "--format", "jsn"], "invalid choice: 'jsn'; did you mean json?"),
    ([Q, X], "the command comes first: rankflavor eval QRELS RUN"),
])
def test_did_you_mean_through_the_cli(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and not out
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("spec", ["ndcg@10 gain=cubic", "ndcg@10 discount=log(1)", "ndcg@10 round=abc",
                                  "ndcg@10 colour=red"])
def test_no_reading_no_hint(spec):
    with pytest.raises(rf.SpecError) as caught:
        rf.Flavor.parse(spec)
    assert "did you mean" not in str(caught.value)


def test_did_you_mean_through_the_api():
    with pytest.raises(rf.SpecError, match=r"unknown value 'exp' for gain; did you mean exp2\?"):
        rf.Flavor.parse("ndcg@10 gain=exp")
    with pytest.raises(rf.SpecError, match=r"did you mean jarvelin\(b\)\?"):
        rf.Flavor(discount="jarvelin")
    with pytest.raises(rf.SpecError, match=r"unknown axis 'gian'; did you mean gain\?"):
        rf.Flavor.parse("ndcg@10").with_(gian="exp2")


def test_the_shared_helper():
    from rankflavor.flavor.suggest import close, did_you_mean

    assert close("evl", COMMANDS) == ["eval"]
    assert close("random", {"random": "random(seed)", "input": "input"}) == ["random(seed)"]
    assert did_you_mean([]) == "" and did_you_mean(["a", "b"]) == "did you mean a or b?"


# ---- explain: the ranks down to the cutoff, the judged below it, --all ---------------------------------------

@pytest.fixture
def deep(tmp_path) -> tuple[str, str]:
    """q1: 1000 ranked docs; judged: d0, d1, d5 (top 10), d50, d400 (below); d9..d11 tied across rank 10.
    The qrels lists q7, q3, q1, q2, q11, q5 in that order (q1 only in the run)."""
    qrels = tmp_path / "deep.qrels"
    judged = {"d0": 2, "d1": 0, "d5": 1, "d50": 3, "d400": 1}
    lines = [f"q{q} 0 d{d} 1\n" for q in (7, 3) for d in range(3)]
    lines += [f"q1 0 {doc} {grade}\n" for doc, grade in judged.items()]
    lines += [f"q{q} 0 d{d} 1\n" for q in (2, 11, 5) for d in range(3)]
    qrels.write_text("".join(lines))
    run = tmp_path / "deep.run"
    scores = [1000.0 - d if not 9 <= d <= 11 else 990.0 for d in range(1000)]
    run.write_text("".join(f"q1 Q0 d{d} {d + 1} {s} sys\n" for d, s in enumerate(scores)) + "q99 Q0 d1 1 1.0 sys\n")
    return str(qrels), str(run)


def _ranked_docs(out: str) -> list[str]:
    lines = out.split("\nranked list\n")[1].split("\n\n")[0].splitlines()[2:]
    return [line.split()[1] for line in lines if not line.startswith("...")]


def test_explain_shows_the_lists_to_the_cutoff_then_counts_what_all_adds(capsys, deep):
    code, out, _ = run_cli(capsys, "explain", *deep, "-q", "q1", "-m", "ndcg@10")
    assert code == 0
    docs = _ranked_docs(out)
    # ranks 1-10; d9, d11, d10 tie at 990 (ranks 10-12 in descending doc id): d11 and d10 are tied with d9
    assert docs == [*(f"d{d}" for d in range(10)), "d11", "d10"]
    assert "... 988 more ranked documents below rank 10 (2 judged)" in out  # (d50, d400)
    assert "\njudged universe\n" not in out and out.index("ranked list") < out.index("ideal list")
    assert "d50" in out.split("ideal list")[1]  # (the ideal's 5 judged docs, all within @10)
    code, whole, _ = run_cli(capsys, "explain", *deep, "-q", "q1", "-m", "ndcg@10", "--all")
    assert f"--all adds {len(whole.splitlines()) - len(out.splitlines())} lines: the judged universe (5 documents), " \
           "988 ranked documents\n" in out
    assert "\njudged universe\n" in whole and whole.index("ideal list") < whole.index("judged universe")


def test_explain_cuts_a_long_ideal_list_at_the_cutoff(capsys, deep):
    code, out, _ = run_cli(capsys, "explain", *deep, "-q", "q1", "-m", "ndcg@2")
    assert code == 0
    ideal = out.split("ideal list\n")[1].split("\n\n")[0].splitlines()
    assert [line.split()[1] for line in ideal[2:4]] == ["d50", "d0"]  # (grades 3, 2)
    assert ideal[4:] == ["... 3 more rows of the ideal list below rank 2"]


def test_explain_all_and_json_hold_every_row(capsys, deep):
    code, out, _ = run_cli(capsys, "explain", *deep, "-q", "q1", "-m", "ndcg@10", "--all")
    assert code == 0 and len(_ranked_docs(out)) == 1000 and "hidden" not in out
    code, out, _ = run_cli(capsys, "explain", *deep, "-q", "q1", "-m", "ndcg@10", "--format", "json")
    assert code == 0 and len(json.loads(out)["ranked"]) == 1000
    assert len(rf.explain(*deep, "q1", "ndcg@10").ranked) == 1000  # the API's record is whole


def test_explain_without_a_cutoff_shows_every_rank(capsys, deep):
    code, out, _ = run_cli(capsys, "explain", *deep, "-q", "q1", "-m", "map")
    assert code == 0 and len(_ranked_docs(out)) == 1000 and "more ranked" not in out


def test_the_trimming_keeps_ties_that_straddle_the_cutoff(deep):
    from rankflavor.report.records import trimmed

    record = rf.explain(*deep, "q1", "ndcg@10 ties=average")
    shown, line = trimmed(record, 10)
    assert [r["doc"] for r in shown.ranked if r["rank"] > 10] == ["d11", "d10", "d50", "d400"]
    assert line.startswith(f"... {1000 - len(shown.ranked)} unjudged documents below rank 10 hidden")
    assert trimmed(record, None) == (record, "")


@pytest.mark.parametrize(("query", "first_line"), [
    ("nope", "no query 'nope' in the qrels or the runs\n"),
    ("Q1", "no query 'Q1' in the qrels or the runs; did you mean q1"),
    ("q99", "query 'q99' is in the run but not in the qrels: it is never scored"),
])
def test_explain_an_unknown_query_is_a_usage_error_listing_known_ids(capsys, deep, query, first_line):
    code, out, err = run_cli(capsys, "explain", *deep, "-q", query)
    assert code == 2 and not out
    assert first_line in err
    assert "  the qrels' query ids: q7, q3, q1, q2, q11, ... (6 in all)\n" in err
    assert "fix: pick a query id from the qrels" in err


def test_explain_lists_every_id_of_a_small_qrels(capsys):
    code, _, err = run_cli(capsys, "explain", Q, X, "-q", "Q1")
    assert code == 2
    assert "no query 'Q1' in the qrels or the runs; did you mean q1?\n  the qrels' query ids: q1\n" in err



def test_the_package_docstring_opens_with_what_it_is_and_the_calls_that_run():
    """help(rankflavor) opens with what rankflavor is, and each call it shows exists."""
    import rankflavor

    doc = rankflavor.__doc__ or ""
    assert doc.startswith("rankflavor: NDCG") and "PEP 562" not in doc
    calls = ("rankflavor.evaluate(", "report.mean(", "report.explain(", "report.verify()", "rankflavor.compare.compare(")
    for call in calls:
        assert call in doc, call
    from rankflavor.report import Report

    assert all(callable(getattr(Report, name)) for name in ("mean", "explain", "verify"))
    assert callable(rankflavor.evaluate) and callable(rankflavor.compare.compare)
