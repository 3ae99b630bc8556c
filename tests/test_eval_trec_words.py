"""`rankflavor eval` for trec_eval's users (issue 40 item 2, cli/trec_words.py): trec_eval's flags answered with
the flavor axes that mean the same and `rankflavor trec_eval`; trec_eval's bare family names expanded as trec_eval
expands them; rankflavor's own names that ranx reads otherwise told in one stderr line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_capture import cli

EDGE = Path(__file__).resolve().parent / "dropin" / "inputs" / "edge"
QRELS, RUN = str(EDGE / "base.qrels"), str(EDGE / "base.run")



@pytest.mark.parametrize(("flags", "axes"), [
    (["-c"], ["missing=empty"]),
    (["-M", "100"], ["run_depth=100"]),
    (["-M100"], ["run_depth=100"]),
    (["-l", "2"], ["rel_level=2"]),
    (["-J"], ["unjudged=skip"]),
    (["-n"], []),
    (["-c", "-M", "5", "-J"], ["missing=empty", "run_depth=5", "unjudged=skip"]),
])
def test_trec_eval_flags_name_their_axes(flags, axes):
    code, out, err = cli("eval", QRELS, RUN, *flags)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rankflavor: ") and "of trec_eval, not of eval" in lines[0]
    assert all(axis in lines[0] for axis in axes), lines[0]
    assert "`rankflavor trec_eval " in lines[0] and "QRELS RUN`" in lines[0]
    if axes:  # (the example spec is one eval takes)
        example = lines[0].split("e.g. -m '")[1].split("'")[0]
        assert example.split()[1:] == axes
        assert cli("eval", "-q", QRELS, RUN, "-m", example)[0] == 0


def _means(out: str) -> dict[str, float]:
    """Each label's mean (two specs of one flavor: one result, both labels)."""
    return {label: result["mean"] for result in json.loads(out)["results"]
            for label in result.get("labels") or [result["label"]]}


@pytest.mark.parametrize(("family", "values"), [
    ("P", ["5", "10", "15", "20", "30", "100", "200", "500", "1000"]),
    ("recall", ["5", "10", "15", "20", "30", "100", "200", "500", "1000"]),
    ("ndcg_cut", ["5", "10", "15", "20", "30", "100", "200", "500", "1000"]),
    ("map_cut", ["5", "10", "15", "20", "30", "100", "200", "500", "1000"]),
    ("success", ["1", "5", "10"]),
    ("iprec_at_recall", [f"{i / 10:.2f}" for i in range(11)]),
])
def test_a_family_name_expands_as_trec_eval_expands_it(family, values):
    code, out, err = cli("eval", QRELS, RUN, "-m", family, "--format", "json")
    assert code == 0, err
    members = [f"trec_eval.{family}_{value}" for value in values]
    assert [result["label"] for result in json.loads(out)["results"]] == members
    assert f"{family}: trec_eval's {family}, expanded as trec_eval expands it: {', '.join(members)}" in err


def test_a_family_member_is_the_cut_measure_not_another():
    """ndcg_cut was uncut ndcg, recall set recall: each member is now the measure at its cutoff."""
    _code, out, _err = cli("eval", QRELS, RUN, "-m", "ndcg_cut", "-m", "recall", "-m", "ndcg@5", "-m", "recall@5",
                           "-m", "ndcg", "--format", "json")
    means = _means(out)
    assert means["trec_eval.ndcg_cut_5"] == means["ndcg@5"] != means["ndcg"]
    assert means["trec_eval.recall_5"] == means["recall@5"]


def test_axes_after_a_family_name_reach_every_member():
    _code, out, _err = cli("eval", QRELS, RUN, "-m", "P rel_level=2", "-m", "p@5 rel_level=2", "--format", "json")
    means = _means(out)
    assert means["trec_eval.P_5 rel_level=2"] == means["p@5 rel_level=2"]
    assert len(json.loads(out)["results"]) == 9  # (p@5 rel_level=2 is P_5's flavor)


@pytest.mark.parametrize(("spec", "other"), [("ndcg@10", "ranx.ndcg@10"), ("map", "ranx.map"), ("mrr", "ranx.mrr")])
def test_a_name_ranx_reads_otherwise_is_told_once(spec, other):
    code, _out, err = cli("eval", QRELS, RUN, "-m", spec, "-m", spec + " round=4")
    assert code == 0
    notes = [line for line in err.splitlines() if line.startswith(f"{spec}: rankflavor's {spec}")]
    assert len(notes) == 1 and f"ranx reads {spec} otherwise: {other} (" in notes[0], err
    assert "missing=zero" in notes[0]


def test_no_note_when_the_readings_agree_or_the_prefix_is_written():
    _code, _out, err = cli("eval", QRELS, RUN, "-m", "ranx.ndcg@10", "-m",
                           "ndcg@10 ties=quicksort(1) negative=zero min_grade=1 missing=zero")
    assert "otherwise" not in err
    _code, _out, err = cli("eval", "-q", QRELS, RUN, "-m", "ndcg@10")
    assert "otherwise" not in err
