"""Flavors under a memory budget (engine/budget.py): grouped evaluation gives the ungrouped results, a flavor
that cannot fit is refused up front with its estimate, and the size is checked (CLI and API)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.engine import Engine, budget, max_memory
from rankflavor.errors import UsageError
from rankflavor.inputs.pipeline import prepare
from strategies import flavors
from test_engine_fast import _data

SRC = Path(__file__).resolve().parents[1] / "src"


def _outcome(engine: Engine, run, chosen) -> list | str:
    try:
        evaluations = engine.evaluate(run, chosen)
    except rf.EvaluationError as exc:
        return str(exc)
    out = []
    for evaluation in evaluations:
        results, row = evaluation.results, {}
        for name, value in vars(results).items():
            if name == "parts":
                value = {part_name: part.tobytes() for part_name, part in value.items()}
            elif isinstance(value, np.ndarray):
                value = value.tobytes()
            row[name] = value
        out.append(row)
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8), st.integers(1, 25), st.booleans(),
       st.lists(flavors(), min_size=2, max_size=9), st.integers(1, 3))
def test_flavors_in_groups_get_what_one_group_gives(seed, queries, max_docs, interleave, chosen, per_group):
    """A budget of `per_group` flavors' floor (the process's own memory set aside) forces many groups."""
    qrels, rows = _data(seed, queries, max_docs, interleave)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    run = dataset.runs[0]
    whole = _outcome(Engine(dataset), run, chosen)
    real = budget.resident_bytes
    budget.resident_bytes = lambda: 0
    try:
        with max_memory(per_group * (budget.FLOOR + budget.QRELS_ROW_BYTES * 100)):  # (at most 65 qrels rows)
            grouped = _outcome(Engine(dataset), run, chosen)
    finally:
        budget.resident_bytes = real
    assert grouped == whole


def test_groups_are_consecutive_widest_first_and_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    qrels, rows = _data(3, 6, 20, False)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    monkeypatch.setattr(budget, "resident_bytes", lambda: 0)
    needs = [1.0, float("inf"), 5.0, 3.0, 2.0]
    with max_memory(2 * budget.FLOOR):
        groups, largest = budget.flavor_groups(dataset.runs[0], needs, ["a", "b", "c", "d", "e"], held=0)
    assert [i for group in groups for i in group] == [1, 2, 3, 4, 0]
    assert all(len(group) <= 2 for group in groups) and len(groups) == 3 and largest == 2 * budget.FLOOR


def _files(tmp_path: Path) -> tuple[str, str]:
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\n")
    run.write_text("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n")
    return str(qrels), str(run)


def test_a_flavor_that_cannot_fit_is_refused_up_front_api(tmp_path: Path) -> None:
    qrels, run = _files(tmp_path)
    with pytest.raises(UsageError, match=r"not enough memory for 'ndcg@10' on run 'r.txt': it needs about 8 MB"):
        rf.evaluate(qrels, run, ["ndcg@10"], max_memory="1M")
    with pytest.raises(UsageError, match="not enough memory"):
        rf.compare.compare(qrels, {"a": run, "b": run}, ["ndcg@10"], max_memory="1M")
    with pytest.raises(UsageError, match="is not a size"):
        rf.evaluate(qrels, run, ["ndcg@10"], max_memory="lots")
    assert rf.evaluate(qrels, run, ["ndcg@10", "ndcg@1"], max_memory="64G").results[0].mean == 1.0


@pytest.mark.parametrize("command", ["eval", "compare", "report"])
def test_a_flavor_that_cannot_fit_is_refused_up_front_cli(tmp_path: Path, command: str) -> None:
    qrels, run = _files(tmp_path)
    runs = [run] if command == "eval" else [run, run.replace("r.txt", "s.txt")]
    Path(runs[-1]).write_text(Path(run).read_text())
    extra = ["-o", str(tmp_path / "page.html")] if command == "report" else []
    env = {"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "rankflavor", command, qrels, *runs, "-m", "ndcg@10",
                           "--max-memory", "1M", *extra], capture_output=True, text=True, env=env)
    if command == "report" and "rankflavor[report]" in done.stderr:
        pytest.skip("the report extra (plotly) is not installed")
    assert done.returncode == 2, done.stderr
    says = "not enough memory for 'ndcg@10'" if command == "eval" else "not enough memory for "  # (compare/plan.py)
    assert says in done.stderr and "--max-memory" in done.stderr
    bad = subprocess.run([sys.executable, "-m", "rankflavor", command, qrels, *runs, "--max-memory", "8X", *extra],
                         capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and ("'8X' (--max-memory SIZE, max_memory= in Python, or RANKFLAVOR_MAX_MEMORY) is not a "
                                    "size") in bad.stderr


@pytest.mark.parametrize(("text", "size"), [("8G", 8 << 30), ("512M", 512 << 20), ("1.5GB", 3 << 29),
                                            ("2097152", 2 << 20), (" 3 mib ", 3 << 20)])
def test_sizes(text: str, size: int) -> None:
    assert budget.parse_size(text) == size


def test_what_earlier_calls_keep_is_released_when_a_call_would_not_fit_beside_it(monkeypatch) -> None:
    """One engine, many calls (the warnings' extra evaluations make such): the stages kept for the run are
    counted, and let go when the next call's flavors would not fit beside them, so the calls never refuse."""
    qrels, rows = _data(5, 6, 20, False)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    run = dataset.runs[0]
    monkeypatch.setattr(budget, "resident_bytes", lambda: 0)
    engine = Engine(dataset)
    with max_memory(3 * budget.FLOOR):
        for k in range(1, 8):
            engine.evaluate(run, [rf.Flavor.parse(f"ndcg@{k}")])
            assert sum(engine._kept.values()) <= 3 * budget.FLOOR
        assert len(engine._scopes) == 1


def test_the_default_budget_never_refuses(monkeypatch) -> None:
    """The estimates are upper bounds: under the machine's default budget a flavor too large for it is
    evaluated in a group of its own, not refused (only a budget the caller sets refuses)."""
    qrels, rows = _data(9, 5, 20, False)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    run = dataset.runs[0]
    chosen = [rf.Flavor.parse(spec) for spec in ("ndcg@3", "ndcg@5", "ap")]
    whole = _outcome(Engine(dataset), run, chosen)
    monkeypatch.setattr(budget, "default_budget", lambda: 1 << 20)
    groups, _ = budget.flavor_groups(run, [3.0, 5.0, float("inf")], ["a", "b", "c"], held=0)
    assert len(groups) == 3
    assert _outcome(Engine(dataset), run, chosen) == whole


def test_a_run_laid_out_for_its_estimate_with_warnings_that_need_no_extra_flavor(monkeypatch: pytest.MonkeyPatch):
    """A run above QUICK_ROWS is laid out for its estimate; the warnings' extra evaluations may then ask for no
    flavor at all (nothing tied, nothing unjudged), which is an empty answer, not a ValueError (found on the
    4M-row Spark benchmark's local side)."""
    monkeypatch.setattr(budget, "QUICK_ROWS", 0)
    report = rf.evaluate({"q": {"a": 1, "b": 0}}, {"q": {"a": 1.0, "b": 0.5}}, ["ndcg@10", "map"])
    assert [r.mean for r in report.results] == [1.0, 1.0]
    assert budget.flavor_groups(report.dataset.run(report.results[0].run), [], [], 0) == ([], 0)


def test_flavors_reading_the_same_stages_are_charged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flavors with one stage key (the same depth, ties, ...) share a group's row stages: each after the first
    adds FLOOR, not its whole estimate (pytrec_eval.all_trec was cut into 5 groups on the 7M-row run, 2x slower);
    flavors of different keys are charged in full, as before."""
    qrels, rows = _data(3, 6, 20, False)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    monkeypatch.setattr(budget, "resident_bytes", lambda: 0)
    monkeypatch.setattr(budget, "ROW_BYTES", 1 << 20)  # (each flavor's estimate well above FLOOR)
    run = dataset.runs[0]
    inf = float("inf")
    full = budget.estimate(run, inf, 0)
    with max_memory(full + 2 * budget.FLOOR):
        shared, largest = budget.flavor_groups(run, [inf] * 3, ["a", "b", "c"], held=0, shares=["k", "k", "k"])
        apart, _ = budget.flavor_groups(run, [inf] * 3, ["a", "b", "c"], held=0, shares=["k", "l", "m"])
        unkeyed, _ = budget.flavor_groups(run, [inf] * 3, ["a", "b", "c"], held=0)
    assert shared == [[0, 1, 2]] and largest == full + 2 * budget.FLOOR
    assert apart == unkeyed == [[0], [1], [2]]
    report = rf.evaluate(qrels, {"r": pd.DataFrame(rows, columns=["query", "doc", "score"])},
                         ["map", "num_ret", "ndcg", "map ties=average"])
    from rankflavor.engine.front import _need, _share_key

    keys = [_share_key(f, _need(f)) for f in (r.flavor for r in report.results)]
    assert keys[0] == keys[1] == keys[2] != keys[3]
