"""RankLib's score file as a run: `java -jar RankLib.jar -load MODEL -rank FILE -score OUT` writes one line per
document of FILE, `QUERY<TAB>INDEX<TAB>SCORE`, INDEX the document's position (from 0) within its query's lines
(codelibs/ranklib src/main/java/ciir/umass/edu/eval/Evaluator.java `score`: `l.getID() + "\\t" + j + "\\t" +
ranker.eval(l.get(j))`, the score as Java's Double.toString prints it: `1.0E-4`, `NaN`, `Infinity`).

It names no document: it is read with the judgment file it scored, given as the qrels (inputs/ranklib.py), each
(query, index) the doc of that position there (its `# DOCID`, or the position itself). Blank lines and `#` lines
are skipped and counted. A line that is not three fields, an index that is not a count from 0, a score that is
not a finite number, a query absent from the judgment file, an index beyond its query's lines, and a query whose
lines are scored only in part (the score file of another file) are errors naming the line.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import NoReturn

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.tables import QrelsTable, RunTable
from rankflavor.inputs.text_file import TextFile, read_text_file
from rankflavor.inputs.trec_lines import parse_number, split_lines

PAIRS = ("a RankLib score file names no document: it is read with the RankLib judgment file it scored, given as the "
         "qrels (each QUERY, INDEX is the doc at that position among the query's lines there)")


def _fail(file: TextFile, line: int, text: str, reason: str, fix: str) -> NoReturn:
    raise InputError(reason, source=file.where, line=line, text=text, fix=fix)


def _positions(qrels: QrelsTable | None, file: TextFile) -> dict[tuple[str, int], str]:
    """(query, position) -> doc id of the judgment file the scores pair with."""
    if qrels is None or qrels.source.kind != "ranklib":
        got = "no qrels read with it" if qrels is None else f"the qrels is not a RankLib file (it is {qrels.source.kind})"
        raise InputError(f"{PAIRS}; {got}", source=file.where,
                         fix="give the judgment file RankLib scored (-rank FILE) as the qrels; or write a TREC run "
                             "with RankLib's -indri option and evaluate that")
    position = qrels.extra["position"]
    return dict(zip(zip(qrels.query.to_pylist(), np.asarray(position).tolist(), strict=True), qrels.doc.to_pylist(),
                    strict=True))


def _row(file: TextFile, number: int, raw: str, known: dict[tuple[str, int], str]) -> tuple[str, str, float]:
    fields = raw.split()
    if len(fields) != 3:
        _fail(file, number, raw, f"expected 3 fields (QUERY INDEX SCORE), found {len(fields)}",
              "a RankLib score file is RankLib's -score output: QUERY<TAB>INDEX<TAB>SCORE per line")
    query, index, text = fields
    if not index.isdigit() or not index.isascii():
        _fail(file, number, raw, f"index {index!r} is not a position (0, 1, 2, ...)",
              "the second field is the document's position within its query's lines, from 0")
    score = parse_number(text)
    if score is None or not math.isfinite(score):
        _fail(file, number, raw, f"score {text!r} is not a finite number",
              "RankLib wrote NaN or Infinity: the model's score of this document is not a number; retrain or fix "
              "the features")
    doc = known.get((query, int(index)))
    if doc is None:
        count = sum(1 for q, _ in known if q == query)
        there = f"has {count} lines there (positions 0 to {count - 1})" if count else "is not in it"
        _fail(file, number, raw, f"query {query!r} {there}: this line scores position {index}",
              f"{PAIRS}: give the judgment file this score file was made from")
    return query, doc, score


def read_run(path: Path, raw: bytes | None, defer_scan: bool, qrels: QrelsTable | None) -> RunTable:
    """A RankLib score file, paired with its judgment file `qrels` (inputs/formats.py's table)."""
    file = read_text_file(path, raw)
    known = _positions(qrels, file)
    queries, docs, scores, lines = [], [], [], []
    comments = blanks = 0
    for number, text in enumerate(split_lines(file.text), start=1):
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            comments += bool(stripped)
            blanks += not stripped
            continue
        query, doc, score = _row(file, number, text, known)
        queries.append(query)
        docs.append(doc)
        scores.append(score)
        lines.append(number)
    _check_whole(file, queries, lines, known)
    source = file.source("ranklib_scores")
    source.comment_lines, source.blank_lines = comments, blanks
    return RunTable(source=source, query=pa.array(queries, pa.string()), doc=pa.array(docs, pa.string()),
                    score=np.asarray(scores, dtype=np.float64), line=np.asarray(lines, dtype=np.int64))


def _check_whole(file: TextFile, queries: list[str], lines: list[int], known: dict[tuple[str, int], str]) -> None:
    """Each query scored is scored whole: RankLib scores every line of the file it ranks."""
    scored: dict[str, int] = {}
    for query in queries:
        scored[query] = scored.get(query, 0) + 1
    judged: dict[str, int] = {}
    for query, _ in known:
        judged[query] = judged.get(query, 0) + 1
    for query, count in scored.items():
        if count < judged[query]:
            line = lines[queries.index(query)]
            raise InputError(f"query {query!r} has {judged[query]} lines in the judgment file, {count} of them scored "
                             "here: a RankLib score file scores every line of the file it ranks",
                             source=file.where, line=line, text=split_lines(file.text)[line - 1],
                             fix=f"{PAIRS}: give the judgment file this score file was made from")
