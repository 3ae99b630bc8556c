"""Small collections for the power and unjudged-bounds tests (tests/test_power.py, tests/test_power_cli.py)."""

from __future__ import annotations

import numpy as np


def write_collection(directory, n_queries: int, n_runs: int, seed: int, depth: int = 20) -> tuple[str, list[str]]:
    """A graded qrels and `n_runs` runs of distinct quality (the better the run, the more relevant docs it ranks
    high), every score distinct; a few retrieved docs are left unjudged."""
    rng = np.random.default_rng(seed)
    qrels_lines, runs = [], [[] for _ in range(n_runs)]
    for q in range(n_queries):
        grades = rng.integers(0, 4, size=depth)
        judged = rng.random(depth) < 0.8
        qrels_lines += [f"q{q} 0 d{d} {grades[d]}" for d in range(depth) if judged[d]]
        for r in range(n_runs):
            scores = grades * (r + 1) * 0.3 + rng.normal(size=depth) * 2 + rng.random(depth) * 1e-6
            order = np.argsort(-scores)
            runs[r] += [f"q{q} Q0 d{d} {i + 1} {scores[d]:.9f} r{r}" for i, d in enumerate(order)]
    qrels = directory / "qrels.txt"
    qrels.write_text("\n".join(qrels_lines) + "\n")
    paths = []
    for r, lines in enumerate(runs):
        path = directory / f"r{r}.run"
        path.write_text("\n".join(lines) + "\n")
        paths.append(str(path))
    return str(qrels), paths


def per_query(qrels: str, runs: list[str], spec: str) -> np.ndarray:
    """The runs' per-query values (topics x runs), read from `rankflavor.evaluate`'s per-query rows."""
    import rankflavor

    report = rankflavor.evaluate(qrels, runs, spec)
    columns = [[row["value"] for row in result.per_query()] for result in report.results]
    return np.array(columns, dtype=np.float64).T
