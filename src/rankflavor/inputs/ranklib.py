"""RankLib / LETOR / SVMlight judgment files as a qrels: `GRADE qid:QUERY [FEATURE:VALUE ...] [# DESCRIPTION]` per
line, read as RankLib reads them (codelibs/ranklib src/main/java/ciir/umass/edu/features/FeatureManager.java
`readInput`: each line trimmed, blank lines and lines starting with `#` skipped; learning/DataPoint.java `parse`:
the text from the first `#` is the description, the rest splits at whitespace into the label, `qid:ID` (the id is
what follows its last `:`) and features `ID:VALUE`, an integer id >= 1 and a number; a query's ranked list is a
run of consecutive lines of its qid).

Doc ids: the description's first word (`3 qid:1 # sku1`; Quepid's LTR export writes `# DOCID QUERY TEXT`,
o19s/quepid app/views/api/v1/export/ratings/show_ltr.txt.erb), or the word after `docid =` (LETOR 4.0:
`#docid = GX000-00-0000000 inc = 1 prob = 0.02`). A file without descriptions names each doc by its position within
its query's lines, 0, 1, 2, ..., as RankLib's `-score` output numbers them (inputs/ranklib_scores.py): a note in the
provenance and a warning say so. Every line names its doc or none does. A qid met again after another query's lines
is an error: RankLib would read a second ranked list with the same positions. Grades are plain decimal numbers
(negative ones are read; the flavor's `negative=` axis decides); features are checked, not kept. Each row's position
is kept (`QrelsTable.extra["position"]`) for the score file that pairs with it.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import NoReturn

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.tables import QrelsTable
from rankflavor.inputs.text_file import TextFile, read_text_file
from rankflavor.inputs.trec_lines import parse_number, split_lines

POSITIONS_NOTE = ("the RankLib file names no document (no '# DOCID' comment): each is named by its position within "
                  "its query's lines (0, 1, 2, ...), as RankLib's -score output numbers them")
_DOCID = re.compile(r"#\s*docid\s*=\s*(\S+)")
_FEATURE = re.compile(r"([0-9]+):(\S+)")
_LINE_FORM = "GRADE qid:QUERY [FEATURE:VALUE ...] [# DOCID]"


def _fail(file: TextFile, line: int, text: str, reason: str, fix: str) -> NoReturn:
    raise InputError(reason, source=file.where, line=line, text=text, fix=fix)


def _doc_of(description: str) -> str | None:
    """The doc id a line's description names (None for no description or an empty one)."""
    letor = _DOCID.match(description)
    if letor:
        return letor.group(1)
    words = description[1:].split()
    return words[0] if words else None


def _fields(file: TextFile, number: int, line: str) -> tuple[float, str, str | None]:
    """(grade, query id, doc id or None) of one line, its features checked."""
    cut = line.find("#")
    description = line[cut:] if cut >= 0 else ""
    fields = (line[:cut] if cut >= 0 else line).split()
    if len(fields) < 2 or not fields[1].startswith("qid:") or len(fields[1]) == 4:
        _fail(file, number, line, "not a RankLib line: the second field is not qid:QUERY",
              f"every line is '{_LINE_FORM}' (RankLib, LETOR, SVMlight ranking files)")
    grade = parse_number(fields[0])
    if grade is None or not math.isfinite(grade):
        _fail(file, number, line, f"grade {fields[0]!r} is not a finite number",
              "the first field is the grade, a plain decimal number such as 3, 0.5 or 1e-3")
    for feature in fields[2:]:
        match = _FEATURE.fullmatch(feature)
        value = parse_number(match.group(2)) if match else None
        if match is None or int(match.group(1)) < 1 or value is None:
            _fail(file, number, line, f"feature {feature!r} is not ID:VALUE (an integer id from 1, a number)",
                  f"every line is '{_LINE_FORM}'; a doc id goes after '#'")
    return grade, fields[1][fields[1].rfind(":") + 1:], _doc_of(description) if description else None


def _read(file: TextFile) -> QrelsTable:
    queries, docs, grades, lines, positions = [], [], [], [], []
    ended: dict[str, int] = {}  # query -> its last line, for a qid met again after another query's lines
    comments = blanks = 0
    named: tuple[int, bool] | None = None  # (the first data line, whether it names its doc)
    for number, raw in enumerate(split_lines(file.text), start=1):
        line = raw.strip()
        if not line:
            blanks += 1
            continue
        if line.startswith("#"):
            comments += 1
            continue
        grade, query, doc = _fields(file, number, line)
        if named is None:
            named = (number, doc is not None)
        elif (doc is not None) != named[1]:
            said = "names its document ('# DOCID')" if doc is not None else "names no document ('# DOCID')"
            _fail(file, number, raw, f"this line {said}, line {named[0]} {'does not' if doc is not None else 'does'}",
                  "every line names its doc after '#' (# DOCID), or none does (each is then named by its position "
                  "within its query)")
        if queries and query != queries[-1]:
            if query in ended:
                _fail(file, number, raw, f"query qid:{query} again, after other queries' lines (its lines ended at "
                      f"line {ended[query]}): RankLib reads each run of one qid's lines as its own ranked list",
                      "put each query's lines together, in their order, e.g. sort -s -k2,2 FILE (a stable sort on "
                      "the qid field)")
            ended[queries[-1]] = lines[-1]
        position = positions[-1] + 1 if queries and query == queries[-1] else 0
        queries.append(query)
        docs.append(doc if doc is not None else str(position))
        grades.append(grade)
        lines.append(number)
        positions.append(position)
    source = file.source("ranklib")
    source.comment_lines, source.blank_lines = comments, blanks
    if named is not None and not named[1]:
        source.notes.append(POSITIONS_NOTE)
    return QrelsTable(source=source, query=pa.array(queries, pa.string()), doc=pa.array(docs, pa.string()),
                      grade=np.asarray(grades, dtype=np.float64), line=np.asarray(lines, dtype=np.int64),
                      extra={"position": np.asarray(positions, dtype=np.int64)})


def read_qrels(path: Path, raw: bytes | None, defer_scan: bool) -> QrelsTable:
    """A RankLib / LETOR / SVMlight judgment file (inputs/formats.py's table)."""
    return _read(read_text_file(path, raw))
