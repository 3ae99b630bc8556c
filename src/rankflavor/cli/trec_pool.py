"""A track of runs on every core: `rankflavor eval QRELS RUN RUN ... --format trec` in worker processes.

A track's runs are independent: each is read, interned and evaluated against the same qrels. One process uses
about one core and a quarter (Arrow's parser threads beside the engine), so a track of TREC run files is given
to WORKERS processes (forked from the CLI, which runs no other thread then but jemalloc's purger; spawned, a
fresh interpreter each, from a process that runs others: never a fork of a process running Arrow's threads).
Each reads the qrels once, then takes runs in turn and sends back the run's trec_eval block, its input warnings
and its warning kinds; the parent prints them in the runs' order, so the output is byte for byte the one
process's (cli/trec_stream.py). Memory: each worker holds one run at a time (its peak is the one-process
stream's), under its share of the memory budget (`--max-memory`, or the default, divided by the workers).
A run a worker cannot evaluate (bad input, anything raised) is evaluated again in the parent after the blocks
before it are printed: the parent raises the error exactly as the one-process stream would, and the runs after
it are not printed; a worker that dies (killed, out of memory) leaves the parent to go on alone.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rankflavor.cli.trec_stream import RunBlock
    from rankflavor.flavor.flavor import Labelled

MIN_RUNS = 4  # fewer runs: one process (starting the workers costs about as much as evaluating a run or two)
WORKERS = min(4, len(os.sched_getaffinity(0)))
MIN_SHARE = 1 << 20  # the least memory budget a worker can be given (engine/budget.py)
ENV = "RANKFLAVOR_PROCESSES"  # set to 1: one process, as before (tests and timing)


def workers_for(args: Any) -> int:
    """How many worker processes `eval` gives the track (1: none, the one-process stream): several run files
    (no `-`), more than one core."""
    from rankflavor.environment import whole

    wanted = whole(ENV, WORKERS)
    if wanted < 2 or len(args.runs) < MIN_RUNS or "-" in args.runs:
        return 1
    return min(wanted, len(args.runs) // 2)


def stream_pooled(args: Any, runs: list[str], names: list[str], specs: Labelled, weights: dict[str, str],
                  set_lines: bool, err: IO[str], out: IO[str], workers: int) -> None:
    """stream_trec's output (the same bytes) from `workers` processes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from rankflavor.cli.trec_output import write_kinds
    from rankflavor.cli.trec_stream import print_block, stream_trec
    from rankflavor.engine.budget import budget

    context = multiprocessing.get_context(start_method())
    shown: set[str] = set()
    kinds: dict[str, list[str]] = {}
    share = budget() // workers  # (the memory budget, --max-memory's or the default, shared by the workers)
    if share < MIN_SHARE:  # (a budget too small to share: one process, which says whether it fits)
        stream_trec(args, runs, names, specs, weights, set_lines, err, out)
        return
    sys.stdout.flush()  # (a forked worker flushes what it inherits when it ends: nothing)
    sys.stderr.flush()
    from rankflavor.inputs.trec_compiled import hashes_on

    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start,
                               initargs=(args.qrels, specs, args.on_duplicate, weights, share, os.getpid(),
                                         hashes_on()))
    try:
        futures = [pool.submit(_evaluate_one, run, name, args.per_query, set_lines) for run, name in zip(
            runs, names, strict=True)]
        for i, future in enumerate(futures):
            try:
                done = future.result()
            except BrokenProcessPool:  # (a worker died, killed or out of memory: the parent goes on alone)
                done = None
            if done is None:  # (the worker could not: the parent evaluates it, and raises what that raises)
                pool.shutdown(wait=True, cancel_futures=True)
                stream_trec(args, runs[i:], names[i:], specs, weights, set_lines, err, out, shown, kinds)
                return
            print_block(done, shown, kinds, err, out)
        # Joined before the interpreter exits: Python 3.11's exit hook (concurrent/futures/process.py _python_exit)
        # wakes a pool's manager thread through a pipe that thread may be closing at that moment, which prints
        # "Exception ignored ... OSError: Bad file descriptor" after the output (seen once in the suite); a joined
        # pool's pipe is closed already, and the hook skips it. Cheap: every run is done, the workers are idle.
        pool.shutdown(wait=True)
    except BaseException:  # (an error, Ctrl-C, SIGTERM, SIGHUP: the workers end now, not when their run is done)
        end_workers(pool)
        raise
    finally:  # (a no-op after the join; on an error or Ctrl-C, prompt)
        pool.shutdown(wait=False, cancel_futures=True)
    write_kinds(kinds, err)


def end_workers(pool: Any) -> None:
    """Kill the pool's worker processes and reap them (the pool's own shutdown waits for the runs they hold)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        try:
            process.kill()
        except (OSError, ValueError, AttributeError):
            pass
    for process in processes:
        try:
            process.join(5)
        except (OSError, ValueError, AttributeError, AssertionError):
            pass


FORK_SAFE_THREADS = {"jemalloc_bg_thd"}  # threads a fork may leave behind: jemalloc's purger (it forks safely)


def start_method() -> str:
    """`fork` when this process runs no thread but its own and jemalloc's background purger (which pyarrow's
    import starts; jemalloc takes its locks around a fork): the CLI's track has imported what a worker needs and
    started no other thread by then, so a forked worker starts at once. Else `spawn`, a fresh interpreter per
    worker (0.2-0.3 s of imports each): a process running other threads (Arrow's, a caller's) is never forked."""
    import multiprocessing

    try:
        tasks = os.listdir("/proc/self/task")
        names = [Path(f"/proc/self/task/{task}/comm").read_text().strip() for task in tasks if int(task) != os.getpid()]
    except (OSError, ValueError):
        return "spawn"
    if all(name in FORK_SAFE_THREADS for name in names) and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"


_job: dict[str, Any] = {}  # in a worker: the qrels read once and the evaluation's settings


def _start(qrels_path: str, specs: Labelled, on_duplicate: str, weights: dict[str, str], share: int,
           parent: int, hashes: bool) -> None:
    """A worker's start: it dies with its parent (worker_bound); its share of the memory budget; the files hashed
    when the parent's are (trec_compiled.without_hashes); the qrels is read once (an error: each run says it)."""
    worker_bound(parent)
    if not hashes:
        from rankflavor.inputs.trec_compiled import without_hashes

        without_hashes()
    from rankflavor.cli.threads import malloc_settings
    from rankflavor.cli.trec_stream import qrels_once
    from rankflavor.engine.budget import set_max_memory
    from rankflavor.overlap import run_inline

    malloc_settings()  # (a spawned worker's own; a forked one keeps the parent's)
    run_inline()  # (the workers keep every core busy: a check's thread would wait for a time slice)
    set_max_memory(share)
    _job.update(specs=specs, on_duplicate=on_duplicate, weights=weights)
    try:
        _job["qrels"] = qrels_once(qrels_path, specs)
    except Exception:  # (the parent evaluates the first run itself and reports the error)
        _job["qrels"] = None


def _evaluate_one(run: str, name: str, per_query: bool, set_lines: bool) -> RunBlock | None:
    """What the run prints (cli/trec_stream.py run_block), or None when anything is raised."""
    from rankflavor.cli.trec_stream import run_block

    if _job.get("qrels") is None:
        return None
    try:
        return run_block(_job["qrels"], run, name, _job["specs"], _job["on_duplicate"], _job["weights"], per_query,
                         set_lines)
    except Exception:  # (evaluated again in the parent, which raises it with its context)
        return None


def worker_bound(parent: int) -> None:
    """Bind a worker to its parent: Ctrl-C is the parent's to handle (it kills the workers), SIGTERM and SIGHUP end
    the worker at once (not the parent's handler a fork inherits), the kernel kills it when the parent dies
    (PR_SET_PDEATHSIG, Linux), and its standard output is /dev/null, so that a pipeline reading the parent's output
    never waits on a worker holding it open."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # (PR_SET_PDEATHSIG = 1)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # (the parent died before the binding: nothing to work for)
        os._exit(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)
