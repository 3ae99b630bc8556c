"""Column-layout mistakes, named before they become numbers (a silent mean of 0, a reversed ranking).

A TREC qrels is `qid iter docid grade` and a run `qid Q0 docid rank score tag`. Files written in another
order still split into the right number of columns, so the readers accept them; what gives them away:

- a qrels whose doc ids are all iteration-like (`0`, `1`, `Q0`) and either repeat within a query or are one
  constant value across queries: `qid docid iter grade` (the doc ids are in the second column). The
  duplicate-judgment error it would raise otherwise advises `--on-duplicate first|max`, which would give a
  silent mean of 0: the layout error comes first, whatever the policy;
- a run whose doc column holds `Q0` on every line: `qid docid Q0 rank score tag`;
- a run whose query and doc columns are swapped (`docid Q0 qid rank score tag`; a frame whose query column holds
  doc ids, a dict `{docid: {qid: score}}`): most of its query ids are doc ids of the qrels and most of its doc ids
  are query ids of the qrels, while fewer than half of its query ids are (`check_query_doc_swap`, read on the
  distinct ids: a run that answers the qrels' queries costs one set look-up);
- a run whose scores are 1, 2, 3, ... (or 0, 1, 2, ...) down the file in every query, as ranks are: the rank
  and score columns are likely swapped (only likely: a warning, `rank_like_scores`);
- a line holding commas where columns are expected: a CSV file (trec_lines' fix says so).
Each fix is tested: applied to the file, it gives the numbers of the file written right.
"""

from __future__ import annotations

import re
import shlex

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.formats import line_of, line_text
from rankflavor.inputs.kernels import dictionary_encode, index_in, unique
from rankflavor.inputs.tables import QrelsTable, RunTable, Source
from rankflavor.plural import counted

_ITERATION = re.compile(r"[0-9]{1,2}|[Qq]0")
SWAP_QRELS = "'{print $1, $3, $2, $4}'"  # awk programs: each fix is a command the user can run
SWAP_RUN = "'{print $1, $3, $2, $4, $5, $6}'"
SWAP_RANK_SCORE = "'{print $1, $2, $3, $5, $4, $6}'"
SWAP_QUERY_DOC = "'{print $3, $2, $1, $4, $5, $6}'"


def awk(program: str, source: Source) -> str:
    """The command that rewrites the file with `program` (FILE for a Python input)."""
    path = shlex.quote(source.path) if source.path else "FILE"
    return f"awk {program} {path} > fixed.txt"


def _distinct(values: pa.Array) -> list[str]:
    return (values.dictionary if pa.types.is_dictionary(values.type) else unique(values)).to_pylist()


def _codes(values: pa.Array) -> np.ndarray:
    encoded = values if pa.types.is_dictionary(values.type) else dictionary_encode(values)
    return array_to_numpy(encoded.indices).astype(np.int64)


def _first_line(table: QrelsTable | RunTable) -> tuple[int | None, str | None]:
    line = line_of(table, 0)
    return line, (line_text(table.source.path or "", line) if line is not None else None)


def _where(source: Source) -> str:
    return source.path or source.name


def check_qrels_layout(table: QrelsTable) -> None:
    """Refuse a qrels written `qid docid iter grade` (see the module's docstring). Text files only: a
    mapping or a frame names its columns, it cannot swap them."""
    if table.source.kind != "trec" or table.rows < 2 or not _ITERATION.fullmatch(str(table.doc[0].as_py())):
        return
    docs = _distinct(table.doc)
    if not all(_ITERATION.fullmatch(d) for d in docs):
        return
    pairs = _codes(table.query) * (len(docs) + 1) + _codes(table.doc)
    repeated = len(np.unique(pairs)) < len(pairs)
    constant = len(docs) == 1 and len(_distinct(table.query)) > 1
    if not (repeated or constant):
        return
    line, text = _first_line(table)
    shown = ", ".join(repr(d) for d in docs[:3])
    raise InputError(
        f"the docid column (the third) holds only {shown}, which look like iteration numbers: this qrels looks "
        "written as 'qid docid iter grade'", source=_where(table.source), line=line, text=text,
        fix=f"TREC qrels are 'qid iter docid grade': swap the second and third columns, e.g. "
            f"{awk(SWAP_QRELS, table.source)}")


def check_run_layout(table: RunTable) -> None:
    """Refuse a run written `qid docid Q0 rank score tag` (see the module's docstring). Text files only."""
    if table.source.kind != "trec" or table.rows == 0 or table.doc[0].as_py() != "Q0":  # (TREC's literal; q0 is a doc)
        return
    if any(d != "Q0" for d in _distinct(table.doc)):
        return
    line, text = _first_line(table)
    raise InputError("the docid column (the third) holds 'Q0' on every line: this run looks written as "
                     "'qid docid Q0 rank score tag'", source=_where(table.source), line=line, text=text,
                     fix=f"TREC runs are 'qid Q0 docid rank score tag': swap the second and third columns, "
                         f"e.g. {awk(SWAP_RUN, table.source)}")


def _share_in(values: pa.Array, among: pa.Array) -> tuple[int, int]:
    """(how many of the distinct `values` are in the distinct `among`, how many distinct values)."""
    distinct = values.dictionary if pa.types.is_dictionary(values.type) else unique(values)
    found = index_in(distinct, among.dictionary if pa.types.is_dictionary(among.type) else unique(among))
    return len(distinct) - found.null_count, len(distinct)


def check_query_doc_swap(qrels: QrelsTable, run: RunTable) -> None:
    """Refuse a run whose query and doc columns are swapped (see the module's docstring): any input kind."""
    if run.rows == 0 or not qrels.rows:
        return
    queries_judged, queries = _share_in(run.query, qrels.query)
    if 2 * queries_judged >= queries:
        return  # (the common case: the run answers the qrels' queries)
    queries_as_docs, _ = _share_in(run.query, qrels.doc)
    docs_as_queries, docs = _share_in(run.doc, qrels.query)
    if 2 * queries_as_docs < queries or 2 * docs_as_queries < docs:
        return
    counts = (f"{queries_as_docs} of its {counted(queries, 'query id', 'query ids')} "
              f"{'is a doc id' if queries_as_docs == 1 else 'are doc ids'} of the qrels, {docs_as_queries} of its "
              f"{counted(docs, 'doc id', 'doc ids')} {'is a query id' if docs_as_queries == 1 else 'are query ids'} "
              "of the qrels")
    kind = run.source.kind
    if kind == "trec":
        line, text = _first_line(run)
        looks = "this run looks written as 'docid Q0 qid rank score tag'"
        fix = (f"TREC runs are 'qid Q0 docid rank score tag': swap the first and third columns, e.g. "
               f"{awk(SWAP_QUERY_DOC, run.source)}")
    elif kind == "csv":  # (the header names the columns: its line is the one to fix)
        line = int(run.extra.get("header_line", 1))  # type: ignore[call-overload]
        text = line_text(run.source.path or "", line)
        looks = "its query column looks to hold the doc ids and its doc column the query ids"
        fix = "the header names the columns: swap the names of the query and doc columns in its first line"
    elif kind == "dict":
        line, text, looks = None, None, "this run looks written as {docid: {qid: score}}"
        fix = ("a run dict is {qid: {docid: score}}: turn it round, e.g. fixed = {}; then for doc, scores in "
               "run.items(): for qid, score in scores.items(): fixed.setdefault(qid, {})[doc] = score")
    else:
        line, text, looks = None, None, "its query column looks to hold the doc ids and its doc column the query ids"
        fix = ("swap the names of the query and doc columns, e.g. pandas: df.rename(columns={'qid': 'docno', "
               "'docno': 'qid'}) with your column names")
    raise InputError(f"the run's query and doc columns look swapped ({counts}): {looks} (or is it the qrels whose "
                     "query and doc columns are swapped?)", source=_where(run.source), line=line,
                     text=text, fix=fix)


def rank_like_scores(table: RunTable) -> bool:
    """Whether, in every query, the scores down the file are 1, 2, 3, ... (or 0, 1, 2, ...), as ranks are,
    and some query lists two docs or more."""
    score = table.score
    if len(score) < 2 or score[0] not in (0.0, 1.0) or not bool((score == np.floor(score)).all()):
        return False
    query = _codes(table.query)
    order = np.argsort(query, kind="stable")
    grouped = query[order]
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    if len(starts) == len(grouped):
        return False  # one doc per query: nothing to tell
    position = np.arange(len(grouped)) - np.repeat(starts, np.diff(np.r_[starts, len(grouped)]))
    base = score[order][starts]
    if not bool(np.isin(base, (0.0, 1.0)).all()):
        return False
    return bool((score[order] == position + np.repeat(base, np.diff(np.r_[starts, len(grouped)]))).all())


def rank_like_warning(name: str, source: Source) -> str:
    if source.kind != "trec":  # (a table names its score column: it may hold ranks)
        return (f"{name}: in every query the scores are 1, 2, 3, ... down the input, as ranks are: does the score "
                "column hold ranks? The highest score ranks first (as in trec_eval), so each query's last row is "
                "ranked first here; if it holds ranks, give minus the rank as the score")
    return (f"{name}: in every query the scores are 1, 2, 3, ... down the file, as ranks are: are the rank and "
            "score columns swapped? The highest score ranks first (as in trec_eval), so each query's last line "
            f"is ranked first here; if they are swapped, swap the 4th and 5th columns, e.g. "
            f"{awk(SWAP_RANK_SCORE, source)}")
