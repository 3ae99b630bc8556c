"""The trec_results reader the non-standard rel_info formats are evaluated against, as get_trec_results.c reads a
run: `qid iter docno rank sim run_id [anything]` a line, blank lines and `#` lines (after leading white space)
skipped, sim read by atof, iter and rank ignored; the run's runid is the last line's run_id."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rankflavor.dropin.te_text import EXIT_BAD_FILE, c_atof, fail, read_bytes
from rankflavor.errors import InputError


@dataclass(frozen=True)
class TrecResults:
    """A run: its runid and, per query, (docno, sim) in file order (ids are bytes, compared as strcmp does)."""

    run_id: bytes
    by_query: dict[bytes, list[tuple[bytes, float]]]


def read_trec_results(path: str) -> TrecResults:
    """get_trec_results.c: at least six fields a data line (the rest of the line ignored)."""
    by_query: dict[bytes, list[tuple[bytes, float]]] = {}
    run_id = b""
    for line_no, line in enumerate(read_bytes(path, "results file").split(b"\n"), start=1):
        fields = line.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        if len(fields) < 6:
            raise fail(InputError, f"malformed results line: {len(fields)} fields where trec_eval reads six "
                       "(qid iter docno rank sim run_id)", source=path, line=line_no,
                       text=line.decode("utf-8", "replace"), fix="write the six columns of a TREC run",
                       exit_code=EXIT_BAD_FILE)
        qid, _iter, docno, _rank, sim, run_id = fields[:6]
        by_query.setdefault(qid, []).append((docno, c_atof(sim)))
    if not by_query:
        raise fail(InputError, "the results file has no result lines", source=path,
                   fix="give a TREC run: qid iter docno rank sim run_id", exit_code=EXIT_BAD_FILE)
    return TrecResults(run_id, by_query)


def ranked_docnos(results: list[tuple[bytes, float]], max_docs: int | None, *, ties_docno_ascending: bool) -> list[bytes]:
    """A query's docnos in trec_eval's rank order: sim descending, ties by docno (ascending in
    form_prefs_counts.c, descending in form_res_rels_jg.c), cut to `-M max_docs`; a docno twice within the cut
    is the error both files report ("duplicate docs")."""
    if ties_docno_ascending:
        ordered = sorted(results, key=lambda row: (-row[1], row[0]))
    else:
        ordered = sorted(sorted(results, key=lambda row: row[0], reverse=True), key=lambda row: -row[1])
    docnos = [docno for docno, _sim in ordered[:max_docs]]
    twice = sorted(docno for docno, count in Counter(docnos).items() if count > 1)
    if twice:
        raise DuplicateDoc(twice[0])
    return docnos


class DuplicateDoc(Exception):
    """A docno retrieved twice for a query (within -M): trec_eval fails that query's measure (exit 4)."""

    def __init__(self, docno: bytes) -> None:
        super().__init__(docno)
        self.docno = docno
