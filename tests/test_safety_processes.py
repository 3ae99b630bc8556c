"""Issue 41, item 5: processes end with their parent. `eval RUN x6 --format trec` runs worker processes
(cli/trec_pool.py); SIGTERM, SIGHUP or SIGINT to the parent ends them with it (exit 143, 129, 130: one line), and
so does the parent's death (SIGKILL: the kernel's parent-death signal); a worker never holds the output open, so a
pipeline reading it sees its end at once. Ctrl-C in the imports before `main` runs is one line and exit 130."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_interrupt import alive, children, write_inputs

SRC = Path(__file__).resolve().parents[1] / "src"
# (uncut lists: a worker's run ~0.5 s, the track ~3.5 s on 2 idle cores; ndcg@10 took 0.05 s a run, so the track
# could end before its workers were seen)
SLOW = [x for seed in range(1, 9) for x in ("-m", f"ndcg ties=random({seed})")]

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists() or len(os.sched_getaffinity(0)) < 2,
                                reason="reads /proc; worker processes need two cores")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p),
            "RANKFLAVOR_PROCESSES": "2"}


@pytest.fixture(scope="module")
def track(tmp_path_factory) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("track")
    qrels, run = write_inputs(folder, queries=200, docs=500)
    runs = []
    for i in range(6):
        shutil.copy(run, folder / f"r{i}.run")
        runs.append(f"r{i}.run")
    return folder, [qrels.name, *runs]


def _start_track(folder: Path, files: list[str]) -> tuple[subprocess.Popen, list[int]]:
    """The track started, once its two workers run; (the process, the workers' ids)."""
    process = subprocess.Popen([sys.executable, "-m", "rankflavor", "eval", *files, *SLOW, "--format", "trec"],
                               cwd=folder, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(workers := [w for w in children(process.pid) if alive(w)]) < 2:
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    time.sleep(0.3)  # (each worker busy with its first run)
    return process, workers


def _gone(pids: list[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize(("signum", "code", "line"), [(signal.SIGTERM, 143, "rankflavor: terminated (SIGTERM)\n"),
                                                      (signal.SIGHUP, 129, "rankflavor: hung up (SIGHUP)\n"),
                                                      (signal.SIGINT, 130, "rankflavor: interrupted\n")])
def test_a_signal_to_the_parent_ends_its_workers(track, signum, code, line):
    """2-4 workers (500 MB each) were left running for minutes after SIGTERM or SIGHUP, holding stdout open."""
    folder, files = track
    process, workers = _start_track(folder, files)
    process.send_signal(signum)
    started = time.monotonic()
    _, err = process.communicate(timeout=60)  # (stdout's end: no worker holds it open)
    assert time.monotonic() - started < 10
    assert process.returncode == code and err.decode().endswith(line) and b"Traceback" not in err, err
    assert _gone(workers, 5), [w for w in workers if alive(w)]


def test_the_parents_death_ends_its_workers_and_releases_the_output(track):
    """SIGKILL leaves no handler to run: the workers die by the kernel's parent-death signal, and the pipe of the
    parent's output ends at once (a worker holding stdout made `rankflavor eval ... | cat` hang)."""
    folder, files = track
    process, workers = _start_track(folder, files)
    process.kill()
    started = time.monotonic()
    process.stdout.read()  # (EOF once nothing holds the pipe's write end)
    assert time.monotonic() - started < 10
    process.wait(30)
    assert _gone(workers, 5), [w for w in workers if alive(w)]


EARLY = """
import builtins, runpy, sys
real = builtins.__import__
target = sys.argv[1]
def interrupting(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and (name == target or any(f"{name}.{item}" == target for item in fromlist or ())):
        raise KeyboardInterrupt
    return real(name, globals, locals, fromlist, level)
builtins.__import__ = interrupting
sys.argv = ["rankflavor", "eval", sys.argv[2], sys.argv[3]]
runpy.run_module("rankflavor", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("module", ["rankflavor.version", "rankflavor.cli", "rankflavor.cli.main", "argparse",
                                    "rankflavor.progress", "rankflavor.cli.threads", "rankflavor.errors"])
def test_ctrl_c_in_the_first_imports_is_one_line_and_130(module, tmp_path):
    """Ctrl-C in the first 20 ms printed a traceback: a KeyboardInterrupt raised by the import of each module on
    the way to `main` (a deterministic stand-in for the signal's arrival then)."""
    from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

    done = subprocess.run([sys.executable, "-c", EARLY, module, str(SEED000_QRELS), str(SEED000_RUNS[0])],
                          env=_env(), capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert (done.returncode, done.stderr, done.stdout) == (130, "rankflavor: interrupted\n", ""), done.stderr
