"""Duplicate (query, doc) rows in a qrels or a run, under the `on_duplicate` policy.

- `error` (default): an InputError naming the file, both lines, and whether the values agree;
- `first`: keep the row that comes first in the input;
- `max`: keep the row with the highest grade or score (the first of equal ones).
- `count` (not a user's choice: what the evaluation picks when every flavor asked counts repeats, udcg_authors'
  `repeats=count`): a run keeps every row, each listing of a doc a passage of its own (GiovanniTRA/UDCG
  compute_udcg_scores.py compute_udcg_score counts every entry of the passage list, ids unread); a qrels keeps
  one of identical judgments (the one passage's one utility) and refuses conflicting ones (which listing has
  which utility is not said).

Identical duplicates (same value twice) are treated like conflicting ones: an error by default, because a
file that lists a pair twice is usually two files concatenated; every policy gives the same numbers for them.
Rows removed are counted in the input's provenance (`Source.duplicates`: `identical`, `conflicting`).
"""

from __future__ import annotations

import numpy as np

from rankflavor.errors import InputError
from rankflavor.inputs.formats import line_of, line_text, row_text
from rankflavor.inputs.tables import QrelsTable, RunTable

POLICIES = ("error", "first", "max")
COUNT = "count"  # (picked by the evaluation from its flavors: never a value of --on-duplicate)


def _values(table: QrelsTable | RunTable) -> np.ndarray:
    return table.grade if isinstance(table, QrelsTable) else table.score


def _raise(table: QrelsTable | RunTable, first: int, second: int, policy: str = "error") -> None:
    is_qrels = isinstance(table, QrelsTable)
    what, value_name = ("judgment", "grade") if is_qrels else ("document in the run", "score")
    values = _values(table)
    a, b = float(values[first]), float(values[second])
    query, doc = table.query[second].as_py(), table.doc[second].as_py()
    line, earlier = line_of(table, second), line_of(table, first)
    if line is not None:
        where, here, text = f"line {earlier}", "here", row_text(table, second, line)
    elif table.source.kind == "spark":  # (a slice's row positions are not the DataFrame's: none is named)
        where, here, text, line = "one row", "on another", None, None
    else:
        where, here, text, line = f"row {first}", f"on row {second}", None, None
    kind = "identical" if a == b else "conflicting"
    reason = (f"duplicate {what} ({kind}) for query {query!r} doc {doc!r}: {value_name} {a:g} on {where}, "
              f"{b:g} {here}")
    fix = ("keep one judgment per (query, doc)" if is_qrels else "a run lists each doc at most once per query")
    if policy == COUNT:  # (a conflicting judgment of a passage that a run may list twice: repeats=count)
        fix += ("; the flavors count a doc a run lists twice (repeats=count), each listing with the doc's one "
                "utility: its judgments must agree")
    fix += ", or choose a policy: --on-duplicate first|max (Python: on_duplicate='first' or 'max')"
    if a == b:
        fix += "; the values agree, so both policies give the same numbers"
    if is_qrels and table.source.kind == "trec" and text is not None and _second_columns_differ(table, text, earlier):
        fix += (". The two lines differ in their second column: if it is a subtopic, this is a subtopic (diversity) "
                "qrels (qid subtopic docid grade), which goes with the diversity measures (alpha_ndcg, err_ia, nrbp, "
                "p_ia, s_recall, ap_ia: docs/diversity.md)")
    raise InputError(reason, source=table.source.path or table.source.name, line=line, text=text, fix=fix)


def _second_columns_differ(table: QrelsTable, text: str, earlier: int | None) -> bool:
    """Whether a duplicate's two qrels lines differ in their second column (a subtopic qrels read as a plain one)."""
    first = line_text(table.source.path or table.source.name, earlier) if earlier is not None else None
    fields, earlier_fields = text.split(), (first or "").split()
    return len(fields) == len(earlier_fields) == 4 and fields[1] != earlier_fields[1]


def resolve_duplicates(table: QrelsTable | RunTable, key: np.ndarray, policy: str = "error") -> np.ndarray | slice:
    """Apply the policy to rows sharing a key; the rows kept, in input order (`slice(None)` when all are).

    The table itself is left whole (its rows, lines and provenance count are what was read).
    """
    return resolve_sorted(table, key, policy)[0]


def resolve_sorted(table: QrelsTable | RunTable, key: np.ndarray, policy: str = "error",
                   ) -> tuple[np.ndarray | slice, np.ndarray | None]:
    """`resolve_duplicates`, and the stable order of the keys when every row is kept (the sort that found no
    repeat: the qrels are sorted by it next), else None."""
    if policy not in (*POLICIES, COUNT):
        raise ValueError(f"on_duplicate must be one of {', '.join(POLICIES)}, not {policy!r}")
    table.source.duplicates = {"identical": 0, "conflicting": 0}
    table.source.repeats = 0
    n = len(key)
    if n < 2:
        return slice(None), None
    values = _values(table)
    order = np.argsort(key)  # (any sort: when no key repeats, it is the stable order; numpy's is faster)
    sorted_key = key[order]
    repeat = np.zeros(n, dtype=bool)
    repeat[1:] = sorted_key[1:] == sorted_key[:-1]
    if not repeat.any():
        return slice(None), order
    order = np.argsort(key, kind="stable")  # by key, then input order (the sorted keys, and `repeat`, are the same)
    if policy == COUNT and not isinstance(table, QrelsTable):  # (every listing kept: counted by the flavors)
        table.source.repeats = int(repeat.sum())
        return slice(None), None
    if policy == "max":  # by key, the highest value first, then input order (same groups, other heads)
        order = np.lexsort((np.arange(n, dtype=np.int64), -values, key))
    group = np.cumsum(~repeat) - 1
    head = order[np.flatnonzero(~repeat)[group]]  # the row each row's group keeps
    if policy == "error":  # the earliest repeated row in the input, and the first row of its group
        position = np.flatnonzero(repeat)[np.argmin(order[repeat])]
        _raise(table, int(head[position]), int(order[position]))
    dropped = order[repeat]
    differs = values[dropped] != values[head[repeat]]
    if policy == COUNT and differs.any():  # (a qrels: identical judgments are one, conflicting ones refused)
        position = np.flatnonzero(repeat)[np.flatnonzero(differs)[np.argmin(order[repeat][differs])]]
        _raise(table, int(head[position]), int(order[position]), policy)
    conflicting = np.isin(group[repeat], group[repeat][differs])  # a group is conflicting if any value differs
    table.source.duplicates = {"identical": int((~conflicting).sum()), "conflicting": int(conflicting.sum())}
    return np.sort(order[~repeat]), None
