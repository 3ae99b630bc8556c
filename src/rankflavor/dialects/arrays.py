"""From a qrels and a run to the per-query arrays that array-based peers take.

scikit-learn (`ndcg_score`), torchmetrics, LightGBM, XGBoost, CatBoost, TF-Ranking and RankLib score arrays
of labels and predictions grouped by query, not qrels and runs. Their presets model what their users do:

- one row (group) per query present in both the qrels and the run, in order of first appearance in the
  run; a judged query absent from the run, a run query absent from the qrels and a run query with no
  documents form no row;
- the row holds the run's documents for that query, in run-file order (the order a stable sort falls
  back to on tied scores: `ties=input`);
- label = the qrels grade of the document, 0 when the document is not in the qrels (negative grades
  pass through as they are: each peer decides, see the presets' `negative`);
- prediction = the run score.

Judged documents the run did not return are in no row, so the ideal is built from the row: `ideal=local`.
Spark's `ndcgAt` takes ids instead: `spark_inputs` gives the run's ids in rank order and the query's
judged ids sorted by grade, descending (its ideal is then `global`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from rankflavor.inputs import load_qrels, load_run

__all__ = ["QueryRow", "Stacked", "query_rows", "spark_inputs", "stack"]


@dataclass(frozen=True)
class QueryRow:
    """One query as an array peer sees it."""

    query: str
    docs: tuple[str, ...]
    labels: np.ndarray  # float64: qrels grade, 0 when unjudged
    scores: np.ndarray  # float64: run score
    judged: np.ndarray  # bool: the doc is in the qrels


@dataclass(frozen=True)
class Stacked:
    """All rows concatenated, as LightGBM/XGBoost/CatBoost take them."""

    labels: np.ndarray
    scores: np.ndarray
    group_sizes: np.ndarray  # int64, one per row (LightGBM `group`)
    group_ids: np.ndarray  # int64, one per document (XGBoost `qid`, CatBoost `group_id`)
    queries: tuple[str, ...]


def _judgments(table: Any) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for q, d, g in zip(table.query.to_pylist(), table.doc.to_pylist(), table.grade.tolist(), strict=True):
        out.setdefault(q, {})[d] = float(g)
    return out


def _ranked(run: Any, qrels: Any) -> dict[str, list[tuple[str, float]]]:
    table = load_run(run, qrels=qrels)  # (the qrels: a run naming its documents by position pairs with it)
    out: dict[str, list[tuple[str, float]]] = {}
    for q, d, s in zip(table.query.to_pylist(), table.doc.to_pylist(), table.score.tolist(), strict=True):
        out.setdefault(q, []).append((d, float(s)))
    return out


def query_rows(qrels: Any, run: Any) -> list[QueryRow]:
    """The rows an array peer is given for this qrels and run (any input rankflavor reads: path, dict, frame)."""
    table = load_qrels(qrels)
    judgments = _judgments(table)
    rows = []
    for query, docs in _ranked(run, table).items():
        if query not in judgments or not docs:
            continue
        grades = judgments[query]
        rows.append(QueryRow(
            query=query,
            docs=tuple(d for d, _ in docs),
            labels=np.array([grades.get(d, 0.0) for d, _ in docs], dtype=np.float64),
            scores=np.array([s for _, s in docs], dtype=np.float64),
            judged=np.array([d in grades for d, _ in docs], dtype=bool),
        ))
    return rows


def stack(rows: Iterable[QueryRow]) -> Stacked:
    """Concatenate rows into one labels/scores array with group sizes and per-document group ids."""
    rows = list(rows)
    sizes = np.array([len(r.docs) for r in rows], dtype=np.int64)
    return Stacked(
        labels=np.concatenate([r.labels for r in rows]) if rows else np.zeros(0),
        scores=np.concatenate([r.scores for r in rows]) if rows else np.zeros(0),
        group_sizes=sizes,
        group_ids=np.repeat(np.arange(len(rows), dtype=np.int64), sizes),
        queries=tuple(r.query for r in rows),
    )


def spark_inputs(qrels: Any, run: Any) -> list[tuple[str, list[str], list[str], list[float]]]:
    """(query, predicted ids in rank order, judged ids by grade desc, their grades) per query in both inputs.

    The rank order is score descending, ties in run-file order (`ties=input`); judged ids of equal grade keep
    qrels order (their order does not change the ideal).
    """
    table = load_qrels(qrels)
    judgments = _judgments(table)
    out = []
    for query, docs in _ranked(run, table).items():
        if query not in judgments or not docs:
            continue
        order = sorted(range(len(docs)), key=lambda i: -docs[i][1])
        labels = sorted(judgments[query].items(), key=lambda item: -item[1])
        out.append((query, [docs[i][0] for i in order], [d for d, _ in labels], [g for _, g in labels]))
    return out


def __dir__() -> list[str]:
    """What the module exports (`__all__`), not its own imports."""
    return sorted(__all__)
