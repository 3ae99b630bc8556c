"""Every number of seed 000 (the four-document worked example), to 1e-9."""

from __future__ import annotations

import itertools
import math

import pytest

import rankflavor as rf
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

U = {"q": {"A": 3, "B": 2, "C": 2, "D": 0}}
X = {"q": {"B": 40, "C": 30, "A": 20, "D": 10}}
Y = {"q": {"A": 40, "D": 30, "B": 20, "C": 10}}
A = 1 / math.log2(3)


def value(run, spec, qrels=U):
    return rf.evaluate(qrels, run, spec).value("q")


@pytest.mark.parametrize(
    ("run", "spec", "expected"),
    [
        (X, "ndcg@3", 0.904976558),
        (Y, "ndcg@3", 0.760187533),
        (X, "ndcg@3 gain=exp2", 0.807558881),
        (Y, "ndcg@3 gain=exp2", 0.817874758),
        (X, "ndcg@4", 0.904976558),
        (Y, "ndcg@4", 0.923885009),
    ],
)
def test_headline_values(run, spec, expected):
    assert value(run, spec) == pytest.approx(expected, abs=1e-9)


def test_closed_forms():
    report = rf.evaluate(U, {"X": X, "Y": Y}, ["ndcg@3", "ndcg@3 gain=exp2"])
    x = report.explain("X", "q", "ndcg@3")
    assert x.dcg == pytest.approx(3.5 + 2 * A, abs=1e-12)
    assert x.idcg == pytest.approx(4 + 2 * A, abs=1e-12)
    y = report.explain("Y", "q", "ndcg@3")
    assert y.dcg == pytest.approx(4.0, abs=1e-12)
    xe = report.explain("X", "q", "ndcg@3 gain=exp2")
    ye = report.explain("Y", "q", "ndcg@3 gain=exp2")
    assert xe.dcg == pytest.approx(6.5 + 3 * A, abs=1e-12)
    assert ye.dcg == pytest.approx(8.5, abs=1e-12)
    assert xe.idcg == pytest.approx(8.5 + 3 * A, abs=1e-12)
    # the reversal: linear X - Y = -1/2 + 2a > 0, exp2 X - Y = -2 + 3a < 0
    assert x.dcg - y.dcg == pytest.approx(-0.5 + 2 * A, abs=1e-12) and x.dcg > y.dcg
    assert xe.dcg - ye.dcg == pytest.approx(-2 + 3 * A, abs=1e-12) and xe.dcg < ye.dcg
    assert [r["contribution"] for r in x.ranked[:3]] == pytest.approx([2, 2 * A, 1.5])
    assert [r["gain"] for r in xe.ideal[:3]] == [7, 3, 3]


def test_cutoff_four_adds_c_for_y_only():
    report = rf.evaluate(U, {"X": X, "Y": Y}, ["ndcg@4"])
    y = report.explain("Y", "q", "ndcg@4")
    assert y.ranked[3]["contribution"] == pytest.approx(2 / math.log2(5), abs=1e-12)
    assert y.dcg == pytest.approx(4.861353116, abs=1e-9)
    assert y.idcg == pytest.approx(5.261859507, abs=1e-9)
    assert report.mean("X", "ndcg@4") == pytest.approx(0.904976558, abs=1e-9)


def test_returned_only_b_against_full_universe_and_local_ideal():
    only_b = {"q": {"B": 1.0}}
    assert value(only_b, "ndcg@1") == pytest.approx(2 / 3, abs=1e-12)
    assert value(only_b, "ndcg@1 gain=exp2") == pytest.approx(3 / 7, abs=1e-12)
    assert value(only_b, "ndcg@1 ideal=local") == pytest.approx(1.0, abs=1e-12)
    assert value(only_b, "ndcg@1 gain=exp2 ideal=local") == pytest.approx(1.0, abs=1e-12)


def test_tie_at_one_averaged():
    tied = {"q": {"A": 5.0, "B": 5.0, "C": 2.0, "D": 1.0}}
    assert value(tied, "ndcg@1 ties=average") == pytest.approx(5 / 6, abs=1e-12)
    assert value(tied, "ndcg@1 gain=exp2 ties=average") == pytest.approx(5 / 7, abs=1e-12)
    # the two realised orders
    assert value(tied, "ndcg@1 ties=docid_desc") == pytest.approx(2 / 3, abs=1e-12)  # B first
    assert value(tied, "ndcg@1 ties=docid_asc") == pytest.approx(1.0, abs=1e-12)  # A first
    assert value(tied, "ndcg@1 ties=pessimistic") == pytest.approx(2 / 3, abs=1e-12)
    assert value(tied, "ndcg@1 ties=optimistic") == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("empty", ["skip", "zero", "one"])
def test_all_zero_universe_is_marked_zero_ideal(empty):
    zeros = {"q": {"A": 0, "B": 0, "C": 0, "D": 0}}
    report = rf.evaluate(zeros, X, f"ndcg@3 empty={empty}")
    row = report.results[0].per_query()[0]
    assert row["status"] == "zero_ideal"
    assert row["dcg"] == 0 and row["idcg"] == 0
    assert row["value"] == {"skip": None, "zero": 0.0, "one": 1.0}[empty]
    assert report.results[0].counts["zero_ideal"] == 1
    if empty == "skip":
        assert report.mean() is None


def test_all_zero_universe_with_empty_error():
    zeros = {"q": {"A": 0, "B": 0}}
    with pytest.raises(rf.EvaluationError, match="IDCG 0"):
        rf.evaluate(zeros, X, "ndcg@3 empty=error")


def test_empty_result_for_positive_universe_is_zero():
    report = rf.evaluate(U, {"q": {}}, "ndcg@3")
    row = report.results[0].per_query()[0]
    assert row == {"query": "q", "value": 0.0, "dcg": 0.0, "idcg": pytest.approx(4 + 2 * A), "status": "ok"}


def test_trec_run_without_the_query_under_missing_zero(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("q 0 A 3\nq 0 B 2\nq 0 C 2\nq 0 D 0\nr 0 A 1\n")
    run = tmp_path / "run"
    run.write_text("r Q0 A 1 1.0 t\n")
    skip = rf.evaluate(qrels, run, "ndcg@3")
    assert skip.value("q") is None and skip.results[0].counts["missing"] == 1
    zero = rf.evaluate(qrels, run, "ndcg@3 missing=zero")
    assert zero.value("q") == 0.0
    assert zero.results[0].per_query()[0]["status"] == "missing"
    assert zero.mean() == pytest.approx(0.5)


@pytest.mark.parametrize("gain", ["linear", "exp2"])
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_ideal_is_the_maximum_over_all_24_permutations(gain, k):
    report = rf.evaluate(U, X, f"ndcg@{k} gain={gain}")
    idcg = report.explain(None, "q", f"ndcg@{k} gain={gain}").idcg
    best = 0.0
    for perm in itertools.permutations("ABCD"):
        run = {"q": {doc: 10 - i for i, doc in enumerate(perm)}}
        dcg = rf.evaluate(U, run, f"dcg@{k} gain={gain}").value("q")
        assert dcg <= idcg + 1e-12
        best = max(best, dcg)
    assert best == pytest.approx(idcg, abs=1e-12)


@pytest.mark.parametrize("gain", ["linear", "exp2"])
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_scaling_gains_by_seven_and_changing_log_base(gain, k):
    base = value(X, f"ndcg@{k} gain={gain}")
    table = {0: 0, 1: 1, 2: 2, 3: 3} if gain == "linear" else {0: 0, 1: 1, 2: 3, 3: 7}
    scaled = "{" + ",".join(f"{g}:{7 * v}" for g, v in table.items()) + "}"
    assert value(X, f"ndcg@{k} gain={scaled}") == pytest.approx(base, abs=1e-12)
    for b in ("e", "10"):
        assert value(X, f"ndcg@{k} gain={gain} discount=log({b})") == pytest.approx(base, abs=1e-12)


def test_affine_score_transform_keeps_every_value():
    moved = {"q": {d: 10 * s + 7 for d, s in X["q"].items()}}
    for spec in ("ndcg@1", "ndcg@2", "ndcg@3", "ndcg@4", "ndcg@3 gain=exp2"):
        assert value(moved, spec) == value(X, spec)


def test_builtin_example_files_give_the_seed_numbers():
    report = rf.evaluate(SEED000_QRELS, list(SEED000_RUNS), ["ndcg@3", "ndcg@3 gain=exp2", "ndcg@4"])
    assert report.mean("X.run", "ndcg@3") == pytest.approx(0.904976558, abs=1e-9)
    assert report.mean("Y.run", "ndcg@3") == pytest.approx(0.760187533, abs=1e-9)
    assert report.mean("X.run", "ndcg@3 gain=exp2") == pytest.approx(0.807558881, abs=1e-9)
    assert report.mean("Y.run", "ndcg@3 gain=exp2") == pytest.approx(0.817874758, abs=1e-9)
    assert report.mean("Y.run", "ndcg@4") == pytest.approx(0.923885009, abs=1e-9)
    assert report.verify() == []
