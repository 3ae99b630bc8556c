"""How means are taken (report/averages.py): weights bound by name, run queries with no judgment as 0, the
mean of rounded values; what each mean states about its denominator; verify() recomputes every mean."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

import rankflavor as rf
from rankflavor.cli.main import main
from rankflavor.compare import compare

QRELS = {"q1": {"a": 1, "b": 2}, "q2": {"c": 1}, "q3": {"d": 0}}
RUN = {"q1": {"a": 1.0, "b": 2.0}, "q2": {"c": 3.0, "x": 9.0}, "q3": {"d": 1.0}, "q9": {"z": 1.0}}
V1, V2, V3 = 1.0, 1 / 1.584962500721156, 0.0  # ndcg@2 of q1, q2 (c at rank 2), q3 (zero ideal: empty=zero)


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_the_plain_mean_states_its_denominator():
    result = rf.evaluate(QRELS, RUN, "ndcg@2").result()
    assert result.mean == pytest.approx((V1 + V2 + V3) / 3)
    assert result.to_dict()["denominator"] == {"queries": 3, "of": "unrounded values", "unjudged_queries_as_zero": 0,
                                               "left_out_null": 0}


def test_unjudged_run_queries_count_as_zero_when_the_flavor_says_so():
    result = rf.evaluate(QRELS, RUN, "ndcg@2 unjudged_queries=zero").result()
    assert result.mean == pytest.approx((V1 + V2 + V3) / 4)  # q9 has no judgment: a 0 in the mean
    assert result.to_dict()["denominator"]["unjudged_queries_as_zero"] == 1
    assert [r["query"] for r in result.per_query()] == ["q1", "q2", "q3"]  # (it has no per-query value)


def test_the_mean_of_rounded_values_is_not_rounded_again():
    values = [round(v, 1) for v in (V1, V2, V3)]
    result = rf.evaluate(QRELS, RUN, "ndcg@2 round=1 mean_of=rounded").result()
    assert result.mean == pytest.approx(sum(values) / 3, abs=1e-15)
    assert rf.evaluate(QRELS, RUN, "ndcg@2 round=1").result().mean == round((V1 + V2 + V3) / 3, 1)
    with pytest.raises(rf.SpecError, match="mean_of=rounded averages the values rounded to round=N"):
        rf.Flavor.parse("ndcg@2 mean_of=rounded")


def test_weighted_means_from_a_mapping_and_from_a_file(tmp_path):
    weights = {"q1": 3.0, "q2": 1.0, "q3": 0.5, "q9": 2.0}
    report = rf.evaluate(QRELS, RUN, ["ndcg@2 weights=w", "ndcg@2 weights=w unjudged_queries=zero"],
                         weights={"w": weights})
    assert report.results[0].mean == pytest.approx((3 * V1 + V2 + 0.5 * V3) / 4.5)
    assert report.results[1].mean == pytest.approx((3 * V1 + V2 + 0.5 * V3) / 6.5)
    assert report.results[0].to_dict()["denominator"]["total_weight"] == 4.5
    assert report.verify() == []
    path = tmp_path / "w.txt"
    path.write_text("".join(f"{q} {w}\n" for q, w in weights.items()))
    code, out, _ = _cli("eval", *_files(tmp_path), "-m", "ndcg@2 weights=w", "--weights", f"w={path}",
                        "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["results"][0]["mean"] == pytest.approx(report.results[0].mean)
    weights_input = next(i for i in data["provenance"]["inputs"] if i["role"] == "weights")
    assert weights_input["name"] == "w" and len(weights_input["sha256"]) == 64 and weights_input["rows"] == 4


def _files(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()))
    run.write_text("".join(f"{q} Q0 {d} {i} {s} t\n" for q, docs in RUN.items() for i, (d, s) in enumerate(docs.items())))
    return str(qrels), str(run)


def test_weights_errors_are_named(tmp_path):
    with pytest.raises(rf.SpecError, match="weights=traffic names no weights: bind them with --weights traffic=FILE"):
        rf.evaluate(QRELS, RUN, "ndcg@2 weights=traffic")
    with pytest.raises(rf.EvaluationError, match="1 query averaged has no weight in 'w' \\('q3'\\)"):
        rf.evaluate(QRELS, RUN, "ndcg@2 weights=w", weights={"w": {"q1": 1, "q2": 1}})
    bad = tmp_path / "bad.txt"
    for text, message in [("q1 1\nq1 2\n", "weighted twice"), ("q1 -1\n", "not a finite number >= 0"),
                          ("q1 heavy\n", "not a number"), ("q1 1 2\n", "expected 2 columns")]:
        bad.write_text(text)
        with pytest.raises(rf.InputError, match=message):
            rf.evaluate(QRELS, RUN, "ndcg@2 weights=w", weights={"w": bad})
    code, _, err = _cli("eval", *_files(tmp_path), "-m", "ndcg@2 weights=w", "--weights", "w")
    assert code == 2 and "write NAME=FILE" in err
    code, _, err = _cli("eval", *_files(tmp_path), "-m", "ndcg@2 weights=w")
    assert code == 2 and "--weights w=FILE" in err
    with pytest.raises(rf.RankflavorError, match="refuses weighted flavors"):
        compare(QRELS, {"a": RUN, "b": RUN}, ["ndcg@2 weights=w"])


def test_weights_no_flavor_asks_for_are_a_warning_not_a_silent_plain_mean(tmp_path):
    """`--weights w=FILE` without `weights=w` in any flavor: every mean is the plain one, said on stderr first (the
    input warnings) and in the provenance; none when a flavor asks for them."""
    weights = {"q1": 3.0, "q2": 1.0, "q3": 0.5}
    plain = rf.evaluate(QRELS, RUN, ["ndcg@2"]).results[0].mean
    report = rf.evaluate(QRELS, RUN, ["ndcg@2"], weights={"w": weights, "t": weights})
    assert report.results[0].mean == plain
    unused = [w for w in report.provenance["input_warnings"] if "no flavor asks for them" in w]
    assert [w.split()[1] for w in unused] == ["'w'", "'t'"] and "weights=w" in unused[0]
    path = tmp_path / "w.txt"
    path.write_text("".join(f"{q} {w}\n" for q, w in weights.items()))
    code, _, err = _cli("eval", *_files(tmp_path), "-m", "ndcg@2", "--weights", f"w={path}")
    warned = [line for line in err.splitlines() if line.startswith("warning: ")]  # (after eval's note on ranx's ndcg@2)
    assert code == 0 and f"warning: weights 'w' ({path}) are given but no flavor asks for them" in warned[1]
    code, _, err = _cli("eval", *_files(tmp_path), "-m", "ndcg@2 weights=w", "--weights", f"w={path}")
    assert code == 0 and "no flavor asks" not in err


def test_weights_of_queries_the_data_lacks_are_a_warning(tmp_path):
    """A weight for a query in neither the qrels nor a run (a typo'd id) is never read: counted in the provenance
    and said in an input warning naming the smallest such id; none when every weighted query is in the data."""
    weights = {"q1": 1.0, "q2": 1.0, "q3": 1.0, "q9": 1.0, "Q1": 2.0, "q7": 1.0}
    report = rf.evaluate(QRELS, RUN, ["ndcg@2 weights=w"], weights={"w": weights})
    said = [w for w in report.provenance["input_warnings"] if w.startswith("weights 'w'")]
    assert said == ["weights 'w': 2 queries of its 6 are in neither the qrels nor the runs (e.g. 'Q1'): their "
                    "weights are never read; check the query ids"]
    item = next(i for i in report.provenance["inputs"] if i["role"] == "weights")
    assert (item["queries_in_the_data"], item["queries_not_in_the_data"]) == (4, 2)
    exact = rf.evaluate(QRELS, RUN, ["ndcg@2 weights=w"], weights={"w": {q: 1.0 for q in ("q1", "q2", "q3", "q9")}})
    assert not [w for w in exact.provenance["input_warnings"] if "neither" in w]


def test_verify_recomputes_the_mean():
    report = rf.evaluate(QRELS, RUN, ["ndcg@2", "ndcg@2 unjudged_queries=zero", "ndcg@2 round=2 mean_of=rounded"])
    assert report.verify() == []
    result = report.results[1]
    result.averaging.zero_codes = result.averaging.zero_codes[:0]  # (a mean computed without its zero)
    problems = report.verify()
    assert len(problems) == 1 and problems[0].query == "all" and "the mean" in problems[0].what


def test_a_run_query_without_judgments_is_averaged_as_reported_under_mean_of_rounded():
    """unjudged_queries=zero with mean_of=rounded: the zero of a query without judgments is averaged as reported,
    rounded like the others (gm_map_log reports log(1e-5) = -11.512925..., averaged as -11.513 at round=3); the
    engine once averaged it unrounded (hypothesis found it: 9.99999e-05 against the reference's 9.99940e-05)."""
    import math

    report = rf.evaluate({"q0": {"d0": 1}}, {"q0": {"d0": 1.0}, "q1": {}, "q2": {}, "q3": {}, "q9": {}},
                         ["gm_map_log round=3 unjudged_queries=zero mean_of=rounded"])
    assert report.mean() == math.exp((0.0 + 4 * -11.513) / 5)
    assert report.verify() == []
