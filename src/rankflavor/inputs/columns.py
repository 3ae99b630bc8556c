"""The column names a table input may use (a DataFrame, a Parquet or Arrow file, ir_datasets' namedtuples),
and the choice of one column per role, which never guesses between two candidates.

The one pair of candidates read without asking is PyTerrier's (its data model, `pyterrier/model.py`; the frames
of `pt.Experiment`, of a transformer and of `pt.io.read_results` / `read_qrels`): a results frame carries `qid`
(the query id) beside `query` (the query's text), and `docno` (the document id) beside `docid` (Terrier's
internal document number). Found as exactly such a pair, the id column is read and the other set aside; the
provenance names it (`columns_set_aside`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rankflavor.errors import InputError

QUERY_COLUMNS = ("query", "qid", "query_id", "topic")
DOC_COLUMNS = ("doc", "docid", "doc_id", "docno")
GRADE_COLUMNS = ("grade", "relevance", "rel", "label", "judgment", "rating")
SCORE_COLUMNS = ("score", "sim", "prediction")
QRELS_COLUMNS = ("query", "iteration", "doc", "grade")  # a TREC qrels line's fields, as the readers name them
RUN_COLUMNS = ("query", "q0", "doc", "rank", "score", "tag")  # a TREC run line's

# role -> (the id column PyTerrier reads, the column beside it, what that column holds)
PYTERRIER_PAIRS = {
    "query": ("qid", "query", "PyTerrier's query text"),
    "doc": ("docno", "docid", "Terrier's internal document number"),
}
_PAIRS_NOTE = ("; of two candidates only PyTerrier's pairs are read: qid beside query (the query text) reads qid, "
               "docno beside docid (Terrier's internal number) reads docno")


def _pyterrier_pair(found: Sequence[str], what: str) -> tuple[str, str, str] | None:
    """PyTerrier's (id column, other column, what the other holds) when `found` is exactly that pair."""
    pair = PYTERRIER_PAIRS.get(what)
    return pair if pair is not None and set(found) == {pair[0], pair[1]} else None


def pick(columns: Sequence[str], options: tuple[str, ...], what: str, name: str) -> str:
    """The one column of `columns` among `options` (PyTerrier's id column of its pair: module docstring);
    InputError naming the columns found and expected."""
    found = [option for option in options if option in columns]
    pair = _pyterrier_pair(found, what)
    if pair is not None:
        return pair[0]
    if len(found) > 1:
        note = _PAIRS_NOTE if what in PYTERRIER_PAIRS else ""
        raise InputError(f"several {what} columns: {', '.join(found)}", source=name,
                         fix=f"keep one {what} column (rankflavor does not guess which one you meant{note})")
    if found:
        return found[0]
    rank = " (a rank column alone: add a score that ranks as it does, minus the rank, e.g. df['score'] = " \
        "-df['rank'])" if what == "score" and "rank" in columns else ""
    raise InputError(f"no {what} column among {list(columns)}", source=name,
                     fix=f"name the {what} column one of: {', '.join(options)}{rank}")


def set_aside(columns: Sequence[str]) -> dict[str, str]:
    """The columns `pick` sets aside as the second of a PyTerrier pair -> what they hold and which column was read
    instead (the provenance's `columns_set_aside`); empty for any other table."""
    options = {"query": QUERY_COLUMNS, "doc": DOC_COLUMNS}
    aside = {}
    for what, candidates in options.items():
        pair = _pyterrier_pair([c for c in candidates if c in columns], what)
        if pair is not None:
            read, other, holds = pair
            aside[other] = f"{holds}; the {what} id is read from {read}"
    return aside


def pick_roles(columns: Sequence[str], value_columns: tuple[str, ...], what: str, name: str) -> tuple[str, str, str]:
    """(query, doc, value) columns of a table; InputError for repeated column names or a role with no column
    (or several)."""
    if len(set(columns)) != len(columns):
        repeated = sorted({c for c in columns if columns.count(c) > 1})
        raise InputError(f"repeated column names: {', '.join(repeated)}", source=name,
                         fix="give every column a distinct name")
    return (pick(columns, QUERY_COLUMNS, "query", name), pick(columns, DOC_COLUMNS, "doc", name),
            pick(columns, value_columns, what, name))
