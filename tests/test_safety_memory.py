"""Issue 41, item 3: memory known before it is spent (compare/plan.py). The issue's examples: a 1,080-combination
grid crossed with -k 1..10 under --max-memory 1G (it asked for 2.4 GiB after 76 s), and --resamples 1e10 (74.5
GiB); then variants: a grid too large to make, a resample count whose one column cannot fit, the API, and the
resampling in blocks (the same numbers as in one piece)."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import rankflavor as rf
from rankflavor.compare import plan, stats
from rankflavor.compare.effects import mean_intervals
from rankflavor.compare.power import power
from rankflavor.engine import max_memory as budget_of
from rankflavor.errors import UsageError

SRC = Path(__file__).resolve().parents[1] / "src"
GRID_1080 = """gain: linear exp2
ties: docid_desc docid_asc average pessimistic optimistic
discount: log2 reciprocal none jarvelin(2) jarvelin(3) jarvelin(4) jarvelin(5) jarvelin(6) jarvelin(7)
ideal: global local
unjudged: zero skip
missing: skip zero error
"""


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    rng = random.Random(1)
    with (tmp_path / "q.qrels").open("w") as out:
        for q in range(50):
            out.writelines(f"q{q} 0 d{d} {rng.randint(0, 3)}\n" for d in range(30))
    for name in "AB":
        with (tmp_path / f"{name}.run").open("w") as out:
            for q in range(50):
                out.writelines(f"q{q} Q0 d{d} {r + 1} {100 - r} {name}\n" for r, d in enumerate(rng.sample(range(40), 40)))
    (tmp_path / "grid.txt").write_text(GRID_1080)
    return tmp_path


def _cli(cwd: Path, *argv: str) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "rankflavor", *argv], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}, timeout=300)
    return done, time.monotonic() - start


def test_a_1080_combination_grid_with_ten_cutoffs_under_1g_is_refused_up_front(inputs):
    cutoffs = [arg for k in range(1, 11) for arg in ("-k", str(k))]
    done, seconds = _cli(inputs, "compare", "q.qrels", "A.run", "B.run", "--grid", "grid.txt", *cutoffs,
                         "--max-memory", "1G")
    assert done.returncode == 2, done.stderr
    assert "not enough memory for a grid of 10,800 flavors (10,800 crossed over the cutoffs, 0 listed)" in done.stderr
    assert "--max-memory" in done.stderr and "fewer cutoffs (-k)" in done.stderr and "Traceback" not in done.stderr
    assert seconds < 30  # (before any evaluation: was 76 s, then 2.4 GiB; the crossing alone took 60 s)


@pytest.mark.parametrize("resamples", ["1e10", "10000000000", "100000001", "-5", "0", "1.5"])
def test_resamples_beyond_the_range_are_a_usage_error(inputs, resamples):
    done, _ = _cli(inputs, "compare", "q.qrels", "A.run", "B.run", "-m", "ndcg@10", "--resamples", resamples)
    assert done.returncode == 2 and "is not a number of resamples" in done.stderr and "--resamples 10000" in done.stderr


def test_resamples_whose_one_column_cannot_fit_are_refused_with_the_estimate(inputs):
    done, seconds = _cli(inputs, "compare", "q.qrels", "A.run", "B.run", "-m", "ndcg@10", "--resamples", "100000000",
                         "--max-memory", "1G")
    assert done.returncode == 2, done.stderr
    assert "for one column's 100,000,000 resamples" in done.stderr and "(--resamples)" in done.stderr
    assert seconds < 30


def test_a_grid_too_large_to_make_is_refused_before_it_is_crossed():
    start = time.monotonic()
    with pytest.raises(UsageError, match=r"a grid of 6,400,000 flavors \(6,400,000 crossed .* fewer cutoffs \(-k\)"):
        rf.compare.compare("unread.qrels", ["a.run", "b.run"], grid="wide", cutoffs=list(range(1, 100_001)),
                           max_memory="1G")
    assert time.monotonic() - start < 5


def test_the_api_refuses_with_the_estimate_before_evaluating(inputs, monkeypatch):
    evaluated = []
    monkeypatch.setattr(rf.compare.comparison, "_usable", lambda *a: evaluated.append(a) or [])
    with pytest.raises(UsageError, match=r"not enough memory for comparing 1 flavor x 2 runs .* resamples"):
        rf.compare.compare(inputs / "q.qrels", [inputs / "A.run", inputs / "B.run"], ["ndcg@10"],
                           n_resamples=50_000_000, max_memory="600M")
    assert not evaluated
    with pytest.raises(UsageError, match="not enough memory for testing"), budget_of("600M"):
        power(inputs / "q.qrels", [inputs / "A.run", inputs / "B.run"], ["ndcg@10"], n_resamples=90_000_000)


@pytest.mark.parametrize("width", [1, 5, 17])
def test_resampling_in_blocks_gives_the_numbers_of_one_piece(monkeypatch, width):
    cols = np.random.default_rng(3).random((40, width))
    whole = stats.bootstrap_ci(cols, 2000, 7)
    settings = stats.TestSettings(n_resamples=2000, seed=7, ci="bootstrap")
    means = mean_intervals(cols, settings)
    monkeypatch.setattr(plan, "resample_block", lambda n, w: 2)  # (as under a budget that holds two columns)
    same = {"rtol": 1e-13, "atol": 0}  # (the same draws; a matrix product's last bit depends on its width)
    assert np.allclose(stats.bootstrap_ci(cols, 2000, 7)[0], whole[0], **same)
    assert np.allclose(stats.bootstrap_ci(cols, 2000, 7)[1], whole[1], **same)
    assert np.allclose(mean_intervals(cols, settings), means, **same)


def test_the_block_is_what_the_budget_leaves(monkeypatch):
    monkeypatch.setattr(plan, "resident_bytes", lambda: 0)
    monkeypatch.setattr(plan, "budget", lambda: 1000 * plan.RESAMPLE_BYTES * 10)
    assert plan.resample_block(10, 10_000) == 500 and plan.resample_block(10, 3) == 3
    assert plan.resample_block(10 ** 8, 10) == 1


def test_trec_eval_cutoffs_by_the_thousand_are_refused_before_they_are_made(inputs):
    """A variant: trec_eval -m P.1,...,30000 under a 300 MB budget made its flavors for 15 s (357 MB), then the
    engine refused 'p@1' as if it alone could not fit."""
    cuts = ",".join(map(str, range(1, 20_001)))  # (108 KB: one argument holds at most 128 KB)
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "rankflavor", "trec_eval", "-m", f"P.{cuts}", "q.qrels", "A.run"],
                          cwd=inputs, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin", "RANKFLAVOR_MAX_MEMORY": "300M"})
    assert done.returncode == 2 and "not enough memory for P's cutoffs: 20,000 flavors need at least" in done.stderr
    assert time.monotonic() - start < 30


def test_a_report_whose_results_cannot_fit_is_refused_before_evaluating(inputs, monkeypatch):
    from rankflavor.engine import budget

    monkeypatch.setattr(budget, "resident_bytes", lambda: 0)
    specs = [f"p@{k}" for k in range(1, 401)]
    with pytest.raises(UsageError, match=r"not enough memory for the results of 400 flavors x 2 runs over 50 "):
        rf.evaluate(inputs / "q.qrels", [inputs / "A.run", inputs / "B.run"], specs, max_memory="16M")


def test_a_spec_quoting_thousands_of_values_gives_a_short_message(inputs):
    done, _ = _cli(inputs, "eval", "q.qrels", "A.run", "-m", "trec_eval.P." + ",".join(map(str, range(1, 20_001))))
    assert done.returncode == 2 and len(done.stderr) < 4000 and "(20,000 values)" in done.stderr


def test_pairs_are_counted_in_the_estimate(monkeypatch):
    """A variant: 200 runs x a 64-flavor grid are 19,900 pairs x 64 flavors of rows and tests."""
    monkeypatch.setattr(plan, "resident_bytes", lambda: 0)
    monkeypatch.setattr(plan, "budget", lambda: 4 << 30)
    settings = stats.TestSettings()
    plan.check(50, 200, 64, settings, pairs=199)  # (each run against one baseline: fits)
    with pytest.raises(UsageError, match="fewer runs or a --baseline"):
        plan.check(50, 200, 64, settings)


def test_a_memory_error_is_one_line_naming_the_budget(inputs, monkeypatch, capsys):
    """A variant: a budget set above what the process can get (--max-memory 64G under `ulimit -v 1500000`) ended
    in a MemoryError reported as an internal error; now one line, exit 2, and a warning when the budget is set."""
    from rankflavor.cli import cmd_eval
    from rankflavor.cli.main import main

    def exhausted(args):
        raise MemoryError

    monkeypatch.setattr(cmd_eval, "run", exhausted)
    monkeypatch.chdir(inputs)
    assert main(["eval", "q.qrels", "A.run", "-m", "ndcg@5", "--max-memory", "1T"]) == 2
    err = capsys.readouterr().err
    assert "warning: --max-memory 1T is more than this process can get now" in err
    assert "rankflavor: out of memory: an allocation failed under the memory budget of 1 TB (set)" in err
    assert "internal error" not in err
