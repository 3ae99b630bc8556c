"""Ctrl-C (SIGINT) while a command works: one line on stderr (`rankflavor: interrupted`), exit 130, no traceback,
no output file left behind or changed, no JVM left running (`eval --engine spark`).

Each test runs the CLI in a subprocess on inputs it writes (a 300-query, 1,000-document run, 8 MB) and sends
SIGINT once the process is busy: past its start-up (its CPU time, read from /proc, is past what the imports
and the reading take) and still running, so the signal lands in the evaluation whatever the machine's load.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
BUSY_CPU = 0.8  # CPU seconds: the imports and the reading take about half of it
RANDOM_TIES = [f"ndcg@{k} ties=random({seed})" for seed in range(1, 11) for k in (5, 10, 20, 100)]  # ~3 s of CPU

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's CPU time in /proc")


def write_inputs(folder: Path, queries: int = 300, docs: int = 1000) -> tuple[Path, Path]:
    """A qrels (every 10th doc judged) and a run (`docs` per query, random scores) in `folder`."""
    rng = random.Random(25)
    qrels, run = folder / "qrels.txt", folder / "bm25.run"
    qrels.write_text("".join(f"q{q} 0 d{d} {rng.randint(0, 3)}\n" for q in range(queries) for d in range(0, docs, 10)))
    run.write_text("".join(f"q{q} Q0 d{d} {d + 1} {rng.random():.6f} bm25\n" for q in range(queries)
                           for d in range(docs)))
    return qrels, run


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> float:
    """The process's user + system CPU time, all its threads (proc(5): fields 14 and 15)."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The running processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = _stat(int(entry.name))
            except (OSError, IndexError):
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


def alive(pid: int) -> bool:
    try:
        return _stat(pid)[0] != "Z"
    except (OSError, IndexError):
        return False


def start(argv: list[str], cwd: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}
    return subprocess.Popen([sys.executable, "-m", "rankflavor", *argv], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def interrupt_when(process: subprocess.Popen, busy, timeout: float = 300) -> tuple[str, str]:
    """Send SIGINT once `busy(pid)` holds (the process still running); (stdout, stderr) once it has ended."""
    deadline = time.monotonic() + timeout
    while process.poll() is None and not busy(process.pid):
        assert time.monotonic() < deadline, "the command never got busy"
        time.sleep(0.05)
    assert process.poll() is None, f"finished before the interrupt: {process.communicate()}"
    process.send_signal(signal.SIGINT)
    return process.communicate(timeout=timeout)


def past_start_up(pid: int) -> bool:
    return cpu_seconds(pid) >= BUSY_CPU


def test_eval_interrupted_says_one_line_and_exits_130(tmp_path):
    qrels, run = write_inputs(tmp_path)
    flavors = [x for spec in RANDOM_TIES for x in ("-m", spec)]
    process = start(["eval", "-q", qrels.name, run.name, *flavors, "--per-query"], tmp_path)  # (-q: no reading note)
    out, err = interrupt_when(process, past_start_up)
    assert (process.returncode, err, out) == (130, "rankflavor: interrupted\n", "")


def test_report_interrupted_leaves_no_file_and_the_previous_page_intact(tmp_path):
    pytest.importorskip("plotly")  # (report's extra; without it report refuses before any work)
    qrels, run = write_inputs(tmp_path)
    other = tmp_path / "dense.run"
    other.write_text(run.read_text().replace(" bm25\n", " dense\n"))
    page = tmp_path / "page.html"
    page.write_bytes(b"<p>the page of yesterday</p>\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    process = start(["report", qrels.name, run.name, other.name, "--resamples", "1000000", "-o", page.name], tmp_path)
    out, err = interrupt_when(process, past_start_up)
    assert (process.returncode, err, out) == (130, "rankflavor: interrupted\n", "")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # no new file, no file changed


@pytest.mark.slow
def test_spark_interrupted_leaves_no_jvm_running(tmp_path):
    from heavy import need_group

    need_group("spark")
    qrels, run = write_inputs(tmp_path)
    flavors = [x for spec in RANDOM_TIES for x in ("-m", spec)]
    process = start(["eval", "--engine", "spark", qrels.name, run.name, *flavors], tmp_path)
    jvms: list[int] = []

    def spark_job_running(pid: int) -> bool:
        """The JVM (pyspark's gateway, a child of the CLI) has started its Python workers: a job runs."""
        jvms[:] = children(pid) or jvms
        return any("pyspark.daemon" in command_line(worker) for jvm in jvms for worker in children(jvm))

    out, err = interrupt_when(process, spark_job_running)
    assert out == ""
    assert process.returncode == 130, err
    assert err.endswith("\nrankflavor: interrupted\n") and "Traceback" not in err, err
    assert jvms and not [jvm for jvm in jvms if alive(jvm)]  # (gone when rankflavor has exited, not later)
