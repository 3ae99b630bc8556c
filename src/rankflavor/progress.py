"""One progress line on stderr while a long job runs: what it is doing (reading FILE, evaluating flavor group i/n,
chunk j/m), rewritten in place with `\\r`, only when stderr is a terminal and the job has run AFTER seconds
(`RANKFLAVOR_PROGRESS_AFTER` overrides it), and wiped when the step ends. Silent otherwise: nothing is written
to a pipe, a file or a notebook. The parts nest: `steps("evaluating flavor group", n)` inside a call, and
`steps("chunk", m)` inside a group, show as `rankflavor: evaluating flavor group 2/5 · chunk 3/27`.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

AFTER = 3.0  # seconds a job runs before its progress line appears
_EVERY = 0.1  # seconds between two writes of the line
_lock = threading.Lock()
_started = time.monotonic()
_parts: list[str] = []
_state = {"written": 0.0, "shown": False}


def start() -> None:
    """A job starts now (the CLI calls it as a command begins; otherwise the process's start counts)."""
    global _started
    _started = time.monotonic()


def _after() -> float:
    from rankflavor.environment import seconds

    return seconds("RANKFLAVOR_PROGRESS_AFTER", AFTER)


def _terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _show(force: bool = False) -> None:
    now = time.monotonic()
    if not _parts or now - _started < _after() or (not force and now - _state["written"] < _EVERY):
        return
    if not _terminal():
        return
    import shutil  # (here: its import costs start-up time that a silent run never pays)

    width = max(20, shutil.get_terminal_size((100, 24)).columns - 1)
    from rankflavor.escape import cell, raw

    line = cell("rankflavor: " + " · ".join(_parts))[:width]  # (a file name's control characters shown, not run)
    try:
        raw(sys.stderr).write("\r" + line + "\x1b[K")
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    _state["written"], _state["shown"] = now, True


def _wipe() -> None:
    if _state["shown"] and _terminal():
        try:
            from rankflavor.escape import raw

            raw(sys.stderr).write("\r\x1b[K")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
    _state["shown"] = False


@contextmanager
def doing(text: str) -> Iterator[None]:
    """`text` is part of the line while the block runs (e.g. `reading run.txt`)."""
    with _lock:
        _parts.append(text)
        _show(force=True)
    try:
        yield
    finally:
        with _lock:
            _parts.remove(text)
            if _parts:
                _show(force=True)
            else:
                _wipe()


@contextmanager
def steps(what: str, total: int) -> Iterator[Callable[[], None]]:
    """A counted part: each call of the yielded function moves to the next of `total` steps (`what i/total`)."""
    slot = [f"{what} 0/{total}"]
    count = [0]
    with _lock:
        _parts.append(slot[0])

    def step() -> None:
        with _lock:
            count[0] += 1
            index = _parts.index(slot[0])
            slot[0] = _parts[index] = f"{what} {count[0]}/{total}"
            _show(force=count[0] == 1)  # (a part's first step shows at once, as a `doing` part does)

    try:
        yield step
    finally:
        with _lock:
            _parts.remove(slot[0])
            if _parts:
                _show(force=True)
            else:
                _wipe()
