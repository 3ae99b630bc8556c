"""The axis registry (rankflavor.flavor.axes) is the one description of every axis value: the README table,
docs/axes.md, the CLI help, the compare grids and the tests' strategies are generated from it."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import rankflavor as rf
from rankflavor.cli.main import main
from rankflavor.compare.grid import GRIDS
from rankflavor.flavor.axes import AXES, AXIS_BY_NAME, parse_value, sweep_tokens

ROOT = Path(__file__).resolve().parent.parent

EXPECTED = {  # written out by hand: a value dropped from the registry by mistake fails here
    "gain": ["linear", "exp2", "{g:gain,...}"],
    "discount": ["log2", "jarvelin(b)", "log(b)", "reciprocal", "none"],
    "ideal": ["global", "positive", "local", "recall(K)", "max"],
    "ideal_depth": ["k", "all", "returned"],
    "ties": ["docid_desc", "docid_asc", "input", "average", "pessimistic", "optimistic", "quicksort(passes)",
             "random(seed)"],
    "unjudged": ["zero", "skip", "error"],
    "negative": ["unjudged", "zero", "keep", "error", "drop"],
    "min_grade": ["none", "N"],
    "empty": ["skip", "zero", "one", "error"],
    "missing": ["skip", "zero", "empty"],
    "precision": ["f64", "f32"],
    "run_depth": ["all", "N"],
    "self_docs": ["keep", "drop"],
    "round": ["none", "N"],
    "unjudged_queries": ["skip", "zero", "score"],
    "mean_of": ["raw", "rounded"],
    "weights": ["none", "NAME"],
    "rel_level": ["N"],
}


def test_the_registry_lists_every_value_of_every_axis_in_canonical_order():
    assert {axis.name: [v.pattern for v in axis.values] for axis in AXES} == EXPECTED
    assert list(AXIS_BY_NAME) == list(EXPECTED)


def test_every_value_has_a_meaning_a_source_and_examples_that_parse_to_themselves():
    for axis in AXES:
        assert axis.meaning and parse_value(axis.name, axis.default) == axis.default
        for value in axis.values:
            assert value.meaning and value.source and value.short and value.examples, (axis.name, value.pattern)
            for token in value.examples:
                typed = parse_value(axis.name, token)
                assert typed == token and pickle.loads(pickle.dumps(typed)) == typed
                assert typed.kind == pickle.loads(pickle.dumps(typed)).kind


def test_typed_values_carry_their_parsed_meaning():
    f = rf.Flavor.parse("ndcg@5 gain={1:1,0:0} discount=log(e) ideal=recall(8) ties=random(3) min_grade=0.5 "
                        "run_depth=7 round=4")
    assert f.gain.kind == "table" and f.gain.table == {0.0: 0.0, 1.0: 1.0}
    assert f.discount.kind == "log" and f.discount.base == pytest.approx(2.718281828459045)
    assert (f.ideal.kind, f.ideal.k) == ("recall", 8) and (f.ties.kind, f.ties.seed) == ("random", 3)
    assert rf.Flavor.parse("ndcg ties=quicksort").ties == "quicksort(1)"
    assert rf.Flavor.parse("ndcg ties=quicksort(2)").ties.passes == 2
    assert f.min_grade.threshold == 0.5 and f.run_depth.limit == 7 and f.round.decimals == 4
    plain = rf.Flavor.parse("ndcg")
    assert plain.run_depth.limit is None and plain.round.decimals is None and plain.min_grade.threshold is None
    assert plain.gain == "linear" and plain == rf.Flavor(gain=plain.gain)  # a value is its canonical token


def test_readme_and_docs_tables_are_the_registrys():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "docs.py"), "--check"], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout


def test_cli_help_lists_every_axis_and_value(capsys):
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = capsys.readouterr().out
    for name, patterns in EXPECTED.items():
        line = next(line for line in text.splitlines() if line.strip().startswith(name + " "))
        assert all(p in line for p in patterns), line


def test_grids_sweep_the_registrys_values():
    assert GRIDS["ties"].axes["ties"] == sweep_tokens("ties") == (
        "docid_desc", "docid_asc", "average", "pessimistic", "optimistic")
    assert GRIDS["discount"].axes["discount"] == ("log2", "jarvelin(2)", "reciprocal", "none")
    assert GRIDS["gain"].axes["gain"] == ("linear", "exp2")
    for grid in GRIDS.values():
        for axis, values in grid.axes.items():
            assert all(parse_value(axis, v) == v for v in values)


def test_a_bad_spec_is_reported_before_a_bad_input(tmp_path, capsys):
    missing = tmp_path / "no-such-qrels"
    with pytest.raises(rf.SpecError, match="unknown value 'exp' for gain"):
        rf.evaluate(missing, missing, "ndcg@10 gain=exp")
    assert main(["eval", str(missing), str(missing), "-m", "ndcg@10 gain=exp"]) == 2
    assert "unknown value 'exp' for gain" in capsys.readouterr().err
    assert main(["compare", str(missing), str(missing), str(missing), "-m", "skelarn@10"]) == 2
    assert "unknown metric or preset 'skelarn'" in capsys.readouterr().err
    assert main(["diff", str(missing), str(missing), "-m", "ndcg@10", "-m", "ndcg@10 ties=sideways"]) == 2
    assert main(["explain", str(missing), str(missing), "-q", "q1", "-m", "ndcg@0"]) == 2
