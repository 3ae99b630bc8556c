"""Readers of trec_eval's preference rel_info formats: `-R prefs` (get_prefs.c: `qid jg jsg docno rel_level`)
and `-R qrels_prefs` (get_qrels_prefs.c: a standard qrels `qid iter docno rel` read as preferences, the iter
column as the judgment group and one sub-group, "0", per group)."""

from __future__ import annotations

from dataclasses import dataclass

from rankflavor.dropin.te_text import EXIT_BAD_FILE, c_atof, fail, judgment_lines, read_bytes
from rankflavor.errors import InputError


@dataclass(frozen=True)
class PrefJudgment:
    """One line of a preference file: the doc's rel_level within sub-group `jsg` of judgment group `jg`
    (ids are bytes: trec_eval compares them with strcmp)."""

    jg: bytes
    jsg: bytes
    docno: bytes
    rel_level: float


PrefsByQuery = dict[bytes, list[PrefJudgment]]


def read_prefs(path: str) -> PrefsByQuery:
    """`-R prefs`: five fields a line, `qid jg jsg docno rel_level` (rel_level read by atof); queries in strcmp
    order of qid, as get_prefs.c's sort leaves them."""
    return _read(path, columns=5, reader="prefs")


def read_qrels_prefs(path: str) -> PrefsByQuery:
    """`-R qrels_prefs`: four fields a line, `qid jg docno rel_level`, the sub-group "0" for every line
    (get_qrels_prefs.c)."""
    return _read(path, columns=4, reader="qrels_prefs")


def _read(path: str, *, columns: int, reader: str) -> PrefsByQuery:
    """Both readers: exactly `columns` whitespace-separated fields a data line (get_prefs.c parse_prefs_line,
    get_qrels_prefs.c parse_qrels_prefs_line), comments as judgment_lines reads them."""
    what = f"-R {reader} rel_info file"
    layout = "qid jg jsg docno rel_level" if columns == 5 else "qid jg docno rel_level"
    by_query: PrefsByQuery = {}
    for line_no, fields in judgment_lines(read_bytes(path, what)):
        if len(fields) != columns:
            raise fail(InputError, f"malformed {what} line: {len(fields)} fields where trec_eval reads exactly "
                       f"{columns} ({layout})", source=path, line=line_no, text=b" ".join(fields).decode(
                           "utf-8", "replace"), fix=f"write {columns} whitespace-separated fields on every line "
                       "(a '#' line is a comment, and only one in a row: trec_eval reads the next line as data)",
                       exit_code=EXIT_BAD_FILE)
        if columns == 5:
            qid, jg, jsg, docno, rel = fields
        else:
            qid, jg, docno, rel = fields
            jsg = b"0"
        by_query.setdefault(qid, []).append(PrefJudgment(jg, jsg, docno, c_atof(rel)))
    if not by_query:
        raise fail(InputError, f"the {what} has no judgment lines", source=path,
                   fix=f"add lines `{layout}`", exit_code=EXIT_BAD_FILE)
    return {qid: by_query[qid] for qid in sorted(by_query)}
