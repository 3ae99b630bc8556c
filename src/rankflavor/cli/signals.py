"""SIGTERM and SIGHUP end a command the way Ctrl-C does: the command's `finally` blocks run (a temporary file is
removed, worker processes are killed, a Spark session is stopped), one line on stderr, exit 128 + the signal
(143, 129), as a shell reports it. Installed by `main` for the command's duration, and put back after (a caller
of `main` in-process keeps its own handlers). A second signal while the command winds down ends it at once.

Ctrl-C before `main` runs (the imports of the first milliseconds): rankflavor/_early.py.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

NAMES = {signal.SIGTERM: "terminated (SIGTERM)", signal.SIGHUP: "hung up (SIGHUP)"}


class Terminated(BaseException):
    """SIGTERM or SIGHUP received: raised in the main thread, so that every `finally` runs (never caught by an
    `except Exception`)."""

    def __init__(self, signum: int) -> None:
        super().__init__(NAMES.get(signum, f"signal {signum}"))
        self.signum = signum


def _raise(signum: int, _frame: object) -> None:
    from rankflavor.outputs import remove_temporaries

    for number in NAMES:  # (a second signal while the command winds down: the default action, at once)
        signal.signal(number, signal.SIG_DFL)
    remove_temporaries()  # (first, in case a `finally` cannot run before the next signal)
    raise Terminated(signum)


@contextmanager
def handled() -> Iterator[None]:
    """SIGTERM and SIGHUP raise Terminated inside the block (main thread only: elsewhere they stay as they are)."""
    before = {}
    try:
        for number in NAMES:
            before[number] = signal.signal(number, _raise)
    except ValueError:  # (not the main thread: the signals are not ours to set)
        pass
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def terminated(exc: Terminated) -> int:
    """After SIGTERM or SIGHUP (the `finally` blocks have run): one line on stderr, exit 128 + the signal."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    try:
        sys.stderr.write(f"rankflavor: {exc}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return 128 + exc.signum


_said = {"interrupted": False}


def _once_more(_signum: int, _frame: object) -> None:
    """A second SIGINT while the command winds down: the line (if not yet written) and exit 130 at once."""
    try:
        if not _said["interrupted"]:
            sys.stderr.write("rankflavor: interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(130)


def interrupted() -> int:
    """After Ctrl-C (the `finally` blocks have run): one line on stderr, exit 130 (128 + SIGINT). pyarrow sends
    SIGINT again when it cancels a read on Ctrl-C: that one, or a second Ctrl-C, exits 130 at once."""
    try:
        signal.signal(signal.SIGINT, _once_more)
    except ValueError:  # (not the main thread: the signal is not ours to set)
        pass
    try:
        sys.stdout.flush()
    except (OSError, ValueError):  # (a closed pipe: what was printed is all there is)
        pass
    sys.stderr.write("rankflavor: interrupted\n")
    _said["interrupted"] = True
    return 130
