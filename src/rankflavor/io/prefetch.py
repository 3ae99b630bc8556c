"""Read run files on a thread while the caller does its own start-up work (importing the engine, the qrels).

`rankflavor eval` hands `Prefetched` runs to `evaluate`, which reads TREC files speculatively anyway
(io.trec.settle): the parse of the runs, Arrow's threads with the GIL released, overlaps the single-threaded
start-up. The tables are taken in the caller's order, and an error the thread met is raised when its run
is taken, after the qrels' own errors. A run that must be read again strictly is read from its path.
"""

from __future__ import annotations

import threading
from pathlib import Path

from rankflavor.io.tables import RunTable
from rankflavor.io.trec import read_trec_run
from rankflavor.io.trec_lines import is_regular_file


class Prefetched:
    """A run file being read on the prefetch thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._done = threading.Event()
        self._table: RunTable | None = None
        self._error: BaseException | None = None
        self._taken = False

    def _read(self) -> None:
        try:
            self._table = read_trec_run(self.path, defer_scan=True)
        except BaseException as exc:  # raised again in the caller's thread, in the caller's order
            self._error = exc
        finally:
            self._done.set()

    def table(self, defer_scan: bool) -> RunTable:
        """The prefetched table (read speculatively); a strict reading (defer_scan False) reads the path."""
        if not defer_scan or self._taken:
            return read_trec_run(self.path)
        self._done.wait()
        self._taken = True
        if self._error is not None:
            raise self._error
        assert self._table is not None
        return self._table

    def __str__(self) -> str:
        return str(self.path)


def prefetch_runs(paths: list[str]) -> list[Prefetched | str]:
    """Start reading the regular files among `paths` in order on one thread (a pipe is left to be read once)."""
    items: list[Prefetched | str] = [Prefetched(p) if is_regular_file(Path(p)) else p for p in paths]
    wanted = [item for item in items if isinstance(item, Prefetched)]
    if wanted:
        threading.Thread(target=lambda: [item._read() for item in wanted], daemon=True).start()
    return items
