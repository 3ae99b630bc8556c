"""Flavor: canonical string, round trip, partial specs, presets, and errors that name what is wrong."""

from __future__ import annotations

import pytest
from hypothesis import given

import rankflavor as rf
from rankflavor.flavor import AXIS_NAMES, PRESETS, parse_spec, parse_specs
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
        ("mrrr@10", "unknown metric or preset 'mrrr'.*presets: trec_eval"),
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
