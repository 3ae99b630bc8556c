"""A standard qrels and results file as trec_eval 10.0 reads them (get_qrels.c, get_trec_results.c), made the
tables rankflavor's engine evaluates.

The bytes are C's: a field is what lies between runs of C's isspace (space, \\t, \\v, \\f, \\r; a line ends at
\\n), a grade is atol of its field (`0.5` is 0, `1e1` is 1, `3x` is 3), a score atof of its own (`0x10` is 16,
`1e400` inf, `2.5abc` 2.5), an id is its bytes (a byte-order mark is part of the first line's query id). A
qrels line has exactly four fields, a `#` first on a line makes it a comment and the line after it is read as
data whatever it holds (so a blank line, or a second comment in a row with other than four fields, is
malformed: exit 2); a results line has six fields or more (the rest ignored), and a blank line or a `#` after
leading white space is skipped. The file ends at its first NUL byte, as C's string functions end there. Ids are
handed to the engine as latin-1 text: one character per byte, so the engine's order of ids is strcmp's, and
printing encodes them back to their bytes.

What C decides beyond the rows, kept here for the evaluation loop (dropin/trec_eval.py): the queries of the
results file (`present`, a query with its every doc cut by `-M 0` included), the queries with a doc judged
twice or ranked twice within its first -M docs (form_res_rels.c fails their measures: exit 4 when evaluated),
each query's highest grade, the judgments graded above 0 (m_num_rel.c's -c summary) and the runid (the last
results line's sixth field). The lines are parsed by dropin/te_parse.py (compiled, or its Python loop) into
per-file codes; dropin/te_dataset.py makes them the engine's Dataset. Neither imports pyarrow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from rankflavor.dropin.te_files import STAND_IN, EarlyRead, bytes_and_answer
from rankflavor.dropin.te_parse import ParsedResults, id_ranks, parse_qrels, parse_results

if TYPE_CHECKING:
    from rankflavor.inputs.query_major import RunLayout

ENCODING = "latin-1"  # ids: one character per byte (C's strcmp order is the characters' order)


class CQrels(NamedTuple):
    """The judgments the engine reads: one row per (query, doc), of a doc judged twice the first line's."""

    query_ids: list[str]  # the file's queries, in order of first appearance
    q: np.ndarray  # int64 per row: a code into query_ids
    doc_ids: list[str]
    d: np.ndarray  # int64 per row: a code into doc_ids
    grade: np.ndarray  # float64 per row
    twice: set[str]  # queries with a doc judged twice
    top_grade: dict[str, int]  # per query, its highest grade
    positive: int  # judgment lines graded above 0 (duplicates included)


class CResults(NamedTuple):
    """The rows the engine ranks: each query's first -M docs, a doc ranked twice once, -c's stand-in rows last."""

    query_ids: list[str]  # the results file's queries, then the stand-in's (each present: an emptied one too)
    q: np.ndarray  # per row (int32 as parsed, int64 when reordered): a code into query_ids
    doc_ids: list[str]  # the file's docs, then the stand-in doc when a stand-in row is added
    d: np.ndarray  # per row: a code into doc_ids
    score: np.ndarray  # float64
    present: set[str]  # the queries of the results file
    twice: set[str]  # queries with a doc twice among their first -M docs
    run_id: str
    known: int = 0  # doc_ids begins with the qrels' doc ids, in their order (results_table's `known`): how many
    layout: RunLayout | None = None  # the rows' layout by their codes into query_ids, when the check made it
    doc_ranks: np.ndarray | None = None  # each doc id's rank in strcmp's order, when the early read made them


def read_qrels(path: str, early: EarlyRead | None = None) -> CQrels:
    """get_qrels.c's reading (exit 2 on a malformed line), the rows ready for the engine; the file read and parsed
    by `early` when it holds it."""
    data, answer = bytes_and_answer(early.qrels(path) if early else None, path, "qrels file", stdin=False)
    parsed = parse_qrels(data, path, answer)
    q, d, grade = parsed.q.astype(np.int64), parsed.d.astype(np.int64), parsed.grade
    key = q * (len(parsed.doc_ids) + 1) + d
    first, counts = first_of_each(key)
    twice = {parsed.query_ids[c] for c in set(q[first[counts > 1]].tolist())}
    keep = np.sort(first)
    top = np.full(len(parsed.query_ids), np.iinfo(np.int64).min)
    np.maximum.at(top, q, grade)
    return CQrels(parsed.query_ids, q[keep], parsed.doc_ids, d[keep], grade[keep].astype(np.float64), twice,
                  dict(zip(parsed.query_ids, top.tolist(), strict=True)), int(np.count_nonzero(grade > 0)))


def first_of_each(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the index of each distinct value's first occurrence, its count), in the values' ascending order: what
    np.unique(return_index, return_counts) gives, without the numpy.ma it imports."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]]) if len(values) else np.zeros(0, np.int64)
    return order[new], np.diff(np.r_[new, len(values)])


def _repeats(q: np.ndarray, d: np.ndarray, n_queries: int) -> tuple[bool, RunLayout | None]:
    """Whether a query lists a doc twice: the engine's row-wise check of each query's docs (inputs/query_major.py),
    whose layout of the rows (the file's query codes) comes back for the Dataset; or, for very uneven queries, one
    sort of the (query, doc) keys."""
    from rankflavor.inputs.query_major import build_layout, has_duplicates

    layout = build_layout(q, n_queries)
    if layout.paddable:
        return has_duplicates(layout, d), layout
    ordered = np.sort(q.astype(np.int64) * (int(d.max(initial=0)) + 1) + d)
    return bool(np.any(ordered[1:] == ordered[:-1])), None


def c_order(q_codes: np.ndarray, docs: list[str], d_codes: np.ndarray, score: np.ndarray,
            doc_rank: np.ndarray | None = None) -> np.ndarray:
    """The rows in form_res_rels.c's order: query, then score descending, ties by docno descending (strcmp);
    `doc_rank`: the docs' ranks when they are known."""
    doc_rank = id_ranks(np.array(docs, dtype=object)) if doc_rank is None else doc_rank
    return np.lexsort((-doc_rank[d_codes], -score, q_codes))


def results_table(path: str, stand_in: list[str], max_docs: int | None, known: list[str] | None = None,
                  early: EarlyRead | None = None) -> CResults:
    """The results as the engine is to rank them: each query's first `max_docs` in C's order (all of them when
    None; none when <= 0), a doc listed twice there once (its query in `twice`), the stand-in ranking of -c for
    the queries of `stand_in` the results lack, every query present (an emptied one too). `known`: the qrels' doc
    ids, which the doc codes are to begin with (te_parse.parse_results); the file read and parsed by `early` when it
    holds it. Most files keep every row as read (no -M, finite scores, no doc twice): the parsed arrays as they are."""
    data, answer = bytes_and_answer(early.results(path, known or []) if early else None, path, "results file",
                                    stdin=True)
    parsed = parse_results(data, path, known, answer)
    del data, answer  # (the bytes are not held while the rows are kept)
    ranked = early.doc_ranks() if early else None  # (parsed's doc ids, then STAND_IN: ranked on the early thread)
    ranks = None if ranked is None else np.frombuffer(ranked, dtype=np.int64)
    queries, docs = parsed.query_ids, parsed.doc_ids
    q_codes, d_codes, score, twice, layout = parsed.q, parsed.d, parsed.score, set(), None
    finite = bool(np.isfinite(score).all())
    repeats = False
    if max_docs is None and finite:
        repeats, layout = _repeats(parsed.q, parsed.d, len(queries))
    if max_docs is not None or not finite or repeats:
        q_codes, d_codes, score, twice = _kept_in_c_order(parsed, max_docs, finite,
                                                          None if ranks is None else ranks[:len(docs)])
        layout = None
    present = set(queries)
    stand_in = [q for q in stand_in if q not in present]
    extra = len(stand_in) if max_docs is None or max_docs > 0 else 0
    stand_in_code = docs.index(STAND_IN) if extra and STAND_IN in docs else len(docs)
    doc_ids = [*docs, STAND_IN] if extra and stand_in_code == len(docs) else docs
    if extra:
        q_codes = np.r_[q_codes, np.arange(len(queries), len(queries) + extra)]
        d_codes = np.r_[d_codes, np.full(extra, stand_in_code)]
        score, layout = np.r_[score, np.ones(extra)], None
    return CResults([*queries, *stand_in], q_codes, doc_ids, d_codes, score, present, twice, parsed.run_id,
                    parsed.known, layout, None if ranks is None else ranks[:len(doc_ids)])


def _kept_in_c_order(parsed: ParsedResults, max_docs: int | None, finite: bool, doc_rank: np.ndarray | None = None,
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, set[str]]:
    """(q, d, score, queries with a doc twice) of the rows trec_eval keeps, in C's order: each query's first
    `max_docs` (all: None), a doc twice there once; scores that are not all finite replaced by -1, -2, ... in that
    order (the engine ranks by score: C's order made them)."""
    queries, docs = parsed.query_ids, parsed.doc_ids
    q_codes, d_codes, score = parsed.q.astype(np.int64), parsed.d.astype(np.int64), parsed.score
    order = c_order(q_codes, docs, d_codes, score, doc_rank)
    starts = np.r_[0, np.flatnonzero(np.diff(q_codes[order])) + 1]
    rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    order = order[rank < max_docs] if max_docs is not None else order
    first, counts = first_of_each((q_codes * (len(docs) + 1) + d_codes)[order])
    twice = {queries[q] for q in set(q_codes[order[first[counts > 1]]].tolist())}
    keep = order[np.sort(first)]
    kept_score = score[keep] if finite else -np.arange(1, len(keep) + 1, dtype=np.float64)
    return q_codes[keep], d_codes[keep], kept_score, twice
