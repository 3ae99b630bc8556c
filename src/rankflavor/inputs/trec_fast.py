"""The fast TREC reader for tidy files: pyarrow's multi-threaded CSV parser, single-space separated.

It returns None whenever the file is not tidy (tabs, several spaces, comments, a BOM, a non-finite value,
a wrong column count...): the caller then falls back to the line reader, which accepts or rejects with
the line number. Both readers must give identical tables for any file both accept.

Ids are read dictionary-encoded (Arrow interns every distinct id once per block: io/arrow_csv.py), so the
checks on id text run on the distinct ids only, and interning (data.py) never hashes a string again. One
thread beside the parser (or after it, when deferred) reads the file's bytes once for their SHA-256 and the
plainness scan below.

Which columns are converted: when every byte of the file is printable ASCII, a single space between two
fields or a newline ending a line, no field anywhere holds a tab, a control character, a BOM or nothing;
then only the id and value columns are converted. Otherwise every column is converted and checked (its
distinct values), as the line reader would split it.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from rankflavor.inputs.arrow_csv import arrow_pool, parse_columns, speculative_columns
from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.kernels import any_matches, shortest_length

SCAN_STEP = 1 << 20  # bytes per block of the hash-and-scan pass (in the CPU cache across its numpy passes)
_BAD_TEXT = r"[\x00-\x1f\x7f\x{FEFF}\x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]"


@dataclass
class FastRead:
    table: pa.Table  # the id columns dictionary-encoded, the value column float64
    sha256: str | None  # None while `pending` runs
    pending: Pending | None = None  # deferred: the hash and the plainness scan, still running


class Pending:
    """The hash-and-scan of a file read speculatively (columns parsed before its bytes were scanned)."""

    def __init__(self, scan: _Scan) -> None:
        self._scan = scan

    def wait(self) -> tuple[str | None, bool]:
        """(SHA-256 or None when the file could not be read again, whether the file is plain). A file that
        is not plain must be read again without deferring: the speculative table may not be the right one."""
        self._scan.join()
        return self._scan.hexdigest, self._scan.plain


def read_fast(path: Path, columns: tuple[str, ...], value_col: int, defer_scan: bool = False,
              parsed: pa.Table | None = None) -> FastRead | None:
    """pyarrow's CSV reader on a tidy file (single spaces, no comments); None when it does not apply.

    The byte scan runs beside the parser, which reads the id and value columns only; when the scan finds
    the file is not plain, the file is parsed again with every column (rare: such files are small).
    defer_scan: parse first, then start the scan and return at once with `pending` (the caller overlaps the
    scan with its own single-threaded work and must `wait` before trusting the table: see pipeline.py).
    parsed: with defer_scan, the `speculative_columns` already parsed by `parse_columns` (io/prefetch.py)."""
    path = Path(path)
    gz = path.suffix == ".gz"
    if not gz and not sniff_text(path):
        return None  # (NUL bytes in the first block: the line reader stops there with the error)
    ids = (columns[0], columns[2])
    deferred = defer_scan and not gz
    scan = None if deferred else _Scan(path, check=not gz)  # a .gz file is hashed, and its columns all converted
    wanted = speculative_columns(columns, value_col) if not gz else list(columns)
    if deferred and parsed is not None:
        table = parsed
    else:
        table = parse_columns(path, columns, value_col, wanted, gz)
    if scan is not None:
        scan.join()
        if not gz and not scan.plain:
            wanted = list(columns)
            table = parse_columns(path, columns, value_col, wanted, gz)
    digest = scan.hexdigest if scan is not None else None
    arrow_pool().release_unused()  # the parser's blocks: give them back before the engine runs
    if table is None or (digest is None and not deferred):
        return None
    values = table.column(columns[value_col])
    if values.null_count or not all(np.isfinite(array_to_numpy(chunk)).all() for chunk in values.chunks):
        return None  # (chunk by chunk: no copy)
    table = table.unify_dictionaries(arrow_pool())
    # a control character, DEL, or a byte beyond ASCII (a Unicode space, a BOM) makes the byte scan call the
    # file not plain: once it has (or will, deferred: then a file that is not plain is read again strictly),
    # the ids need no look for them
    scanned = deferred or (scan is not None and scan.plain)
    for name in wanted:
        if name == columns[value_col]:
            continue
        distinct = _distinct(table.column(name))
        if len(distinct) and (shortest_length(distinct) == 0 or (not scanned and any_matches(distinct, _BAD_TEXT))
                              or (name in ids and any_matches(distinct, "#", regex=False))):
            return None
    if deferred:
        return FastRead(table, None, Pending(_Scan(path, check=True)))
    return FastRead(table, digest)


SNIFF = 1 << 16  # bytes of a file's start looked at before the parser is started on it


def sniff_text(path: Path) -> bool:
    """False when the first SNIFF bytes hold a NUL (not a text file) or an empty line (which the parser refuses, after
    parsing blocks of them: hundreds of MB for a file of newlines): no parse is started, the line reader reads it."""
    try:
        with Path(path).open("rb") as handle:
            head = handle.read(SNIFF)
    except OSError:
        return True  # (the parser or the line reader says why)
    return b"\x00" not in head and b"\n\n" not in head and b"\r" not in head and not head.startswith(b"\n")


class _Scan(threading.Thread):
    """One pass over the file's bytes beside the parser: its SHA-256 and `plain` (see `_printable_ascii`).

    hashlib and numpy release the GIL on large buffers, so this thread takes a core, not the parser's lock."""

    def __init__(self, path: Path, check: bool) -> None:
        super().__init__(daemon=True)
        self.path, self.check = path, check
        self.plain = False
        self.hexdigest: str | None = None
        self.start()

    def run(self) -> None:
        try:
            self.hexdigest, self.plain = _hash_and_scan(self.path, self.check)
        except (OSError, ValueError):
            self.hexdigest, self.plain = None, False


def _distinct(column: pa.ChunkedArray) -> pa.Array:
    """The distinct strings of a dictionary-encoded column (its unified dictionary)."""
    if column.num_chunks == 0:
        return pa.array([], pa.string())
    return column.chunk(0).dictionary


def _hash_and_scan(path: Path, check: bool) -> tuple[str, bool]:
    """(SHA-256 of the bytes, whether every byte is printable ASCII or a separator) in one read.

    Plain means: a single space between fields, a newline ending a line; so no tab, CR, control character,
    BOM or UTF-8 anywhere, and no empty field (two separators in a row, a space at the start or the end of
    a line): the line reader splits such lines otherwise, even in the columns the fast read does not
    convert. Four numpy passes over each block, read into one reused buffer (nothing added to the
    resident memory); `check` False only hashes.
    """
    hasher = hashlib.sha256()
    space, newline, top = np.uint8(32), np.uint8(10), np.uint8(127)
    buffer = bytearray(SCAN_STEP + 1)
    view = np.frombuffer(buffer, dtype=np.uint8)
    sep = np.empty(SCAN_STEP + 1, dtype=bool)
    pair = np.empty(SCAN_STEP, dtype=bool)
    previous = newline  # a space first in the file is an empty first field
    plain = check
    with path.open("rb") as handle:
        while True:
            got = handle.readinto(memoryview(buffer)[1:])
            if not got:
                return hasher.hexdigest(), plain and previous != space  # a space last: an empty last field
            hasher.update(memoryview(buffer)[1:got + 1])
            if not plain:
                continue
            view[0] = previous
            block = view[:got + 1]
            is_sep = np.less_equal(block, space, out=sep[:got + 1])
            if np.logical_and(is_sep[1:], is_sep[:-1], out=pair[:got]).any():
                plain = False  # two separators in a row: an empty field or an empty line
            body = block[1:]
            control = np.count_nonzero(is_sep[1:]) != np.count_nonzero(body == space) + np.count_nonzero(
                body == newline)
            if control or body.max() >= top:
                plain = False  # a control character (tab, CR, NUL...), DEL, or UTF-8 (ids beyond ASCII, a BOM)
            previous = block[-1]
