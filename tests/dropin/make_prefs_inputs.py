"""Write tests/dropin/inputs_prefs/: the inputs of trec_eval's non-standard rel_info formats the C goldens are
recorded on (record_c_prefs.py) and rankflavor is compared on (test_trec_eval_prefs_c.py). Deterministic: a
fixed seed, no clock. Run: `python tests/dropin/make_prefs_inputs.py` (rewrites the folder).

- hand.prefs / hand.run: get_prefs.c's own examples (13 preferences from one sub-group, a partial order over
  sub-groups, two users, a transitive chain), a doc listed twice in one class, comments, a `#` inside a docno,
  tabs and a CR; hand.run ties scores, leaves judged docs out, retrieves unjudged ones, misses query 8.
- random.prefs: 12 queries, 1-4 judgment groups of 1-3 sub-groups each, rel_levels monotone in one hidden grade
  per doc and group (so a group never contradicts itself, while groups disagree).
- random.qrels: a standard qrels (4 columns) for -R qrels_prefs, several iter values (judgment groups) on some
  queries; random.jg: `qid jg docno rel` for -R qrels_jg, rel -1..3, comments.
- random.run (every query, and two extra), short.run (some queries missing), ties.run (all scores equal).
- prefs.zscores, jg.zscores: -Z files for the measures of all_prefs and qrels_jg.
- the error inputs: bad_fields.prefs, blank_line.prefs, two_comments.prefs (the second `#` line is read as data),
  ec_conflict.prefs, zero_nonzero.prefs, cycle.prefs, dup.jg, dup.run, bad.zscores.
"""

from __future__ import annotations

import random
from pathlib import Path

HERE = Path(__file__).parent / "inputs_prefs"
POOL = [f"D{n:02d}" for n in range(30)]
QUERIES = [f"q{n:02d}" for n in range(1, 13)]

HAND_PREFS = """\
# get_prefs.c's examples, one query each
1 u1 s1 docno1 3.0
1 u1 s1 docno2 2.0
1 u1 s1 docno3 0.0
1 u1 s1 docno4 6.0
1 u1 s1 docno5 0.0
1 u1 s1 docno6 2.0
2\tu1\ts1\tdocno1\t3.0
2\tu1\ts1\tdocno2\t2.0
2\tu1\ts1\tdocno3\t1.0
2\tu1\ts2\tdocno1\t2.0
2\tu1\ts2\tdocno2\t1.0
2\tu1\ts2\tdocno4\t3.0
3  u1  s1  docno1  3.0
3  u1  s1  docno2  2.0
3  u2  s1  docno1  0.0
3  u2  s1  docno3  6.0
3  u2  s1  docno4  2.0
3  u2  s2  docno1  0.0
3  u2  s2  docno2  8.0
# a transitive chain: 1>2>3 in s1, 2>4 in s2
4 u1 s1 docno1 3.0
4 u1 s1 docno2 2.0
4 u1 s1 docno3 1.0
4 u1 s2 docno2 5.0
4 u1 s2 docno4 4.0
5 u1 s1 a#1 2 \r
5 u1 s1 b 1
5 u1 s1 b 1
5 u1 s1 c 0
5 u2 s1 c 2
5 u2 s1 a#1 1
6 u1 s1 x 0
6 u1 s1 y 0
7 u1 s1 x 1
7 u1 s1 y 1
8 u1 s1 docno1 1
8 u1 s1 docno2 0
"""

HAND_RUN = """\
1 Q0 docno4 1 5.0 hand
1 Q0 docno2 2 4.0 hand
1 Q0 docno6 3 4.0 hand
1 Q0 docno9 4 3.5 hand
1 Q0 docno3 5 3.0 hand
2 Q0 docno3 1 9 hand
2 Q0 docno1 2 8 hand
2 Q0 docno4 3 7 hand
3 Q0 docno1 1 1.0 hand
3 Q0 docno2 2 1.0 hand
3 Q0 docno3 3 1.0 hand
4 Q0 docno4 1 4 hand
4 Q0 docno3 2 3 hand
4 Q0 docno1 3 2 hand
5 Q0 c 1 3 hand
5 Q0 b 2 2 hand
5 Q0 a#1 3 1 hand
6 Q0 y 1 2 hand
6 Q0 z 2 1 hand
7 Q0 z 1 1 hand
99 Q0 docno1 1 1 hand
"""


def random_prefs(rng: random.Random) -> str:
    """Per query and judgment group one hidden grade 0..3 per doc; each sub-group rates a subset of the docs
    with a level monotone in the grade (0 stays 0: get_prefs.c's nonrelevant convention)."""
    lines = []
    for qid in QUERIES:
        for group in range(rng.randint(1, 4)):
            grades = {doc: rng.choice((0, 0, 1, 2, 3)) for doc in rng.sample(POOL, rng.randint(3, 14))}
            for sub in range(rng.choice((1, 1, 2, 3))):
                scale, shift = rng.choice(((1.0, 0.0), (1.5, 0.25), (10.0, 1.0)))
                for doc in rng.sample(sorted(grades), rng.randint(2, len(grades))):
                    level = 0.0 if grades[doc] == 0 else grades[doc] * scale + shift
                    lines.append(f"{qid} user{group} sub{sub} {doc} {level:g}")
    rng.shuffle(lines)
    return "\n".join(lines) + "\n"


def random_qrels(rng: random.Random) -> str:
    """A standard qrels; some queries judged by several assessors (the iter column)."""
    lines = []
    for qid in QUERIES:
        groups = ["0"] if rng.random() < 0.6 else ["a", "b", "c"][: rng.randint(2, 3)]
        for group in groups:
            for doc in rng.sample(POOL, rng.randint(4, 20)):
                lines.append(f"{qid} {group} {doc} {rng.choice((0, 0, 0, 1, 1, 2, 3))}")
    rng.shuffle(lines)
    return "\n".join(lines) + "\n"


def random_jg(rng: random.Random) -> str:
    """`qid jg docno rel` with rel -1..3 (-1: in the pool, not judged), a comment every so often."""
    lines = []
    for qid in QUERIES:
        for group in range(rng.randint(1, 4)):
            for doc in rng.sample(POOL, rng.randint(3, 18)):
                lines.append(f"{qid} assessor{group} {doc} {rng.choice((-1, 0, 0, 0, 1, 1, 2, 3))}")
    rng.shuffle(lines)
    for at in range(len(lines) - 1, 0, -37):
        lines.insert(at, "# a comment line")
    return "\n".join(lines) + "\n"


def random_run(rng: random.Random, queries: list[str], tag: str, *, tied: bool = False) -> str:
    """A run over the pool and some docs no one judged; scores with ties (one decimal), or all equal."""
    lines = []
    for qid in queries:
        docs = rng.sample(POOL + [f"U{n}" for n in range(8)], rng.randint(1, 25))
        for rank, doc in enumerate(docs, start=1):
            score = 1.0 if tied else round(rng.uniform(0, 5), 1)
            lines.append(f"{qid} Q0 {doc} {rank} {score} {tag}")
    return "\n".join(lines) + "\n"


PREFS_VALUES = ("num_q prefs_num_prefs_poss prefs_num_prefs_ful prefs_num_prefs_ful_ret prefs_simp prefs_pair "
                "prefs_avgjg prefs_avgjg_Rnonrel prefs_simp_ret prefs_pair_ret prefs_avgjg_ret prefs_avgjg_Rnonrel_ret "
                "prefs_simp_imp prefs_pair_imp prefs_avgjg_imp").split()
JG_VALUES = ["num_q", "map_avgjg", *(f"P_avgjg_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)),
             *(f"Rprec_mult_avgjg_{m / 10:3.2f}" for m in range(2, 21, 2))]


def zscores(rng: random.Random, names: list[str]) -> str:
    """`qid measure mean stddev` for every query but q05 (all its values become trec_eval's missing value) and
    every value but a few; some stddev 0. Each query ends with a measure `zzz`, and the file with a query `zzz`,
    above every name looked up: convert_zscores.c's binary search reads past its array for a key above them all."""
    lines = []
    for qid in [q for q in QUERIES if q != "q05"] + ["zzz"]:
        for name in [*names, "zzz"]:
            if rng.random() < 0.1:
                continue
            stddev = 0.0 if rng.random() < 0.15 else round(rng.uniform(0.05, 2.0), 4)
            mean = 0.0 if stddev == 0.0 else round(rng.uniform(0, 1.0), 4)
            lines.append(f"{qid} {name} {mean} {stddev}")
    rng.shuffle(lines)
    return "\n".join(lines) + "\n"


ERROR_INPUTS = {
    "bad_fields.prefs": "q01 u1 s1 D01 1\nq01 u1 D02 0\n",
    "blank_line.prefs": "q01 u1 s1 D01 1\n\nq01 u1 s1 D02 0\n",
    "two_comments.prefs": "# first\n# second comment ok x\nq01 u1 s1 D01 1\nq01 u1 s1 D02 0\n",
    "two_comments_bad.prefs": "q01 u1 s1 D01 1\n# first\n# second\nq01 u1 s1 D02 0\n",
    "ec_conflict.prefs": "q01 u1 s1 D01 1\nq01 u1 s1 D02 0\nq02 u1 s1 D01 2\nq02 u1 s1 D01 1\nq02 u1 s1 D03 0\n",
    "zero_nonzero.prefs": "q01 u1 s1 D01 1\nq01 u1 s1 D02 0\nq02 u1 s1 D01 2\nq02 u1 s1 D02 1\n"
                          "q02 u1 s2 D01 0\nq02 u1 s2 D03 1\n",
    "cycle.prefs": "q01 u1 s1 D01 1\nq01 u1 s1 D02 0\nq02 u1 s1 D01 2\nq02 u1 s1 D02 1\n"
                   "q02 u1 s2 D02 2\nq02 u1 s2 D01 1\n",
    "dup.jg": "q01 a D01 1\nq01 a D02 0\nq01 b D01 1\nq01 a D01 0\n",
    "bad.zscores": "q01 prefs_simp 0.5 0.1\nq01 prefs_pair 0.5\n",
    "dup.run": "q01 Q0 D01 1 2 dup\nq01 Q0 D02 2 1 dup\nq02 Q0 D01 1 2 dup\nq02 Q0 D01 2 1 dup\n",
}


def main() -> None:
    rng = random.Random(23)
    HERE.mkdir(exist_ok=True)
    files = {
        "hand.prefs": HAND_PREFS,
        "hand.run": HAND_RUN,
        "random.prefs": random_prefs(rng),
        "random.qrels": random_qrels(rng),
        "random.jg": random_jg(rng),
        "random.run": random_run(rng, [*QUERIES, "q13", "q00"], "rnd"),
        "short.run": random_run(rng, QUERIES[::3], "short"),
        "ties.run": random_run(rng, QUERIES, "tied", tied=True),
        "prefs.zscores": zscores(rng, PREFS_VALUES),
        "jg.zscores": zscores(rng, JG_VALUES),
        **ERROR_INPUTS,
    }
    for name, text in files.items():
        (HERE / name).write_bytes(text.encode())


if __name__ == "__main__":
    main()
