#!/usr/bin/env python3
"""Write the committed inputs of the golden corpus into tests/golden/inputs/ (run once; the files are committed).

usage: .venv/bin/python tests/golden/make_inputs.py

Deterministic: every file comes from fixed rows or from `random.Random(seed)`; the .gz files are written with
mtime 0 and no file name in the header. Re-running it rewrites byte-identical files (and the corpus would
then need no re-recording). Datasets (each a qrels and runs):

- `small`: 9 judged queries, written by hand, one hard case each: ties (exact, across @1/@3/@5/@10), scores
  equal only in float32 (1.0 and 1.0+1e-9), unjudged docs at the top, negative and non-integer grades, a
  zero-ideal query, a judged query absent from some runs, a 1-doc query, a doc whose id is its query's id,
  UTF-8 ids, and a run query absent from the qrels. `small_a.run` is grouped and sorted, `small_b.run` has
  the rows of its queries interleaved, `small_c.run` is grouped with rows not in descending score order.
- `mixed`: 40 queries with up to 60 docs, grades -2..4 and 0.5, the same hard cases drawn at random.
- `deep`: 30 queries x 400 docs, grades 0..4, scores to 2 decimals (many ties), no negative grade and no
  zero-ideal query (so negative=error and empty=error evaluate).
- `binary`: 20 queries x up to 25 docs, grades 0/1, every returned doc judged (so unjudged=error evaluates).
- `small` again in the other formats rankflavor reads (CSV, RankLib, Elasticsearch JSON): `formats()`.
- bad and unusual files: gzip copies, a 5-column run line, a non-numeric score, duplicates, an empty qrels,
  a header line, an untidy but valid run (CRLF, BOM, comments, blank lines, tabs); a grid file for compare;
  the package's seed 000 example (seed000.qrels, X.run, Y.run).
"""

from __future__ import annotations

import gzip
import random
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "inputs"


def num(x: float) -> str:
    """A score or grade as written in the files: integers without a fraction, else Python's repr."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def write_qrels(name: str, rows: list[tuple[str, str, float]]) -> None:
    text = "".join(f"{q} 0 {d} {num(g)}\n" for q, d, g in rows)
    (OUT / name).write_bytes(text.encode("utf-8"))


def write_run(name: str, rows: list[tuple[str, str, float]], tag: str) -> None:
    """Rows in the given file order; the rank column counts 1.. per query in file order (it is ignored)."""
    seen: dict[str, int] = {}
    lines = []
    for q, d, s in rows:
        seen[q] = seen.get(q, 0) + 1
        lines.append(f"{q} Q0 {d} {seen[q]} {num(s) if isinstance(s, (int, float)) else s} {tag}\n")
    (OUT / name).write_bytes("".join(lines).encode("utf-8"))


def write_gz(name: str, source: str) -> None:
    data = (OUT / source).read_bytes()
    with (OUT / name).open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
        gz.write(data)


def grouped(run: dict[str, list[tuple[str, float]]]) -> list[tuple[str, str, float]]:
    return [(q, d, s) for q, docs in run.items() for d, s in docs]


def by_score(docs: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """Descending score, ties kept in the given order (a stable sort)."""
    return sorted(docs, key=lambda x: -x[1])


def interleave(rows: list[tuple[str, str, float]], rng: random.Random) -> list[tuple[str, str, float]]:
    """The same rows with the queries' rows interleaved (each query's own order kept)."""
    queues: dict[str, list[tuple[str, str, float]]] = {}
    for row in rows:
        queues.setdefault(row[0], []).append(row)
    out = []
    while queues:
        q = rng.choice(sorted(queues))
        out.append(queues[q].pop(0))
        if not queues[q]:
            del queues[q]
    return out


# ---- small: written by hand ------------------------------------------------------------------------------

def small() -> None:
    uq, ud = "qü-文", ("döc-1", "文档2", "ñ3", "ß4")
    qrels = [
        # q1: ties; grades 0..4, two judged docs never returned
        *[("q1", f"d{i:02d}", g) for i, g in enumerate([4, 3, 3, 2, 2, 1, 1, 0, 0, 2, 1, 4], start=1)],
        # q2: scores that tie only in float32
        ("q2", "a", 1), ("q2", "b", 3), ("q2", "c", 2), ("q2", "d", 0),
        # q3: unjudged docs in the top ranks
        ("q3", "j1", 2), ("q3", "j2", 1), ("q3", "j3", 3), ("q3", "j4", 0),
        # q4: negative and non-integer grades
        ("q4", "n1", -2), ("q4", "n2", -1), ("q4", "n3", 0.5), ("q4", "n4", 1), ("q4", "n5", 2), ("q4", "n6", 3),
        ("q4", "n7", 4), ("q4", "n8", 0.5), ("q4", "n9", -1),
        # q5: zero ideal (every grade 0 or negative)
        ("q5", "z1", 0), ("q5", "z2", -1), ("q5", "z3", 0), ("q5", "z4", -2),
        # q6: judged, absent from small_a.run and small_c.run
        ("q6", "m1", 2), ("q6", "m2", 1), ("q6", "m3", 0),
        # q7: one doc
        ("q7", "solo", 1),
        # q8: a doc whose id is the query id
        ("q8", "q8", 3), ("q8", "e1", 1), ("q8", "e2", 2), ("q8", "e3", 0), ("q8", "q1", 4),
        # UTF-8 query and docs
        (uq, ud[0], 2), (uq, ud[1], 0), (uq, ud[2], 1), (uq, ud[3], 3),
    ]
    write_qrels("small.qrels", qrels)

    # tie groups straddle @1 (ranks 1-2), @3 (3-4), @5 (5-6) and @10 (10-12)
    q1_a = [("d05", 9.0), ("d01", 9.0), ("d03", 8.0), ("d02", 8.0), ("d04", 7.5), ("u1", 7.5), ("d07", 6.0),
            ("d06", 5.5), ("d08", 5.0), ("d09", 4.0), ("u2", 4.0), ("d10", 4.0), ("d11", 2.0)]
    a = {
        "q1": q1_a,
        "q2": [("a", 2.0), ("b", 1.0), ("c", 1.000000001), ("d", 0.9999999999), ("x", 0.5)],
        "q3": [("u1", 5.0), ("u2", 4.0), ("u3", 3.5), ("j1", 3.0), ("j2", 2.0), ("j4", 1.0), ("j3", 0.5)],
        "q4": [("n1", 9.0), ("n3", 8.0), ("n2", 7.0), ("n4", 6.0), ("u9", 5.0), ("n7", 4.0), ("n8", 3.0),
               ("n9", 2.0), ("n5", 1.0)],
        "q5": [("z2", 3.0), ("z1", 2.0), ("zz", 1.0)],
        "q99": [("d01", 3.0), ("d02", 2.0)],
        "q7": [("solo", 0.25)],
        "q8": [("q8", 5.0), ("e3", 4.0), ("e1", 3.0), ("q1", 2.0), ("e2", 2.0)],
        uq: [(ud[2], 3.0), (ud[0], 2.0), ("文档9", 2.0), (ud[3], 1.0), (ud[1], 0.0)],
    }
    write_run("small_a.run", grouped(a), "sysA")

    rng = random.Random(11)
    b = {
        "q1": [(d, round(s * 0.5 + (1 if d in ("d02", "d12") else 0), 1)) for d, s in q1_a]
              + [("d12", 5.0), ("u3", 4.5)],
        "q2": [("b", 1.0), ("c", 1.0), ("a", 1.000000001), ("d", 0.25)],
        "q3": [("j3", 4.0), ("u1", 4.0), ("j1", 3.0), ("u2", 2.0)],
        "q4": [("n7", 5.0), ("n6", 4.0), ("n2", 3.0), ("n1", 3.0), ("n5", 2.0), ("n3", 1.0)],
        "q5": [("z1", 1.0), ("z3", 1.0)],
        "q6": [("m2", 3.0), ("m1", 2.0), ("u1", 1.0)],
        "q7": [("other", 1.0)],
        "q8": [("e2", 3.0), ("q8", 2.0), ("e1", 1.0)],
        uq: [(ud[0], 1.5), (ud[3], 1.5), (ud[1], 1.0)],
        "q98": [("x", 1.0)],
    }
    write_run("small_b.run", interleave(grouped(b), rng), "sysB")

    rng = random.Random(12)
    c = {}
    for q, docs in a.items():
        docs = [(d, s + (0.5 if i % 3 == 0 else 0.0)) for i, (d, s) in enumerate(docs)]
        rng.shuffle(docs)
        c[q] = docs
    c["q1"] = c["q1"] + [("d12", 9.5)]
    write_run("small_c.run", grouped(c), "sysC")


# ---- mixed: 40 queries, the hard cases drawn at random ---------------------------------------------------

GRADES = [-2, -1, 0, 0, 0, 0.5, 1, 1, 2, 2, 3, 4]


def mixed() -> None:
    rng = random.Random(2024)
    qrels, run_a, run_b, run_c = [], {}, {}, {}
    sizes = [1, 60, *[rng.choice([2, 3, 5, 8, 10, 12, 20, 35, 60]) for _ in range(38)]]
    for i, size in enumerate(sizes):
        q = f"m{i:02d}" if i % 13 != 7 else f"mq-ä{i}"
        docs = [f"{q}-d{j}" if j % 17 != 5 else f"dé{i}.{j}" for j in range(size)]
        if i % 9 == 4:
            docs[min(2, size - 1)] = q  # a doc whose id is the query id
        judged = [d for d in docs if rng.random() < 0.7] + [f"{q}-x{j}" for j in range(rng.randint(0, 4))]
        zero_ideal = i % 10 == 3
        grades = {d: (rng.choice([0, -1, 0, -2]) if zero_ideal else rng.choice(GRADES)) for d in judged}
        if not judged:
            grades = {docs[0]: 0}
        qrels += [(q, d, g) for d, g in grades.items()]
        # scores: 1 decimal (ties), some pairs equal only in float32
        scores = [round(rng.gauss(0, 1.5), 1) for _ in docs]
        for j in range(1, len(scores), 7):
            scores[j] = scores[j - 1] + 1e-9
        a_docs = by_score(list(zip(docs, scores, strict=True)))
        if i not in (5, 17, 29):  # judged queries missing from run a
            run_a[q] = a_docs
        b_scores = [s if rng.random() < 0.6 else round(s + rng.gauss(0, 1), 1) for s in scores]
        b_docs = list(zip(docs, b_scores, strict=True))
        rng.shuffle(b_docs)
        if i not in (11,):
            run_b[q] = b_docs
        c_docs = by_score([(d, round(s + rng.gauss(0, 0.7), 2)) for d, s in zip(docs, scores, strict=True)])
        if i % 4 == 1:
            c_docs = c_docs[::-1]  # ascending scores
        if i not in (5, 23):
            run_c[q] = c_docs[: max(1, len(c_docs) - i % 3)]
    run_a["m-none"] = [("x1", 1.0), ("x2", 0.5)]
    run_c["m-none"] = [("x1", 2.0)]
    run_c["m-void"] = [("y1", 0.0), ("y2", 0.0)]
    write_qrels("mixed.qrels", qrels)
    write_run("mixed_a.run", grouped(run_a), "mixA")
    write_run("mixed_b.run", interleave(grouped(run_b), rng), "mixB")
    write_run("mixed_c.run", grouped(run_c), "mixC")


# ---- deep: 30 queries x 400 docs ------------------------------------------------------------------------

def deep() -> None:
    rng = random.Random(400)
    qrels, runs = [], ({}, {}, {})
    for i in range(30):
        q = f"t{i}"
        pool = [f"x{j}" for j in rng.sample(range(4000), 400)]
        retrieved_judged = rng.sample(pool, 40)
        extra = [f"y{j}" for j in rng.sample(range(100), 15)]
        grades = {d: rng.choice([0, 0, 0, 1, 1, 2, 3, 4]) for d in retrieved_judged + extra}
        grades[retrieved_judged[0]] = 4 if i % 2 else 1
        qrels += [(q, d, g) for d, g in grades.items()]
        base = {d: rng.gauss(0, 1) + (0.4 * grades.get(d, 0)) for d in pool}
        for k, run in enumerate(runs):
            docs = [(d, round(base[d] + rng.gauss(0, 0.5 + k * 0.3), 2)) for d in pool]
            run[q] = by_score(docs)
    write_qrels("deep.qrels", qrels)
    for k, name in enumerate(("deep_a.run", "deep_b.run", "deep_c.run")):
        write_run(name, grouped(runs[k]), f"deep{k}")


# ---- binary: grades 0/1, every returned doc judged ------------------------------------------------------

def binary() -> None:
    rng = random.Random(1)
    qrels, run_a, run_b = [], {}, {}
    for i in range(20):
        q = f"b{i:02d}"
        docs = [f"p{i}-{j}" for j in range(rng.randint(3, 25))]
        zero = i == 13
        grades = {d: (0 if zero else int(rng.random() < 0.3)) for d in docs}
        if not zero and not any(grades.values()):
            grades[docs[-1]] = 1
        unreturned = {f"p{i}-r{j}": 1 for j in range(rng.randint(0, 3))} if not zero else {}
        qrels += [(q, d, g) for d, g in {**grades, **unreturned}.items()]
        run_a[q] = by_score([(d, round(rng.random(), 1)) for d in docs])
        if i != 7:
            run_b[q] = by_score([(d, float(rng.randint(0, 4))) for d in docs])
    write_qrels("binary.qrels", qrels)
    write_run("binary_a.run", grouped(run_a), "binA")
    write_run("binary_b.run", grouped(run_b), "binB")


# ---- bad and unusual files ------------------------------------------------------------------------------

def bad() -> None:
    write_gz("small.qrels.gz", "small.qrels")
    write_gz("small_a.run.gz", "small_a.run")
    lines = (OUT / "small_a.run").read_bytes().decode("utf-8").splitlines(keepends=True)
    bad5 = [*lines[:4], "q1 Q0 d99 5 1.0\n", *lines[4:]]
    (OUT / "bad_5col.run").write_bytes("".join(bad5).encode("utf-8"))
    badscore = [*lines[:6], "q1 Q0 d98 7 abc sysA\n", *lines[6:]]
    (OUT / "bad_score.run").write_bytes("".join(badscore).encode("utf-8"))
    dup = [*lines[:3], lines[1], "q1 Q0 d03 3 9.5 sysA\n", *lines[3:]]  # an identical and a conflicting duplicate
    (OUT / "dup.run").write_bytes("".join(dup).encode("utf-8"))
    qlines = (OUT / "small.qrels").read_bytes().decode("utf-8").splitlines(keepends=True)
    dupq = [*qlines[:2], "q1 0 d01 1\n", *qlines[2:]]
    (OUT / "dup.qrels").write_bytes("".join(dupq).encode("utf-8"))
    (OUT / "empty.qrels").write_bytes(b"")
    (OUT / "header.run").write_bytes(("qid Q0 docno rank score tag\n" + "".join(lines)).encode("utf-8"))
    untidy = ["# a comment line\n", "\n", *[ln.replace(" ", "\t", 1) for ln in lines[:5]], "   \n",
              *lines[5:12], "  # another comment\n", *lines[12:]]
    (OUT / "untidy.run").write_bytes(b"\xef\xbb\xbf" + "".join(untidy).replace("\n", "\r\n").encode("utf-8"))
    (OUT / "grid.txt").write_bytes(b"gain: linear exp2\nties: docid_desc pessimistic\nndcg@5 discount=reciprocal\n"
                                   b"sklearn@10\n")


# ---- the same data in the other formats of inputs/formats.py --------------------------------------------------

def _rows(name: str) -> list[tuple[str, str, str]]:
    """(query, doc, value) of each line of a committed TREC file."""
    lines = (OUT / name).read_bytes().decode("utf-8").splitlines()
    return [(f[0], f[2], f[3] if len(f) == 4 else f[4]) for f in (line.split() for line in lines)]


def formats() -> None:
    """small.qrels and small_a.run as a Quepid CSV export (a query with no rating: `q_none,,`) and a CSV run, as a
    RankLib judgment file of the run's documents (unjudged ones graded 0) and its -score file, and as an
    Elasticsearch _rank_eval body, _search responses one per line, and an _msearch response paired by position."""
    import json

    qrels, run = _rows("small.qrels"), _rows("small_a.run")
    csv = "query,docid,rating\n" + "".join(f"{q},{d},{g}\n" for q, d, g in qrels) + "q_none,,\n"
    (OUT / "small.csv").write_bytes(csv.encode("utf-8"))
    (OUT / "small_a.csv").write_bytes(("query,doc,score\n" + "".join(f"{q},{d},{s}\n" for q, d, s in run))
                                      .encode("utf-8"))
    grade = {(q, d): g for q, d, g in qrels}
    lines, scores, seen = [], [], {}
    for q, d, s in run:
        seen[q] = seen.get(q, -1) + 1
        lines.append(f"{grade.get((q, d), '0')} qid:{q} 1:{s} # {d}\n")
        scores.append(f"{q}\t{seen[q]}\t{float(s)!r}\n")
    (OUT / "small_a.ranklib").write_bytes("".join(lines).encode("utf-8"))
    (OUT / "small_a.scores").write_bytes("".join(scores).encode("utf-8"))
    requests: dict[str, list] = {}
    for q, d, g in qrels:
        requests.setdefault(q, []).append({"_index": "small", "_id": d, "rating": float(g) if "." in g else int(g)})
    body = {"requests": [{"id": q, "request": {"query": {"match": {"text": q}}}, "ratings": r}
                         for q, r in requests.items()], "metric": {"dcg": {"k": 10, "normalize": True}}}
    (OUT / "small.rank_eval.json").write_bytes((json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    hits: dict[str, list] = {}
    for q, d, s in run:
        hits.setdefault(q, []).append({"_index": "small", "_id": d, "_score": float(s), "_source": {"title": d}})

    def response(q: str) -> dict:
        found = hits.get(q, [])
        return {"took": 1, "timed_out": False, "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
                "hits": {"total": {"value": len(found), "relation": "eq"},
                         "max_score": max((h["_score"] for h in found), default=None), "hits": found}}

    jsonl = "".join(json.dumps({**response(q), "query_id": q}, ensure_ascii=False) + "\n" for q in hits)
    (OUT / "small_a.jsonl").write_bytes(jsonl.encode("utf-8"))
    msearch = {"took": 3, "responses": [{**response(q), "status": 200} for q in requests]}
    (OUT / "small_a.msearch.json").write_bytes((json.dumps(msearch, ensure_ascii=False) + "\n").encode("utf-8"))


def example() -> None:
    from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

    for path in (SEED000_QRELS, *SEED000_RUNS):
        shutil.copyfile(path, OUT / path.name)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    small()
    mixed()
    deep()
    binary()
    bad()
    formats()
    example()
    total = sum(p.stat().st_size for p in OUT.iterdir())
    print(f"{len(list(OUT.iterdir()))} files, {total} bytes in {OUT}")


if __name__ == "__main__":
    main()
