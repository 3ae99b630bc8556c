"""`trectools.NAME[@depth]` (dialects/trectools.py) against trectools 0.0.50's TrecEval methods on the same files,
per query and in the mean, on peerdata's random cases (ties, graded and negative grades, unjudged docs, topics on
one side only). trectools is called as its users call it: TrecRun(path), TrecQrel(path), then
`TrecEval(run, qrels).get_NAME(depth=k, per_query=...)` with its default trec_eval=True.
"""

from __future__ import annotations

import math
import warnings

import pytest
from peerdata import close, random_case, require

import rankflavor as rf
from rankflavor import SpecError
from rankflavor.flavor import parse_spec

require("trectools")
from trectools import TrecEval, TrecQrel, TrecRun  # noqa: E402

NAMES = ["precision", "recall", "map", "reciprocal_rank", "ndcg"]


def trectools_values(case, tmp_path, name: str, depth: int) -> tuple[dict[str, float], float]:
    qrels_path, run_path = case.write(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluator = TrecEval(TrecRun(str(run_path)), TrecQrel(str(qrels_path)))
        method = getattr(evaluator, f"get_{name}")
        frame = method(depth=depth, per_query=True)
        mean = method(depth=depth, per_query=False)
    column = frame if not hasattr(frame, "columns") else frame[frame.columns[-1]]
    return {str(q): float(v) for q, v in column.items()}, float(mean)


@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize("depth", [1, 3, 10, 1000])
@pytest.mark.parametrize("name", NAMES)
def test_names_match_trectools(name, depth, seed, tmp_path):
    case = random_case(seed)
    if not case.run:
        return
    theirs, their_mean = trectools_values(case, tmp_path, name, depth)
    spec = f"trectools.{name}@{depth}"
    result = rf.evaluate(case.qrels, case.run, spec).results[0]
    ours = {row["query"]: row["value"] for row in result.per_query()}
    for q, value in theirs.items():
        if math.isnan(value):  # no relevant judgment, or the topic is missing from the run: rankflavor 0 or none
            assert ours.get(q) in (0.0, None), (spec, seed, q, ours.get(q))
        elif q not in case.qrels:  # a run topic without judgments: 0, as unjudged_queries=zero counts it
            assert value == 0.0 and ours.get(q) in (0.0, None), (spec, seed, q, value)
        else:
            assert close(ours[q], value), f"seed {seed} {spec} {q}: rankflavor {ours[q]} trectools {value}"
    for q, value in ours.items():  # a topic with no row in trectools' table (RR, nDCG: nothing relevant found)
        if q not in theirs and value is not None:
            assert value == 0.0, (spec, seed, q, value)
    assert close(result.mean, their_mean), f"seed {seed} {spec}: mean {result.mean} trectools {their_mean}"


def test_default_depth_is_1000_and_get_is_optional():
    assert parse_spec("trectools.map") == parse_spec("trectools.get_map@1000")
    assert parse_spec("trectools.map") == parse_spec("map@1000 ties=docid_desc unjudged_queries=zero")


@pytest.mark.parametrize(("spec", "fragment"), [
    ("trectools.rprec", "KeyError"),
    ("trectools.get_rbp@10", "cross topics"),
    ("trectools.ubpref", "second qrels"),
    ("trectools.map(rel=2)", "depth as @k"),
    ("trectools.precison@10", "did you mean trectools.precision"),
])
def test_refusals_say_why(spec, fragment):
    with pytest.raises(SpecError) as info:
        parse_spec(spec)
    assert fragment in str(info.value)
