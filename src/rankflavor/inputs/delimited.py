"""CSV and TSV files with a header, as a qrels or a run: Quepid's ratings export (`query,docid,rating`: o19s/quepid
app/controllers/api/v1/export/ratings_controller.rb, `prepare_csv`), a spreadsheet's export, `DataFrame.to_csv`.

Read with Python's csv module (RFC 4180: a quoted field may hold the separator, quotes doubled, line breaks); the
separator is a tab when the first line holds one, else a comma. The first line is the header: it names the columns
as a DataFrame's are named (inputs/columns.py: query/qid/query_id/topic, doc/docid/doc_id/docno, a grade among
grade/relevance/rel/label/judgment/rating or a score among score/sim/prediction); other columns are ignored, a
role named twice or not at all is an error (a rank column alone: columns.py's fix). Ids are the fields' text
exactly: a query id may be a query's text, spaces and all (Quepid's), never stripped (inputs/id_match.py warns
about ids equal only up to surrounding spaces: Quepid writes a query text starting with =, +, - or @ after a space,
app/services/csv_export.rb). A value is a plain decimal number (trec_lines.parse_number), finite.

A row holding its query alone, every other field empty or missing (Quepid's row of a query with no rating: `text,,`,
or `text` before it padded its rows), lists a query with no judgment in a qrels (counted, never scored, as
`{qid: {}}` is) and a query with an empty list in a run. Blank lines are skipped and counted. Every other short
row, a row longer than the header, an empty id or value, a value that is not a finite number is an error naming
the line.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.columns import DOC_COLUMNS, GRADE_COLUMNS, QUERY_COLUMNS, SCORE_COLUMNS, pick_roles
from rankflavor.inputs.tables import QrelsTable, RunTable
from rankflavor.inputs.text_file import TextFile, read_text_file
from rankflavor.inputs.trec_lines import parse_number, split_lines

LONE_QUERY = "a line with the query alone"


@dataclass
class _Rows:
    query: list[str] = field(default_factory=list)
    doc: list[str] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    line: list[int] = field(default_factory=list)
    listed: dict[str, None] = field(default_factory=dict)  # every query, in file order
    blanks: int = 0
    header: int = 1  # the header's line


class _Reader:
    """One CSV/TSV file read row by row; `fail` raises the InputError of a line."""

    def __init__(self, file: TextFile, what: str) -> None:
        self.file, self.what = file, what
        self.lines = split_lines(file.text)
        first = next((line for line in self.lines if line.strip(" \t")), "")  # (the header: blank lines skipped)
        self.separator = "\t" if "\t" in first else ","
        self.kind = "TSV" if self.separator == "\t" else "CSV"

    def fail(self, line: int, reason: str, fix: str) -> NoReturn:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else None
        raise InputError(reason, source=self.file.where, line=line, text=text, fix=fix)

    def header(self, names: list[str], line: int) -> tuple[int, int, int]:
        """The positions of the query, doc and value columns (the header line's errors name the columns found)."""
        values = GRADE_COLUMNS if self.what == "grade" else SCORE_COLUMNS
        try:
            picked = pick_roles(names, values, self.what, self.file.where)
        except InputError as error:
            self.fail(line, f"{error.reason} in the header", _header_fix(names, self.what, error.fix or "", self.kind))
        return names.index(picked[0]), names.index(picked[1]), names.index(picked[2])

    def row(self, record: list[str], line: int, columns: tuple[int, int, int], width: int, rows: _Rows) -> None:
        q, d, v = columns
        query = record[q] if q < len(record) else ""
        if len(record) > width:
            self.fail(line, f"{len(record)} fields, the header has {width}",
                      f"quote a field that holds a '{self.separator}' (\"a{self.separator}b\"), or add its column "
                      "to the header")
        if query and not any(f.strip() for i, f in enumerate(record) if i != q):
            rows.listed.setdefault(query)  # (a query with no judgment, or an empty list)
            return
        if len(record) < width:
            self.fail(line, f"{len(record)} fields, the header has {width}",
                      f"every line holds a value for each of the header's columns, separated by '{self.separator}'")
        for index, role in ((q, "query"), (d, "doc")):
            if not record[index]:
                self.fail(line, f"an empty {role} id", f"every line needs a {role} id (a query alone, with the "
                                                        f"other fields empty, lists a query with no {self.what})")
        rows.listed.setdefault(query)
        rows.query.append(query)
        rows.doc.append(record[d])
        rows.value.append(self.number(record[v], line))
        rows.line.append(line)

    def number(self, text: str, line: int) -> float:
        """A value field (spaces around a number are not part of it)."""
        stripped = text.strip(" ")
        if not stripped:
            quepid = ("; a Quepid snapshot export leaves an unrated document's rating empty: delete those lines (an "
                      "unrated document is unjudged)") if self.what == "grade" else ""
            self.fail(line, f"an empty {self.what}", f"every line with a doc id holds its {self.what}{quepid}")
        value = parse_number(stripped)
        if value is None:
            self.fail(line, f"{self.what} {text!r} is not a number",
                      f"the {self.what} column holds a plain decimal number such as 3, -0.5 or 1e-3")
        if not math.isfinite(value):
            self.fail(line, f"{self.what} {text!r} is not a finite number",
                      f"replace NaN/infinite {self.what}s with finite numbers, or drop those rows")
        return value

    def rows(self) -> _Rows:
        """Every row, the first line that is not blank read as the header."""
        rows, width, columns = _Rows(), 0, (0, 0, 0)
        reader = csv.reader(io.StringIO(self.file.text, newline=""), delimiter=self.separator, strict=True)
        previous = 0
        try:
            for record in reader:
                line, previous = previous + 1, reader.line_num
                if not any(f.strip(" \t") for f in record):
                    rows.blanks += 1
                elif not width:
                    width, columns, rows.header = len(record), self.header(record, line), line
                else:
                    self.row(record, line, columns, width, rows)
        except csv.Error as error:
            self.fail(reader.line_num, f"not valid {self.kind}: {error}",
                      'a field that holds a quote is quoted whole, its quotes doubled: "say ""hi"""')
        if not width:
            raise InputError(f"no header line: the {self.kind} file is empty", source=self.file.where,
                             fix="a CSV file starts with its header, e.g. query,docid,rating")
        return rows


def _header_fix(names: list[str], what: str, fix: str, kind: str) -> str:
    """The header's fix: the names accepted, what a stripped name or a swapped file would be."""
    spaced = [n for n in names if n != n.strip() and n.strip() in (*QUERY_COLUMNS, *DOC_COLUMNS, *GRADE_COLUMNS,
                                                                   *SCORE_COLUMNS)]
    if spaced:
        fix += f"; {spaced[0]!r} holds a space: the separator is '{',' if kind == 'CSV' else 'a tab'}' alone"
    other = SCORE_COLUMNS if what == "grade" else GRADE_COLUMNS
    found = [n for n in names if n in other]
    if found:
        fix += f"; it has a {'score' if what == 'grade' else 'grade'} column ({found[0]}): are the qrels and run swapped?"
    if not any(n in (*QUERY_COLUMNS, *DOC_COLUMNS) for n in names):
        fix += f"; the first line of a {kind} file is its header, e.g. query,docid,rating (Quepid's)"
    return fix


def _tables(path: Path, raw: bytes | None, what: str) -> tuple:
    file = read_text_file(path, raw)
    rows = _Reader(file, what).rows()
    source = file.source("csv")
    source.blank_lines = rows.blanks
    source.unjudged_form = LONE_QUERY
    return (source, pa.array(rows.query, pa.string()), pa.array(rows.doc, pa.string()),
            np.asarray(rows.value, dtype=np.float64), np.asarray(rows.line, dtype=np.int64),
            pa.array(list(rows.listed), pa.string()), {"header_line": rows.header})


def read_qrels(path: Path, raw: bytes | None, defer_scan: bool) -> QrelsTable:
    """A CSV/TSV qrels (inputs/formats.py's table)."""
    source, query, doc, grade, line, listed, extra = _tables(path, raw, "grade")
    return QrelsTable(source=source, query=query, doc=doc, grade=grade, line=line, queries=listed, extra=extra)


def read_run(path: Path, raw: bytes | None, defer_scan: bool, qrels: QrelsTable | None) -> RunTable:
    """A CSV/TSV run (inputs/formats.py's table; it names its documents: `qrels` is not read)."""
    source, query, doc, score, line, listed, extra = _tables(path, raw, "score")
    return RunTable(source=source, query=query, doc=doc, score=score, line=line, queries=listed, extra=extra)
