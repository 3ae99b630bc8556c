"""Report: counts, provenance, explain records, verify() catching a tampered record."""

from __future__ import annotations

import pytest

import rankflavor as rf
from rankflavor.report.verify import check_record

QRELS = {"q1": {"a": 2, "b": 1, "c": 0, "n": -1}, "q2": {"a": 0}, "q3": {"x": 1}}
RUN = {"q1": {"a": 1.0, "u": 1.0, "b": 0.5, "n": 0.4}, "q2": {"a": 1.0}, "q9": {"z": 1.0}}


def test_counts_of_every_excluded_kind():
    report = rf.evaluate(QRELS, RUN, "ndcg@1 empty=skip")
    counts = report.results[0].counts
    assert counts["judged_queries"] == 3
    assert counts["scored"] == 1 and counts["excluded"] == 2
    assert counts["zero_ideal"] == 1 and counts["missing"] == 1
    assert counts["unjudged_queries"] == 1 and counts["rows_of_unjudged_queries"] == 1
    assert counts["ties_across_cutoff"] == 1  # a and u tie across @1
    warnings = " ".join(report.results[0].warnings)
    assert "tied scores across the cutoff" in warnings and "IDCG 0" in warnings and "absent from the run" in warnings


def test_explain_record_has_everything_to_recompute():
    report = rf.evaluate(QRELS, RUN, "ndcg@3 unjudged=skip")
    record = report.explain(None, "q1", None)
    assert [u["doc"] for u in record.universe] == ["a", "b", "c", "n"]
    assert next(u for u in record.universe if u["doc"] == "n")["judged"] is False  # negative=unjudged
    assert [r["doc"] for r in record.ranked] == ["a", "b"]
    assert {d["doc"]: d["reason"] for d in record.dropped} == {"u": "unjudged (unjudged=skip)",
                                                              "n": "unjudged (unjudged=skip)"}
    assert record.dcg == pytest.approx(sum(r["contribution"] for r in record.ranked))
    assert record.idcg == pytest.approx(sum(r["contribution"] for r in record.ideal))
    assert record.value == pytest.approx(record.dcg / record.idcg)
    missing = report.explain(None, "q3", None)
    assert missing.status == "missing" and "absent from the run" in missing.reason


def test_explain_under_average_ties_shows_the_group_mean_discount():
    report = rf.evaluate(QRELS, RUN, "ndcg@1 ties=average")
    record = report.explain(None, "q1", None)
    a, u = record.ranked[0], record.ranked[1]
    assert a["tie_group"] == u["tie_group"] == 1
    assert a["discount"] == pytest.approx(0.5) and u["discount"] == pytest.approx(0.5)
    assert record.value == pytest.approx(0.5)


def test_verify_passes_and_catches_tampering():
    flavor = rf.Flavor.parse("ndcg@3 gain=exp2")
    report = rf.evaluate(QRELS, RUN, flavor)
    assert report.verify() == []
    record = report.explain(None, "q1", flavor)
    record.ranked[0]["contribution"] += 0.1
    assert any("contribution" in p for p in check_record(record, flavor))
    record = report.explain(None, "q1", flavor)
    record.ideal[0]["gain"] = 1.0
    assert check_record(record, flavor)
    record = report.explain(None, "q1", flavor)
    record.value = 0.5
    assert any("value" in p for p in check_record(record, flavor))


def test_to_frame_is_tidy_and_the_means_are_apart():
    report = rf.evaluate(QRELS, {"A": RUN, "B": RUN}, ["ndcg@3", "dcg@3"])
    frame = report.to_frame()
    assert len(frame) == 2 * 2 * 3 and set(frame["query"]) == {"q1", "q2", "q3"}  # (no mean rows among them)
    assert list(frame.columns[:4]) == ["run", "label", "flavor", "query"]
    means = report.means_frame()
    assert [(r.run, r.label) for r in means.itertuples()] == [("A", "ndcg@3"), ("A", "dcg@3"), ("B", "ndcg@3"),
                                                              ("B", "dcg@3")]
    for row in means.itertuples():
        assert row.mean == pytest.approx(frame[(frame.run == row.run) & (frame.label == row.label)].value.mean())


def test_the_api_is_listed_and_reprs_are_short():
    assert {"evaluate", "explain", "Report", "Result", "Flavor", "compare"} <= set(dir(rf))
    assert "importlib" not in dir(rf) and set(rf.__all__) <= set(dir(rf))
    report = rf.evaluate(QRELS, {"A": RUN, "B": RUN}, ["ndcg@3", "ndcg@3 gain=exp2"])
    warned = sum(len(r.warnings) for r in report.results)
    shown = repr(report).splitlines()
    assert shown[0] == f"<Report 2 runs x 2 flavors; 3 judged queries; {warned} warnings" and shown[-1].endswith(">")
    assert shown[1].split() == ["run", "ndcg@3", "ndcg@3", "gain=exp2"]
    for line, run in zip(shown[2:], ("A", "B"), strict=True):
        assert line.split()[0] == run
        assert [float(x.rstrip(">")) for x in line.split()[1:]] == [
            pytest.approx(report.mean(run, spec), abs=5e-5) for spec in ("ndcg@3", "ndcg@3 gain=exp2")]
    assert repr(report.result("A", "ndcg@3 gain=exp2")).startswith("<Result A ndcg@3 gain=exp2: mean ")
    assert len(repr(report.result("A", "ndcg@3"))) < 400


def test_dcg_metric_has_no_ideal():
    report = rf.evaluate(QRELS, RUN, "dcg@2")
    row = report.results[0].per_query()[0]
    assert row["idcg"] is None and row["value"] == row["dcg"] and row["status"] == "ok"


def test_report_rejects_ambiguous_lookups():
    report = rf.evaluate(QRELS, {"A": RUN, "B": RUN}, ["ndcg@3", "dcg@3"])
    with pytest.raises(ValueError, match="several runs"):
        report.mean()
    with pytest.raises(KeyError):
        report.mean("A", "ndcg@7")


def test_explain_alone_gives_the_record_the_report_gives():
    flavor = "ndcg@3 ties=average gain=exp2"
    alone = rf.explain(QRELS, RUN, "q1", flavor)
    assert alone == rf.evaluate(QRELS, RUN, flavor).explain(None, "q1", None)
    with pytest.raises(KeyError):
        rf.explain(QRELS, RUN, "q9", flavor)  # in the run, not in the qrels: never scored


def test_warnings_false_skips_them_and_changes_no_value():
    """evaluate(warnings=False) (what `eval --format trec` asks): the same values, and only the warnings the
    counts tell, without the numbers of the extra evaluations."""
    qrels = {"q1": {"a": 2, "b": 1, "c": 0}, "q2": {"a": 1}, "q3": {"x": 1}}
    run = {"q1": {"a": 1.0, "u": 1.0, "b": 0.5, "c": 0.5}, "q2": {"z": 2.0, "a": 1.0}}  # ties, unjudged, q3 missing
    specs = ["ndcg@1", "trec_eval.P_5", "map", "rbp(p=0.8)"]
    full = rf.evaluate(qrels, run, specs)
    bare = rf.evaluate(qrels, run, specs, warnings=False)
    assert any(r.warnings for r in full.results)
    assert [[w.code for w in r.warnings] for r in bare.results] == [[w.code for w in r.warnings] for r in full.results]
    assert not any("mean_pessimistic" in w.numbers or "mean_unjudged_skip" in w.numbers
                   for r in bare.results for w in r.warnings)
    for a, b in zip(full.results, bare.results, strict=True):
        assert a.per_query() == b.per_query() and a.mean == b.mean


def test_an_unknown_query_names_the_close_and_the_judged_ids():
    report = rf.evaluate(QRELS, RUN, "ndcg@3")
    with pytest.raises(KeyError, match=r"no query 'Q1' in the qrels or the runs; did you mean q1\? \(judged query ids: "
                                       r"q1, q2, q3\)"):
        report.explain(None, "Q1")
    with pytest.raises(KeyError, match="judged query ids"):
        report.value("nope")


def test_a_wrong_run_or_label_lists_the_runs_and_labels_never_a_whole_flavor():
    """report.mean() with a run or a label the report does not hold names what it holds, by label, with the
    close readings; the canonical string (hundreds of characters) is never printed."""
    from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

    report = rf.evaluate(SEED000_QRELS, list(SEED000_RUNS), ["ndcg@10", "map"])
    cases = {("Z.run", "map"): "no run 'Z.run' in this report; did you mean Y.run or X.run? its runs: X.run, Y.run",
             ("X.run", "ndcg@11"): "no result for 'ndcg@11' in this report; did you mean ndcg@10? its labels: ndcg@10, map",
             ("X.run", rf.Flavor.parse("p@5")): "no result for 'p@5' in this report; its labels: ndcg@10, map"}
    for (run, flavor), message in cases.items():
        with pytest.raises(KeyError) as caught:
            report.mean(run, flavor)
        assert caught.value.args[0] == message and "ties=" not in message


def test_a_record_has_a_short_repr():
    """repr(record): one line with run, query, the flavor's short form, the value, its status and parts."""
    from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

    report = rf.evaluate(SEED000_QRELS, list(SEED000_RUNS), ["ndcg@3 gain=exp2"])
    record = report.explain("X.run", "q1", "ndcg@3 gain=exp2")
    shown = repr(record)
    assert shown.startswith(f"<Record X.run q1 ndcg@3 gain=exp2: {record.value:.6f} (ok); dcg ")
    assert "\n" not in shown and "ties=" not in shown and len(shown) < 200
