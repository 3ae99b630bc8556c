"""The one table of the input files rankflavor reads, and how a file's format is told: `load.py` consults it for
every path, and so do the CLI's prefetch (inputs/prefetch.py) and the Spark engine (spark/report.py).

Each format is one reader module, named here by its import path and imported on first use (as registry.py finds
the metric families: never an import arrow), with `read_qrels(path, raw, defer_scan)` and/or
`read_run(path, raw, defer_scan, qrels)` (`raw`: the bytes when they had to be read to be sniffed, a pipe or the
standard input; `qrels`: the qrels read already, which a run that names its documents by position pairs with), and
optionally `row_lines(table)` (the source line of each row, computed when an error needs one). Adding a format is
its module and its `Format` entry below; nothing else changes.

How a file's format is told (docs/inputs.md "Formats and how they are told"), first that applies:

1. its first bytes: Parquet and Arrow files by their magic bytes (inputs/columnar.py); gzip is inflated (a block)
   and what follows applies to the inflated text, the name read without its `.gz`;
2. its first line that is neither blank nor a `#` comment, against each entry's `signature`, in table order:
   JSON (`{` or `[`), a RankLib / LETOR / SVMlight line (`GRADE qid:QUERY ...`), a RankLib score line
   (`QUERY<TAB>INDEX<TAB>SCORE`, the score as Java prints a double), a CSV or TSV header naming a query and a doc
   column (inputs/columns.py's names);
3. its name's extension (`.csv`, `.tsv`, `.json`, `.jsonl`, `.ndjson`) when no signature matched;
4. else TREC text, the default (its own errors say what a TREC line is, and spot CSV, headers, swapped files; an
   error at its first line says what else was tried: `tried`).

A signature and an extension that name two different formats (`ratings.csv` whose first line reads as a RankLib
line) is an error naming both: rankflavor never picks one of two readings. Entries of one `family` share their
signature and extension (JSON: `_rank_eval` qrels, `_search` runs); the role (qrels or run) picks the entry, and
a file whose format has no entry for its role (a RankLib judgment file given as the run) is an error saying so.
"""

from __future__ import annotations

import importlib
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rankflavor.errors import InputError
from rankflavor.inputs.columns import DOC_COLUMNS, QUERY_COLUMNS

if TYPE_CHECKING:
    from rankflavor.inputs.tables import QrelsTable, RunTable

HEAD = 1 << 16  # bytes of a file's start that are sniffed
ROLES = ("qrels", "run")


def _csv_header(line: str) -> bool:
    """A header line of a CSV (`,`) or TSV (tab) file naming a query column and a doc column."""
    names = [n.strip().strip('"') for n in line.split("\t" if "\t" in line else ",")]
    return len(names) >= 2 and any(n in QUERY_COLUMNS for n in names) and any(n in DOC_COLUMNS for n in names)


@dataclass(frozen=True)
class Format:
    """One reader: `module` holds `read_qrels` and/or `read_run` for its `roles`; its tables' `Source.kind` is one
    of `kinds`; `signature` tells it from the first meaningful line, `extensions` from the name."""

    name: str
    label: str
    module: str
    roles: tuple[str, ...]
    kinds: tuple[str, ...]
    extensions: tuple[str, ...] = ()
    signature: Callable[[str], Any] | None = None
    family: str = ""
    magic: tuple[bytes, ...] = ()

    @property
    def group(self) -> str:
        return self.family or self.name

    def reader(self, role: str) -> Callable[..., Any]:
        return getattr(importlib.import_module(self.module), f"read_{role}")


_JSON = re.compile(r"[\[{]").match
# RankLib's score line: QUERY, INDEX, the score as Java's Double.toString writes it (a point or an exponent, always:
# an MS MARCO run's QID DOCID RANK has an integer last)
_JAVA_SCORE = re.compile(r"[^\t ]+\t[0-9]+\t(-?[0-9]+\.[0-9]+(E-?[0-9]+)?|NaN|-?Infinity)[ \t]*$").match
FORMATS: tuple[Format, ...] = (
    Format("columnar", "a Parquet or Arrow file", "rankflavor.inputs.columnar", ROLES, ("parquet", "arrow"),
           magic=(b"PAR1", b"ARROW1", b"FEA1", b"\xff\xff\xff\xff")),
    Format("rank_eval", "an Elasticsearch/OpenSearch _rank_eval request body", "rankflavor.inputs.es_rank_eval",
           ("qrels",), ("rank_eval",), (".json", ".jsonl", ".ndjson"), _JSON, "json"),
    Format("es_search", "Elasticsearch/OpenSearch _search or _msearch responses", "rankflavor.inputs.es_search",
           ("run",), ("es_search", "es_msearch"), (".json", ".jsonl", ".ndjson"), _JSON, "json"),
    Format("ranklib", "a RankLib / LETOR / SVMlight judgment file", "rankflavor.inputs.ranklib", ("qrels",),
           ("ranklib",), (), re.compile(r"[^\s:#]+[ \t]+qid:\S").match),
    Format("ranklib_scores", "a RankLib score file (-score)", "rankflavor.inputs.ranklib_scores", ("run",),
           ("ranklib_scores",), (), _JAVA_SCORE),
    Format("csv", "a CSV or TSV file with a header", "rankflavor.inputs.delimited", ROLES, ("csv",),
           (".csv", ".tsv"), _csv_header),
    Format("trec", "a TREC file", "rankflavor.inputs.trec", ROLES, ("trec",)),
)
DEFAULT = FORMATS[-1]


def _suffix(path: Path) -> str:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


def _text_head(head: bytes) -> tuple[str, bool]:
    """(the start of a file as text, for its signatures: gzip inflated, a UTF-16/32 byte-order mark decoded;
    whether it is only the start of the file)."""
    cut = len(head) >= HEAD
    if head[:2] == b"\x1f\x8b":
        inflater = zlib.decompressobj(wbits=31)
        try:
            head = inflater.decompress(head, HEAD)
        except zlib.error:
            return "", False
        cut = not inflater.eof
    for bom, encoding in ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
                          (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"), (b"\xef\xbb\xbf", "utf-8")):
        if head.startswith(bom):
            return head[len(bom):].decode(encoding, "ignore"), cut
    return head.decode("utf-8", "replace"), cut


def first_line(text: str, cut: bool = False) -> str | None:
    """The first line of `text` that is neither blank nor a `#` comment, stripped of spaces and tabs (None when it
    has none); `cut`: the text is a file's start, whose last line may be incomplete (not read)."""
    start = 0
    for line_break in re.finditer(r"\r\n|\r|\n", text):  # (line by line: the first is most often the one)
        stripped = text[start:line_break.start()].strip(" \t")
        if stripped and not stripped.startswith("#"):
            return stripped
        start = line_break.end()
    stripped = "" if cut else text[start:].strip(" \t")
    return stripped if stripped and not stripped.startswith("#") else None


def sniff(path: Path, head: bytes, role: str) -> Format:
    """The format of a file from its first bytes and its name (the module's precedence), for `role`; InputError
    when its content and its name name two formats, or when its format has no reader for the role."""
    magic = next((e for e in FORMATS if e.magic and head.startswith(e.magic)), None)
    if magic is not None:
        return magic
    line = first_line(*_text_head(head))
    by_content = next((e.group for e in FORMATS if e.signature is not None and line and e.signature(line)), None)
    suffix = _suffix(path)
    by_name = next((e.group for e in FORMATS if suffix and suffix in e.extensions), None)
    if by_content is not None and by_name is not None and by_content != by_name:
        raise InputError(f"ambiguous: its name ({suffix}) says {_label(by_name)}, its first line says "
                         f"{_label(by_content)}", source=str(path), text=line,
                         fix=f"rename the file to match its content, or write it as {_label(by_name)} "
                             "(docs/inputs.md: formats and how they are told)")
    group = by_content or by_name or DEFAULT.group
    entries = [e for e in FORMATS if e.group == group]
    for entry in entries:
        if role in entry.roles:
            return entry
    other = "run" if role == "qrels" else "qrels"
    raise InputError(f"this file reads as {entries[0].label}, which is a {other}, not a {role}", source=str(path),
                     text=line, fix=f"are the qrels and run swapped? {_role_fix(entries[0].name, role)}")


DEFAULT_NOTE = "read as TREC: its first line is no CSV/TSV header, RankLib line or JSON (docs/inputs.md)"


def tried(entry: Format, error: InputError, head: bytes) -> InputError:
    """A reader's error on a file read as TREC by default, at its first line, with what else was tried (the file
    may be of no format rankflavor reads); any other error as it is."""
    if entry is not DEFAULT or error.text is None or error.text.strip(" \t") != first_line(*_text_head(head)):
        return error
    return InputError(error.reason, source=error.source, line=error.line, text=error.text,
                      fix=f"({DEFAULT_NOTE}) {error.fix}" if error.fix else DEFAULT_NOTE)


def _label(group: str) -> str:
    return " or ".join(dict.fromkeys(e.label for e in FORMATS if e.group == group))


def _role_fix(name: str, role: str) -> str:
    if name == "ranklib":
        return "A RankLib judgment file is the qrels; the run it pairs with is RankLib's -score output"
    if name == "ranklib_scores":
        return "RankLib's -score output is a run; the qrels is the judgment file it scored"
    return f"give the {role} in a format that holds one"


def entry_of(kind: str) -> Format | None:
    """The format whose tables carry `Source.kind` `kind` (None for Python inputs: dicts, frames, ...)."""
    return next((e for e in FORMATS if kind in e.kinds), None)


def line_of(table: QrelsTable | RunTable, row: int) -> int | None:
    """The source line of a row (1-based), asking its reader for the lines when it kept none (None when its input
    has no lines: a dict, a frame, a Parquet file)."""
    if table.line is None:
        entry = entry_of(table.source.kind)
        module = importlib.import_module(entry.module) if entry is not None else None
        lines = getattr(module, "row_lines", None)
        if lines is None:
            return None
        table.line = lines(table)
    return None if table.line is None else int(table.line[row])


def line_text(path: str | Path, line: int) -> str | None:
    """The text of one line of a text file, for an error message (None when it cannot be read)."""
    from rankflavor.inputs.trec_lines import line_text as text_of_line

    return text_of_line(Path(path), line)


def row_text(table: QrelsTable | RunTable, row: int, line: int) -> str | None:
    """What an error shows of a row: its reader's `row_text(table, row)` (a JSON object on one line), else the text
    of its line."""
    entry = entry_of(table.source.kind)
    text = getattr(importlib.import_module(entry.module), "row_text", None) if entry is not None else None
    return text(table, row) if text is not None else line_text(table.source.path or table.source.name, line)
