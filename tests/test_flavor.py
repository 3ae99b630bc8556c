"""Flavor: canonical string, round trip, partial specs, presets, and errors that name what is wrong."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given

import rankflavor as rf
from rankflavor.errors import SpecError
from rankflavor.flavor import AXIS_NAMES, PRESETS, Flavor, parse_spec, parse_specs
from strategies import flavors

DEFAULT_10 = ("ndcg@10 gain=linear discount=log2 ideal=global ideal_depth=k ties=docid_desc unjudged=zero "
              "negative=unjudged min_grade=none empty=zero missing=skip precision=f64 run_depth=all self_docs=keep "
              "round=none unjudged_queries=skip mean_of=raw weights=none")


def test_plain_ndcg_at_10_prints_every_axis():
    assert str(rf.Flavor.parse("ndcg@10")) == DEFAULT_10
    assert [kv.split("=")[0] for kv in DEFAULT_10.split()[1:]] == [a for a in AXIS_NAMES if a != "rel_level"]
    assert "rel_level=1" in str(rf.Flavor.parse("map@10"))  # (binary measures read it; ndcg reads gains)


def test_dcg_omits_the_ideal_axes():
    text = str(rf.Flavor.parse("dcg@5"))
    assert text.startswith("dcg@5 gain=linear discount=log2 ties=")
    for key in ("ideal=", "ideal_depth=", "empty="):
        assert key not in text


@given(flavors())
def test_depth_is_the_cutoff_or_the_whole_list(flavor):
    ranks = range(1, 40)
    assert [r for r in ranks if r <= flavor.depth] == list(ranks[: flavor.cutoff])
    assert flavor.depth == (math.inf if flavor.cutoff is None else flavor.cutoff)


@given(flavors())
def test_round_trip(flavor):
    again = rf.Flavor.parse(str(flavor))
    assert again == flavor
    assert hash(again) == hash(flavor)
    assert str(again) == str(flavor)


def test_partial_specs_any_order_and_presets_with_overrides():
    a = rf.Flavor.parse("ndcg@10 ties=average gain=exp2")
    b = rf.Flavor.parse("ndcg@10 gain=exp2 ties=average")
    assert a == b and a.gain == "exp2" and a.ties == "average" and a.discount == "log2"
    lgb = rf.Flavor.parse("lightgbm@5 empty=zero")
    assert lgb.empty == "zero" and lgb.gain == "exp2" and lgb.ideal == "local" and lgb.cutoff == 5


def test_numbers_print_as_python_prints_them():
    f = rf.Flavor.parse("ndcg@10 gain={4:4.50,0:0.0,2:9,1:3} discount=log(10.0) ideal=recall(100) ties=random(42)")
    assert "gain={0:0,1:3,2:9,4:4.5}" in str(f)
    assert "discount=log(10)" in str(f) and "ideal=recall(100)" in str(f) and "ties=random(42)" in str(f)
    assert "discount=jarvelin(2)" in str(rf.Flavor.parse("ndcg discount=jarvelin(2.0)"))
    assert "discount=log(e)" in str(rf.Flavor.parse("ndcg discount=log(e)"))
    assert rf.Flavor.parse("ndcg min_grade=1.0") == rf.Flavor.parse("ndcg min_grade=1")


def test_spaces_inside_a_gain_table_are_tolerated():
    assert rf.Flavor.parse("ndcg@3 gain={0: 0, 1: 1}").gain == "{0:0,1:1}"


def test_presets_expand_to_default_cutoffs():
    assert [f.cutoff for f in parse_spec("trec_eval")] == [5, 10, 15, 20, 30, 100, 200, 500, 1000]
    assert [f.cutoff for f in parse_spec("lightgbm")] == [1, 2, 3, 4, 5]
    assert [f.cutoff for f in parse_spec("sklearn")] == [None]
    assert parse_spec("trec_eval@10") == [rf.Flavor.parse("ndcg@10")]
    assert rf.Flavor.parse("pytrec_eval@10").precision == "f32"
    with pytest.raises(rf.SpecError, match="expands to 9 flavors"):
        rf.Flavor.parse("trec_eval")


def test_minimum_preset_set_exists_and_resolves():
    for name in ("trec_eval", "sklearn", "ranx", "ranx.burges", "lightgbm"):
        assert name in PRESETS
    for name, preset in PRESETS.items():
        spec = f"{name}@10" if preset.needs_cutoff else name
        for flavor in parse_spec(spec):
            assert rf.Flavor.parse(str(flavor)) == flavor
        assert preset.source


def test_parse_specs_dedupes_and_accepts_flavors():
    f = rf.Flavor.parse("ndcg@3")
    assert parse_specs(["ndcg@3", f, "ndcg@3 gain=linear"]) == [f]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ndcg@10 gain=cubic", "unknown value 'cubic' for gain; valid values: linear, exp2"),
        ("ndcg@10 colour=red", "unknown key 'colour'.*valid keys: gain, discount"),
        ("ndcg@0", "not a positive integer"),
        ("ndcg@x", "not a positive integer"),
        ("mrrr@10", r"unknown metric or preset 'mrrr'; did you mean mrr\? `rankflavor metrics`"),
        ("trec_eval.oficial", r"did you mean trec_eval\.official\?"),
        ("pytrec_eval.all_tre", r"did you mean pytrec_eval\.all_trec\?"),
        ("ranx.mapp@10", r"did you mean ranx\.map\?"),
        ("ndcg@10 ties=sideways", "valid values: docid_desc, docid_asc, input, average"),
        ("ndcg@10 discount=log(1)", "base must be greater than 1"),
        ("ndcg@10 ideal=recall(5)", "needs K >= k"),
        ("ndcg ideal=recall(5)", "needs a cutoff"),
        ("ndcg@3 ideal=recall(5) ties=average", "ties=average with ideal=recall"),
        ("ndcg ideal=max", "ideal=max needs a cutoff"),
        ("ndcg@3 ideal=max ideal_depth=all", "unbounded"),
        ("ndcg@10 gain={0:0,0:1}", "lists grade 0 twice"),
        ("ndcg@10 gain={a:1}", "not a number"),
        ("ndcg@10 gain=exp2 gain=linear", "given twice"),
        ("ndcg@10 metric=dcg", "lives in the head"),
        ("ndcg@10 exp2", "not key=value"),
        ("", "empty flavor spec"),
        ("spark", "needs a cutoff"),
        ("ndcg@10 empty=nan", "valid values: skip, zero, one, error"),
        ("dcg@10 ideal=local", "ideal does not apply to dcg"),
    ],
)
def test_bad_specs_name_the_key_or_value_and_list_valid_ones(spec, message):
    with pytest.raises(rf.SpecError, match=message):
        parse_spec(spec)


def test_flavor_is_immutable_and_with_revalidates():
    f = rf.Flavor.parse("ndcg@10")
    with pytest.raises(AttributeError):
        f.gain = "exp2"  # type: ignore[misc]
    assert f.with_(gain="exp2").gain == "exp2"
    with pytest.raises(rf.SpecError):
        f.with_(gain="cubic")
    assert f.differences(f.with_(gain="exp2", cutoff=5)) == [("cutoff", "10", "5"), ("gain", "linear", "exp2")]


# ---- a metric's own parameters, in its head -----------------------------------------------------------------
@pytest.mark.parametrize(("spec", "canonical_head"), [
    ("iprec(0.1)", "iprec(level=0.1,count=round)"),
    ("iprec(count=add0.9, level=.5)", "iprec(level=0.5,count=add0.9)"),
    ("iprec( level = 0.50 )", "iprec(level=0.5,count=round)"),
    ("iprec_avg", "iprec_avg(points=11,count=round)"),
    ("iprec_avg(3)", "iprec_avg(points=3,count=round)"),
    ("rprec_mult(2)", "rprec_mult(factor=2)"),
    ("trec_eval.iprec_at_recall_0.10", "iprec(level=0.1,count=round)"),
    ("pytrec_eval.iprec_at_recall_0.10", "iprec(level=0.1,count=add0.9)"),
    ("trec_eval.Rprec_mult_0.20", "rprec_mult(factor=0.2)"),
    ("trec_eval.11pt_avg", "iprec_avg(points=11,count=round)"),
])
def test_parameters_are_printed_in_the_head_and_parse_back(spec, canonical_head):
    flavor = Flavor.parse(spec)
    assert flavor.head == canonical_head
    assert Flavor.parse(str(flavor)) == flavor and Flavor.parse(flavor.short) == flavor


def test_parameters_change_the_flavor_and_are_listed_as_differences():
    a, b = Flavor.parse("iprec(0.1)"), Flavor.parse("iprec(0.2, count=add0.9)")
    assert a != b
    assert a.differences(b) == [("level", "0.1", "0.2"), ("count", "round", "add0.9")]
    assert a.param("level").number == 0.1


@pytest.mark.parametrize(("spec", "message"), [
    ("iprec", "iprec needs its level: write iprec(level=...)"),
    ("iprec(2e6)", "level: '2e6' is not in [-1000000, 1000000]"),  # (beyond [0, 1]: as trec_eval computes it)
    ("iprec(x)", "level: 'x' is not a number"),
    ("iprec(level=0.1, level=0.2)", "parameter level of iprec given twice"),
    ("iprec(levl=0.1)", "iprec has no parameter 'levl'; its parameters: level, count"),
    ("iprec(0.1, round, 3)", "iprec takes 2 parameters, given more"),
    ("iprec(0.1, count=floor)", "unknown value 'floor' for count; valid values: round, add0.9"),
    ("iprec(=1)", "is not key=value"),
    ("map(3)", "map takes no parameter; drop (3)"),
    ("rprec_mult(-2e6)", "factor: '-2e6' is not in [-1000000, 1000000]"),
    ("trec_eval.iprec_at_recall_0.10(0.2)", "takes no parameters in (...)"),
    ("trec_eval(0.2)@10", "preset trec_eval takes no parameters"),
    ("iprec(0.1)@10", "iprec takes no cutoff"),
])
def test_bad_parameters_are_refused_with_a_clear_error(spec, message):
    with pytest.raises(SpecError, match=re.escape(message)):
        parse_spec(spec)


@pytest.mark.parametrize(("name", "meant"), [
    ("Ndcg@10", "ir_measures.nDCG"), ("Ndcg@10", "ndcg"), ("P10", "trec_eval.P_10"), ("Rprecc", "trec_eval.Rprec"),
    ("recip_rnk", "trec_eval.recip_rank"), ("R-prec", "rprec"), ("hitrate@10", "ranx.hit_rate"),
    ("trec_eval.P10", "trec_eval.P_10"),
    ("trec_eval.rprec", "trec_eval.Rprec"), ("iprec_at_recall_0.1", "trec_eval.iprec_at_recall_0.10"),
    ("trec_evl@10", "trec_eval"), ("rrpec", "rprec"),
])
def test_an_unknown_name_gets_the_readings_it_may_have_meant(name, meant):
    with pytest.raises(SpecError, match="did you mean") as error:
        parse_spec(name)
    readings = str(error.value).split("did you mean ", 1)[1].split("?", 1)[0].split(" or ")
    assert meant in readings


def test_a_token_is_typed_once_and_a_bad_one_refused_every_time(monkeypatch):
    from rankflavor.flavor import axes

    monkeypatch.setattr(axes, "_TYPED", {})
    first = axes.parse_value("gain", "{3:7, 1:1}")
    assert first == "{1:1,3:7}" and first.table == {1.0: 1.0, 3.0: 7.0}
    assert axes.parse_value("gain", "{3:7,1:1}") is first  # (spaces ignored: the same token)
    assert axes.parse_value("discount", "log2") is Flavor(discount="log2").discount
    for _ in range(2):
        with pytest.raises(SpecError, match="did you mean exp2"):
            axes.parse_value("gain", "exp")
    monkeypatch.setattr(axes, "_TYPED_MOST", len(axes._TYPED))
    assert axes.parse_value("round", "3") == "3" and ("round", "3") not in axes._TYPED


def test_with_no_change_is_the_flavor_itself():
    flavor = Flavor.parse("ndcg@10 gain=exp2")
    assert flavor.with_() is flavor
    assert flavor.with_(gain="exp2") == flavor and flavor.with_(gain="linear") != flavor
