"""Random qrels and runs for the conformance tests, and rankflavor's per-query values to compare.

Every case is seeded (numpy), so a failure names its seed. Hard cases are always in reach: graded and
binary labels, tied scores, scores equal only after float32 rounding, unjudged documents, negative
grades, zero-ideal queries (only grade-0 or negative judgments), judged queries missing from the run and
run queries missing from the qrels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import rankflavor as rf
from heavy import need_module

# pairs of scores that are distinct as float64 but equal as float32
F32_TWINS = ((1.0, 1.0 + 1e-9), (0.3, 0.3 + 1e-10), (7.25, 7.25 + 2e-8))


def require(module: str):
    """Import a peer; when it is missing, skip locally but fail under CI (`make test` installs the peers)."""
    return need_module("peers", module)


@dataclass
class Case:
    seed: int
    qrels: dict[str, dict[str, int]]
    run: dict[str, dict[str, float]]  # dict order is run-file order

    def write(self, directory: Path) -> tuple[Path, Path]:
        """TREC files: qrels `q 0 d g`, run `q Q0 d rank score tag` (rank = position in run-file order)."""
        qrels_path, run_path = directory / f"case{self.seed}.qrels", directory / f"case{self.seed}.run"
        qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in self.qrels.items() for d, g in docs.items()))
        run_path.write_text("".join(f"{q} Q0 {d} {i} {s!r} rf\n" for q, docs in self.run.items()
                                    for i, (d, s) in enumerate(docs.items(), start=1)))
        return qrels_path, run_path


def random_case(seed: int, *, graded: bool = True, negative: bool = True, numeric_ids: bool = False,
                max_docs: int = 12, f32_distinct: bool = False, max_grade: int = 3,
                fractional: bool = False) -> Case:
    """A random qrels and run. `f32_distinct` keeps scores that float32 would merge out (for f64-only peers
    checked through a float32 one); `fractional` adds grade 0.5 (array peers that take float labels)."""
    rng = np.random.default_rng(seed)
    n_queries = int(rng.integers(3, 9))
    names = [str(i + 1) if numeric_ids else f"q{i + 1}" for i in range(n_queries + 2)]
    judged_queries, extra = names[:n_queries], names[n_queries:]
    pool = [f"{p}{i}" for p in ("d", "D", "x") for i in range(12)]
    grades = list(range(0, max_grade + 1)) if graded else [0, 1]
    if fractional:
        grades.append(0.5)
    qrels: dict[str, dict[str, int]] = {}
    for q in judged_queries:
        docs = rng.choice(pool, size=int(rng.integers(1, 10)), replace=False)
        kind = rng.random()
        if kind < 0.15:  # zero ideal: nothing above grade 0
            values = [0] * len(docs)
        else:
            values = [grades[int(rng.integers(0, len(grades)))] for _ in docs]
        if negative:
            values = [-1 if rng.random() < 0.12 else v for v in values]
        qrels[q] = {str(d): v for d, v in zip(docs, values, strict=True)}
    run: dict[str, dict[str, float]] = {}
    run_queries = [q for q in judged_queries if rng.random() > 0.2] + [q for q in extra if rng.random() < 0.5]
    rng.shuffle(run_queries)
    base_scores = [0.1, 0.5, 0.5, 1.5, 2.0, 2.0, 3.25, -1.0]
    for q in run_queries:
        judged_docs = list(qrels.get(q, {}))
        n = int(rng.integers(1, max_docs + 1))
        candidates = list(dict.fromkeys(judged_docs + [str(d) for d in rng.permutation(pool)]))
        picked = [candidates[i] for i in rng.permutation(min(len(candidates), n + 3))[:n]]
        scores: dict[str, float] = {}
        for d in picked:
            r = rng.random()
            if r < 0.15 and not f32_distinct:
                twin = F32_TWINS[int(rng.integers(0, len(F32_TWINS)))]
                scores[d] = twin[int(rng.integers(0, 2))]
            elif r < 0.6:
                scores[d] = base_scores[int(rng.integers(0, len(base_scores)))]
            else:
                scores[d] = round(float(rng.normal(1.0, 2.0)), 3)
        run[q] = scores
    return Case(seed, qrels, run)


def rf_values(spec: str, qrels, run, *, raw: bool = False) -> dict[str, float | None]:
    """rankflavor's per-query values (None = excluded) for one flavor spec; `raw` = before `round`."""
    result = rf.evaluate(qrels, run, spec).results[0]
    if not raw:
        return {row["query"]: row["value"] for row in result.per_query()}
    values = result.queries.raw_value
    return {str(result.query_ids[c]): (None if math.isnan(v) else float(v))
            for c, v in zip(result.queries.query, values, strict=True)}


def rf_mean(spec: str, qrels, run) -> float | None:
    return rf.evaluate(qrels, run, spec).results[0].mean


def close(a: float, b: float, tol: float = 1e-9) -> bool:
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)
