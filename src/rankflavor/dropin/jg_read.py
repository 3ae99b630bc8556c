"""Reader of trec_eval's `-R qrels_jg` format (get_qrels_jg.c): `qid jg docno rel` a line, the judgments of
each judgment group (JG: one user's qrels) kept apart."""

from __future__ import annotations

from rankflavor.dropin.te_text import EXIT_BAD_FILE, c_atol, fail, judgment_lines, read_bytes
from rankflavor.errors import InputError

QrelsJg = dict[bytes, dict[bytes, dict[bytes, int]]]
"""qid -> jg -> docno -> rel, queries and JGs in strcmp order (ids are bytes)."""


def read_qrels_jg(path: str) -> QrelsJg:
    """get_qrels_jg.c: exactly four fields a data line, rel read by atol (a negative rel is "in the pool but
    unjudged"); a docno twice within one JG of one query is an error (trec_eval: "duplicate docs")."""
    what = "-R qrels_jg rel_info file"
    by_query: QrelsJg = {}
    for line_no, fields in judgment_lines(read_bytes(path, what)):
        if len(fields) != 4:
            raise fail(InputError, f"malformed {what} line: {len(fields)} fields where trec_eval reads exactly 4 "
                       "(qid jg docno rel)", source=path, line=line_no,
                       text=b" ".join(fields).decode("utf-8", "replace"),
                       fix="write 4 whitespace-separated fields on every line (a '#' line is a comment, and only "
                       "one in a row: trec_eval reads the next line as data)", exit_code=EXIT_BAD_FILE)
        qid, jg, docno, rel = fields
        judged = by_query.setdefault(qid, {}).setdefault(jg, {})
        if docno in judged:
            shown = [part.decode("utf-8", "replace") for part in (docno, jg, qid)]
            raise fail(InputError, f"duplicate docs: {shown[0]} is judged twice in judgment group {shown[1]} of "
                       f"query {shown[2]}", source=path, line=line_no, fix="keep one judgment per (qid, jg, docno)",
                       exit_code=EXIT_BAD_FILE)
        judged[docno] = c_atol(rel)
    if not by_query:
        raise fail(InputError, f"the {what} has no judgment lines", source=path, fix="add lines `qid jg docno rel`",
                   exit_code=EXIT_BAD_FILE)
    return {qid: {jg: by_query[qid][jg] for jg in sorted(by_query[qid])} for qid in sorted(by_query)}
