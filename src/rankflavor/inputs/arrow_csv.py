"""Arrow's CSV reader on a TREC file, and nothing else: importing this module costs only pyarrow's import.

`parse_columns` is the one call to the parser (multi-threaded, ids dictionary-encoded, values float64, Arrow's
jemalloc pool) for trec_fast.py, and for io/prefetch.py, which starts parsing run files before the rest of
the package is imported. A progress bar (the parser's position in the file) appears on stderr when the
read lasts more than a second and stderr is a terminal (a thread that only polls: Arrow never calls back
into Python).
"""

from __future__ import annotations

import functools
import sys
import threading
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pacsv

from rankflavor.inputs.columns import QRELS_COLUMNS as QRELS_COLUMNS  # (their names, read here too)
from rankflavor.inputs.columns import RUN_COLUMNS as RUN_COLUMNS

BLOCK_SIZE = 8 << 20  # bytes per parser block: two cores stay busy, and memory stays a few blocks
DECAY_MS = 100  # jemalloc's dirty and muzzy page decay (see _release_soon)
PROGRESS_AFTER = 1.0  # seconds of reading before a progress bar appears (terminal only)
_DICT = pa.dictionary(pa.int32(), pa.string())


def speculative_columns(columns: tuple[str, ...], value_col: int) -> list[str]:
    """The columns a plain file needs converted: the query and doc ids and the value."""
    return [columns[0], columns[2], columns[value_col]]


def parse_columns(path: Path, columns: tuple[str, ...], value_col: int, wanted: list[str], gz: bool) -> pa.Table | None:
    """The `wanted` columns of a single-space separated file, or None when Arrow refuses it."""
    types: dict[str, Any] = {name: _DICT for name in wanted}
    types[columns[value_col]] = pa.float64()
    try:
        raw = pa.OSFile(str(path))
    except (pa.ArrowException, OSError):
        return None
    progress = _Progress(path, raw) if _terminal() else None
    try:
        source: Any = pa.PythonFile(_Capped(pa.CompressedInputStream(raw, "gzip")), mode="r") if gz else raw
        return pacsv.read_csv(
            source,
            read_options=pacsv.ReadOptions(column_names=list(columns), block_size=BLOCK_SIZE),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False,
                                             newlines_in_values=False, ignore_empty_lines=False),
            convert_options=pacsv.ConvertOptions(column_types=types, include_columns=wanted,
                                                 strings_can_be_null=False, quoted_strings_can_be_null=False,
                                                 null_values=[]),
            memory_pool=arrow_pool(),
        )
    except (pa.ArrowException, OSError, EOFError, ValueError):
        return None
    finally:
        if progress is not None:
            progress.stop()
        raw.close()


class _Capped:
    """A decompressed stream that fails (OSError: the parse is given up, and the line reader says why) past the input
    cap (rankflavor/limits.py): never a table of the first bytes only."""

    def __init__(self, stream: Any) -> None:
        from rankflavor.limits import input_cap

        self.stream, self.left, self.closed = stream, input_cap(), False

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(self.left + 1 if size is None or size < 0 else min(size, self.left + 1))
        self.left -= len(data)
        if self.left < 0:
            raise OSError("the input cap: the decompressed file is larger")
        return data

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self.closed = True
        self.stream.close()


class _Progress(threading.Thread):
    """A progress bar on stderr, from the position of the file the parser reads; shown after a second."""

    def __init__(self, path: Path, raw: pa.NativeFile) -> None:
        super().__init__(daemon=True)
        self.path, self.raw = path, raw
        self.size = max(path.stat().st_size, 1)
        self.done = threading.Event()
        self.start()

    def run(self) -> None:
        if self.done.wait(PROGRESS_AFTER):
            return
        from rich.markup import escape as markup
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

        from rankflavor.escape import cell

        name = markup(cell(self.path.name))
        with Progress(TextColumn(f"reading {name}"), BarColumn(), DownloadColumn(), TimeRemainingColumn(),
                      console=_progress_console(), transient=True) as bar:
            task = bar.add_task("read", total=self.size)
            while not self.done.wait(0.1):
                try:
                    bar.update(task, completed=min(self.raw.tell(), self.size))
                except (OSError, ValueError, pa.ArrowException):
                    return

    def stop(self) -> None:
        self.done.set()
        self.join()


def _progress_console():
    import sys

    from rich.console import Console

    from rankflavor.escape import raw

    return Console(file=raw(sys.stderr))  # (rich's own sequences beneath the CLI's Visible stream)


def arrow_pool() -> pa.MemoryPool:
    """Arrow's jemalloc pool when this pyarrow has it: on a fresh process it reads a large run in less time
    and peak memory than the default (mimalloc) pool, which pays for zeroing its fresh pages."""
    try:
        pool = pa.jemalloc_memory_pool()
    except (NotImplementedError, pa.ArrowException):
        return pa.default_memory_pool()
    _release_soon()
    return pool


@functools.cache
def _release_soon() -> None:
    """jemalloc hands freed pages back after DECAY_MS (Arrow's default keeps them about a second): the parser's
    blocks, freed when the columns are combined, are then gone while the engine allocates its own. Measured on
    the 7M-row run (trec_eval@10, 4 runs each): peak RSS 472-495 MB kept, 424-455 MB at 100 ms, 378-380 MB at 0
    (but 0.14 s slower: the parser's next blocks fault their pages in again); the time at 100 ms the kept one's.
    RANKFLAVOR_JEMALLOC_DECAY=MS overrides it (0 to 3,600,000: rankflavor/environment.py); the CLI
    sets 0 for a small job (cli/threads.py small_job_allocator)."""
    from rankflavor.environment import whole

    pa.jemalloc_set_decay_ms(whole("RANKFLAVOR_JEMALLOC_DECAY", DECAY_MS))


def _terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
