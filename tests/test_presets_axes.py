"""Axis values added for presets: `negative=drop` (TF-Ranking's label < 0 mask), engine against the reference."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor import Flavor, SpecError
from strategies import qrels_and_run
from test_engine_vs_reference import check


@st.composite
def drop_flavors(draw):
    while True:
        try:
            return Flavor(
                metric=draw(st.sampled_from(["ndcg", "dcg"])),
                cutoff=draw(st.sampled_from([None, 1, 2, 3, 5])),
                gain=draw(st.sampled_from(["linear", "exp2"])),
                ideal=draw(st.sampled_from(["global", "local", "recall(6)"])),
                ideal_depth=draw(st.sampled_from(["k", "all", "returned"])),
                ties=draw(st.sampled_from(["docid_desc", "input", "average", "pessimistic", "random(3)"])),
                unjudged=draw(st.sampled_from(["zero", "skip"])),
                negative="drop",
                min_grade=draw(st.sampled_from(["none", "1"])),
                empty=draw(st.sampled_from(["skip", "zero", "one"])),
                missing=draw(st.sampled_from(["skip", "zero"])),
                precision=draw(st.sampled_from(["f64", "f32"])),
                run_depth=draw(st.sampled_from(["all", "2"])),
                self_docs=draw(st.sampled_from(["keep", "drop"])),
            )
        except SpecError:
            continue


@given(qrels_and_run(), drop_flavors())
def test_negative_drop_engine_matches_reference(data, flavor):
    qrels, run = data
    check(qrels, run, flavor)


def test_negative_drop_removes_the_doc_and_renumbers():
    """A negative-grade doc ranked first is removed: the relevant doc moves up to rank 1 (TF-Ranking masks it)."""
    qrels = {"q": {"neg": -1, "rel": 1}}
    run = {"q": {"neg": 2.0, "rel": 1.0, "zero": 0.5}}
    dropped = rf.evaluate(qrels, run, "ndcg@1 negative=drop")
    zero = rf.evaluate(qrels, run, "ndcg@1 negative=zero")
    assert dropped.mean() == pytest.approx(1.0)
    assert zero.mean() == pytest.approx(0.0)
    counts = dropped.results[0].counts
    assert counts["rows_dropped_negative"] == 1
    record = dropped.explain(None, "q", "ndcg@1 negative=drop")
    assert [r["doc"] for r in record.dropped] == ["neg"]
    assert dropped.verify() == []


def test_negative_drop_round_trips():
    flavor = Flavor.parse("ndcg@5 negative=drop")
    assert Flavor.parse(str(flavor)) == flavor
    assert "negative=drop" in str(flavor)
