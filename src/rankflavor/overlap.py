"""Work overlapped with the caller's on another thread, or done at once on the caller's thread when this process's
cores are busy already: a track's worker processes (cli/trec_pool.py) keep every core evaluating, and there a
thread's start waits for a time slice (1 to 2 ms a run, for nothing gained)."""

from __future__ import annotations

import threading

_inline = False  # set in a track's worker processes: every Overlapped runs at once, on its caller's thread


def run_inline(inline: bool = True) -> None:
    """Make every Overlapped of this process run on its caller's thread (True) or on its own (False)."""
    global _inline
    _inline = inline


class Overlapped(threading.Thread):
    """A thread's work (`run`) started by `begin`: on its own thread, or at once when `run_inline` was asked;
    `finish` waits for it either way."""

    def __init__(self) -> None:
        super().__init__(daemon=True)

    def begin(self) -> None:
        if _inline:
            self.run()
        else:
            self.start()

    def finish(self) -> None:
        if self.ident is not None:  # (started: a thread to wait for; run at once: done already)
            self.join()
