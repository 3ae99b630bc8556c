"""A three-run comparison like the one a search team shares (issue 38): 120 judged queries; bm25 lacks 6 of them;
dense's top 10 is mostly unjudged (about 8 of 10: a run the pool never saw), yet it puts the top-graded document
first more often; hybrid lies between. Written as TREC files into a folder, seeded, for the page's tests and
docs/report.md's screenshots."""

from __future__ import annotations

from pathlib import Path

import numpy as np

QUERIES = 120
LACKING = 6  # bm25 has no line for the last 6 queries


def write_case(folder: Path, seed: int = 7) -> tuple[Path, list[Path]]:
    """(the qrels, the runs bm25, dense, hybrid) written into `folder`."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    qrels_lines, runs = [], {"bm25": [], "dense": [], "hybrid": []}
    for i in range(QUERIES):
        q = f"q{i:03d}"
        grades = [3] * int(rng.integers(1, 3)) + [2] * int(rng.integers(1, 4)) + [1] * int(rng.integers(3, 7))
        grades += [0] * (30 - len(grades))
        docs = [f"{q}d{k:02d}" for k in range(30)]
        qrels_lines += [f"{q} 0 {d} {g}\n" for d, g in zip(docs, grades, strict=True)]
        relevant = [d for d, g in zip(docs, grades, strict=True) if g > 0]
        top = [d for d, g in zip(docs, grades, strict=True) if g == 3]
        others = [d for d, g in zip(docs, grades, strict=True) if g == 0]
        # bm25: judged documents, the top-graded ones somewhere in the first 8
        bm25 = list(rng.permutation(relevant[len(top):] + others[:10]))
        for d in top:
            bm25.insert(int(rng.integers(0, 8)), d)
        # dense: the top-graded first on most queries, then mostly unjudged documents
        unjudged = [f"{q}u{k:02d}" for k in range(12)]
        dense = (top if rng.random() < 0.85 else []) + unjudged[:8] + list(rng.permutation(relevant + others[:6]))
        dense = list(dict.fromkeys(dense))
        hybrid = list(dict.fromkeys([x for pair in zip(bm25, dense, strict=False) for x in pair]))
        for name, ranking in (("bm25", bm25), ("dense", dense), ("hybrid", hybrid)):
            if name == "bm25" and i >= QUERIES - LACKING:
                continue
            runs[name] += [f"{q} Q0 {d} {r} {100 - r} {name}\n" for r, d in enumerate(ranking[:50], 1)]
    qrels = folder / "judgments.qrels"
    qrels.write_text("".join(qrels_lines))
    paths = []
    for name, lines in runs.items():
        path = folder / f"{name}.run"
        path.write_text("".join(lines))
        paths.append(path)
    return qrels, paths
