"""The cost of `compare --unjudged-bounds` on a typical @10 comparison (issue 37: a few seconds for ~100 queries x 3
runs): a pooled qrels and runs whose top 10 holds a few unjudged docs.

usage: bench_bounds.py [--data DIR] [--queries 100] [--runs 3] [--judged 300] [--holes 3]

Per query: `--judged` judgments (grades 0, 1, 2, 3 in proportion 3:1:1:1) among 2000 docs; each run ranks 1000 docs,
its top 10 drawn from the query's 60 best-judged docs but for 0..`--holes` unjudged ones (seeded). Each command is
one process, timed whole (wall, and its CPU time: user + system): `compare -m ndcg@10 -m ap@10 -m p@10`, without
and with `--unjudged-bounds`.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


def write(data: Path, queries: int, runs: int, judged: int, holes: int) -> tuple[Path, list[Path]]:
    rng = np.random.default_rng(1)
    data.mkdir(parents=True, exist_ok=True)
    qrels, lines = [], [[] for _ in range(runs)]
    for q in range(queries):
        picked = rng.choice(2000, size=judged, replace=False)
        grades = dict(zip(picked.tolist(), rng.choice([0, 0, 0, 1, 2, 3], size=judged).tolist(), strict=True))
        qrels += [f"q{q} 0 d{q}.{d} {g}" for d, g in grades.items()]
        best = sorted(grades, key=lambda d: -grades[d])[:60]
        unjudged = [d for d in range(2000) if d not in grades]
        for r in range(runs):
            n_holes = int(rng.integers(0, holes + 1))
            top = [*rng.choice(best, size=10 - n_holes, replace=False).tolist(),
                   *rng.choice(unjudged, size=n_holes, replace=False).tolist()]
            rng.shuffle(top)
            rest = [d for d in rng.permutation(2000).tolist() if d not in set(top)][:990]
            lines[r] += [f"q{q} Q0 d{q}.{d} {i + 1} {1000 - i + rng.random() * 0.5:.6f} r{r}"
                         for i, d in enumerate(top + rest)]
    (data / "qrels.txt").write_text("\n".join(qrels) + "\n")
    paths = []
    for r, run in enumerate(lines):
        paths.append(data / f"r{r}.run")
        paths[-1].write_text("\n".join(run) + "\n")
    return data / "qrels.txt", paths


def timed(argv: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench-bounds")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--judged", type=int, default=300)
    parser.add_argument("--holes", type=int, default=3)
    args = parser.parse_args()
    qrels, runs = write(Path(args.data), args.queries, args.runs, args.judged, args.holes)
    base = [sys.executable, "-m", "rankflavor", "compare", str(qrels), *map(str, runs), "-m", "ndcg@10", "-m", "ap@10",
            "-m", "p@10", "--queries", "0"]
    for label, argv in (("compare", base), ("compare --unjudged-bounds", [*base, "--unjudged-bounds"])):
        wall, cpu = timed(argv)
        print(f"{label}: {wall:.2f} s wall, {cpu:.2f} s CPU")


if __name__ == "__main__":
    main()
