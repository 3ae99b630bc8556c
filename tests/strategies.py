"""Hypothesis strategies: small random qrels, runs and flavors with every hard case in reach."""

from __future__ import annotations

from hypothesis import strategies as st

from rankflavor import Flavor, SpecError

DOCS = ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "q0", "D1", "é"]
QUERIES = ["q0", "q1", "q2", "q3"]
GRADES = [-1, 0, 0, 1, 2, 3, 0.5]
# scores that tie exactly, and two that tie only after float32 rounding
SCORES = [1.0, 2.0, 2.0, 3.5, 0.1, 1.0 + 1e-9, 1.0 + 2e-9, -4.0]


@st.composite
def qrels_and_run(draw):
    qrels = {}
    for q in draw(st.lists(st.sampled_from(QUERIES), min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(st.sampled_from(DOCS), max_size=7, unique=True))
        qrels[q] = {d: draw(st.sampled_from(GRADES)) for d in docs}
    run = {}
    for q in draw(st.lists(st.sampled_from([*QUERIES, "q9"]), max_size=5, unique=True)):
        docs = draw(st.lists(st.sampled_from(DOCS), max_size=8, unique=True))
        run[q] = {d: draw(st.sampled_from(SCORES)) for d in docs}
    return qrels, run


@st.composite
def flavors(draw, metric=None):
    while True:
        cutoff = draw(st.sampled_from([None, 1, 2, 3, 5]))
        ideal = draw(st.sampled_from(["global", "local", "recall(3)", "recall(6)", "max"]))
        try:
            return Flavor(
                metric=metric or draw(st.sampled_from(["ndcg", "ndcg", "dcg"])),
                cutoff=cutoff,
                gain=draw(st.sampled_from(["linear", "exp2", "{-1:-2,0:0,0.5:0.25,1:1,2:4,3:5}"])),
                discount=draw(st.sampled_from(["log2", "jarvelin(2)", "jarvelin(3)", "log(e)", "log(10)",
                                               "reciprocal", "none"])),
                ideal=ideal,
                ideal_depth=draw(st.sampled_from(["k", "all", "returned"])),
                ties=draw(st.sampled_from(["docid_desc", "docid_asc", "input", "average", "pessimistic",
                                           "optimistic", "random(7)"])),
                unjudged=draw(st.sampled_from(["zero", "zero", "skip", "error"])),
                negative=draw(st.sampled_from(["unjudged", "zero", "keep", "error"])),
                min_grade=draw(st.sampled_from(["none", "none", "1", "0.5"])),
                empty=draw(st.sampled_from(["skip", "zero", "one", "error"])),
                missing=draw(st.sampled_from(["skip", "zero"])),
                precision=draw(st.sampled_from(["f64", "f32"])),
                run_depth=draw(st.sampled_from(["all", "all", "2", "4"])),
                self_docs=draw(st.sampled_from(["keep", "drop"])),
                round=draw(st.sampled_from(["none", "none", "3"])),
            )
        except SpecError:
            continue
