"""Issue 27's cost target: discriminative power and the unjudged bounds for 5 runs and 1,000 resamples, printed in
under 10 s, on trec_eval's own test files and on the synthetic workload.

usage: bench_stats.py TREC_EVAL_TEST_DIR [--data bench-data] [--queries 1000] [--depth 1000]

TREC_EVAL_TEST_DIR is trec_eval's `test/` folder (qrels.test, results.test; usnistgov/trec_eval). Five runs are made
from its results.test: the run itself and four copies with seeded noise on the scores (so they rank differently).
The synthetic workload is `make_synthetic.py track 5 QUERIES DEPTH` (5 runs of QUERIES x DEPTH rows, one qrels).
Each command is one process, timed whole (wall, and its CPU time: user + system), measures ndcg@10, map, p@10.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MEASURES = ["-m", "ndcg@10", "-m", "map", "-m", "p@10"]
TARGET_SECONDS = 10.0


def noisy_runs(run: Path, out: Path, n: int = 5) -> list[Path]:
    """`run` and n - 1 copies with seeded Gaussian noise on each score (scores only: ranks are recomputed)."""
    out.mkdir(parents=True, exist_ok=True)
    lines = [line.split() for line in run.read_text().splitlines() if line.strip()]
    paths = []
    for i in range(n):
        rng = random.Random(i)
        path = out / f"run{i}.txt"
        path.write_text("".join(f"{q} Q0 {d} {r} {float(s) + (rng.gauss(0, 0.5) if i else 0.0):.4f} r{i}\n"
                                for q, _, d, r, s, *_ in lines))
        paths.append(path)
    return paths


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process (its children's rusage before and after)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def rows(label: str, qrels: Path, runs: list[Path]) -> None:
    rankflavor = [sys.executable, "-m", "rankflavor"]
    files = [str(qrels), *map(str, runs)]
    for name, argv in (("power", [*rankflavor, "power", *files, *MEASURES, "--resamples", "1000"]),
                       ("compare --unjudged-bounds", [*rankflavor, "compare", *files, *MEASURES, "--resamples", "1000",
                                                      "--unjudged-bounds", "--queries", "0"])):
        wall, cpu = timed(argv)
        verdict = "met" if wall < TARGET_SECONDS else "NOT met"
        print(f"{label:<34} {name:<26} {wall:7.2f} s wall {cpu:7.2f} s CPU   target < {TARGET_SECONDS:g} s: {verdict}",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trec_eval_test", type=Path)
    parser.add_argument("--data", type=Path, default=Path("bench-data"))
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=1000)
    args = parser.parse_args()
    test = args.trec_eval_test
    runs = noisy_runs(test / "results.test", args.data / "stats" / "trec_eval_test")
    rows("trec_eval test files (5 runs)", test / "qrels.test", runs)
    where = args.data / "stats" / f"synthetic_{args.queries}x{args.depth}"
    if not (where / "qrels.txt").exists():
        subprocess.run([sys.executable, str(HERE / "make_synthetic.py"), "track", "5", str(args.queries),
                        str(args.depth), str(where)], check=True, stdout=subprocess.DEVNULL)
    rows(f"synthetic (5 x {args.queries * args.depth:,} rows)", where / "qrels.txt",
         sorted((where / "runs").glob("run_*.txt")))


if __name__ == "__main__":
    main()
