"""Subtopic qrels (diversity qrels): `qid subtopic docid grade`, as TREC Web's diversity task and ndeval read them.

A subtopic qrels is its own input kind. It is read into a `SubtopicQrels`, a QrelsTable whose rows are the
document-level view (one row per judged (query, doc): the doc's highest grade over its subtopics, its first
line), so that everything the engine reads of a qrels (judged, unjudged, the doc-level measures) holds as
before; the (query, subtopic, doc) judgments ride beside it (`judgments`) and are interned into the Dataset's
`subtopics` (`intern_subtopics`), which only the diversity measures read (metrics/diversity.py).

The file is read when a diversity measure is asked for (report.py `evaluate`): its second column is then the
subtopic, not trec_eval's ignored iteration. A plain qrels given there (every second column `0` or `Q0`) is
refused, as is a (query, subtopic, doc) judged twice; a subtopic qrels given to a doc-level measure lists a
(query, doc) once per subtopic and meets the duplicate check (inputs/duplicates.py says what to do).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.encoding import decode_text
from rankflavor.inputs.kernels import index_in
from rankflavor.inputs.tables import QrelsTable, Source
from rankflavor.inputs.trec_lines import decompress, numbered_lines, parse_number, read_raw

COLUMNS = "qid subtopic docid grade"
PLAIN_MARKS = {"0", "Q0"}  # trec_eval's iteration column: what a plain qrels holds where a subtopic belongs
FORMAT_FIX = ("a subtopic qrels has 4 columns, `qid subtopic docid grade` (TREC Web diversity qrels, ndeval's "
              "input); a plain qrels (`qid 0 docid grade`) goes with the doc-level measures (ndcg, map, ...)")


@dataclass
class SubtopicJudgments:
    """The (query, subtopic, doc) judgments in input order, with their 1-based lines (None: a Python input)."""

    query: list[str]
    subtopic: list[str]
    doc: list[str]
    grade: np.ndarray
    line: np.ndarray | None


@dataclass
class SubtopicQrels(QrelsTable):
    """A subtopic qrels: the doc-level view as a QrelsTable, its (query, subtopic, doc) judgments beside it."""

    judgments: SubtopicJudgments | None = None


@dataclass
class InternedSubtopics:
    """The judgments as dataset codes, sorted by (query, doc) key; `subtopic` numbered per query from 0."""

    q: np.ndarray
    d: np.ndarray
    key: np.ndarray  # q * n_docs + d, ascending
    subtopic: np.ndarray  # int64, 0 .. n_subtopics[q] - 1 (the subtopic ids of a query in sorted order)
    grade: np.ndarray
    n_subtopics: np.ndarray  # per query code: its distinct subtopic ids (judged, whatever the grade)
    subtopic_ids: list[list[str]]  # per query code: its subtopic ids in code order


def read_subtopic_qrels(path: str | Path) -> SubtopicQrels:
    """Read a subtopic qrels file (plain or gzip), each line checked: file, line, what, what to do."""
    path = Path(path)
    text, encoding = decode_text(decompress(read_raw(path), path), path)
    query: list[str] = []
    subtopic: list[str] = []
    doc: list[str] = []
    grade: list[float] = []
    lines: list[int] = []
    comments = blanks = 0
    for line_no, line in numbered_lines(text):
        stripped = line.strip(" \t")
        if not stripped or stripped[0] == "#":
            blanks, comments = blanks + (not stripped), comments + bool(stripped)
            continue
        fields = stripped.split()
        if len(fields) != 4:
            raise InputError(f"expected 4 columns ({COLUMNS}), found {len(fields)}", source=str(path), line=line_no,
                             text=line, fix=FORMAT_FIX)
        value = parse_number(fields[3])
        if value is None or not math.isfinite(value):
            raise InputError(f"grade {fields[3]!r} is not a finite number", source=str(path), line=line_no, text=line,
                             fix="the grade column must hold a plain decimal number such as 1 or 0")
        query.append(fields[0])
        subtopic.append(fields[1])
        doc.append(fields[2])
        grade.append(value)
        lines.append(line_no)
    source = Source(name=path.name, path=str(path), kind="subtopic_qrels", comment_lines=comments, blank_lines=blanks,
                    encoding=encoding)
    judgments = SubtopicJudgments(query, subtopic, doc, np.asarray(grade, dtype=np.float64),
                                  np.asarray(lines, dtype=np.int64))
    return _table(source, judgments)


def subtopic_qrels_from_python(data: Any, name: str = "qrels") -> SubtopicQrels:
    """A subtopic qrels from {qid: {subtopic: {docid: grade}}} or rows (qid, subtopic, docid, grade)."""
    rows: Iterable[Any]
    if isinstance(data, Mapping):
        rows = [(q, s, d, g) for q, subs in data.items() for s, docs in _mapping(subs, name).items()
                for d, g in _mapping(docs, name).items()]
    else:
        rows = list(data)
    query, subtopic, doc, grade = [], [], [], []
    for index, row in enumerate(rows):
        fields = tuple(row)
        if len(fields) != 4:
            raise InputError(f"row {index} has {len(fields)} fields, not 4 ({COLUMNS})", source=name, fix=FORMAT_FIX)
        value = fields[3]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise InputError(f"row {index}: grade {value!r} is not a finite number", source=name,
                             fix="give each grade as an int or a float")
        query.append(str(fields[0]))
        subtopic.append(str(fields[1]))
        doc.append(str(fields[2]))
        grade.append(float(value))
    judgments = SubtopicJudgments(query, subtopic, doc, np.asarray(grade, dtype=np.float64), None)
    return _table(Source(name=name, kind="subtopic_qrels"), judgments)


def _mapping(value: Any, name: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise InputError(f"expected {{qid: {{subtopic: {{docid: grade}}}}}}, found a {type(value).__name__} inside",
                         source=name, fix=FORMAT_FIX)
    return value


def refuse_plain(subtopics: set[str], where: str) -> None:
    """A qrels whose every subtopic is `0` or `Q0` (trec_eval's iteration column) is a plain qrels: an InputError
    (the Spark engine asks it of a whole DataFrame, its subtopics' distinct values)."""
    if subtopics and subtopics <= PLAIN_MARKS:
        raise InputError(f"every line's second column is {' or '.join(sorted(subtopics))}: this is a "
                         "plain qrels (qid iter docid grade), not a subtopic qrels", source=where,
                         fix="diversity measures (alpha_ndcg, err_ia, nrbp, p_ia, s_recall, ap_ia) need the subtopic of "
                             "each judgment in the second column: give the diversity qrels (e.g. TREC Web's "
                             "qrels.diversity.txt), or use a doc-level measure (ndcg, map, ...)")


def _table(source: Source, judgments: SubtopicJudgments) -> SubtopicQrels:
    """Check the judgments (not a plain qrels, no (query, subtopic, doc) twice) and build the doc-level view."""
    refuse_plain(set(judgments.subtopic), source.path or source.name)
    return subtopic_table(source, judgments)


def subtopic_table(source: Source, judgments: SubtopicJudgments) -> SubtopicQrels:
    """The doc-level view of judgments with no (query, subtopic, doc) twice (the plain-qrels check is the
    caller's: a Spark slice holds a few queries, so the driver asks it of the whole DataFrame)."""
    where = source.path or source.name
    first: dict[tuple[str, str, str], int] = {}
    best: dict[tuple[str, str], int] = {}
    for i, triple in enumerate(zip(judgments.query, judgments.subtopic, judgments.doc, strict=True)):
        if triple in first:
            line = None if judgments.line is None else int(judgments.line[i])
            earlier = first[triple] if judgments.line is None else int(judgments.line[first[triple]])
            at = "" if source.kind == "spark" else \
                f" (first at {'row' if judgments.line is None else 'line'} {earlier})"  # (a slice's rows: no number)
            raise InputError(f"query {triple[0]} subtopic {triple[1]} doc {triple[2]} is judged twice{at}", source=where,
                             line=line, fix="keep one judgment per (query, subtopic, doc)")
        first[triple] = i
        pair = (triple[0], triple[2])
        if pair not in best or judgments.grade[i] > judgments.grade[best[pair]]:
            best[pair] = i
    rows = sorted(best.values())
    return SubtopicQrels(source=source, query=pa.array([judgments.query[i] for i in rows], pa.string()),
                         doc=pa.array([judgments.doc[i] for i in rows], pa.string()),
                         grade=judgments.grade[rows] if rows else np.zeros(0),
                         line=None if judgments.line is None else judgments.line[rows], judgments=judgments)


def intern_subtopics(qrels: QrelsTable, queries: pa.Array, docs: pa.Array) -> InternedSubtopics | None:
    """The subtopic judgments of a SubtopicQrels as dataset codes (None for a plain qrels)."""
    judgments = getattr(qrels, "judgments", None)
    if judgments is None:
        return None
    n_docs = max(len(docs), 1)
    q = array_to_numpy(index_in(pa.array(judgments.query, pa.string()), queries)).astype(np.int64)
    d = array_to_numpy(index_in(pa.array(judgments.doc, pa.string()), docs)).astype(np.int64)
    by_query: dict[int, set[str]] = {}
    for code, sub in zip(q.tolist(), judgments.subtopic, strict=True):
        by_query.setdefault(code, set()).add(sub)
    ids: list[list[str]] = [[] for _ in range(len(queries))]
    for code, subs in by_query.items():
        ids[code] = sorted(subs)
    n_subtopics = np.asarray([len(i) for i in ids], dtype=np.int64)
    number = {(code, sub): i for code in by_query for i, sub in enumerate(ids[code])}
    subtopic = np.asarray([number[(code, sub)] for code, sub in zip(q.tolist(), judgments.subtopic, strict=True)],
                          dtype=np.int64)
    key = q * n_docs + d
    order = np.argsort(key, kind="stable")
    return InternedSubtopics(q[order], d[order], key[order], subtopic[order], judgments.grade[order], n_subtopics,
                             ids)


def reads_subtopics(metric_names: Iterable[str]) -> bool:
    """Whether any of these metrics reads a subtopic qrels (`subtopic_qrels` set: metrics/diversity.py)."""
    from rankflavor import registry

    return any(getattr(registry.find(name), "subtopic_qrels", False) for name in metric_names)


def as_subtopic_qrels(qrels: Any, metric_names: Iterable[str]) -> Any:
    """The qrels as a SubtopicQrels when a diversity measure is asked for (a path is read as one; a plain qrels is
    refused), else as given."""
    if not reads_subtopics(metric_names) or isinstance(qrels, SubtopicQrels):
        return qrels
    if isinstance(qrels, (str, Path)):
        return read_subtopic_qrels(qrels)
    if isinstance(qrels, Mapping) and all(isinstance(v, Mapping) for v in qrels.values()) and \
            all(isinstance(d, Mapping) for v in qrels.values() for d in v.values()):
        return subtopic_qrels_from_python(qrels)
    if isinstance(qrels, (list, tuple)):
        return subtopic_qrels_from_python(qrels)
    raise InputError(f"a diversity measure needs a subtopic qrels, not a {type(qrels).__name__} of (query, doc) "
                     "judgments", source="qrels",
                     fix="give {qid: {subtopic: {docid: grade}}}, rows (qid, subtopic, docid, grade), or the path of a "
                         "subtopic qrels file (qid subtopic docid grade)")
