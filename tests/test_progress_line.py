"""The progress line (rankflavor/progress.py): on a terminal (a pty here) once the job has run long enough, what
it is doing, wiped at the end; nothing on a pipe."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
SCRIPT = """
import sys
import rankflavor
from rankflavor.engine import budget
budget.resident_bytes = lambda: 0  # (the budget below is then one flavor per group, whatever this process holds)
rankflavor.evaluate(sys.argv[1], sys.argv[2], [f"ndcg@{k}" for k in range(1, 6)], max_memory=budget.FLOOR + 4096)
"""

pytestmark = pytest.mark.skipif(not hasattr(pty, "openpty") or sys.platform == "win32", reason="needs a pty")


def _inputs(tmp_path: Path) -> list[str]:
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\n")
    run.write_text("q1 Q0 d1 1 2.0 r\n\tq1 Q0 d2 2 1.0 r\n")
    return [str(qrels), str(run)]


def _env(after: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC), "RANKFLAVOR_PROGRESS_AFTER": after}


def _on_a_terminal(argv: list[str], after: str) -> str:
    master, slave = pty.openpty()
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave,
                               env=_env(after))
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # (EIO: the child closed its end)
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert process.wait(timeout=120) == 0
    return b"".join(chunks).decode("utf-8", "replace")


def test_the_line_shows_what_runs_on_a_terminal(tmp_path: Path) -> None:
    shown = _on_a_terminal([sys.executable, "-c", SCRIPT, *_inputs(tmp_path)], after="0")
    assert "\rrankflavor: evaluating flavor group 1/5" in shown
    assert "\rrankflavor: reading r.txt" in shown
    assert shown.endswith("\r\x1b[K")  # (wiped: nothing of it left on the terminal)


def test_nothing_before_the_delay_on_a_terminal(tmp_path: Path) -> None:
    assert "rankflavor:" not in _on_a_terminal([sys.executable, "-c", SCRIPT, *_inputs(tmp_path)], after="600")


def test_nothing_on_a_pipe(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT, *_inputs(tmp_path)], capture_output=True, env=_env("0"))
    assert done.returncode == 0 and b"\r" not in done.stderr and b"flavor group" not in done.stderr
