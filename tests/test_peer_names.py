"""Names from other tools written without their prefix (flavor/resolve.py bare_reading, dialects/lookup.py
bare_readings): each resolves to its dialect's flavor, or is refused as ambiguous; rankflavor's own names keep
their meaning; the CLI tells once which dialect a name was read in and reports every refused -m."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankflavor import registry
from rankflavor.cli.main import main
from rankflavor.dialects import ranx, trec_eval
from rankflavor.dialects.ir_measures import ALIASES, MEASURES
from rankflavor.dialects.lookup import GIVES_WAY, bare_readings
from rankflavor.errors import SpecError
from rankflavor.examples import __file__ as examples_init
from rankflavor.flavor import Flavor, labelled_specs, parse_spec
from rankflavor.flavor.spec import head_parts
from toy_metric import CappedHits

EXAMPLES = examples_init.rsplit("/", 1)[0]
# issue 23's habit names, each with the prefixed name it means
HABITS = {
    "P@10": "ir_measures.P@10", "P_10": "trec_eval.P_10", "ndcg_cut_10": "trec_eval.ndcg_cut_10",
    "ndcg_cut.10": "trec_eval.ndcg_cut_10", "nDCG@10": "ir_measures.nDCG@10", "recip_rank": "trec_eval.recip_rank",
    "Rprec": "trec_eval.Rprec", "MAP": "ir_measures.MAP", "AP@100": "ir_measures.AP@100",
    "R@1000": "ir_measures.R@1000", "official": "trec_eval.official", "all_trec": "trec_eval.all_trec",
    "hit_rate@10": "ranx.hit_rate@10", "precision@10": "ranx.precision@10",
    "iprec_at_recall.0.5": "trec_eval.iprec_at_recall_0.50", "ndcg-l2@10": "ranx.ndcg-l2@10",
}


@pytest.mark.parametrize(("name", "meant"), HABITS.items())
def test_a_habit_name_is_its_dialects_flavor(name, meant):
    assert parse_spec(name) == parse_spec(meant)
    assert parse_spec(f"{name} round=3") == parse_spec(f"{meant} round=3")


@pytest.mark.parametrize(("typed", "printed"), [
    ("trec_eval.P.10", "trec_eval.P_10"), ("trec_eval.ndcg_cut.10", "trec_eval.ndcg_cut_10"),
    ("trec_eval.recall.100", "trec_eval.recall_100"), ("trec_eval.iprec_at_recall.0.5", "trec_eval.iprec_at_recall_0.50"),
    ("pytrec_eval.ndcg_cut.10", "pytrec_eval.ndcg_cut_10"), ("pytrec_eval.P.5", "pytrec_eval.P_5"),
])
def test_a_prefixed_name_in_trec_evals_command_line_spelling(typed, printed):
    """`-m P.10` is how trec_eval and pytrec_eval's measure sets are written: with the prefix it is the printed name."""
    assert parse_spec(typed) == parse_spec(printed)


def test_trec_evals_list_of_values_is_refused_with_one_spec_per_value():
    with pytest.raises(SpecError, match=r"2 measures at once \(-m P\.5,10\): give each its own -m "
                                        r"\(-m trec_eval\.P\.5 -m trec_eval\.P\.10;"):
        parse_spec("trec_eval.P.5,10")
    for each in ("P.5", "P.10"):
        assert parse_spec(each) == parse_spec(f"trec_eval.{each}")


@pytest.mark.parametrize(("name", "metric", "cutoff"), [
    ("p@10", "p", 10), ("map", "map", None), ("ndcg@10", "ndcg", 10), ("hits@10", "hits", 10),
])
def test_rankflavors_own_names_keep_their_meaning(name, metric, cutoff):
    assert parse_spec(name) == [Flavor(metric=metric, cutoff=cutoff)]


def test_case_matters_as_in_each_dialect():
    assert parse_spec("p@10") != parse_spec("P@10")
    assert parse_spec("ap@10") == [Flavor(metric="map", cutoff=10)]  # (rankflavor's alias of map)
    assert parse_spec("AP@10") == parse_spec("ir_measures.AP@10")


def test_the_label_stays_as_typed():
    labelled = labelled_specs(["P_10", "nDCG@10", "ndcg_cut.10 round=3"])
    assert [labels for labels in labelled.values()] == [["P_10"], ["nDCG@10"], ["ndcg_cut.10 round=3"]]


def test_pytrec_eval_gives_way_to_trec_eval():
    readings, _ = bare_readings("P_10", head_parts("P_10", "P_10"))
    assert [reading.prefix for reading in readings] == ["trec_eval."]
    assert parse_spec("P_10") != parse_spec("pytrec_eval.P_10")  # (they differ in precision=f32)


class _Both(CappedHits):
    name = "toy_both_names"


def test_a_name_two_dialects_read_differently_is_refused_with_each_reading():
    registry.register(_Both(), peers={"trec_eval": ("toyboth",), "ranx": ("toyboth",)})
    try:
        assert parse_spec("trec_eval.toyboth") != parse_spec("ranx.toyboth")
        with pytest.raises(SpecError, match=r"several tools.*trec_eval\.toyboth or ranx\.toyboth"):
            parse_spec("toyboth")
    finally:
        registry.unregister(_Both.name)


def _cli(capsys, *specs):
    code = main(["eval", *(x for spec in specs for x in ("-m", spec)), f"{EXAMPLES}/seed000.qrels",
                 f"{EXAMPLES}/X.run"])
    return code, capsys.readouterr()


def test_the_cli_tells_once_which_dialect_a_name_was_read_in(capsys):
    code, out = _cli(capsys, "P_10", "P_10 round=3", "nDCG@10", "ndcg@10")
    assert code == 0
    notes = out.err.splitlines()
    assert notes == ["P_10: trec_eval's P_10 (trec_eval.P_10)", "nDCG@10: ir_measures' nDCG@10 (ir_measures.nDCG@10)",
                     "ndcg@10: rankflavor's ndcg@10, as trec_eval reads it; ranx reads ndcg@10 otherwise: ranx.ndcg@10 "
                     "(ties=quicksort(1) negative=zero min_grade=1 missing=zero)"]
    assert re.search(r"^X\.run\s+P_10\s", out.out, re.M)


def test_every_refused_spec_is_reported(capsys):
    code, out = _cli(capsys, "nosuch", "P_10", "ndcg@10 gain=cubic")
    assert code == 2
    assert "2 specs are refused" in out.err
    assert "nosuch: unknown metric or preset 'nosuch'" in out.err
    assert "ndcg@10 gain=cubic: unknown value 'cubic' for gain" in out.err


def _trec_names() -> st.SearchStrategy[str]:
    names = trec_eval.tables()
    cut = st.builds(lambda base, k: f"{base}_{k}", st.sampled_from(sorted(names.cut)), st.integers(1, 1000))
    level = st.builds(lambda base, x: f"{base}_{x / 100:3.2f}", st.sampled_from(sorted(names.level)),
                      st.integers(0, 200))
    return st.one_of(st.sampled_from(sorted(names.plain)), cut, level)


def _ranx_names() -> st.SearchStrategy[str]:
    cut = st.sampled_from(["", "@5", "@10", "@100"])
    level = st.sampled_from(["", "-l2", "-l0"])
    return st.builds(lambda n, lvl, k: n + lvl + k, st.sampled_from(sorted(ranx.ranx_names())), level, cut)


def _ir_measures_names() -> st.SearchStrategy[str]:
    heads = st.sampled_from(sorted([*MEASURES, *ALIASES]))
    rel = st.sampled_from(["", "(rel=2)", "(judged_only=True)"])
    at = st.sampled_from(["", "@5", "@10", "@0.5"])
    return st.builds(lambda h, r, a: h + r + a, heads, rel, at)


PEERS = {"trec_eval.": _trec_names(), "pytrec_eval.": _trec_names(), "ranx.": _ranx_names(),
         "ir_measures.": _ir_measures_names()}


def _parsed(spec: str) -> list[Flavor] | None:
    try:
        return parse_spec(spec)
    except SpecError:
        return None


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(PEERS)).flatmap(lambda prefix: st.tuples(st.just(prefix), PEERS[prefix])))
def test_every_peer_name_resolves_to_its_flavor_or_is_refused_as_ambiguous(case):
    """A name a dialect prints, written without its prefix: its dialect's flavor (or, where that dialect gives
    way, the preferred dialect's reading of the same name), or refused as ambiguous; never another flavor. A
    name rankflavor itself defines keeps rankflavor's meaning."""
    prefix, name = case
    ours = _parsed(f"{prefix}{name}")
    head = re.match(r"[^(@]*", name).group(0)  # type: ignore[union-attr]
    if ours is None or registry.find(head) is not None or head in ("official", "all_trec"):
        return
    preferred = GIVES_WAY.get(prefix)
    theirs = _parsed(f"{preferred}{name}") if preferred else None
    try:
        bare = parse_spec(name)
    except SpecError as exc:
        assert "several tools" in str(exc) and f"{prefix}{name}" in str(exc)
        return
    assert bare == (theirs if theirs is not None else ours)


def test_each_prefix_is_read_by_the_dialect_module_of_that_prefix():
    """dialects/lookup.py names each prefix's module without importing it (imported on first use): the table and
    each module's own PREFIX agree, and a prefix's names resolve through it."""
    import importlib

    from rankflavor.dialects.lookup import DIALECTS, PEER_TABLES, dialect, peer_measure

    assert set(PEER_TABLES) == set(DIALECTS)
    for prefix, module in DIALECTS.items():
        assert importlib.import_module(f"rankflavor.dialects.{module}").PREFIX == prefix
        assert dialect(prefix).PREFIX == prefix
    assert peer_measure("ir_measures.nDCG@10").metric == "ndcg" and peer_measure("ranx.ndcg", (), 5).cutoff == 5
    assert peer_measure("nope.ndcg") is None
