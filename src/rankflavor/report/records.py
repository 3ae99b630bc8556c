"""The record behind one score: everything needed to recompute it by hand."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from rankflavor.data import Dataset
from rankflavor.engine import STATUS_NAMES, QueryResults, RankedRows
from rankflavor.flavor import Flavor


@dataclass
class Record:
    """Per query: the judged universe, the ranked list, the ideal list, DCG, IDCG, value, status, reason."""

    run: str
    query: str
    flavor: str
    status: str
    value: float | None
    dcg: float | None
    idcg: float | None
    reason: str
    universe: list[dict[str, Any]] = field(default_factory=list)
    ranked: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    ideal: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _num(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and np.isnan(x)) else float(x)


def reason_of(flavor: Flavor, status: str, value: float | None) -> str:
    if status == "missing":
        return (f"the query is judged but absent from the run; missing={flavor.missing} "
                + ("scores it 0" if flavor.missing == "zero" else "leaves it out of the mean"))
    if status == "zero_ideal":
        shown = "null, left out of the mean" if value is None else f"{value:g}"
        return f"IDCG is 0 (no positive gain in the ideal {flavor.ideal}); empty={flavor.empty} gives {shown}"
    if flavor.metric == "dcg":
        return "DCG = sum of contributions"
    return "NDCG = DCG / IDCG"


def build_record(ds: Dataset, run_name: str, flavor: Flavor, res: QueryResults, rows: RankedRows,
                 q_judged: np.ndarray, q_gain: np.ndarray, code: int) -> Record:
    """Assemble the record of query `code` from the engine's row-level output (already restricted or not)."""
    pos = int(np.flatnonzero(res.query == code)[0])
    status = STATUS_NAMES[int(res.status[pos])]
    value = _num(res.value[pos])
    record = Record(
        run=run_name, query=str(ds.query_ids[code]), flavor=str(flavor), status=status, value=value,
        dcg=_num(res.dcg[pos]), idcg=_num(res.idcg[pos]), reason=reason_of(flavor, status, value),
    )
    sel = ds.qrels.q == code
    for d, grade, judged, g in zip(ds.qrels.d[sel], ds.qrels.grade[sel], q_judged[sel], q_gain[sel], strict=True):
        record.universe.append({"doc": str(ds.doc_ids[d]), "grade": float(grade), "judged": bool(judged),
                                "gain": float(g) if judged else None})
    if status == "missing":
        return record
    m = rows.q == code
    for i in np.flatnonzero(m):
        record.ranked.append({
            "rank": int(rows.rank[i]), "doc": str(ds.doc_ids[rows.d[i]]), "score": float(rows.score[i]),
            "grade": _num(rows.grade[i]), "judged": bool(rows.judged[i]), "gain": float(rows.gain[i]),
            "discount": float(rows.discount[i]), "contribution": float(rows.contribution[i]),
            "tie_group": int(rows.tie_group[i]),
        })
    for d, reason in zip(rows.dropped_d[rows.dropped_q == code], rows.dropped_reason[rows.dropped_q == code],
                         strict=True):
        record.dropped.append({"doc": str(ds.doc_ids[d]), "reason": str(reason)})
    if flavor.metric == "ndcg":
        for i in np.flatnonzero(rows.ideal_q == code):
            d = rows.ideal_d[i]
            record.ideal.append({
                "rank": int(rows.ideal_rank[i]), "doc": "(top grade)" if d < 0 else str(ds.doc_ids[d]),
                "grade": _num(rows.ideal_grade[i]), "gain": float(rows.ideal_gain[i]),
                "discount": float(rows.ideal_discount[i]), "contribution": float(rows.ideal_contribution[i]),
            })
    return record
