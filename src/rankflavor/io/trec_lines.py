"""The line-by-line TREC reader: slow, exact about every error (file, line, offending text, fix).

It accepts untidy but valid files (tabs or several spaces between columns, CRLF endings, a UTF-8 BOM,
trailing spaces, blank lines, comment lines whose first non-blank character is `#`) and counts what it skipped.
"""

from __future__ import annotations

import gzip
import math
import zlib
from pathlib import Path

import numpy as np

from rankflavor.errors import InputError

_HEADER_WORDS = {"qid", "query", "query_id", "topic", "docid", "doc", "doc_id", "docno", "score", "rank",
                 "relevance", "rel", "grade", "label", "iter", "iteration", "q0", "tag", "run"}


def _open_bytes(path: Path) -> bytes:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", source=str(path), fix="check the path") from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=str(path), fix="give the path of a file") from None
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror})", source=str(path),
                         fix="check the path and its permissions") from None
    if path.suffix == ".gz" or raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
            raise InputError(f"broken gzip data ({exc})", source=str(path),
                             fix="the .gz file is truncated or corrupt; compress it again") from None
    return raw


def _decode(raw: bytes, path: Path) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw[:65536]:
        raise InputError("this is not a text file (it contains NUL bytes)", source=str(path),
                         fix="give a TREC text file, plain or .gz")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError("not valid UTF-8 text", source=str(path), line=line,
                         text=raw[max(0, exc.start - 20): exc.end + 20].decode("utf-8", "replace"),
                         fix="save the file as UTF-8") from None


def _number(text: str, what: str, path: Path, line_no: int, line: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{what} {text!r} is not a number", source=str(path), line=line_no, text=line,
                         fix=f"the {what} column must hold a number") from None
    if not math.isfinite(value):
        raise InputError(f"{what} {text!r} is not a finite number", source=str(path), line=line_no, text=line,
                         fix=f"replace NaN/infinite {what}s with finite numbers, or drop those rows")
    return value


def _looks_like_header(fields: list[str]) -> bool:
    return any(f.lower().lstrip("#") in _HEADER_WORDS for f in fields)


def read_lines(path: Path, columns: tuple[str, ...], value_col: int, what: str):
    """Line-by-line reader: (query, doc, value, line numbers, comment count, blank count)."""
    text = _decode(_open_bytes(path), path)
    queries: list[str] = []
    docs: list[str] = []
    values: list[float] = []
    lines: list[int] = []
    comments = blanks = 0
    for line_no, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if not stripped:
            blanks += 1
            continue
        if stripped.startswith("#"):
            comments += 1
            continue
        fields = stripped.split()
        if len(fields) != len(columns):
            if _looks_like_header(fields):
                raise InputError("this line looks like a header", source=str(path), line=line_no,
                                 text=line.rstrip("\r"),
                                 fix="TREC files have no header line: delete it (or start it with #)")
            raise InputError(
                f"expected {len(columns)} columns ({' '.join(columns)}), found {len(fields)}",
                source=str(path), line=line_no, text=line.rstrip("\r"),
                fix=f"every line must be '{' '.join(columns)}', separated by spaces or tabs",
            )
        try:
            value = float(fields[value_col])
        except ValueError:
            value = None
        if value is None and _looks_like_header(fields):
            raise InputError("this line looks like a header", source=str(path), line=line_no, text=line.rstrip("\r"),
                             fix="TREC files have no header line: delete it (or start it with #)")
        value = _number(fields[value_col], what, path, line_no, line.rstrip("\r"))
        queries.append(fields[0])
        docs.append(fields[2])
        values.append(value)
        lines.append(line_no)
    return queries, docs, values, np.asarray(lines, dtype=np.int64), comments, blanks
