"""Load a qrels or a run from whatever the caller holds: a path (any format of inputs/formats.py's table; `-` the
standard input), a dict, a DataFrame (pandas, polars, pyarrow), ir_datasets' namedtuples, a table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rankflavor.errors import InputError
from rankflavor.inputs.formats import HEAD, Format, sniff, tried
from rankflavor.inputs.frames import qrels_from_python, run_from_python
from rankflavor.inputs.prefetch import Prefetched
from rankflavor.inputs.stdin import STDIN_NAME, is_stdin
from rankflavor.inputs.tables import QrelsTable, RunTable


def opened(data: str | Path) -> tuple[Path, bytes | None]:
    """(the path to read, `<stdin>` for `-`; its bytes when they must be read now: the standard input, a pipe or a
    device, read once and bounded (inputs/bounded.py); None for a regular file, whose reader reads it)."""
    path = Path(STDIN_NAME) if is_stdin(data) else Path(data)
    try:
        regular = str(path) != STDIN_NAME and path.is_file()
    except (OSError, ValueError):
        regular = False
    if regular:
        return path, None
    from rankflavor.inputs.trec_lines import read_raw

    return path, read_raw(path)  # (a missing path, a folder, a permission denied: the error, here)


def _head(path: Path, raw: bytes | None) -> bytes:
    """The first bytes of a file, which tell its format."""
    if raw is not None:
        return raw[:HEAD]
    try:
        with path.open("rb") as handle:
            return handle.read(HEAD)
    except OSError:
        return b""  # (its reader says why it cannot be read)


def file_format(path: Path, raw: bytes | None, role: str) -> Format:
    """The format of a file (inputs/formats.py's precedence) from its first bytes and its name."""
    return sniff(path, _head(path, raw), role)


def _read(data: str | Path, role: str, *args: Any) -> Any:
    """A file read by its format's reader; an error at the first line of a file read as TREC by default says what
    else was tried (formats.tried)."""
    path, raw = opened(data)
    head = _head(path, raw)
    entry = sniff(path, head, role)
    try:
        return entry.reader(role)(path, raw, *args)
    except InputError as error:
        amended = tried(entry, error, head)
        if amended is error:
            raise
        raise amended from None


def load_qrels(data: Any, name: str | None = None, defer_scan: bool = False) -> QrelsTable:
    """A qrels from a path (its format told by inputs/formats.py), a dict {qid: {docid: grade}}, a DataFrame,
    namedtuples, or an already read QrelsTable."""
    if isinstance(data, QrelsTable):
        return data
    if isinstance(data, (str, Path)):
        return _read(data, "qrels", defer_scan)
    return qrels_from_python(data, name or "qrels")


def load_run(data: Any, name: str | None = None, defer_scan: bool = False, qrels: QrelsTable | None = None,
             ) -> RunTable:
    """A run from a path (its format told by inputs/formats.py), a dict {qid: {docid: score}}, a DataFrame,
    namedtuples, or an already read RunTable. `qrels`: the qrels read already, which a run naming its documents by
    position pairs with (a RankLib score file, an _msearch response); without it such a run is an error."""
    if isinstance(data, RunTable):
        return data
    if isinstance(data, (str, Path)):
        return _read(data, "run", defer_scan, qrels)
    if isinstance(data, Prefetched):
        return data.table(defer_scan)
    return run_from_python(data, name or "run")
