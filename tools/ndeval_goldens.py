"""Record ndeval's output on random subtopic qrels and runs, as goldens for tests/peers/test_ndeval.py.

    python tools/ndeval_goldens.py PATH_TO_BUILT_NDEVAL [OUT_DIR]

Writes, per case, `qrels.txt`, `run.txt` and one CSV per ndeval command line (`VARIANTS`): ndeval's stdout as it
printed it. The inputs are drawn from a seeded generator: graded judgments (grades above 1, which ndeval reads as
1), judged-nonrelevant subtopics, a query whose every judgment is 0, queries on one side only, unjudged docs and
tied scores. ndeval itself is never run by the tests (tests/peers/ndeval_goldens/README.md says how it was built).
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

CASES = 8
# name -> ndeval's options (always -traditional: score descending, then doc id descending: ties=docid_desc)
VARIANTS = {
    "default": [],
    "alpha0.25_beta0.8": ["-alpha", "0.25", "-beta", "0.8"],
    "alpha1": ["-alpha", "1"],
    "complete": ["-c"],
    "depth7": ["-M", "7"],
}


def draw_case(rng: random.Random) -> tuple[list[str], list[str]]:
    """(qrels lines, run lines) of one random case."""
    qrels, run = [], []
    topics = rng.sample(range(1, 60), rng.randint(3, 7))
    judged, ranked = topics[:-1], topics[1:]  # the first only in the qrels, the last only in the run
    for topic in judged:
        docs = [f"d{rng.randint(0, 40):02d}" for _ in range(rng.randint(1, 14))]
        subtopics = rng.sample(range(0, 9), rng.randint(1, 5))
        empty = topic == judged[1]  # a query judged, with no relevant subtopic
        for doc in dict.fromkeys(docs):
            for subtopic in subtopics:
                if rng.random() < 0.6:
                    grade = 0 if empty else rng.choice([0, 0, 1, 1, 2, 3])
                    qrels.append(f"{topic} {subtopic} {doc} {grade}")
    for topic in ranked:
        docs = list(dict.fromkeys(f"d{rng.randint(0, 45):02d}" for _ in range(rng.randint(1, 30))))
        scores = [rng.choice([1.0, 2.0, 2.5, 3.0, 4.0]) if rng.random() < 0.5 else round(rng.uniform(0, 5), 3)
                  for _ in docs]
        for rank, (doc, score) in enumerate(zip(docs, scores, strict=True), start=1):
            run.append(f"{topic} Q0 {doc} {rank} {score} tag")
    rng.shuffle(run)
    return qrels, run


def main(ndeval: str, out: Path) -> None:
    rng = random.Random(20261201)
    for case in range(CASES):
        qrels, run = draw_case(rng)
        folder = out / f"case{case:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "qrels.txt").write_text("\n".join(qrels) + "\n")
        (folder / "run.txt").write_text("\n".join(run) + "\n")
        (folder / "run_pyndeval_ranks.txt").write_text("\n".join(pyndeval_ranks(run)) + "\n")
        for name, options in VARIANTS.items():
            printed = subprocess.run([ndeval, "-traditional", *options, "qrels.txt", "run.txt"], cwd=folder,
                                     capture_output=True, text=True, check=True).stdout
            (folder / f"{name}.csv").write_text(printed)
        printed = subprocess.run([ndeval, "-c", "qrels.txt", "run_pyndeval_ranks.txt"], cwd=folder,
                                 capture_output=True, text=True, check=True).stdout
        (folder / "pyndeval_order.csv").write_text(printed)


def pyndeval_ranks(run: list[str]) -> list[str]:
    """The run with its rank column set as pyndeval ranks (pyndeval/__init__.py _coerce_run_iter: sorted by
    (-score, doc id)), for ndeval without -traditional, which ranks by that column; -c then averages over the
    qrels' topics, as ir_measures does (a qrels query the provider did not score counts 0)."""
    rows = [line.split() for line in run]
    rows.sort(key=lambda r: (int(r[0]), -float(r[4]), r[2]))
    out, rank, topic = [], 0, None
    for row in rows:
        rank = rank + 1 if row[0] == topic else 1
        topic = row[0]
        out.append(f"{row[0]} Q0 {row[2]} {rank} {row[4]} tag")
    return out


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]) if len(sys.argv) > 2 else Path("tests/peers/ndeval_goldens"))
