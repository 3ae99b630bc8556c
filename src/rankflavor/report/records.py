"""The record behind one score: everything needed to recompute it by hand."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from rankflavor import registry
from rankflavor.engine import QueryResults, RecordRows
from rankflavor.escape import visible
from rankflavor.flavor import Flavor
from rankflavor.inputs.dataset import Dataset
from rankflavor.report.numbers import plain

RANKED_ROWS_SHOWN = 100_000  # ranked rows a record lists in full (beyond: `shown_rows`)


@dataclass
class Record:
    """Per query: the judged universe, the ranked list, what was removed, the metric's parts (ndcg: DCG,
    IDCG) and lists (ndcg: the ideal list), the value, its status and why. `record.dcg`, `record.ideal`:
    a part or a list by name."""

    run: str
    query: str
    flavor: str
    status: str
    value: float | None
    parts: dict[str, float | None]
    reason: str
    universe: list[dict[str, Any]] = field(default_factory=list)
    ranked: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    lists: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    ranked_omitted: int = 0  # ranked rows not listed (a query of more than RANKED_ROWS_SHOWN rows: `shown_rows`)

    def __getattr__(self, name: str) -> Any:
        for store in ("parts", "lists"):
            values = self.__dict__.get(store, {})
            if name in values:
                return values[name]
        raise AttributeError(f"a record has no part or list {name!r}")

    def __repr__(self) -> str:
        """One line: run, query, the flavor's short form, the value and status, the parts, the rows listed."""
        value = "null" if self.value is None else f"{self.value:.6f}"
        parts = ", ".join(f"{k} {'null' if v is None else f'{v:g}'}" for k, v in list(self.parts.items())[:4])
        return visible(f"<Record {self.run} {self.query} {Flavor.parse(self.flavor).short}: {value} ({self.status})"
                f"{'; ' + parts if parts else ''}; {len(self.ranked)} ranked rows>")

    def _repr_html_(self) -> str:
        """Jupyter: the value, its parts and why, the ranked and ideal lists (display/notebook.py)."""
        from rankflavor.display.notebook import record_html

        return record_html(self)

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run, "query": self.query, "flavor": self.flavor, "status": self.status,
                "value": self.value, **self.parts, "reason": self.reason, "universe": self.universe,
                "ranked": self.ranked, **({"ranked_omitted": self.ranked_omitted} if self.ranked_omitted else {}),
                "dropped": self.dropped, **self.lists}


def reason_of(flavor: Flavor, status: str, value: float | None) -> str:
    if status == "missing":
        did = {"zero": "scores it 0", "empty": "scores it as an empty ranking"}
        return (f"the query is judged but absent from the run; missing={flavor.missing} "
                + did.get(str(flavor.missing), "leaves it out of the mean"))
    return registry.get(flavor.metric).reason(flavor, status, value)


def build_record(ds: Dataset, run_name: str, flavor: Flavor, res: QueryResults, rows: RecordRows, code: int,
                 ) -> Record:
    """Assemble the record of query `code` from the engine's row-level output."""
    metric = registry.get(flavor.metric)
    pos = int(np.flatnonzero(res.query == code)[0])
    status = metric.status_name(int(res.status[pos]))
    value = plain(res.value[pos])
    record = Record(run=run_name, query=str(ds.query_ids[code]), flavor=str(flavor), status=status, value=value,
                    parts={name: plain(part[pos]) for name, part in res.parts.items()},
                    reason=reason_of(flavor, status, value))
    lo, hi = np.searchsorted(ds.qrels.q, [code, code + 1])  # (the qrels are sorted by (q, d): InternedQrels)
    sel = slice(int(lo), int(hi))
    for d, grade, judged, g in zip(ds.qrels.d[sel], ds.qrels.grade[sel], rows.qrels_judged[sel], rows.qrels_gain[sel],
                                   strict=True):
        record.universe.append({"doc": str(ds.doc_ids[d]), "grade": float(grade), "judged": bool(judged),
                                **metric.universe_columns(flavor, float(grade), bool(judged), float(g))})
    record.lists = {name: [] for name in metric.lists}
    if status == "missing":
        return record
    mine = np.flatnonzero(rows.q == code)
    shown = shown_rows(rows, mine, metric.depth_read(flavor))
    record.ranked_omitted = len(mine) - len(shown)
    for i in shown:
        record.ranked.append({
            "rank": int(rows.rank[i]), "doc": str(ds.doc_ids[rows.d[i]]), "score": float(rows.score[i]),
            "grade": plain(rows.grade[i]), "judged": bool(rows.judged[i]),
            **{name: float(column[i]) for name, column in rows.columns.items()},
            "tie_group": int(rows.tie_group[i]),
        })
    for d, reason in zip(rows.dropped_d[rows.dropped_q == code], rows.dropped_reason[rows.dropped_q == code],
                         strict=True):
        record.dropped.append({"doc": str(ds.doc_ids[d]), "reason": str(reason)})
    for name, columns in rows.lists.items():
        record.lists[name] = [_list_row(ds, columns, i) for i in np.flatnonzero(columns["q"] == code)]
    return record


def shown_rows(rows: RecordRows, mine: np.ndarray, depth: float) -> np.ndarray:
    """The rows of one query a record lists: all of them up to RANKED_ROWS_SHOWN; beyond that (a query of
    millions of documents: a dict per row took 4 GB and 35 s for 5M rows), the ranks down to RANKED_ROWS_SHOWN,
    every judged row, and every row tied with one at a rank the metric reads (`depth`)."""
    if len(mine) <= RANKED_ROWS_SHOWN:
        return mine
    rank, group = rows.rank[mine], rows.tie_group[mine]
    keep = (rank <= RANKED_ROWS_SHOWN) | rows.judged[mine]
    if not np.isinf(depth):
        keep |= np.isin(group, group[rank <= depth])
    return mine[keep]


def _list_row(ds: Dataset, columns: dict[str, np.ndarray], i: int) -> dict[str, Any]:
    """One row of a metric's list: rank, doc ('(top grade)' for a position of ideal=max), then the rest."""
    d = int(columns["d"][i])
    row: dict[str, Any] = {"rank": int(columns["rank"][i]), "doc": "(top grade)" if d < 0 else str(ds.doc_ids[d])}
    for name, column in columns.items():
        if name not in ("q", "d", "rank"):
            row[name] = plain(column[i]) if name == "grade" else float(column[i])
    return row


def trimmed(record: Record, cutoff: int | None) -> tuple[Record, str]:
    """The record as a table shows it, and the line counting what it hides ("" when nothing is): the ranks down
    to `cutoff`, then the judged documents and those tied with a document above the cutoff."""
    if cutoff is None:
        return record, ""
    top_groups = {row["tie_group"] for row in record.ranked if row["rank"] <= cutoff}
    kept = [row for row in record.ranked if row["rank"] <= cutoff or row["judged"] or row["tie_group"] in top_groups]
    hidden = len(record.ranked) - len(kept)
    if not hidden:
        return record, ""
    noun = "document" if hidden == 1 else "documents"
    return replace(record, ranked=kept), f"... {hidden} unjudged {noun} below rank {cutoff} hidden; --all shows them"
