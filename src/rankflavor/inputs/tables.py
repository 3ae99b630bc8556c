"""In-memory forms of the two inputs, as read from any source, before interning.

Ids are strings, always: nothing is ever parsed as a number. Rows keep their input order (the `input`
tie policy reads it); `line` holds the 1-based source line of each row when the source is a text file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from rankflavor.inputs.stdin import STDIN_NAME


@dataclass
class Source:
    """Where an input came from, for provenance and error messages."""

    name: str
    path: str | None = None
    sha256: str | None = None
    kind: str = "python"
    comment_lines: int = 0
    blank_lines: int = 0
    extra_column_lines: int = 0  # run lines with columns after the sixth (skipped, as trec_eval does)
    encoding: str | None = None  # a text file decoded from another encoding than UTF-8 (a UTF-16 file with a BOM)
    duplicates: dict[str, int] = field(default_factory=dict)  # rows removed by the on_duplicate policy, by kind
    repeats: int = 0  # run rows listing a doc again for its query, kept (the `count` policy: repeats=count)
    columns_set_aside: dict[str, str] = field(default_factory=dict)  # a PyTerrier pair's other column (columns.py)
    pending: Any = field(default=None, repr=False, compare=False)  # a deferred scan of the bytes (io.trec.settle)
    notes: list[str] = field(default_factory=list)  # what the reader decided that the output must say (a warning each)
    unjudged_form: str | None = None  # how the format lists a query with no judgment ("a request with no ratings")


@dataclass
class QrelsTable:
    source: Source
    query: pa.Array  # string
    doc: pa.Array  # string
    grade: np.ndarray  # float64
    line: np.ndarray | None = None  # int64, 1-based source lines
    queries: pa.Array | None = None  # every query present, including ones with no judgment (Python inputs)
    extra: dict[str, object] = field(default_factory=dict)  # what a paired run reads (RankLib: each row's position)

    @property
    def rows(self) -> int:
        return len(self.grade)


@dataclass
class RunTable:
    source: Source
    query: pa.Array
    doc: pa.Array
    score: np.ndarray  # float64
    line: np.ndarray | None = None
    queries: pa.Array | None = None  # every query present, including ones with an empty list
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return len(self.score)

    @property
    def name(self) -> str:
        return self.source.name


def file_source(path: Path, kind: str) -> Source:
    """The Source of a file read by path (`<stdin>`: the standard input, which has no path)."""
    stdin = str(path) == STDIN_NAME
    return Source(name=STDIN_NAME if stdin else path.name, path=None if stdin else str(path), kind=kind)
