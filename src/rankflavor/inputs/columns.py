"""The column names a table input may use (a DataFrame, a Parquet or Arrow file, ir_datasets' namedtuples),
and the choice of one column per role, which never guesses between two candidates."""

from __future__ import annotations

from collections.abc import Sequence

from rankflavor.errors import InputError

QUERY_COLUMNS = ("query", "qid", "query_id", "topic")
DOC_COLUMNS = ("doc", "docid", "doc_id", "docno")
GRADE_COLUMNS = ("grade", "relevance", "rel", "label", "judgment")
SCORE_COLUMNS = ("score", "sim", "prediction")


def pick(columns: Sequence[str], options: tuple[str, ...], what: str, name: str) -> str:
    """The one column of `columns` among `options`; InputError naming the columns found and expected."""
    found = [option for option in options if option in columns]
    if len(found) > 1:
        raise InputError(f"several {what} columns: {', '.join(found)}", source=name,
                         fix=f"keep one {what} column (rankflavor does not guess which one you meant)")
    if found:
        return found[0]
    raise InputError(f"no {what} column among {list(columns)}", source=name,
                     fix=f"name the {what} column one of: {', '.join(options)}")


def pick_roles(columns: Sequence[str], value_columns: tuple[str, ...], what: str, name: str) -> tuple[str, str, str]:
    """(query, doc, value) columns of a table; InputError for repeated column names or a role with no column
    (or several)."""
    if len(set(columns)) != len(columns):
        repeated = sorted({c for c in columns if columns.count(c) > 1})
        raise InputError(f"repeated column names: {', '.join(repeated)}", source=name,
                         fix="give every column a distinct name")
    return (pick(columns, QUERY_COLUMNS, "query", name), pick(columns, DOC_COLUMNS, "doc", name),
            pick(columns, value_columns, what, name))
