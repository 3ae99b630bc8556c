"""rankflavor.load: a report saved as JSON (`eval --format json`, `Report.to_json`) read back with the original's
means, counts, per-query values, flavors and labels; what it cannot do and a wrong file are clear errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.cli.main import main
from rankflavor.errors import UsageError
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS
from rankflavor.report.result import FORMAT_VERSION
from strategies import flavors, qrels_and_run

SPECS = ["ndcg@3", "ndcg@3 gain=exp2", "map", "trec_eval.P_10", "sklearn@3", "rbp(p=0.8)", "P@2", "p@2"]
QRELS = {"q1": {"a": 2, "b": 1, "c": 0}, "q2": {"a": 1}, "q3": {"x": 1}, "q4": {"d": 0}}
RUN = {"q1": {"a": 1.0, "u": 1.0, "b": 0.5, "c": 0.5}, "q2": {"z": 2.0, "a": 1.0}, "q4": {"d": 1.0}, "q9": {"a": 1.0}}


def assert_same(loaded, original, per_query: bool) -> None:
    """The loaded report gives the original's runs, flavors, labels, means, counts, denominators, warnings (with
    their codes and numbers) and, when saved, per-query values."""
    assert isinstance(loaded, rf.Report) and loaded.runs == original.runs
    assert loaded.flavors == original.flavors and loaded.judged_queries == original.judged_queries
    assert len(loaded.results) == len(original.results)
    for got, want in zip(loaded.results, original.results, strict=True):
        assert (got.run, got.flavor, got.labels, got.mean, got.counts) == (want.run, want.flavor, want.labels,
                                                                          want.mean, want.counts)
        assert got.denominator() == want.denominator() and got.parts == want.parts
        assert [(str(w), getattr(w, "code", None), getattr(w, "numbers", None)) for w in got.warnings] == [
            (str(w), w.code, w.numbers) for w in want.warnings]
        assert loaded.mean(want.run, want.label) == original.mean(want.run, want.label)
        if per_query:
            assert got.per_query() == want.per_query()
    if per_query:
        assert loaded.to_frame().equals(original.to_frame())
    assert loaded.means_frame().equals(original.means_frame())


def test_the_cli_json_loads_back_equal(capsys, tmp_path):
    original = rf.evaluate(str(SEED000_QRELS), [str(p) for p in SEED000_RUNS], SPECS)
    argv = ["eval", str(SEED000_QRELS), *map(str, SEED000_RUNS), *(x for s in SPECS for x in ("-m", s))]
    for per_query in (False, True):
        assert main([*argv, "--format", "json", *(["--per-query"] if per_query else [])]) == 0
        text = capsys.readouterr().out
        path = tmp_path / f"saved-{per_query}.json"
        path.write_text(text, encoding="utf-8")
        loaded = rf.load(path)
        assert json.loads(text)["format_version"] == FORMAT_VERSION
        assert_same(loaded, original, per_query)
        assert loaded.to_json(per_query=per_query) == text  # (written again, byte for byte)
        assert repr(loaded) == repr(original) and loaded._repr_html_() == original._repr_html_()


def test_to_json_writes_what_load_reads(tmp_path):
    original = rf.evaluate(QRELS, {"A": RUN, "B": {"q1": {"b": 3.0}}}, [*SPECS, "ndcg@3 weights=w"],
                           weights={"w": {"q1": 2.0, "q2": 1.0, "q3": 0.5, "q4": 1.0}})
    assert any(r.warnings for r in original.results)
    path = tmp_path / "saved.json"
    text = original.to_json(path, per_query=True)
    assert path.read_text(encoding="utf-8") == text
    loaded = rf.load(str(path))
    assert_same(loaded, original, per_query=True)
    assert loaded.value("q1", "A", "ndcg@3") == original.value("q1", "A", "ndcg@3")
    with pytest.raises(KeyError, match="did you mean q1"):
        loaded.value("Q1", "A", "ndcg@3")
    with pytest.raises(KeyError, match="its labels: ndcg@3, ndcg@3 gain=exp2"):
        loaded.mean("A", "ndcg@4")


def test_what_needs_the_inputs_says_so(tmp_path):
    path = tmp_path / "means.json"
    rf.evaluate(SEED000_QRELS, list(SEED000_RUNS), ["ndcg@3"]).to_json(path)  # (no per-query values)
    loaded = rf.load(path)
    for call in (lambda: loaded.explain("X.run", "q1", "ndcg@3"), lambda: loaded.records("X.run", "ndcg@3"),
                 loaded.verify):
        with pytest.raises(UsageError) as caught:
            call()
        message = str(caught.value)
        assert message.startswith(f"{path}: a saved report holds the numbers, not the inputs")
        assert "rankflavor.evaluate(qrels, runs, flavors)" in message and str(SEED000_QRELS) in message
    for call in (lambda: loaded.value("q1", "X.run", "ndcg@3"), loaded.to_frame,
                 lambda: loaded.to_json(per_query=True)):
        with pytest.raises(UsageError, match="saved without per-query values; save them with rankflavor eval "
                                             "--format json --per-query"):
            call()
    assert loaded.mean("Y.run", "ndcg@3") == pytest.approx(0.7601875334318685, abs=1e-15)


def _saved(tmp_path, data, name="bad.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_a_wrong_file_is_a_clear_error(tmp_path):
    good = json.loads(rf.evaluate(SEED000_QRELS, list(SEED000_RUNS), ["ndcg@3"]).to_json())
    record = rf.explain(SEED000_QRELS, SEED000_RUNS[0], "q1", "ndcg@3").to_dict()
    newer = {**good, "format_version": FORMAT_VERSION + 1, "version": "9.0"}
    cases = {
        "absent.json": (None, "file not found"),
        "text.json": ("version 1\n{", "not JSON: Expecting value (column 1)"),
        "list.json": ([1, 2], "JSON, but not a saved rankflavor report: no 'results' list (a JSON list)"),
        "other.json": ({"rows": []}, "no 'results' list (its keys: rows)"),
        "record.json": (record, "it is one record (rankflavor explain --format json)"),
        "newer.json": (newer, f"written in format version {FORMAT_VERSION + 1} (by rankflavor 9.0); this rankflavor"),
        "version.json": ({**good, "format_version": "one"}, "format_version 'one' is not a format version"),
        "nomean.json": ({**good, "results": [{**good["results"][0], "mean": "high"}]},
                        "results[0] has no 'mean' of the right type (got 'high')"),
        "flavor.json": ({**good, "results": [{**good["results"][0], "flavor": "ndcg@3 gain=cubic"}]},
                        "results[0]: its flavor does not parse here"),
    }
    for name, (data, reason) in cases.items():
        path = tmp_path / name if data is None else _saved(tmp_path, data, name)
        with pytest.raises(rf.InputError) as caught:
            rf.load(path)
        error = caught.value
        assert error.source == str(path) and reason in error.reason and error.fix
        assert str(error).startswith(str(path)) and "fix: " in str(error)
    assert "upgrade rankflavor" in _error(tmp_path / "newer.json").fix
    assert _error(tmp_path / "text.json").line == 1


def _error(path):
    with pytest.raises(rf.InputError) as caught:
        rf.load(path)
    return caught.value


def test_a_file_saved_before_format_version_loads(tmp_path):
    """The shape did not change when the key was added: a file without it is format 1."""
    original = rf.evaluate(SEED000_QRELS, list(SEED000_RUNS), ["ndcg@3", "map"])
    saved = json.loads(original.to_json())
    del saved["format_version"]
    assert_same(rf.load(_saved(tmp_path, saved, "old.json")), original, per_query=False)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("saved")


@settings(max_examples=60)
@given(qrels_and_run(), st.lists(flavors(), min_size=1, max_size=3), st.booleans())
def test_random_reports_round_trip(folder, data, chosen, per_query):
    """save -> load: equal means, flavors (each canonical string parses back to an equal Flavor), labels,
    counts and per-query values, over random qrels, runs and flavors."""
    qrels, run = data
    try:
        original = rf.evaluate(qrels, {"A": run, "B": {q: dict(reversed(d.items())) for q, d in run.items()}}, chosen)
    except (rf.InputError, rf.EvaluationError):  # (an empty run, empty=error on a zero-ideal query, ...)
        return
    path = folder / "random.json"
    original.to_json(path, per_query=per_query)
    assert_same(rf.load(path), original, per_query)


def test_a_loaded_report_plots_as_the_original(tmp_path):
    """rankflavor.plots on a loaded report: its per-query rows give the original's points, query by query (a
    report saved without them says how to save them)."""
    from heavy import need_module

    need_module("report", "plotly")
    from rankflavor import plots

    original = rf.evaluate(QRELS, {"A": RUN, "B": {"q1": {"b": 3.0}, "q2": {"a": 2.0, "z": 1.0}}}, ["ndcg@3", "map"])
    for per_query in (True, False):
        original.to_json(tmp_path / f"r{per_query}.json", per_query=per_query)
    loaded = rf.load(tmp_path / "rTrue.json")
    for flavor in ("ndcg@3", "map"):
        got, want = plots.scatter(loaded, flavor=flavor).data[0], plots.scatter(original, flavor=flavor).data[0]
        assert list(got.x) == list(want.x) and list(got.y) == list(want.y)
        assert list(got.customdata) == list(want.customdata)
    with pytest.raises(UsageError, match="--per-query"):
        plots.scatter(rf.load(tmp_path / "rFalse.json"))
