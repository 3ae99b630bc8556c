#!/usr/bin/env python3
"""Write the inputs of the trec_eval drop-in's goldens into tests/dropin/inputs/ (run once; the files are
committed; C trec_eval's outputs on them are recorded by record_c.py).

usage: .venv/bin/python tests/dropin/make_inputs.py

Deterministic: fixed rows and `random.Random(seed)`. What the files hold:
- `graded.qrels`: 9 queries whose ids sort differently as strings and as numbers (`10` < `2` < `9`), grades -2
  to 4 and 12 (relstring's `>`), a query with no relevant doc, a query judged only with grade 1, comment lines.
- `full.run`: every qrels query and one more (`99`, not judged), 1 to 40 docs each, ties on scores (2 decimals),
  docs absent from the qrels, scores in exponent form; the first lines' tag differs from the last line's.
- `missing.run`: `full.run` without queries `10` and `5` (trec_eval 10.0 stops with exit 4; -c scores them 0).
- `short.run`: the first 3 docs of each query (for -M beyond a list's end).
- `dup.run`: a doc listed twice in one query; `bad.qrels`: a line of 3 fields.
- `zscores.txt`: mean and stddev for some (query, measure) pairs of `official`, one stddev of 0, others missing
  (the last query and measure in strcmp order always present: convert_zscores.c's binary search reads one past
  its table's end otherwise, and C trec_eval crashes).
- `edge/`: the small files of the edge cases, each one way trec_eval reads a file (edge_inputs.py).
"""

from __future__ import annotations

import random
from pathlib import Path

OUT = Path(__file__).resolve().parent / "inputs"
QUERIES = ("1", "10", "2", "3", "5", "7", "9", "q8", "x")


def qrels_rows(rng: random.Random) -> list[tuple[str, str, int]]:
    rows = []
    for q in QUERIES:
        docs = rng.sample(range(60), 25 if q != "x" else 4)
        for d in docs:
            if q == "5":
                grade = rng.choice((0, 0, -1))  # no relevant doc
            elif q == "9":
                grade = rng.choice((0, 1))
            else:
                grade = rng.choice((-2, -1, 0, 0, 0, 1, 1, 2, 3, 4, 12))
            rows.append((q, f"D{d}", grade))
    return rows


def run_rows(rng: random.Random) -> list[tuple[str, str, str]]:
    rows = []
    for q in (*QUERIES, "99"):
        n = 1 if q == "x" else rng.randint(12, 40)
        for d in rng.sample(range(80), n):
            score = round(rng.uniform(0, 3), 2) if rng.random() < 0.8 else round(rng.choice((1.5, 2.0)), 2)
            text = f"{score:.3e}" if d % 7 == 0 else f"{score}"
            rows.append((q, f"D{d}", text))
    return rows


def write_run(name: str, rows: list[tuple[str, str, str]]) -> None:
    lines = []
    for i, (q, doc, score) in enumerate(rows):
        tag = "tagA" if i < len(rows) - 1 else "tagZ"  # (trec_eval's runid: the last line's)
        lines.append(f"{q} Q0 {doc} {i + 1} {score} {tag}\n")
    (OUT / name).write_text("".join(lines))


def write_edge_inputs() -> None:
    """edge_inputs.py's files into inputs/edge/ (the folder emptied first: no stale file is left)."""
    import shutil
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from edge_inputs import FILES

    edge = OUT / "edge"
    shutil.rmtree(edge, ignore_errors=True)
    edge.mkdir()
    for name, data in FILES.items():
        (edge / name).write_bytes(data)


def main() -> None:
    rng = random.Random(23)
    OUT.mkdir(exist_ok=True)
    write_edge_inputs()
    qrels = qrels_rows(rng)
    lines = [f"{q} 0 {d} {g}\n" for q, d, g in qrels]
    lines.insert(40, "# a comment line between two rows\n")  # (one at a time: trec_eval 10.0 misreads the second
    (OUT / "graded.qrels").write_text("# graded qrels: qid iter docno grade\n" + "".join(lines))  # of two in a row)
    (OUT / "bad.qrels").write_text("1 0 D1 1\n1 0 D2\n")
    run = run_rows(rng)
    write_run("full.run", run)
    write_run("missing.run", [r for r in run if r[0] not in ("10", "5")])
    seen: dict[str, int] = {}
    short = [r for r in run if seen.setdefault(r[0], 0) < 3 and not seen.update({r[0]: seen[r[0]] + 1})]
    write_run("short.run", short)
    write_run("dup.run", [*run[:5], run[2]])
    zrows = []
    for q in (*QUERIES[:5], QUERIES[-1]):  # (the last query and measure in strcmp order are always listed:
        for measure in ("num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                        "recip_rank", "P_5", "P_10", "iprec_at_recall_0.00"):  # C's lookup reads past its end)
            if rng.random() < 0.85 or measure == "recip_rank":
                stddev = 0.0 if (q, measure) == ("2", "P_5") else round(rng.uniform(0.05, 0.5), 4)
                zrows.append(f"{q} {measure} {round(rng.uniform(0, 1), 4)} {stddev}\n")
    (OUT / "zscores.txt").write_text("".join(zrows))


if __name__ == "__main__":
    main()
