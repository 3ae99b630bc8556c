"""A qrels and a results file's lines as trec_eval 10.0 parses them (get_qrels.c, get_trec_results.c), as
per-file codes: each file's ids in order of first appearance, each line's codes into them, its grade (atol) or
score (atof). (Interim: the Python loop; the compiled parser replaces it.)"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rankflavor.dropin.c_reading import TrecEvalExit
from rankflavor.dropin.te_text import c_atof, c_atol, judgment_lines

ENCODING = "latin-1"


@dataclass
class ParsedQrels:
    query_ids: list[str]
    q: np.ndarray
    doc_ids: list[str]
    d: np.ndarray
    grade: np.ndarray  # int64


@dataclass
class ParsedResults:
    query_ids: list[str]
    q: np.ndarray
    doc_ids: list[str]
    d: np.ndarray
    score: np.ndarray  # float64
    run_id: str


def malformed(path: str, line: int, what: str, rule: str) -> TrecEvalExit:
    return TrecEvalExit(2, f"trec_eval: {path}:{line}: malformed {what} line: {rule}")


def _code(ids: dict[bytes, int], token: bytes) -> int:
    return ids.setdefault(token, len(ids))


def _names(ids: dict[bytes, int]) -> list[str]:
    return [token.decode(ENCODING) for token in ids]


def parse_qrels(data: bytes, path: str) -> ParsedQrels:
    queries: dict[bytes, int] = {}
    docs: dict[bytes, int] = {}
    q, d, grade = [], [], []
    for line, fields in judgment_lines(data):
        if len(fields) != 4:
            raise malformed(path, line, "qrels", f"{len(fields)} fields where trec_eval reads exactly 4 (qid "
                                                 "iter docno rel; '#' starts a comment line, one at a time)")
        q.append(_code(queries, fields[0]))
        d.append(_code(docs, fields[2]))
        grade.append(c_atol(fields[3]))
    if not q:
        raise malformed(path, 1, "qrels", "no judgment line")
    return ParsedQrels(_names(queries), np.array(q, np.int32), _names(docs), np.array(d, np.int32),
                       np.array(grade, np.int64))


def parse_results(data: bytes, path: str) -> ParsedResults:
    queries: dict[bytes, int] = {}
    docs: dict[bytes, int] = {}
    q, d, score, run_id = [], [], [], b""
    for number, line in enumerate(data.split(b"\n"), start=1):
        fields = line.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        if len(fields) < 6:
            raise malformed(path, number, "results", f"{len(fields)} fields where trec_eval reads six or more "
                                                     "(qid iter docno rank sim run_id)")
        q.append(_code(queries, fields[0]))
        d.append(_code(docs, fields[2]))
        score.append(c_atof(fields[4]))
        run_id = fields[5]
    if not q:  # (C reads a run of comments only past its buffers: undefined)
        raise malformed(path, 1, "results", "no result line")
    return ParsedResults(_names(queries), np.array(q, np.int32), _names(docs), np.array(d, np.int32),
                         np.array(score, np.float64), run_id.decode(ENCODING))
