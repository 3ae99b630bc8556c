"""`eval RUN RUN ... --format trec` evaluates a track one run at a time (cli/trec_stream.py): its lines are those of
the whole report, and the prefetch parses at most WINDOW runs ahead of the evaluation (inputs/prefetch.py)."""

from __future__ import annotations

import io
import random
import signal
from pathlib import Path

import numpy as np
import pytest

from rankflavor import evaluate
from rankflavor.cli.main import main
from rankflavor.cli.trec_output import write_trec
from rankflavor.inputs import arrow_csv, prefetch, trec_compiled


def _track(tmp_path, runs: int = 4):
    """A qrels of 12 queries and `runs` runs, each missing one query, with tied scores."""
    rng = random.Random(7)
    qrels = tmp_path / "track.qrels"
    qrels.write_text("".join(f"q{q} 0 d{d} {rng.randrange(3)}\n" for q in range(12) for d in range(0, 60, 3)))
    paths = []
    for i in range(runs):
        path = tmp_path / f"sys{i}.run"
        path.write_text("".join(f"q{q} Q0 d{d} {d + 1} {rng.randrange(20) / 4} tag{i}\n"
                                for q in range(12) if q != i for d in rng.sample(range(80), 30)))
        paths.append(str(path))
    return str(qrels), paths


@pytest.mark.parametrize("options", [["-m", "trec_eval.official"], ["-m", "trec_eval@10", "-m", "ndcg@5 gain=exp2"],
                                     ["-m", "trec_eval.official", "--per-query"], ["-m", "P@5", "--per-query"]])
def test_a_streamed_track_prints_the_whole_reports_lines(tmp_path, capsys, options):
    qrels, runs = _track(tmp_path)
    assert main(["eval", qrels, *runs, *options, "--format", "trec"]) == 0
    out, err = capsys.readouterr()
    specs = [options[i + 1] for i, o in enumerate(options) if o == "-m"]
    whole = io.StringIO()
    write_trec(evaluate(qrels, runs, specs, warnings=False), whole, per_query="--per-query" in options,
               set_lines="trec_eval.official" in specs)
    assert out == whole.getvalue() and out.count("\tall\t") > len(runs)
    assert sum("absent from the run" in line for line in err.splitlines()) == len(runs)


def test_a_missing_run_file_is_reported_before_any_line(tmp_path, capsys):
    qrels, runs = _track(tmp_path, 2)
    assert main(["eval", qrels, runs[0], str(tmp_path / "absent.run"), "--format", "trec"]) != 0
    out, err = capsys.readouterr()
    assert out == "" and "absent.run" in err


def test_the_prefetch_parses_at_most_window_runs_ahead(tmp_path, monkeypatch):
    _, runs = _track(tmp_path, prefetch.WINDOW + 2)
    started: list[str] = []
    reals = {"parse_columns": arrow_csv.parse_columns, "read_compiled": prefetch.trec_compiled.read_compiled}

    def counted(name):
        def parse(path, *args, **kwargs):
            started.append(str(path))
            return reals[name](path, *args, **kwargs)
        return parse

    monkeypatch.setattr(arrow_csv, "parse_columns", counted("parse_columns"))  # (pyarrow's parse, imported when used)
    monkeypatch.setattr(prefetch.trec_compiled, "read_compiled", counted("read_compiled"))  # (the compiled reader's)
    items = prefetch.prefetch_runs(runs)
    assert items[prefetch.WINDOW - 1]._done.wait(30)
    assert not items[prefetch.WINDOW]._done.wait(0.3)  # (waits for the first run to be taken)
    assert started == runs[:prefetch.WINDOW]
    for taken, item in enumerate(items):
        assert item.table(defer_scan=True).rows == 330
        assert item._done.wait(30) and len(started) <= taken + 1 + prefetch.WINDOW
    assert started == runs


def test_a_streamed_track_reads_a_subtopic_qrels_for_a_diversity_measure(tmp_path, capsys):
    qrels = tmp_path / "subtopics.qrels"
    qrels.write_text("".join(f"q{q} {s} d{d} {(q + s + d) % 2}\n" for q in range(4) for s in (1, 2) for d in range(8)))
    runs = []
    for i in range(3):
        path = tmp_path / f"div{i}.run"
        path.write_text("".join(f"q{q} Q0 d{(d + 3 * i) % 8} {d + 1} {8 - d} t\n" for q in range(4) for d in range(8)))
        runs.append(str(path))
    assert main(["eval", str(qrels), *runs, "-m", "alpha_ndcg@5", "--format", "trec"]) == 0
    out, _ = capsys.readouterr()
    whole = io.StringIO()
    write_trec(evaluate(str(qrels), runs, ["alpha_ndcg@5"], warnings=False), whole)
    assert out == whole.getvalue() and out.count("runid") == 3


def _wide_track(tmp_path, runs: int, duplicate_in: int | None = None, plain: bool = False):
    """A qrels and `runs` runs retrieving docs the qrels never judged, their ids sorting among the judged ones
    (d10 < d9 < e...), scores tied so that the docs' order decides the top; run `duplicate_in` lists a doc twice.
    plain: no id with a space or beyond ASCII (the files take the fast reader's path: inputs/doc_dictionary.py)."""
    rng = random.Random(11)
    ids = [f"d{n}" for n in range(40)] + [f"e{n}" for n in range(20)] + ["D1", *(() if plain else ("d 7", "d\u00e99"))]
    qrels = tmp_path / "wide.qrels"
    qrels.write_text("".join(f"q{q} 0 {d} {rng.randrange(3)}\n" for q in range(6) for d in rng.sample(ids[:40], 12)))
    paths = []
    for i in range(runs):
        lines = [f"q{q} Q0 {d} 1 {rng.randrange(4)} t{i}\n" for q in range(6) if q != i % 7
                 for d in rng.sample(ids, 25)]
        if i == duplicate_in:
            lines.append(lines[0])
        path = tmp_path / f"wide{i}.run"
        path.write_text("".join(lines))
        paths.append(str(path))
    return str(qrels), paths


@pytest.mark.parametrize("on_duplicate", ["first", "max"])
def test_many_runs_with_unjudged_docs_and_duplicates_stream_as_the_whole_report(tmp_path, capsys, on_duplicate):
    qrels, runs = _wide_track(tmp_path, 9, duplicate_in=4)
    specs = ["trec_eval.official", "ndcg@5 ties=docid_desc", "P@3 ties=docid_asc"]
    options = [x for spec in specs for x in ("-m", spec)] + ["--per-query", "--on-duplicate", on_duplicate]
    assert main(["eval", qrels, *runs, *options, "--format", "trec"]) == 0
    out = capsys.readouterr().out
    whole = io.StringIO()
    write_trec(evaluate(qrels, runs, specs, on_duplicate=on_duplicate, warnings=False), whole, per_query=True,
               set_lines=True)
    assert out == whole.getvalue() and out.count("\tall\t") > len(runs)


def test_a_duplicate_in_one_run_of_a_track_is_refused_with_its_file(tmp_path, capsys):
    qrels, runs = _wide_track(tmp_path, 5, duplicate_in=3)
    assert main(["eval", qrels, *runs, "-m", "P@5", "--format", "trec"]) != 0
    out, err = capsys.readouterr()
    assert "wide3.run" in err and out.count("runid") == 3  # (the runs before it printed, as a loop would)


def test_each_run_of_a_track_is_coded_in_one_dictionary_whose_keys_order_as_the_ids(tmp_path):
    from rankflavor.inputs.intern import intern
    from rankflavor.inputs.trec import read_trec_qrels, read_trec_run

    qrels_path, runs = _wide_track(tmp_path, 4, plain=True)
    qrels = read_trec_qrels(qrels_path)
    judged = sorted(set(qrels.doc.to_pylist()), key=str.encode)
    for path in runs:  # one qrels table, its sorted ids made once, every run interned against it in turn
        run = read_trec_run(path)
        dataset = intern(qrels, [run], ["r"])
        assert not dataset.docs_sorted  # (the runs' unjudged ids follow the qrels' unsorted)
        ids = list(dataset.doc_ids)
        assert len(set(ids)) == len(ids)  # one code per id
        assert set(ids) == set(run.doc.to_pylist()) | set(judged)
        assert ids[:len(judged)] == judged  # the qrels' ids first, sorted bytewise as strcmp sorts
        codes = np.arange(len(ids))
        by_key = [ids[c] for c in codes[np.argsort(dataset.doc_keys(codes))]]
        assert by_key == sorted(ids, key=str.encode)  # every code: the keys order as the ids do
        some = np.random.default_rng(len(ids)).choice(codes, size=min(7, len(ids)), replace=False)
        assert [ids[c] for c in some[np.argsort(dataset.doc_keys(some))]] == sorted((ids[c] for c in some),
                                                                                  key=str.encode)  # a few codes
        assert list(dataset.doc_ids[dataset.runs[0].d]) == run.doc.to_pylist()
        assert sorted(zip(dataset.doc_ids[dataset.qrels.d], dataset.qrels.grade, strict=True)) == sorted(
            zip(qrels.doc.to_pylist(), qrels.grade, strict=True))


@pytest.mark.parametrize("ties", ["docid_desc", "docid_asc", "random(3)", "pessimistic"])
def test_a_plain_track_scores_as_the_same_runs_given_as_dicts(tmp_path, ties):
    """TREC files code the runs' unjudged docs unsorted after the qrels' (inputs/doc_dictionary.py); dicts take the
    sorted dictionary. Tied scores make the docs' order decide every list: both must agree per query."""
    import rankflavor as rf

    qrels_path, runs = _wide_track(tmp_path, 3, plain=True)
    specs = [f"ndcg@5 ties={ties}", f"P@3 ties={ties}", f"ap ties={ties}", "ndcg ideal=local ties=docid_asc"]

    def as_dict(path, value_col):
        out: dict = {}
        for line in open(path):
            parts = line.split()
            out.setdefault(parts[0], {})[parts[2]] = float(parts[value_col])
        return out

    qrels = {q: {d: int(g) for d, g in docs.items()} for q, docs in as_dict(qrels_path, 3).items()}
    for path in runs[:2]:  # two runs also written query by query, scores descending (engine/order.py's tie path)
        lines = open(path).read().splitlines(keepends=True)
        written = Path(path).with_suffix(".sorted")
        written.write_text("".join(sorted(lines, key=lambda line: (line.split()[0], -float(line.split()[4])))))
        runs.append(str(written))
    for path in runs:
        files = rf.evaluate(qrels_path, path, specs).to_dict(per_query=True)["results"]
        dicts = rf.evaluate(qrels, as_dict(path, 4), specs).to_dict(per_query=True)["results"]
        assert [r["per_query"] for r in files] == [r["per_query"] for r in dicts]
        assert [r["mean"] for r in files] == [r["mean"] for r in dicts]


def test_a_track_in_worker_processes_prints_the_one_process_bytes(tmp_path, capsys, monkeypatch):
    """cli/trec_pool.py: the runs evaluated by worker processes, printed in order: stdout and stderr are the one
    process's, per query too, with input warnings (a judged query absent) and the measures' warning kinds."""
    from rankflavor.cli import trec_pool

    qrels, runs = _wide_track(tmp_path, 6, plain=True)
    outputs = []
    for processes in ("1", "2"):
        monkeypatch.setenv(trec_pool.ENV, processes)
        assert main(["eval", qrels, *runs, "-m", "trec_eval.official", "-m", "ndcg@5 ties=docid_asc", "--per-query",
                     "--format", "trec"]) == 0
        outputs.append(capsys.readouterr())
    assert outputs[0].out == outputs[1].out and outputs[0].out.count("runid") == 6
    assert outputs[0].err == outputs[1].err and "absent from the run" in outputs[0].err


def test_a_bad_run_in_a_pooled_track_stops_after_the_runs_before_it(tmp_path, capsys, monkeypatch):
    from rankflavor.cli import trec_pool

    monkeypatch.setenv(trec_pool.ENV, "2")
    qrels, runs = _wide_track(tmp_path, 6, plain=True)
    with open(runs[2], "a") as handle:
        handle.write("q1 Q0 d3 1 not-a-score t2\n")
    assert trec_pool.workers_for(type("Args", (), {"runs": runs})()) == 2
    assert main(["eval", qrels, *runs, "-m", "P@5", "--format", "trec"]) != 0
    out, err = capsys.readouterr()
    assert out.count("runid") == 2 and "wide2.run" in err and "not-a-score" in err


def test_a_pooled_track_joins_its_pool_before_it_returns(tmp_path, capsys, monkeypatch):
    """Once the output is written the pool's manager thread is joined (cli/trec_pool.py): left running, Python
    3.11's exit hook could write to the pipe it is closing and print "Exception ignored ... Bad file descriptor"."""
    import threading

    from rankflavor.cli import trec_pool

    monkeypatch.setenv(trec_pool.ENV, "2")
    qrels, runs = _wide_track(tmp_path, 4, plain=True)
    assert main(["eval", qrels, *runs, "-m", "P@5", "--format", "trec"]) == 0
    assert capsys.readouterr().out.count("runid") == 4
    managers = [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]
    assert not [t for t in managers if t.is_alive()]


def test_a_pooled_track_shares_the_memory_budget_and_refuses_as_one_process(tmp_path, capsys, monkeypatch):
    """The workers get the budget divided between them (cli/trec_pool.py); a budget no flavor fits is refused
    with the one process's message."""
    from rankflavor.cli import trec_pool
    from rankflavor.engine import budget

    qrels, runs = _wide_track(tmp_path, 4, plain=True)
    errors = []
    for processes in ("1", "2"):
        monkeypatch.setenv(trec_pool.ENV, processes)
        assert main(["eval", qrels, *runs, "-m", "P@5", "--format", "trec", "--max-memory", "2M"]) != 0
        errors.append(capsys.readouterr())
        budget.set_max_memory(None)
    assert errors[0] == errors[1] and errors[0].out == "" and "memory budget" in errors[0].err
    monkeypatch.setattr(trec_pool, "qrels_once", lambda *a: None, raising=False)
    monkeypatch.setattr("rankflavor.cli.threads.malloc_settings", lambda: None)  # (a worker's: not this process's)
    handler = signal.getsignal(signal.SIGINT)
    bound = []  # (the binding to the parent, its own test in test_safety_processes.py: not this process's)
    monkeypatch.setattr(trec_pool, "worker_bound", lambda parent: (bound.append(parent),
                                                                   signal.signal(signal.SIGINT, signal.SIG_IGN)))
    try:
        trec_pool._start(qrels, ["P@5"], "error", {}, 12 << 20, 4321, True)
        assert budget.budget() == 12 << 20 and bound == [4321]  # (a worker's share; bound to its parent)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # (Ctrl-C is the parent's to handle)
        assert trec_compiled.hashes_on()
        trec_pool._start(qrels, ["P@5"], "error", {}, 12 << 20, 4321, False)  # (a parent that hashes nothing)
        assert not trec_compiled.hashes_on()
    finally:  # (an ignored SIGINT would be inherited by every command a later test starts)
        signal.signal(signal.SIGINT, handler)
        budget.set_max_memory(None)
        trec_compiled.with_hashes()


def test_a_worker_that_dies_leaves_the_parent_to_finish_the_track(tmp_path, capsys, monkeypatch):
    """A worker killed mid-track (os._exit on one run): the pool breaks, the parent evaluates the runs left, and
    the output is the one process's."""
    import shutil

    from rankflavor.cli import trec_pool

    qrels, runs = _wide_track(tmp_path, 6, plain=True)
    marker = tmp_path / "die.marker"
    shutil.copy(runs[3], marker)
    runs = [*runs[:3], str(marker), *runs[3:]]
    from rankflavor.cli import trec_stream

    alone = []  # the runs the parent evaluated itself, per call of the one-process stream
    real_stream = trec_stream.stream_trec
    monkeypatch.setattr(trec_stream, "stream_trec", lambda a, r, *rest: (alone.append(len(r)), real_stream(a, r, *rest)))
    outputs = []
    for processes in ("1", "2"):
        monkeypatch.setenv(trec_pool.ENV, processes)
        monkeypatch.setattr(trec_pool, "_evaluate_one", _dies_on_marker)
        assert main(["eval", qrels, *runs, "-m", "P@5", "--format", "trec"]) == 0
        outputs.append(capsys.readouterr())
    assert outputs[0].out == outputs[1].out and outputs[0].out.count("runid") == 7
    assert outputs[0].err == outputs[1].err
    assert alone[0] == 7 and 4 <= alone[1] <= 7  # (one process: all 7; pooled: the parent took over at the marker or before)
    alone.clear()
    monkeypatch.setattr(trec_pool, "_evaluate_one", trec_pool_evaluate_one)
    assert main(["eval", qrels, *runs, "-m", "P@5", "--format", "trec"]) == 0
    assert capsys.readouterr().out == outputs[0].out and alone == []  # (no death: the workers did every run)


def trec_pool_evaluate_one(run, name, per_query, set_lines):
    from rankflavor.cli.trec_pool import _evaluate_one

    return _evaluate_one(run, name, per_query, set_lines)


def _dies_on_marker(run, name, per_query, set_lines):
    """A worker's evaluation that kills its process on the run named die.marker."""
    import os

    from rankflavor.cli.trec_pool import _evaluate_one

    if run.endswith("die.marker"):
        os._exit(1)
    return _evaluate_one(run, name, per_query, set_lines)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_track_from_the_command_line_forks_its_workers_or_spawns_them_with_the_same_bytes(tmp_path, method):
    """A fresh `rankflavor eval` runs no thread but jemalloc's purger when its workers start, so it forks them
    (cli/trec_pool.py start_method); spawned workers (a process running other threads) print the same bytes."""
    import os
    import subprocess
    import sys

    qrels, runs = _wide_track(tmp_path, 5, plain=True)
    probe = ("import sys\nfrom rankflavor.cli import trec_pool\nreal = trec_pool.start_method\n"
             "def spy():\n    chosen = real()\n    print('START', chosen, file=sys.stderr)\n"
             f"    return {method!r}\n"
             "trec_pool.start_method = spy\nfrom rankflavor.cli.main import main\n"
             "if __name__ == '__main__':\n    sys.exit(main(sys.argv[1:]))\n")
    script = tmp_path / "probe.py"
    script.write_text(probe)
    args = ["eval", qrels, *runs, "-m", "trec_eval.official", "-m", "ndcg@5 ties=docid_asc", "--format", "trec"]
    env = {k: v for k, v in os.environ.items() if k != "RANKFLAVOR_PROCESSES"}
    pooled = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=300,
                            env={**env, "RANKFLAVOR_PROCESSES": "2"})  # (two workers, whatever the cores)
    alone = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=300,
                           env={**env, "RANKFLAVOR_PROCESSES": "1"})
    assert pooled.returncode == alone.returncode == 0, pooled.stderr
    assert "START fork" in pooled.stderr  # (the CLI's own choice: fork)
    assert pooled.stdout == alone.stdout and pooled.stdout.count("runid") == 5
    assert pooled.stderr.replace("START fork\n", "") == alone.stderr
