"""A standard qrels or results file's bytes parsed as C trec_eval 10.0 reads them (get_qrels.c, get_trec_results.c),
into id lists and numpy code arrays, without pyarrow or pandas (the drop-in's start-up pays for neither).

A field is what lies between runs of C's isspace (space \\t \\v \\f \\r; a line ends at \\n). A qrels line has
exactly 4 fields (get_qrels.c:216-266, parse_qrels_line); a `#` first on a line makes that line alone a comment,
and the line after it is read as data whatever it holds (get_qrels.c:136-141), so a blank line there, or a second
comment in a row, is malformed. A results line has 6 fields or more, the rest ignored (get_trec_results.c:234-296);
a blank line, or a `#` after leading white space, is skipped (get_trec_results.c:153-161). A grade is atol of its
field (get_qrels.c:192), a score atof of its own (get_trec_results.c:210), the run_id the last data line's sixth
field. Ids are latin-1 text (one character per byte, standard_read.ENCODING), each given an int32 code in order of
first appearance. A malformed line, or a file without a data line, is exit 2 with the file and line.

The compiled `_te_reader` parses when it is built and RANKFLAVOR_PURE_PYTHON is unset or 0; the loops below give
the same results otherwise.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

import numpy as np

from rankflavor.dropin.c_reading import LONG_MAX, TrecEvalExit, atof
from rankflavor.dropin.te_files import _te_reader, compiled

ENCODING = "latin-1"
QRELS_RULE = "fields where trec_eval reads exactly 4 (qid iter docno rel; '#' starts a comment line, one at a time)"
RESULTS_RULE = "fields where trec_eval reads six or more (qid iter docno rank sim run_id)"
_LEADING_INT = rb"([+-]?)0*([0-9]+)"
_PLAIN_FLOAT = rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"


class ParsedQrels(NamedTuple):
    query_ids: list[str]  # in order of first appearance
    q: np.ndarray  # int32: each judgment line's query, a code into query_ids
    doc_ids: list[str]
    d: np.ndarray  # int32
    grade: np.ndarray  # int64: atol of the fourth field


class ParsedResults(NamedTuple):
    query_ids: list[str]
    q: np.ndarray  # int32: each results line's query
    doc_ids: list[str]  # the `known` ids given, in their order, then the file's others in order of first appearance
    d: np.ndarray  # int32
    score: np.ndarray  # float64: atof of the fifth field
    run_id: str  # the last data line's sixth field
    known: int = 0  # how many of doc_ids are the known ids (parse_results' `known`)


def malformed(path: str, line: int, what: str, rule: str) -> TrecEvalExit:
    """trec_eval's exit 2 on a line it cannot parse (get_qrels.c:142, get_trec_results.c:164), the line named."""
    return TrecEvalExit(2, f"trec_eval: {path}:{line}: malformed {what} line: {rule}")


def parse_qrels(data: bytes, path: str, answer: tuple | None = None) -> ParsedQrels:
    """The judgment lines of a qrels file's bytes (cut at their first NUL); exit 2 on a malformed line. `answer`:
    the compiled reader's, already found for `data` (te_files.EarlyRead)."""
    out = answer if answer is not None else _te_reader.parse_qrels(data) if compiled() else None
    if out is None:
        out = _qrels_python(data)
    if len(out) == 2:
        line, fields = out
        rule = "no judgment line" if fields < 0 else f"{fields} {QRELS_RULE}"
        raise malformed(path, line, "qrels", rule)
    query_ids, q, doc_ids, d, grade, _ = out
    return ParsedQrels(query_ids, _array(q, np.int32), doc_ids, _array(d, np.int32), _array(grade, np.int64))


def parse_results(data: bytes, path: str, known: list[str] | None = None, answer: tuple | None = None) -> ParsedResults:
    """The data lines of a results file's bytes (cut at their first NUL); exit 2 on a malformed line. `known`:
    doc ids (distinct: the qrels' docs) coded 0..n-1 before the file's own, so the codes need no mapping; `answer`:
    the compiled reader's, already found for `data` and `known` (te_files.EarlyRead)."""
    known = known or []
    out = answer if answer is not None else (
        (_te_reader.parse_results(data, known) if known else _te_reader.parse_results(data)) if compiled() else None)
    if out is None:
        out = _results_python(data, known)
    if len(out) == 2:
        line, fields = out
        rule = "no result line" if fields < 0 else f"{fields} {RESULTS_RULE}"
        raise malformed(path, line, "results", rule)
    query_ids, q, doc_ids, d, score, run_id = out
    return ParsedResults(query_ids, _array(q, np.int32), [*known, *doc_ids], _array(d, np.int32),
                         _array(score, np.float64), run_id, len(known))


def id_ranks(ids: np.ndarray) -> np.ndarray:
    """Each id's rank (int64) in strcmp's order of the ids' bytes (ties: their order), for Dataset.doc_keys: the
    compiled reader's sort, or Python's of the ids (latin-1: a character per byte, the same order)."""
    listed = ids.tolist()
    ranked = _te_reader.rank_ids(listed) if compiled() else None
    if ranked is not None:
        return _array(ranked, np.int64)
    ranks = np.empty(len(listed), dtype=np.int64)
    ranks[sorted(range(len(listed)), key=listed.__getitem__)] = np.arange(len(listed), dtype=np.int64)
    return ranks


def _array(values: bytearray | list, dtype: type) -> np.ndarray:
    """The compiled reader's buffer as an array without a copy (writable), or the loop's list as one."""
    if isinstance(values, bytearray):
        return np.frombuffer(values, dtype=dtype) if values else np.empty(0, dtype)
    return np.array(values, dtype=dtype)


def _qrels_python(data: bytes) -> tuple:
    """get_qrels.c's lines (see the module's docstring): the compiled reader's answer, from Python lists."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # (the piece after the last \n)
    queries: dict[bytes, int] = {}
    docs: dict[bytes, int] = {}
    grades: dict[bytes, int] = {}
    q, d, grade = [], [], []
    index = 0
    while index < len(lines):
        if lines[index].startswith(b"#"):
            index += 1  # (the comment; the next line is data whatever it holds)
            if index == len(lines):
                break
        fields = lines[index].split()
        if len(fields) != 4:
            return index + 1, len(fields)
        q.append(queries.setdefault(fields[0], len(queries)))
        d.append(docs.setdefault(fields[2], len(docs)))
        value = grades.get(fields[3])
        grade.append(value if value is not None else grades.setdefault(fields[3], c_atol(fields[3])))
        index += 1
    if not q:
        return 1, -1
    return _ids(queries), q, _ids(docs), d, grade, None


def _results_python(data: bytes, known: list[str]) -> tuple:
    """get_trec_results.c's lines (see the module's docstring): the compiled reader's answer, from Python lists."""
    queries: dict[bytes, int] = {}
    docs: dict[bytes, int] = {doc.encode(ENCODING): code for code, doc in enumerate(known)}
    scores: dict[bytes, float] = {}  # (atof once per distinct text)
    q, d, score = [], [], []
    run_id = b""
    for number, line in enumerate(data.split(b"\n"), start=1):
        fields = line.split(None, 6)  # (the sixth field and the rest of the line: a count below 6 is exact)
        if not fields or fields[0][:1] == b"#":
            continue
        if len(fields) < 6:
            return number, len(fields)
        q.append(queries.setdefault(fields[0], len(queries)))
        d.append(docs.setdefault(fields[2], len(docs)))
        value = scores.get(fields[4])
        score.append(value if value is not None else scores.setdefault(fields[4], c_atof(fields[4])))
        run_id = fields[5]
    if not q:
        return 1, -1
    return _ids(queries), q, _ids(docs)[len(known):], d, score, run_id.decode(ENCODING)


def _ids(codes: dict[bytes, int]) -> list[str]:
    return [key.decode(ENCODING) for key in codes]  # (a dict keeps the order of first insertion: the codes')


def c_atol(token: bytes) -> int:
    """glibc's atol (strtol base 10): the leading [+-]?digits, 0 without them, clamped to a long (a number of any
    length: Python's int() refuses over 4300 digits)."""
    match = re.match(_LEADING_INT, token)
    if match is None:
        return 0
    sign, digits = match.groups()
    value = int(digits) if len(digits) <= 19 else LONG_MAX + 1
    value = -value if sign == b"-" else value
    return max(-LONG_MAX - 1, min(LONG_MAX, value))


def c_atof(token: bytes) -> float:
    """glibc's atof (strtod): a plain decimal by float() (correctly rounded, as strtod), any other prefix by
    c_reading.atof (hexadecimal, inf, nan(...), a number followed by other bytes); a hexadecimal number beyond a
    double is +-inf, as strtod's overflow."""
    if re.fullmatch(_PLAIN_FLOAT, token):
        return float(token)
    try:
        return atof(token.decode(ENCODING))
    except OverflowError:
        return -math.inf if token.startswith(b"-") else math.inf
