#!/usr/bin/env python3
"""A/B timing of two rankflavor builds on the benchmark workload, interleaved on the same machine.

usage: python benchmarks/ab.py A_RANKFLAVOR B_RANKFLAVOR [--repeat 5] [--data DIR] [--queries 7000]
e.g.   python benchmarks/ab.py ../old/.venv/bin/rankflavor .venv/bin/rankflavor --repeat 5

Each of bench.py's rankflavor commands (the measure sets included, and the uncut and deep cutoffs of the
general path) runs `--repeat` times for each build, A and B alternating (which goes first alternates too),
each from warm guest memory (bench.py's warm_memory); the table gives the best and the median wall time of
each build and B / A.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from bench import MULTI, SPEC, ensure_data, measure, warm_memory

HERE = Path(__file__).resolve().parent


def commands(rf: str, qrels: Path, run: Path, trec: tuple[Path, Path]) -> dict[str, list[str]]:
    q, r = str(qrels), str(run)
    return {
        "pytrec_eval.all_trec": [rf, "eval", q, r, "-m", "pytrec_eval.all_trec", "--format", "trec"],
        "official (TREC-sized)": [rf, "eval", str(trec[0]), str(trec[1]), "-m", "trec_eval.official", "--format",
                                  "trec"],
        SPEC: [rf, "eval", q, r, "-m", SPEC],
        "24 flavors": [rf, "eval", q, r, *(x for s in MULTI for x in ("-m", s))],
        "3 runs": [rf, "eval", q, r, r, r, "-m", SPEC],
        "--per-query json": [rf, "eval", q, r, "-m", SPEC, "--per-query", "--format", "json"],
        "explain": [rf, "explain", q, r, "-q", "q17", "-m", SPEC],
        "trec_eval.ndcg (uncut)": [rf, "eval", q, r, "-m", "trec_eval.ndcg"],
        "trec_eval@1000": [rf, "eval", q, r, "-m", "trec_eval@1000"],
        "--help": [rf, "--help"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--data", type=Path, default=HERE.parent / "bench-data")
    parser.add_argument("--queries", type=int, default=7000)
    args = parser.parse_args()
    qrels, run = ensure_data(args.data, args.queries, 1000, 40)
    trec = ensure_data(args.data, 200, 1000, 40)  # a TREC-sized run: 200 x 1,000 (bench.py's)
    builds = {"A": commands(args.a, qrels, run, trec), "B": commands(args.b, qrels, run, trec)}
    times: dict[tuple[str, str], list[float]] = {}
    for repeat in range(args.repeat):
        for name in builds["A"]:
            order = ("A", "B") if repeat % 2 == 0 else ("B", "A")
            for build in order:
                warm_memory(2.5)
                wall, _ = measure(builds[build][name])
                times.setdefault((build, name), []).append(wall)
    print(f"A = {args.a}\nB = {args.b}\nbest and median of {args.repeat}, interleaved\n")
    print(f"{'command':26s} {'A best':>7s} {'B best':>7s} {'A med':>7s} {'B med':>7s}  B/A best")
    for name in builds["A"]:
        a, b = times[("A", name)], times[("B", name)]
        print(f"{name:26s} {min(a):7.2f} {min(b):7.2f} {statistics.median(a):7.2f} {statistics.median(b):7.2f}  "
              f"{min(b) / min(a):.3f}")


if __name__ == "__main__":
    main()
