"""Hypothesis strategies: small random qrels, runs and flavors with every hard case in reach."""

from __future__ import annotations

from hypothesis import strategies as st

from rankflavor import Flavor, SpecError, registry
from rankflavor.flavor.axes import AXIS_BY_NAME, AXIS_NAMES

DOCS = ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "q0", "D1", "é"]
QUERIES = ["q0", "q1", "q2", "q3"]
GRADES = [-1, 0, 0, 1, 2, 3, 0.5]
# scores that tie exactly, and two that tie only after float32 rounding
SCORES = [1.0, 2.0, 2.0, 3.5, 0.1, 1.0 + 1e-9, 1.0 + 2e-9, -4.0]


@st.composite
def qrels_and_run(draw):
    qrels = {}
    for i, q in enumerate(draw(st.lists(st.sampled_from(QUERIES), min_size=1, max_size=4, unique=True))):
        # (the first query has a judgment: a qrels with none is refused, docs/input-catalogue.md; the others
        # may have none: a query with an empty dict is listed, not judged)
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1 if i == 0 else 0, max_size=7, unique=True))
        qrels[q] = {d: draw(st.sampled_from(GRADES)) for d in docs}
    run = {}
    for q in draw(st.lists(st.sampled_from([*QUERIES, "q9"]), max_size=5, unique=True)):
        docs = draw(st.lists(st.sampled_from(DOCS), max_size=8, unique=True))
        run[q] = {d: draw(st.sampled_from(SCORES)) for d in docs}
    return qrels, run


UNBOUND = {"weights"}  # (a weights name needs weights bound to the evaluation: tests of weights bind their own)


def axis_values(axis: str) -> st.SearchStrategy[str]:
    """Every example token of the axis's values (rankflavor.flavor.axes), its default drawn twice as often."""
    spec = AXIS_BY_NAME[axis]
    if axis in UNBOUND:
        return st.just(spec.default)
    return st.sampled_from([spec.default, *spec.tokens()])


@st.composite
def flavors(draw, metric=None):
    """Flavors of ndcg and dcg, every axis the metric reads drawn from the axis registry."""
    while True:
        name = metric or draw(st.sampled_from(["ndcg", "ndcg", "dcg"]))
        reads = registry.get(name).reads
        try:
            params = {p.name: draw(st.sampled_from(p.examples)) for p in registry.get(name).parameters}
            return Flavor(metric=name, cutoff=draw(st.sampled_from([None, 1, 2, 3, 5])), params=params,
                          **{axis: draw(axis_values(axis)) for axis in AXIS_NAMES if axis in reads})
        except SpecError:
            continue
