"""Parse run files by the compiled reader (inputs/trec_compiled.py, on threads without the GIL), or else on Arrow's
threads, while the caller does its own start-up (importing numpy, pyarrow and the engine, reading the qrels).

Importing this module imports neither numpy nor pyarrow (the compiled reader needs neither until a file is
parsed; Arrow's CSV reader, io/arrow_csv.py, is imported on the parse thread when it is the one), so
`rankflavor eval` starts parsing the runs before those imports. The parse is speculative, as `evaluate` reads
TREC files anyway (io.trec.settle): the id and value columns, assuming a plain file. When the caller takes a run,
the rest of the fast reader runs on the parsed columns (checks, the deferred hash-and-scan). An error of
the parser is not raised here: the taken run is then read as usual, and the reader decides. A run that
must be read again strictly is read from its path. At most WINDOW parsed runs wait to be taken: a track of
a hundred runs evaluated one after the other holds a few runs' columns at a time, not all of them.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from rankflavor.inputs import trec_compiled
from rankflavor.inputs.columns import RUN_COLUMNS

if TYPE_CHECKING:
    import pyarrow as pa

    from rankflavor.inputs.tables import RunTable

WINDOW = 3  # parsed runs waiting at most (the parse of the next runs overlaps the evaluation of this one)


class Prefetched:
    """A run file being parsed on the prefetch thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._done = threading.Event()
        self._parsed: pa.Table | None = None
        self._compiled: trec_compiled.CompiledRead | None = None
        self._taken = False
        self.consumed = threading.Event()  # (taken, or read from its path: the parser may go WINDOW runs further)

    def _parse(self) -> None:
        try:
            if trec_compiled.available():  # (the compiled reader, without the GIL; None: the file is read as usual)
                compiled = trec_compiled.read_compiled(self.path, RUN_COLUMNS, 4, defer_scan=True)
                self._compiled = None if self.consumed.is_set() else compiled
                return
            from rankflavor.inputs.arrow_csv import parse_columns, speculative_columns

            parsed = parse_columns(self.path, RUN_COLUMNS, 4, speculative_columns(RUN_COLUMNS, 4), gz=False)
            self._parsed = None if self.consumed.is_set() else parsed
        except Exception:  # (a parse that fails here leaves the file to the reader, which says why)
            self._parsed = self._compiled = None
        finally:
            self._done.set()

    def table(self, defer_scan: bool) -> RunTable:
        """The run, from the prefetched columns when read speculatively (once); else read from the path."""
        from rankflavor.inputs.trec import read_trec_run

        if not defer_scan or self._taken:
            self.consumed.set()
            self._parsed = self._compiled = None
            return read_trec_run(self.path)
        self._done.wait()
        self._taken = True
        parsed, self._parsed = self._parsed, None
        compiled, self._compiled = self._compiled, None
        self.consumed.set()
        if compiled is not None:
            return read_trec_run(self.path, defer_scan=True, compiled=compiled)
        return read_trec_run(self.path, defer_scan=True, parsed=parsed)

    def __str__(self) -> str:
        return str(self.path)


def _plain_regular_file(path: str) -> bool:
    """A regular file to parse as TREC text: not `-` (the standard input), not .gz, in TREC's format (inputs/formats.py:
    not Parquet, Arrow, CSV, JSON, RankLib, ...), no NUL byte in its first 64 KiB."""
    from rankflavor.errors import InputError
    from rankflavor.inputs.formats import DEFAULT, HEAD, sniff

    try:
        if path == "-" or not stat.S_ISREG(os.stat(path).st_mode) or path.endswith(".gz"):
            return False
        with open(path, "rb") as handle:
            head = handle.read(HEAD)
        trec = sniff(Path(path), head, "run") is DEFAULT
    except (OSError, InputError):
        return False  # (the reader says why)
    from rankflavor.limits import input_cap

    if os.stat(path).st_size > input_cap():  # (past the input cap: the reader refuses it, unparsed)
        return False
    empty_line = b"\n\n" in head or b"\r" in head or head.startswith(b"\n")  # (trec_fast.sniff_text: not parsed)
    return trec and not empty_line and b"\x00" not in head  # (NULs: not text, the reader stops at them)


def prefetch_runs(paths: list[str]) -> list[Prefetched | str]:
    """Start parsing the regular, uncompressed files among `paths` in order on one thread (a pipe is read once,
    later; a .gz file is read whole by the usual reader), each once the run WINDOW places before it is consumed."""
    items: list[Prefetched | str] = [Prefetched(p) if _plain_regular_file(p) else p for p in paths]
    wanted = [item for item in items if isinstance(item, Prefetched)]
    if wanted:
        stop = threading.Event()
        thread = threading.Thread(target=_parse_in_order, args=(wanted, stop), daemon=True)
        _running.append((thread, stop, wanted))
        thread.start()
    return items


_running: list[tuple[threading.Thread, threading.Event, list[Prefetched]]] = []


def stop_prefetch() -> None:
    """Stop the prefetch threads and wait for the parse under way (the CLI, on its way out): a daemon thread
    inside Arrow's parser while the interpreter finalises crashed the process (exit 139 instead of a weights
    error's 3, one run in four)."""
    while _running:
        thread, stop, items = _running.pop()
        stop.set()
        for item in items:
            item.consumed.set()
        thread.join()


def _parse_in_order(items: list[Prefetched], stop: threading.Event) -> None:
    for i, item in enumerate(items):
        if i >= WINDOW:
            items[i - WINDOW].consumed.wait()
        if stop.is_set():
            return
        item._parse()
