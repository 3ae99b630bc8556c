"""benchmarks/bench.py runs end to end on a tiny workload (the figures themselves are `make bench`'s job)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench.py"


@pytest.mark.slow
def test_bench_script_generates_times_and_compares_on_a_tiny_workload(tmp_path):
    done = subprocess.run(
        [sys.executable, str(BENCH), "--data", str(tmp_path), "--queries", "30", "--depth", "20", "--judged", "4",
         "--repeat", "1", "--repeat-calls", "2", "--warm-gb", "0.01", "--cores", "1", "--track-runs", "12",
         "--track-queries", "5", "--track-depth", "20"],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "pinned to 1 of" in out and (tmp_path / "run_30_20.txt").exists()
    for name in ("rankflavor trec_eval@10", "rankflavor 24 flavors", "rankflavor 3 runs", "rankflavor explain",
                 "rankflavor --help", "rankflavor presets", "rankflavor metrics", "peak RSS by rows",
                 "rankflavor eval track (12 runs)", "rankflavor eval track (10 runs)", "rankflavor trec_eval loop",
                 "against the targets", "pyarrow read (floor)",
                 "issue 40's targets, medians of 1 interleaved runs (2 for rows 1-3's commands)"):
        assert name in out, out
    if "pytrec_eval " in out:  # (the peers extra installed: the per-query check against it ran)
        lines = [line for line in out.splitlines() if line.startswith("per-query trec_eval@10 vs pytrec_eval")]
        assert lines and "0 queries in one only" in lines[0], out
        assert float(lines[0].split("max |diff| ")[1].split(",")[0]) <= 1e-9, lines[0]
