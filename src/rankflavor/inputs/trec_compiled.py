"""The compiled TREC reader (`_trec_reader.c`, built by `pip install -e .`): a plain text file parsed and its ids
interned in C, into the Arrow arrays the other readers give (dictionary-encoded ids, float64 values).

It reads a file only when it reads it as the line reader (inputs/trec_lines.py) would: ASCII text, columns
separated by spaces and tabs, blank and `#` lines skipped, exactly the format's columns, a plain finite number in
the value column. Anything else (an error to report with its line, UTF-8 ids, a BOM, gzip, extra run columns, a
file of no rows) gives None, and the caller reads the file with the Python readers, which say what is wrong. When
the extension is absent (a checkout run from its sources), `available()` is False and the Python readers read
every file (`RANKFLAVOR_PURE_PYTHON=1` asks for that too). The parse runs without the GIL, a large file on
several threads (one per core); the file's SHA-256 is computed on a thread started once the parse is done, so
that it takes no core from the parse and runs while the caller evaluates (docs/performance.md, issue 40 row 5),
unless the command shows no digest (`without_hashes`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rankflavor.environment import pure_python

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

try:
    from rankflavor.inputs import _trec_reader
except ImportError:  # (not built: the Python readers read every file)
    _trec_reader = None

HASH_STEP = 1 << 20
_hashes = {"on": True}  # off: `without_hashes`


def without_hashes() -> None:
    """Files read by this reader from now on are not hashed (their Source.sha256 stays None): for a command whose
    output shows no digest (`eval` printing a table, CSV or trec_eval's lines), where hashing a 207 MB run costs
    0.19 s of a core beside the evaluation. `hashes_on` tells a worker process the same."""
    _hashes["on"] = False


def with_hashes() -> None:
    """Files read from now on are hashed again (the default; the CLI's end of a command, cli/main.py)."""
    _hashes["on"] = True


def hashes_on() -> bool:
    """Whether files read by this reader are hashed (the default)."""
    return _hashes["on"]


def available() -> bool:
    """Whether the compiled reader is built and not turned off (RANKFLAVOR_PURE_PYTHON=1)."""
    return _trec_reader is not None and not pure_python()


@dataclass
class CompiledRead:
    query: pa.DictionaryArray  # int32 codes into the ids in order of first appearance
    doc: pa.DictionaryArray
    values: np.ndarray  # float64
    comments: int
    blanks: int
    sha256: str | None  # None while `pending` hashes
    pending: HashPending | None = None


class HashPending(threading.Thread):
    """The file's SHA-256 on a thread (hashlib releases the GIL on large blocks); `wait` as trec_fast.Pending's."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.hexdigest: str | None = None
        self.start()

    def run(self) -> None:
        import hashlib

        hasher = hashlib.sha256()
        block = bytearray(HASH_STEP)  # (read into one buffer: no allocation per block in malloc's one arena)
        view = memoryview(block)
        try:
            with self.path.open("rb", buffering=0) as handle:
                while got := handle.readinto(block):
                    hasher.update(view[:got])
        except OSError:
            return
        self.hexdigest = hasher.hexdigest()

    def wait(self) -> tuple[str | None, bool]:
        """(SHA-256, or None when the file could not be read again; True: the table needs no second read)."""
        self.join()
        return self.hexdigest, self.hexdigest is not None


def read_compiled(path: Path, columns: tuple[str, ...], value_col: int, defer_scan: bool = False) -> CompiledRead | None:
    """The compiled reader's table of a regular, uncompressed text file; None when it does not read it."""
    if not available() or path.suffix == ".gz":
        return None
    parsed = _trec_reader.parse(str(path), len(columns), value_col)
    if parsed is None:
        return None
    hashing = HashPending(path) if _hashes["on"] else None
    import numpy as np  # (here: inputs/prefetch.py imports this module, and starts a parse, before numpy and pyarrow)

    rows, query, doc, values, comments, blanks = parsed
    read = CompiledRead(_dictionary_array(rows, *query), _dictionary_array(rows, *doc),
                        np.frombuffer(values, dtype=np.float64, count=rows), comments, blanks, None, hashing)
    if not defer_scan and hashing is not None:
        read.sha256, _ = hashing.wait()
        read.pending = None
    return read


def _dictionary_array(rows: int, codes: object, offsets: object, data: object, distinct: int) -> pa.DictionaryArray:
    """An Arrow dictionary array over the reader's buffers (no copy: each buffer keeps its owner alive)."""
    import pyarrow as pa
    indices = pa.Array.from_buffers(pa.int32(), rows, [None, pa.py_buffer(codes)])
    dictionary = pa.Array.from_buffers(pa.string(), distinct, [None, pa.py_buffer(offsets), pa.py_buffer(data)])
    return pa.DictionaryArray.from_arrays(indices, dictionary)
