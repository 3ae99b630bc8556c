"""CLI for presets: `presets --diff A B`, `presets` listing, side-by-side presets in `eval`, `--format trec`."""

from __future__ import annotations

import json

import pytest

import rankflavor as rf
from rankflavor.cli.trec_output import trec_eval_name
from test_cli import Q, X, Y, run_cli


def test_diff_lists_exactly_the_differing_axes(capsys):
    code, out, _ = run_cli(capsys, "presets", "--diff", "sklearn@10", "trec_eval@10", "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert [(d["axis"], d["a"], d["b"]) for d in result["differences"]] == [
        ("ideal", "local", "global"), ("ties", "average", "docid_desc"), ("negative", "error", "unjudged")]
    assert result["a"]["flavor"] == str(rf.Flavor.parse("sklearn@10"))


def test_diff_table_names_axes_and_values(capsys):
    code, out, _ = run_cli(capsys, "presets", "--diff", "lightgbm@5", "xgboost@5")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("A  lightgbm@5: ndcg@5 gain=exp2")
    assert any(line.split() == ["precision", "f64", "f32"] for line in lines)
    assert not any(line.split()[:1] == ["gain"] for line in lines[3:])


def test_diff_of_a_multi_cutoff_preset_notes_the_cutoff(capsys):
    code, out, _ = run_cli(capsys, "presets", "--diff", "trec_eval", "ndcg@5 ties=input")
    assert code == 0
    assert "stands for 9 flavors" in out
    assert [line.split() for line in out.splitlines()[-1:]] == [["ties", "docid_desc", "input"]]


def test_diff_same_flavor_and_bad_specs(capsys):
    code, out, _ = run_cli(capsys, "presets", "--diff", "ndcg@10", "trec_eval@10")
    assert code == 0 and "no difference" in out
    code, _, err = run_cli(capsys, "presets", "--diff", "spark", "ndcg@10")
    assert code == 2 and "needs a cutoff" in err
    code, _, err = run_cli(capsys, "presets", "--diff", "ndcg@10 ties=sideways", "ndcg@10")
    assert code == 2 and "ties" in err


def test_presets_listing_has_every_preset_with_source_and_check(capsys):
    code, out, _ = run_cli(capsys, "presets", "--format", "json")
    assert code == 0
    rows = {r["preset"]: r for r in json.loads(out)}
    assert set(rows) == set(rf.PRESETS)
    for name in ("trec_eval", "trec_eval.ndcg", "trec_eval.ndcg_p", "pytrec_eval", "ir_measures", "gdeval",
                 "sklearn", "ranx", "ranx.burges", "lightgbm", "xgboost", "xgboost.minus", "catboost",
                 "catboost.exp", "tf_ranking", "torchmetrics", "ranklib", "elastic", "elastic.ndcg", "quepid",
                 "quepid.cut", "spark", "trectools", "beir"):
        assert rows[name]["source"] and rows[name]["checked"], name
    assert rows["gdeval"]["default_cutoffs"] == "required (shown @10)"
    assert rows["xgboost"]["default_cutoffs"] == "32"


def test_eval_shows_two_presets_side_by_side(capsys):
    code, out, _ = run_cli(capsys, "eval", Q, X, "-m", "sklearn@3", "-m", "trec_eval@3")
    assert code == 0
    report = rf.evaluate(Q, X, ["sklearn@3", "trec_eval@3"])
    for spec in ("sklearn@3", "trec_eval@3"):
        flavor = rf.Flavor.parse(spec)
        line = next(line for line in out.splitlines() if line.split()[1:2] == [spec])
        assert f"{report.mean(None, flavor):.6f}" in line
        assert f"  {spec}: {flavor}\n" in out  # (each label's flavor, once, under the table)


def test_format_trec_prints_trec_eval_lines(capsys):
    code, out, _ = run_cli(capsys, "eval", Q, X, "-m", "trec_eval", "--format", "trec")
    assert code == 0
    lines = [line.split("\t") for line in out.splitlines()]
    assert [name.strip() for name, _, _ in lines] == [f"ndcg_cut_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    assert all(q == "all" and len(v) == 6 for _, q, v in lines)
    assert lines[0][0] == "ndcg_cut_5".ljust(22)
    mean = rf.evaluate(Q, X, "trec_eval@5").mean()
    assert lines[0][2] == f"{mean:6.4f}"


def test_format_trec_per_query_and_foreign_flavors(capsys):
    code, out, _ = run_cli(capsys, "eval", Q, X, Y, "-m", "trec_eval@3", "-m", "ndcg@3 gain=exp2", "--format",
                           "trec", "--per-query")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("runid") and lines[0].endswith(X.rsplit("/", 1)[-1])
    names = {line.split("\t")[0].strip() for line in lines if not line.startswith("runid")}
    assert names == {"ndcg_cut_3", "ndcg@3;gain=exp2"}  # (a foreign flavor: its label as one word)


@pytest.mark.parametrize(("spec", "name"), [("trec_eval@10", "ndcg_cut_10"), ("trec_eval.ndcg", "ndcg"),
                                            ("trec_eval.ndcg_p", "ndcg_p"), ("pytrec_eval@10", None),
                                            ("ndcg@10 gain=exp2", None)])
def test_trec_eval_names(spec, name):
    assert trec_eval_name(rf.Flavor.parse(spec)) == name
