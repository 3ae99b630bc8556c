"""The line-by-line TREC reader: slow, exact about every error (file, line, offending text, fix).

Grammar (the fast reader in `trec_fast` must agree with it on every file it accepts):

- bytes: gzip-compressed when they start with the gzip magic (a `.gz` name without it is an error); a UTF-8 BOM
  at the very start is dropped; UTF-16 or UTF-32 with a BOM is decoded (inputs/encoding.py); anything else
  must be UTF-8 text without NUL bytes;
- lines end at `\\n`, `\\r\\n` or a lone `\\r`; a line of spaces and tabs only is blank; a line whose first
  non-blank character is `#` is a comment; both are skipped and counted;
- columns are separated by runs of spaces and tabs (and only those: a no-break space is part of an id);
  leading and trailing spaces and tabs are ignored; other control characters and a BOM past the start are errors;
- a qrels line has exactly 4 columns (trec_eval's get_qrels.c); a run line 6 or more: what follows the sixth
  column is skipped, as trec_eval's get_trec_results.c does ("Skip over rest of line"), and counted;
- a `#` inside an id is part of the id (MS MARCO v2.1 ids hold one); only a line that starts with it is a comment;
- the value column is a plain ASCII decimal number (`3`, `-0.5`, `1e-3`, `.5`, `+2.`), finite.
"""

from __future__ import annotations

import math
import re
import shlex
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.bounded import cap_error, gunzip_checked, read_checked, text_blocks
from rankflavor.inputs.encoding import decode_text
from rankflavor.inputs.stdin import STDIN_NAME, stdin_bytes
from rankflavor.limits import input_cap

_HEADER_WORDS = {"qid", "query", "query_id", "queryid", "topic", "topic_id", "docid", "doc", "doc_id", "docno",
                 "document", "score", "sim", "similarity", "rank", "relevance", "rel", "grade", "label", "judgment",
                 "iter", "iteration", "tag", "run", "run_id", "runid"}
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NON_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
_NEWLINE = re.compile(r"\r\n|\r|\n")
_SEPARATOR = re.compile(r"[ \t]+")
_BAD_CHAR = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufeff]")
_UNICODE_SPACE = re.compile(r"[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_OTHER_SPACE = re.compile(r"[\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_GZIP_MAGIC = b"\x1f\x8b"
_WIDE_HEADS = (b"\xfe\xff", b"\xff\xfe", b"\x00\x00\xfe\xff")  # UTF-16 or UTF-32 byte-order marks
_FORMS = {4: "qrels (qid iter docid grade)", 6: "run (qid Q0 docid rank score tag)"}


def read_raw(path: Path) -> bytes:
    """The file's bytes as stored (still compressed), or InputError naming the path and what is wrong;
    `<stdin>`: the standard input's (inputs/stdin.py). Read a block at a time, stopping at the first byte that
    cannot be text (inputs/bounded.py): a device or FIFO such as /dev/zero costs one block."""
    if str(path) == STDIN_NAME:
        return stdin_bytes()
    try:
        with Path(path).open("rb") as handle:
            size = _regular_size(handle.fileno())
            if size is not None and size > input_cap() and _head_is_text(handle):
                raise cap_error(path, size)  # (a regular file's size, told at once; else the NUL error first)
            return read_checked(handle.read, Path(path))
    except FileNotFoundError:
        raise InputError("file not found", source=str(path), fix="check the path") from None
    except IsADirectoryError:
        every = str(Path(path) / "*")
        raise InputError("is a directory, not a file", source=str(path),
                         fix=f"give the path of a file; for every file in it, let the shell list them: {every}") from None
    except PermissionError:
        raise InputError("permission denied: cannot read the file", source=str(path),
                         fix="check the file's permissions") from None
    except InputError:
        raise  # (a byte that cannot be text: inputs/bounded.py)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the file ({getattr(exc, 'strerror', None) or exc})", source=str(path),
                         fix="check the path and its permissions") from None


def _regular_size(fd: int) -> int | None:
    import os
    import stat

    info = os.fstat(fd)
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _head_is_text(handle) -> bool:
    """Whether the first 64 KiB hold no NUL (read, then the file rewound): a file past the cap whose head is not
    text is refused for what it is (NULs, binary) rather than for its size."""
    head = handle.read(1 << 16)
    handle.seek(0)
    return b"\x00" not in head


def decompress(raw: bytes, path: Path) -> bytes:
    """Gunzip when the bytes start with the gzip magic (a block at a time, the text checked as it comes: a gzip
    bomb of NULs stops at its first block); a `.gz` name on plain bytes is an error."""
    if raw[:2] == _GZIP_MAGIC:
        try:
            return gunzip_checked(raw, path)
        except (EOFError, zlib.error, OSError):
            raise InputError("broken gzip data (truncated or corrupt)", source=str(path),
                             fix="the .gz file is truncated or corrupt: compress it again") from None
    if Path(path).suffix == ".gz" and raw:
        raise InputError("named .gz but not gzip-compressed", source=str(path),
                         fix="compress it with gzip, or drop the .gz from its name")
    return raw


def split_lines(text: str) -> list[str]:
    """Lines at \\n, \\r\\n or \\r; a final line terminator does not open an extra (blank) line."""
    if not text:
        return []
    lines = _NEWLINE.split(text) if "\r" in text else text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def parse_number(field: str) -> float | None:
    """The value of a plain ASCII decimal number, inf/nan when it spells one, None when it is not a number.

    On a field without blanks, Python's float() accepts exactly that plus `_` between digits and non-ASCII
    digits, which are refused here (tests/test_fuzz_inputs.py checks the equivalence with the grammar)."""
    try:
        value = float(field)
    except ValueError:
        return None
    return value if field.isascii() and "_" not in field else None


def _looks_like_header(fields: list[str], value_col: int) -> bool:
    """Two column names (Q0 aside), or a column name where the number should be."""
    words = [f.lower().lstrip("#") in _HEADER_WORDS for f in fields]
    value_is_word = value_col < len(fields) and words[value_col]
    return value_is_word or sum(words) >= 2


def _delimited(fields: list[str], columns: tuple[str, ...], line: str, path: Path) -> tuple[str, str] | None:
    """(reason, fix) for a line of a comma- or semicolon-separated file (3 or more fields that way, more than
    the spaces and tabs make); None for any other line."""
    splits = [(sep, kind, re.split(rf"\s*{sep}\s*", line.strip(" \t")))
              for sep, kind in ((",", "comma-separated (CSV)"), (";", "semicolon-separated"))]
    found = [split for split in splits if len(split[2]) >= 3 and len(split[2]) > len(fields)]
    if not found:
        return None
    separator, kind, parts = found[0]
    reason = (f"this file looks {kind}; TREC files are whitespace-separated: QID Q0 DOC RANK SCORE TAG for a run, "
              f"QID ITER DOC GRADE for qrels (expected {len(columns)} columns separated by spaces or tabs, found "
              f"{len(fields)}; the line splits into {len(parts)} at '{separator}')")
    name = shlex.quote(str(path))
    if len(parts) == len(columns):
        return reason, f"delete a header line if there is one, then convert it, e.g. tr '{separator}' ' ' < {name} " \
                       "> fixed.txt"
    return reason, ("write it as TREC columns, or give it a first line naming its columns (query, doc, and grade or "
                    "score: e.g. query,docid,rating), which rankflavor reads as a CSV file (docs/inputs.md)")


def _column_fix(fields: list[str], columns: tuple[str, ...], line: str, path: Path) -> str:
    fix = f"every line must be '{' '.join(columns)}', separated by spaces or tabs"
    space = _UNICODE_SPACE.search(line)
    if space:
        return fix + f"; U+{ord(space.group()):04X} (a Unicode space) is not a column separator"
    if len(fields) in _FORMS and len(fields) != len(columns):
        return fix + f"; this line has the shape of a {_FORMS[len(fields)]} line: are the qrels and run swapped?"
    if len(columns) == 4 and len(fields) == 3:
        return fix + "; a qrels line without its iteration column? add 0 as the second column"
    if len(columns) == 6 and len(fields) == 3 and fields[2].isdigit():
        return fix + ("; an MS MARCO run (qid docid rank)? write it as a TREC run whose score is minus the rank, "
                      f"e.g. awk '{{print $1, \"Q0\", $2, $3, -$3, \"run\"}}' {shlex.quote(str(path))} > run.txt")
    if len(fields) > len(columns):
        return fix + "; if an id holds a space: " + SPACE_FIX
    return fix


_QUOTES = "\"'"
SPACE_FIX = ("ids cannot hold spaces or tabs (every run of them separates two columns, quotes do not group them): "
             "write each id without them and without quotes, e.g. with '_' for the space, the same way in the run "
             "and the qrels")


def space_in_id(fields: list[str], columns: tuple[str, ...]) -> str | None:
    """Why a line of more fields than `columns` looks like an id holding a space, or None: a quote opening a
    query or doc id (column 1 or 3) closed in a later field (`"q 1" Q0 d1 ...`, `q1 0 "d 1" 2`), or, in a run,
    TREC's literal `Q0` found after the second field (`q 1 Q0 d1 1 1.0 tag`: the query id split in two)."""
    for index, role in ((0, "query"), (2, "doc")):
        field = fields[index] if index < len(fields) else ""
        if field[:1] in _QUOTES and field[:1] and not (len(field) > 1 and field.endswith(field[0])):
            close = next((k for k in range(index + 1, len(fields)) if fields[k].endswith(field[0])), None)
            if close is not None:
                shown = " ".join(fields[index:close + 1])
                return f"the {role} id {shown} seems to hold a space: the line splits into {len(fields)} columns"
    q0 = fields.index("Q0") if len(columns) == RUN_WIDTH and "Q0" in fields[2:] and fields[1] != "Q0" else None
    if q0 is not None:
        shown = " ".join(fields[:q0])
        return (f"the query id {shown!r} seems to hold a space: 'Q0' is column {q0 + 1}, not 2, and the line splits "
                f"into {len(fields)} columns")
    return None


def _check_chars(line: str, path: Path, line_no: int) -> None:
    bad = _BAD_CHAR.search(line)
    if bad is None:
        return
    char = bad.group()
    if char == "\ufeff":
        raise InputError("a byte-order mark (U+FEFF) inside the file: were files concatenated?", source=str(path),
                         line=line_no, text=line, fix="remove the byte-order mark (save the parts as UTF-8 without BOM)")
    raise InputError(f"control character U+{ord(char):04X} in the line", source=str(path), line=line_no, text=line,
                     fix="columns are separated by spaces or tabs; remove other control characters")


RUN_WIDTH = 6  # a run line's columns; a run line may hold more (skipped), a qrels line exactly its 4
ROWS_PER_CHUNK = 1 << 16  # rows gathered as Python values before they are made arrays (memory: the arrays)


@dataclass
class LineRead:
    """What the line reader read: per row the query and doc ids, the value and the 1-based line; the lines
    skipped as comments or blank; the run lines whose columns after the sixth were skipped."""

    query: pa.Array
    doc: pa.Array
    value: np.ndarray
    line: np.ndarray
    comments: int
    blanks: int
    extra_columns: int
    encoding: str | None = None  # not UTF-8: the file's encoding (inputs/encoding.py)


class _Rows:
    """The rows read so far: Python lists for the current chunk, arrays for the chunks before (a row costs its ids'
    bytes and 16 more, not the 200 of Python objects)."""

    def __init__(self) -> None:
        self.query: list[str] = []
        self.doc: list[str] = []
        self.value: list[float] = []
        self.line: list[int] = []
        self.done: list[tuple[pa.Array, pa.Array, np.ndarray, np.ndarray]] = []

    def add(self, query: str, doc: str, value: float, line: int) -> None:
        self.query.append(query)
        self.doc.append(doc)
        self.value.append(value)
        self.line.append(line)
        if len(self.line) >= ROWS_PER_CHUNK:
            self.flush()

    def flush(self) -> None:
        if self.line or not self.done:
            self.done.append((pa.array(self.query, pa.string()), pa.array(self.doc, pa.string()),
                              np.asarray(self.value, dtype=np.float64), np.asarray(self.line, dtype=np.int64)))
            self.query, self.doc, self.value, self.line = [], [], [], []

    def arrays(self) -> tuple[pa.Array, pa.Array, np.ndarray, np.ndarray]:
        self.flush()
        if len(self.done) == 1:
            return self.done[0]
        parts = list(zip(*self.done, strict=True))
        self.done = []
        return (pa.chunked_array(parts[0], pa.string()).combine_chunks(), pa.chunked_array(parts[1], pa.string())
                .combine_chunks(), np.concatenate(parts[2]), np.concatenate(parts[3]))


def read_lines(path: Path, columns: tuple[str, ...], value_col: int, what: str, raw: bytes | None = None) -> LineRead:
    """Line-by-line reader of a qrels (4 columns) or a run (6, or more: see the grammar above), a piece of the
    text at a time (inputs/bounded.py text_blocks: no list of every line).

    `raw` is the file's bytes when the caller already read them (a pipe can be read only once).
    """
    path = Path(path)
    text, encoding = decode_text(decompress(read_raw(path) if raw is None else raw, path), path)
    rows = _Rows()
    counts = {"comments": 0, "blanks": 0, "extra": 0}
    odd_chars = _BAD_CHAR.search(text) is not None  # else no line needs the per-line check
    odd_spaces = _OTHER_SPACE.search(text) is not None  # else str.split() splits on spaces and tabs only
    for first, piece in text_blocks(text):
        if not piece.strip(" \t\r\n"):  # (a piece of blank lines only: counted at once)
            counts["blanks"] += _line_count(piece)
            continue
        for line_no, line in enumerate(split_lines(piece), start=first):
            _read_line(line, line_no, path, columns, value_col, what, (odd_chars, odd_spaces), rows, counts)
    del text
    query, doc, values, lines = rows.arrays()
    return LineRead(query, doc, values, lines, counts["comments"], counts["blanks"], counts["extra"], encoding)


def _read_line(line: str, line_no: int, path: Path, columns: tuple[str, ...], value_col: int, what: str,
               odd: tuple[bool, bool], rows: _Rows, counts: dict[str, int]) -> None:
    """One line: skipped and counted (blank, comment), refused (InputError with its line), or a row added."""
    stripped = line.strip(" \t")
    if not stripped:
        counts["blanks"] += 1
        return
    if stripped[0] == "#":
        counts["comments"] += 1
        return
    if odd[0]:
        _check_chars(line, path, line_no)
    fields = _SEPARATOR.split(stripped) if odd[1] else stripped.split()
    spaced = space_in_id(fields, columns) if len(fields) > len(columns) else None
    if spaced is not None:
        raise InputError(spaced, source=str(path), line=line_no, text=line, fix=SPACE_FIX)
    widened = len(fields) > RUN_WIDTH == len(columns) and not _looks_like_header(fields, value_col)
    if widened:
        counts["extra"] += 1  # a run line's columns after the sixth: skipped, as trec_eval does
        fields = fields[:RUN_WIDTH]
    if len(fields) != len(columns):
        csv = _delimited(fields, columns, line, path)
        if csv is not None:
            raise InputError(csv[0], source=str(path), line=line_no, text=line, fix=csv[1])
        if _looks_like_header(fields, value_col):
            raise InputError("this line looks like a header", source=str(path), line=line_no, text=line,
                             fix="TREC files have no header line: delete it (or start it with #)")
        raise InputError(f"expected {len(columns)} columns ({' '.join(columns)}), found {len(fields)}",
                         source=str(path), line=line_no, text=line, fix=_column_fix(fields, columns, line, path))
    field = fields[value_col]
    value = parse_number(field)
    if value is None:
        if _looks_like_header(fields, value_col):
            raise InputError("this line looks like a header", source=str(path), line=line_no, text=line,
                             fix="TREC files have no header line: delete it (or start it with #)")
        raise InputError(f"{what} {field!r} is not a number", source=str(path), line=line_no, text=line,
                         fix=f"the {what} column must hold a plain decimal number such as 3, -0.5 or 1e-3"
                             + ("; if an id holds a space: " + SPACE_FIX if widened else ""))
    if not math.isfinite(value):
        raise InputError(f"{what} {field!r} is not a finite number", source=str(path), line=line_no, text=line,
                         fix=f"replace NaN/infinite {what}s with finite numbers, or drop those rows")
    rows.add(fields[0], fields[2], value, line_no)


def numbered_lines(text: str):
    """(1-based number, line) of every line of `text`, as split_lines cuts them, a piece at a time (no list of all)."""
    for first, piece in text_blocks(text):
        yield from enumerate(split_lines(piece), start=first)


def _line_count(piece: str) -> int:
    """The lines of a piece of text (as split_lines cuts them), without the list."""
    ends = piece.count("\n") + piece.count("\r") - piece.count("\r\n")
    return ends + (0 if not piece or piece[-1] in "\r\n" else 1)


def line_text(path: Path, line_no: int) -> str | None:
    """The text of one line of a TREC file (for error messages), None when it cannot be read. A regular file (plain
    or gzip, UTF-8) is read a block at a time up to that line (a duplicate on line 2 of a large file costs a
    block); the standard input's kept bytes, and UTF-16 or UTF-32, are decoded whole."""
    if line_no < 1:
        return None
    try:
        found = _line_of_file(Path(path), line_no) if str(path) != STDIN_NAME else None
        if found is not None:
            return found
        lines = split_lines(decode_text(decompress(read_raw(path), path), path)[0])
    except (InputError, OSError, EOFError, zlib.error):
        return None
    return lines[line_no - 1] if 0 < line_no <= len(lines) else None


def _line_of_file(path: Path, line_no: int) -> str | None:
    """Line `line_no` of a regular UTF-8 file, plain or gzip, read a block at a time; None when the file is not
    such a file (the caller decodes it whole)."""
    import gzip

    with path.open("rb") as handle:
        head = handle.read(4)
        if head.startswith(_WIDE_HEADS):
            return None
        handle.seek(0)
        stream = gzip.GzipFile(fileobj=handle) if head[:2] == _GZIP_MAGIC else handle
        number, current, carry = 1, [], b""
        while block := stream.read(1 << 20):
            block = carry + block
            carry = b"\r" if block.endswith(b"\r") else b""  # (a \r\n cut between two blocks)
            block = block[:-1] if carry else block
            for part in re.split(rb"(\r\n|\r|\n)", block):
                if part in (b"\r\n", b"\r", b"\n"):
                    if number == line_no:
                        return _text_of(current, number)
                    number += 1
                    current = []
                elif number == line_no:
                    current.append(part)
            if number > line_no:
                break
        if carry and number == line_no:
            return _text_of(current, number)
        return _text_of(current, number) if number == line_no and current else None


def _text_of(parts: list[bytes], number: int) -> str:
    data = b"".join(parts)
    if number == 1 and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", "replace")
