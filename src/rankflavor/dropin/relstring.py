"""`trec_eval -m relstring[.N]`: per query, the grades of its first N ranked docs (default 10) as a string
(m_relstring.c): a grade 0..9 as its digit, above 9 `>`, a doc absent from the qrels `-`, a doc the qrels list
with a negative grade (in the pool, unjudged) `.`. Printed for each query only (`-q`), in quotes; a query that
`-c` adds (absent from the run) has the empty string.

The ranked list is trec_eval's (form_res_rels.c): score descending, ties by docno descending; `-M N` keeps the
first N; `-J` drops the docs without a grade >= 0 and closes the gaps. Not a number, so not a flavor: a
drop-in feature of trec_eval's lines.
"""

from __future__ import annotations

import numpy as np


def relstrings(dataset, run, length: int, max_docs: int | None, judged_only: bool) -> dict[int, str]:
    """{query code: its relstring} for every query of the run."""
    q = run.q_codes.full()
    d = run.d_codes.full()
    if not len(q):  # (every list empty: -M 0)
        return {}
    order = np.lexsort((-dataset.doc_keys(d), -run.score.astype(np.float64), q))  # query, score desc, docno desc
    q, d = q[order], d[order]
    qrels = dataset.qrels
    found = np.searchsorted(qrels.key, q * dataset.n_docs + d)
    found = np.minimum(found, len(qrels.key) - 1)
    in_pool = qrels.key[found] == q * dataset.n_docs + d if len(qrels.key) else np.zeros(len(q), bool)
    grade = np.where(in_pool, qrels.grade[found] if len(qrels.key) else 0, np.nan)
    out: dict[int, str] = {}
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]]) if len(q) else np.array([], dtype=np.int64)
    for start, end in zip(starts, [*starts[1:], len(q)], strict=True):
        grades = grade[start:end][:max_docs] if max_docs is not None else grade[start:end]
        if judged_only:
            grades = grades[grades >= 0]
        out[int(q[start])] = "".join(_char(g) for g in grades[:max(length, 0)])
    return out


def _char(grade: float) -> str:
    if np.isnan(grade):
        return "-"
    if grade < 0:
        return "."
    return ">" if grade > 9 else str(int(grade))
