"""The atheris (libFuzzer, coverage-guided) fuzzer over the readers and the pipeline, bounded in time and runs.

It runs tests/test_fuzz_harness.py as a script for FUZZ_SECONDS (20 s by default; RANKFLAVOR_FUZZ_SECONDS
overrides) or FUZZ_RUNS inputs, whichever comes first; any exception other than InputError/EvaluationError,
an NDCG outside [0, 1], a reader disagreement or an input slower than 10 s is a crash and fails the test.
Skipped where atheris is not installed (it ships wheels for Linux x86-64 only).
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest

HARNESS = pathlib.Path(__file__).with_name("test_fuzz_harness.py")
FUZZ_SECONDS = int(os.environ.get("RANKFLAVOR_FUZZ_SECONDS", "20"))
FUZZ_RUNS = 200_000
SEEDS = {
    "tidy": b"\x01" + b"\x00" * 40,
    "raw": b"\x00" + b"q1 0 A 3\nq1 0 B 0\n" + b"q1 Q0 A 1 2 X\nq1 Q0 B 2 1 X\n",
}


def test_atheris_fuzzer_finds_nothing(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("atheris")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, data in SEEDS.items():
        (corpus / name).write_bytes(data)
    argv = [sys.executable, str(HARNESS), f"-max_total_time={FUZZ_SECONDS}", f"-runs={FUZZ_RUNS}", "-timeout=10",
            "-rss_limit_mb=3072", f"-artifact_prefix={tmp_path}/", "-print_final_stats=1", str(corpus)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=FUZZ_SECONDS + 40, cwd=tmp_path)
    tail = "\n".join(done.stderr.splitlines()[-40:])
    assert done.returncode == 0, tail
    runs = re.search(r"Done (\d+) runs in (\d+) second", done.stderr)
    assert runs is not None and int(runs.group(1)) > 100, tail
    sys.stderr.write(f"atheris: {runs.group(0)}\n")
