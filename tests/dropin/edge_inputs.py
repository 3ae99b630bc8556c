"""The small input files of the drop-in's edge cases (edge_cases.py): each a name -> its exact bytes, written
into tests/dropin/inputs/edge/ by make_inputs.py. Deterministic: fixed rows and `random.Random(seed)`.

Each file is one thing trec_eval 10.0 reads in its own way: get_qrels.c and get_trec_results.c split a line on
C's isspace (space, \\t, \\v, \\f, \\r), read a grade with atol and a score with atof, skip comment lines (the
qrels one at a time), and refuse (exit 2) what they cannot parse; form_res_rels.c ranks by score, ties by docno
descending, and refuses a doc twice in a query's first -M docs (exit 4).
"""

from __future__ import annotations

import random

FILES: dict[str, bytes] = {}


def add(name: str, text: str | bytes) -> str:
    """Register a file; returns its path as the cases name it (relative to tests/dropin/)."""
    FILES[name] = text.encode("utf-8") if isinstance(text, str) else text
    return f"inputs/edge/{name}"


def qrels(rows: list[tuple[str, str, object]], sep: str = " ", end: str = "\n") -> str:
    return "".join(f"{q}{sep}0{sep}{d}{sep}{g}{end}" for q, d, g in rows)


def run(rows: list[tuple[str, str, object]], tag: str = "tagA", last_tag: str = "tagZ", sep: str = " ",
        end: str = "\n") -> str:
    lines = []
    for i, (q, d, s) in enumerate(rows):
        lines.append(f"{q}{sep}Q0{sep}{d}{sep}{i + 1}{sep}{s}{sep}{tag if i < len(rows) - 1 else last_tag}{end}")
    return "".join(lines)


# --- the base pair: graded judgments, ties, unjudged and in-pool-unjudged docs, a query with no relevant doc
BASE_QRELS = [("q1", "d1", 3), ("q1", "d2", 2), ("q1", "d3", 0), ("q1", "d4", 1), ("q1", "d5", -1), ("q1", "d6", 1),
              ("q1", "d10", 12), ("q2", "d1", 1), ("q2", "d7", 0), ("q2", "d8", 2), ("q3", "d2", 0), ("q3", "d9", 0),
              ("q4", "d1", 1), ("q4", "d2", 4), ("q4", "d3", 2)]
BASE_RUN = [("q1", "d1", 5.0), ("q1", "d9", 4.5), ("q1", "d2", 4.5), ("q1", "d5", 4), ("q1", "d3", 3), ("q1", "d7", 2),
            ("q1", "d11", 1.5), ("q1", "d6", 1), ("q1", "d12", 0.5), ("q1", "d4", 0.25), ("q1", "d13", 0.125),
            ("q2", "d8", 1.0), ("q2", "d7", 0.5), ("q2", "d3", 0.5), ("q3", "d9", 2), ("q3", "d1", 1),
            ("q4", "d3", 3), ("q4", "d9", 2), ("q4", "d1", 1), ("q9", "d1", 1)]
Q = add("base.qrels", qrels(BASE_QRELS))
R = add("base.run", run(BASE_RUN))
R_MISSING = add("missing.run", run([r for r in BASE_RUN if r[0] not in ("q2", "q3")]))
R_ONE = add("one.run", run([r for r in BASE_RUN if r[0] == "q1"]))

# --- the tester's cases
NEG_Q = add("neg_gain.qrels", "q1 0 a 1\nq1 0 b 2\nq1 0 c 0\n")
NEG_R = add("neg_gain.run", "q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq1 Q0 c 3 1 r\n")
FRAC_Q = add("frac.qrels", "q1 0 d1 0.5\nq1 0 d2 1\n")
FRAC_R = add("frac.run", "q1 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\n")
EXP_GRADE_Q = add("exp_grade.qrels", "q1 0 d1 1e1\nq1 0 d2 2E0\nq1 0 d3 1\n")
MISS_Q = add("two.qrels", "q1 0 d1 1\nq2 0 d2 1\n")
MISS_R = add("q1only.run", "q1 Q0 d1 1 1 r\n")
BOM_R = add("bom.run", b"\xef\xbb\xbfq1 Q0 d1 1 1 r\nq1 Q0 d2 2 0.5 r\nq2 Q0 d2 1 1 r\n")
BOM_Q = add("bom.qrels", b"\xef\xbb\xbfq1 0 d1 1\nq1 0 d2 1\nq2 0 d2 1\n")
BOM_BOTH_Q = add("bom_both.qrels", b"\xef\xbb\xbfq1 0 d1 1\nq1 0 d2 0\n")
EMPTY = add("empty.txt", b"")

# --- numbers as C's atof (scores) and atol (grades) read them
SCORES = ["inf", "-inf", "1e400", "-1e400", "0x10", "2.5abc", "0x1p-2", "1e-400", "4e-320", ".5", "5.", "+3",
          "abc", "1,5", "-0", "0X1A", "infinity", "INF", "1e+2", "  7"]
ODD_SCORES = add("odd_scores.run", run([("q1", f"d{i}", s.strip()) for i, s in enumerate(SCORES)]
                                     + [("q2", "d1", "1"), ("q2", "d2", "nan")]))
NAN_ONLY = add("nan_only.run", run([("q1", "d1", "nan"), ("q1", "d2", "NAN"), ("q1", "d3", "nan(123)")]))
SCORE_Q = add("scores.qrels", qrels([("q1", f"d{i}", (i * 7) % 4 - 1) for i in range(len(SCORES))]
                                   + [("q2", "d1", 1), ("q2", "d2", 1)]))
nan_q = qrels([("q1", "d1", 1), ("q1", "d2", 0), ("q1", "d3", 2)])
NAN_Q = add("nan.qrels", nan_q)
GRADES = ["3x", "0x2", "+2", "007", "-0", " 1", "2.9", "-1.5", "1e1", "12abc", "100", "10", "9", "-3", "x", "0.999"]
ODD_GRADES = add("odd_grades.qrels", qrels([("q1", f"d{i}", g.strip()) for i, g in enumerate(GRADES)]))
ODD_GRADES_R = add("odd_grades.run", run([("q1", f"d{i}", 20 - i) for i in range(len(GRADES) + 3)]))

# --- whitespace, line ends, comments and blank lines
add("tabs.qrels", qrels(BASE_QRELS, sep="\t"))
add("tabs.run", run(BASE_RUN, sep="\t"))
add("crlf.qrels", qrels(BASE_QRELS, end="\r\n"))
add("crlf.run", run(BASE_RUN, end="\r\n"))
add("spaces.qrels", "".join(f"  {q}   0\t {d}  {g}  \n" for q, d, g in BASE_QRELS))
add("spaces.run", "".join(f"   {q} \tQ0   {d} {i}   {s}\t\ttag  \n" for i, (q, d, s) in enumerate(BASE_RUN)))
add("vtab.qrels", qrels(BASE_QRELS, sep="\v"))
add("formfeed.run", run(BASE_RUN, sep="\f"))
add("cr_sep.qrels", qrels(BASE_QRELS, sep="\r"))
add("no_final_newline.qrels", qrels(BASE_QRELS)[:-1])
add("no_final_newline.run", run(BASE_RUN)[:-1])
add("blank_line.qrels", qrels(BASE_QRELS[:5]) + "\n" + qrels(BASE_QRELS[5:]))
add("blank_last.qrels", qrels(BASE_QRELS) + "\n")
add("space_line.qrels", qrels(BASE_QRELS[:5]) + "   \n" + qrels(BASE_QRELS[5:]))
add("blank_lines.run", "\n" + run(BASE_RUN[:6]) + "\n   \n\t\n" + run(BASE_RUN[6:]) + "\n\n")
add("comments.run", "# a comment\n#another\n" + run(BASE_RUN[:4]) + "  # indented comment\n" + run(BASE_RUN[4:])
    + "#last\n")
add("comment_first.qrels", "# qid iter docno rel\n" + qrels(BASE_QRELS))
add("comment_middle.qrels", qrels(BASE_QRELS[:3]) + "# middle\n" + qrels(BASE_QRELS[3:]))
add("two_comments.qrels", "# one\n# x y z\n" + qrels(BASE_QRELS))  # (the second: qid '#', doc 'y', grade atol('z'))
add("two_comments_bad.qrels", "# one\n# two\n" + qrels(BASE_QRELS))  # (the second: 2 fields, malformed)
add("indented_comment.qrels", qrels(BASE_QRELS[:3]) + " # a b c\n" + qrels(BASE_QRELS[3:]))  # (data: qid '#')
add("hash_ids.qrels", qrels(BASE_QRELS) + "q1 0 #d 1\n")
add("hash_ids.run", run(BASE_RUN) + "q1 Q0 #d 40 0.1 tag\n")
add("comment_then_blank.qrels", "# c\n\n" + qrels(BASE_QRELS))

# --- fields
add("three_fields.qrels", qrels(BASE_QRELS[:4]) + "q1 0 d20\n")
add("five_fields.qrels", qrels(BASE_QRELS[:4]) + "q1 0 d20 1 extra\n")
add("five_fields.run", run(BASE_RUN[:4]) + "q1 Q0 d20 5 0.1\n")
add("seven_fields.run", "".join(f"{q} Q0 {d} {i} {s} tag{i % 3} extra more\n" for i, (q, d, s) in enumerate(BASE_RUN)))
add("one_field.run", run(BASE_RUN[:3]) + "q1\n")
add("long_ids.qrels", qrels([("q" * 3000, "d" * 5000, 1), ("q" * 3000, "e" * 5000, 0), ("q1", "d1", 1)]))
add("long_ids.run", run([("q" * 3000, "d" * 5000, 2), ("q" * 3000, "x" * 7000, 1), ("q1", "d1", 1)],
                        last_tag="t" * 4000))
add("long_line.run", run(BASE_RUN[:3]) + "q1 Q0 d77 4 0.3 tag " + "x " * 20000 + "\n")

# --- ids: strcmp order, case, bytes that are not ASCII
ID_Q = [("10", "D1", 1), ("2", "D1", 1), ("9", "d1", 1), ("A", "a", 1), ("a", "A", 0), ("a", "B", 2), ("Ä", "é", 1),
        ("Z", "d", 1), ("-1", "d", 1), ("_", "d", 1)]
ID_R = [("10", "D1", 1), ("10", "d1", 1), ("2", "D1", 1), ("9", "d1", 1), ("A", "a", 1), ("a", "A", 1), ("a", "B", 1),
        ("a", "b", 1), ("Ä", "é", 1), ("Ä", "e", 1), ("Z", "d", 1), ("-1", "d", 1), ("_", "d", 1)]
add("ids.qrels", qrels(ID_Q))
add("ids.run", run(ID_R))
add("latin1.qrels", "q1 0 d\xe9 1\nq1 0 d2 0\nq\xe9 0 d1 1\n".encode("latin-1"))
add("latin1.run", "q1 Q0 d\xe9 1 1 r\xe9\nq1 Q0 d2 2 1 r\nq\xe9 Q0 d1 1 1 r\xe9\n".encode("latin-1"))

# --- duplicates
add("dup_judgment.qrels", qrels([*BASE_QRELS[:8], ("q2", "d7", 0), *BASE_QRELS[8:]]))
add("dup_judgment_diff.qrels", qrels([*BASE_QRELS, ("q4", "d2", 1)]))
add("dup_judgment_q1.qrels", qrels([("q1", "d1", 1), *BASE_QRELS]))
add("dup_run_q1.run", run([*BASE_RUN, ("q1", "d1", 0.01)]))
add("dup_run_q4.run", run([*BASE_RUN, ("q4", "d3", 0.01)]))
add("dup_run_unjudged_q.run", run([*BASE_RUN, ("q9", "d1", 0.5)]))
add("dup_run_same_score.run", run([*BASE_RUN, ("q2", "d8", 1.0)]))

# --- judgments all negative, no relevant doc, grades past 9 and large
add("all_negative_first.qrels", qrels([("a", "d1", -1), ("a", "d2", -1), *BASE_QRELS]))
add("all_negative_first.run", run([("a", "d1", 1), ("a", "d3", 0.5), *BASE_RUN]))
add("all_negative_m2.qrels", qrels([("a", "d1", -2), ("a", "d2", -3), *BASE_QRELS]))
add("big_grades.qrels", qrels([("q1", "d1", 1000), ("q1", "d2", 10), ("q1", "d3", 55), ("q1", "d4", 0), ("q2", "d1", 9)]))
add("big_grades.run", run([("q1", "d1", 1), ("q1", "d2", 2), ("q1", "d3", 3), ("q1", "d5", 4), ("q2", "d1", 1)]))
add("zero_only.qrels", qrels([("q1", "d1", 0), ("q1", "d2", 0), ("q2", "d1", 1)]))
add("single.run", run([("q1", "d1", 1), ("q2", "d1", 1)]))

# --- a query judged only with negative grades after others (form_res_rels.c keeps the levels it counted last),
# NUL bytes (C's strings end there), a run of comments only, a qrels ending on a comment
add("all_negative_later.qrels", qrels([*BASE_QRELS, ("q5", "d1", -1), ("q5", "d2", -1)]))
add("all_negative_later.run", run([*BASE_RUN, ("q5", "d1", 2), ("q5", "d3", 1)]))
add("nul_line.qrels", qrels(BASE_QRELS).encode() + b"\0q9 0 d1 1\n")
add("nul_line.run", run(BASE_RUN).encode() + b"\0q1 Q0 d99 1 9 x\n")
add("comments_only.run", "# nothing\n# here\n")
add("comment_last.qrels", qrels(BASE_QRELS) + "# the end\n")
add("relstring.qrels", qrels([("q1", f"d{i}", g) for i, g in enumerate([0, 1, 2, 9, 10, 11, 100, -1, -5, 3])]))
add("relstring.run", run([("q1", f"d{i}", 30 - i) for i in range(14)]))

# --- a -Z file, and the files of -c's stand-in ranking
add("zscores.txt", "q1 map 0.3 0.1\nq1 P_5 0.2 0\nq2 map 0.5 0.2\nq4 map 0.1 0.05\nq4 recip_rank 0.5 0.25\n"
    "q4 P_5 0.1 0.1\n")
add("bogus_judged.qrels", qrels([("q1", "d1", 1), ("q2", "ceci_nest_pas_un_docno", 1), ("q2", "d2", 0)]))


def random_pair(seed: int) -> tuple[str, str]:
    """A random qrels and run (grades -2..5 with fractions and exponents, scores with ties, exponents, negative and
    huge values), written as random_SEED.qrels / .run."""
    rng = random.Random(seed)
    queries = [rng.choice(["", "q", "Q", "t-"]) + str(rng.randint(1, 40)) for _ in range(rng.randint(1, 6))]
    qrows, rrows = [], []
    for q in dict.fromkeys(queries):
        docs = rng.sample(range(30), rng.randint(1, 12))
        for d in docs:
            grade = rng.choice([-2, -1, 0, 0, 0, 1, 1, 2, 3, 4, 5, "1.5", "2e1", "0.3"])
            qrows.append((q, f"doc{d}", grade))
        if rng.random() < 0.85:
            for d in rng.sample(range(40), rng.randint(1, 25)):
                score = rng.choice([rng.randint(0, 5), round(rng.uniform(-3, 3), 3), f"{rng.uniform(0, 1):.3e}",
                                    rng.choice(["1e300", "-1e300", "0"])])
                rrows.append((q, f"doc{d}", score))
    for _ in range(rng.randint(0, 3)):
        rrows.append((f"x{rng.randint(0, 9)}", "doc1", 1))
    rng.shuffle(qrows)
    if not rrows:
        rrows.append((queries[0], "doc0", 1))
    rng.shuffle(rrows)
    rrows = list({(q, d): (q, d, s) for q, d, s in rrows}.values())
    return add(f"random_{seed}.qrels", qrels(qrows)), add(f"random_{seed}.run", run(rrows))


RANDOM = [random_pair(seed) for seed in range(48)]
