"""A small seeded learning-to-rank data set (queries of 2 to 14 documents, labels 0..4 tied to a feature) and the
qrels and run that rankflavor.evaluate reads for given predictions: the independent path the adapters are checked
against (doc ids made here, by the test, not by rankflavor.arrays)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Ranking:
    X: np.ndarray
    y: np.ndarray
    sizes: np.ndarray
    qid: np.ndarray


def ranking(seed: int, queries: int) -> Ranking:
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 15, size=queries)
    n = int(sizes.sum())
    X = rng.normal(size=(n, 5))
    y = np.clip(np.round(X[:, 0] + 0.7 * rng.normal(size=n) + 1), 0, 4)
    y[: sizes[0]] = 0  # a query without a relevant document
    return Ranking(X, y, sizes, np.repeat(np.arange(queries), sizes))


def qrels_and_run(data: Ranking, predictions: np.ndarray) -> tuple[dict, dict]:
    """{query: {doc: label}} and {query: {doc: prediction}} in input order."""
    qrels: dict[str, dict[str, float]] = {}
    run: dict[str, dict[str, float]] = {}
    for i, (q, label, score) in enumerate(zip(data.qid, data.y, predictions, strict=True)):
        qrels.setdefault(f"q{q}", {})[f"doc{i}"] = float(label)
        run.setdefault(f"q{q}", {})[f"doc{i}"] = float(score)
    return qrels, run
