"""A metric is one module: a toy metric from the tests folder, registered without touching src, is parsed,
evaluated (against its own reference), explained, verified and printed by the CLI like ndcg."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

import rankflavor as rf
from rankflavor import registry
from rankflavor.cli.main import main
from strategies import axis_values, qrels_and_run
from test_engine_vs_reference import check
from toy_metric import ALIASES, NAME, register_toy, unregister_toy


@pytest.fixture(autouse=True)
def toy():
    register_toy()
    yield
    unregister_toy()


QRELS = {"q1": {"a": 2, "b": 0, "c": 1, "d": 3}, "q2": {"x": 0}, "q3": {"y": 1}}
RUN = {"q1": {"a": 0.9, "b": 0.8, "e": 0.8, "c": 0.1}, "q2": {"x": 1.0, "z": 0.5}}


def test_the_flavor_prints_the_axes_the_metric_reads_and_refuses_the_others():
    flavor = rf.Flavor.parse(f"{NAME}@3 gain=exp2")
    text = str(flavor)
    assert text.startswith(f"{NAME}@3 gain=exp2 ties=docid_desc") and "discount=" not in text and "ideal=" not in text
    assert rf.Flavor.parse(text) == flavor
    with pytest.raises(rf.SpecError, match=f"discount does not apply to {NAME}"):
        rf.Flavor.parse(f"{NAME}@3 discount=log(e)")
    assert NAME in registry.names()


def test_its_aliases_and_peer_name_come_from_its_registration_alone():
    """Declared at register(), the toy's trec_eval name resolves (`trec_eval.capped_hits_3` is toy@3), is printed
    by --format trec and by `rankflavor metrics`, and its alias is a did-you-mean reading; unregistered, all go."""
    flavor = rf.Flavor.parse("trec_eval.capped_hits_3 gain=exp2")
    assert flavor == rf.Flavor.parse(f"{NAME}@3 gain=exp2")
    from rankflavor.cli.trec_output import trec_eval_name
    from rankflavor.metrics.catalog import peer_names

    assert trec_eval_name(rf.Flavor.parse("trec_eval.capped_hits_3")) == "capped_hits_3"
    assert peer_names(NAME)["trec_eval"] == ["capped_hits_K"]
    with pytest.raises(rf.SpecError, match=f"did you mean {NAME}"):
        rf.Flavor.parse(ALIASES[0][:-1] + "@3")
    unregister_toy()
    try:
        with pytest.raises(rf.SpecError, match=r"unknown metric or preset 'trec_eval\.capped_hits_4'"):
            rf.Flavor.parse("trec_eval.capped_hits_4")
        assert NAME not in registry.aliases().values() and NAME not in registry.peer_names("trec_eval")
    finally:
        register_toy()


def test_values_parts_and_statuses():
    report = rf.evaluate(QRELS, RUN, f"{NAME}@2")
    rows = {r["query"]: r for r in report.result().per_query()}
    # q1 ranks a, e (tied with b: doc id descending), b, c: one hit (a) in the top 2 of R = 3 relevant docs
    assert rows["q1"] == {"query": "q1", "value": 0.5, "hits": 1.0, "relevant": 3.0, "status": "ok"}
    assert rows["q2"]["status"] == "zero_ideal" and rows["q2"]["value"] == 0.0  # R = 0: empty=zero
    assert rows["q3"]["status"] == "missing" and rows["q3"]["value"] is None
    assert report.mean() == 0.25
    frame = report.to_frame()
    assert list(frame.columns) == ["run", "label", "flavor", "query", "value", "hits", "relevant", "status"]


def test_explain_and_verify_end_to_end():
    report = rf.evaluate(QRELS, RUN, [f"{NAME}@3", f"{NAME}@1 ties=docid_asc"])
    record = report.explain(None, "q1", f"{NAME}@3")
    assert [row["doc"] for row in record.ranked] == ["a", "e", "b", "c"]
    assert [row["hit"] for row in record.ranked] == [1.0, 0.0, 0.0, 0.0]  # c is ranked 4th: past @3
    assert record.hits == 1.0 and record.relevant == 3.0 and record.value == pytest.approx(1 / 3)
    assert record.to_dict()["hits"] == 1.0 and "universe" in record.to_dict()
    assert report.verify() == []
    broken = report.explain(None, "q1", f"{NAME}@3")
    broken.parts["hits"] = 2.0
    assert registry.get(NAME).check_record(broken, rf.Flavor.parse(f"{NAME}@3"))  # a wrong record is caught


@settings(max_examples=60, deadline=None)
@given(qrels_and_run(), axis_values("ties"), axis_values("unjudged"), axis_values("negative"),
       axis_values("run_depth"))
def test_the_engine_matches_the_toy_reference(data, ties, unjudged, negative, run_depth):
    qrels, run = data
    flavor = rf.Flavor(metric=NAME, cutoff=2, ties=ties, unjudged=unjudged, negative=negative, run_depth=run_depth)
    report = check(qrels, run, flavor)  # values, parts (hits, relevant), statuses and the mean
    assert report is None or report.verify() == []


def test_the_cli_evaluates_and_explains_the_toy(tmp_path, capsys):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()))
    run.write_text("".join(f"{q} Q0 {d} {i} {s} t\n" for q, docs in RUN.items() for i, (d, s) in enumerate(docs.items())))
    assert main(["eval", str(qrels), str(run), "-m", f"{NAME}@2", "--format", "json", "--per-query"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"][0]["mean"] == 0.25 and out["results"][0]["per_query"][0]["hits"] == 1.0
    assert main(["eval", str(qrels), str(run), "-m", f"{NAME}@2", "--format", "csv", "--per-query"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "run,label,flavor,query,value,hits,relevant,status"
    assert main(["explain", str(qrels), str(run), "-q", "q1", "-m", f"{NAME}@2"]) == 0
    text = capsys.readouterr().out
    assert "HITS 1.000000000" in text and "RELEVANT 3.000000000" in text
    assert "rank  doc  score  grade     hit       tie group" in text


def test_a_name_is_looked_up_in_its_family_module_alone_and_the_order_does_not_depend_on_what_loaded_first():
    """A metric named as its family's module (`ndcg`, `rbp`) loads that module alone; so does any other shipped
    metric, found in registry_index.py (`mrr` -> rr.py); an unknown name loads every family; names() lists the
    metrics in one order whichever family was imported first."""
    import subprocess
    import sys

    alone = ("from rankflavor import registry\nimport sys\nregistry.find({!r})\n"
             "print(sorted(m for m in sys.modules if m.startswith('rankflavor.metrics.')))")
    loaded = subprocess.run([sys.executable, "-c", alone.format("rbp")], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "['rankflavor.metrics.rbp', 'rankflavor.metrics.relevance']"
    loaded = subprocess.run([sys.executable, "-c", alone.format("mrr")], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "['rankflavor.metrics.relevance', 'rankflavor.metrics.rr']"
    loaded = subprocess.run([sys.executable, "-c", alone.format("nothing")], capture_output=True, text=True, check=True)
    assert "'rankflavor.metrics.rr'" in loaded.stdout and "'rankflavor.metrics.trec_gains'" in loaded.stdout
    probe = ("from rankflavor import registry\nregistry.find({!r})\nprint(','.join(registry.names()))")
    orders = {subprocess.run([sys.executable, "-c", probe.format(first)], capture_output=True, text=True,
                             check=True).stdout.strip() for first in ("rbp", "mrr", "ndcg", "nothing")}
    assert len(orders) == 1 and orders.pop().split(",")[:2] == ["ndcg", "dcg"]  # (then the families by module name)


def test_a_binary_measure_declares_its_formula_once():
    """A binary-relevance metric names its formula (`measure`) and nothing else: its `reference` (the slow
    per-query value) and the check of its records are derived from it, never restated in its class body."""
    from rankflavor.metrics.relevance import BinaryMetric

    binary = [registry.get(name) for name in registry.names() if isinstance(registry.get(name), BinaryMetric)]
    assert len(binary) > 20
    for metric in binary:
        measure = type(metric).measure
        assert callable(measure) and metric.checked_measure() is measure, metric.name
        for klass in type(metric).__mro__[: type(metric).__mro__.index(BinaryMetric)]:
            if getattr(klass, "across_queries", False):  # (ranx_bpref: its reference also reads other queries)
                continue
            assert "reference" not in vars(klass) and "checked_measure" not in vars(klass), (metric.name, klass)
