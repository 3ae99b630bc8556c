"""`torchmetrics.NAME[@top_k]` (dialects/torchmetrics.py) against torchmetrics 1.9.0's retrieval module itself,
per query (its functional form on each row, as arrays.py feeds it) and in the mean (its class over all rows with
`indexes`), on peerdata's random cases: tied scores, scores equal only in float32, unjudged docs, queries on one
side only. Targets are binary (grade >= 1), as every class but NDCG requires.
"""

from __future__ import annotations

import pytest
from peerdata import close, random_case, require

import rankflavor as rf
from rankflavor import SpecError
from rankflavor.dialects.arrays import query_rows
from rankflavor.flavor import parse_spec

torch = require("torch")
require("torchmetrics")
import torchmetrics.functional.retrieval as retrieval  # noqa: E402
import torchmetrics.retrieval as retrieval_classes  # noqa: E402
from torchmetrics.functional.retrieval import retrieval_hit_rate  # noqa: E402
from torchmetrics.retrieval import RetrievalHitRate, RetrievalNormalizedDCG  # noqa: E402


def binary(qrels):
    return {q: {d: int(g >= 1) for d, g in docs.items()} for q, docs in qrels.items()}


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("k", [1, 3, 10])
def test_hit_rate_matches(seed, k):
    case = random_case(seed)
    qrels = binary(case.qrels)
    rows = query_rows(qrels, case.run)
    for name in ("RetrievalHitRate", "retrieval_hit_rate"):
        spec = f"torchmetrics.{name}@{k}"
        result = rf.evaluate(qrels, case.run, spec).results[0]
        ours = {row["query"]: row["value"] for row in result.per_query()}
        assert {r.query for r in rows} == {q for q, v in ours.items() if v is not None}
        for row in rows:
            theirs = float(retrieval_hit_rate(torch.tensor(row.scores), torch.tensor(row.labels).long(), top_k=k))
            assert ours[row.query] == theirs, (seed, k, row.query)
    # the class sorts all rows by `indexes` with torch's unstable sort, reordering tied docs: its mean is checked
    # on the same case with every score made distinct
    run = {q: {d: s + 0.01 * i for i, (d, s) in enumerate(docs.items())} for q, docs in case.run.items()}
    rows = query_rows(qrels, run)
    result = rf.evaluate(qrels, run, f"torchmetrics.RetrievalHitRate@{k}").results[0]
    if rows:
        metric = RetrievalHitRate(top_k=k)
        for i, row in enumerate(rows):
            metric.update(torch.tensor(row.scores), torch.tensor(row.labels).long(), torch.full((len(row.scores),), i))
        assert close(float(metric.compute()), result.mean, 1e-6)


@pytest.mark.parametrize("seed", range(10))
def test_ndcg_class_mean_matches(seed):
    case = random_case(seed, negative=False)
    rows = query_rows(case.qrels, case.run)
    if not rows:
        return
    metric = RetrievalNormalizedDCG(top_k=5)
    for i, row in enumerate(rows):
        metric.update(torch.tensor(row.scores), torch.tensor(row.labels).long(), torch.full((len(row.scores),), i))
    ours = rf.evaluate(case.qrels, case.run, "torchmetrics.RetrievalNormalizedDCG@5").results[0].mean
    assert close(float(metric.compute()), ours, 1e-6)


FUNCTIONAL = {"RetrievalMAP": "retrieval_average_precision", "RetrievalMRR": "retrieval_reciprocal_rank",
              "RetrievalPrecision": "retrieval_precision", "RetrievalRecall": "retrieval_recall",
              "RetrievalFallOut": "retrieval_fall_out", "RetrievalRPrecision": "retrieval_r_precision",
              "RetrievalAUROC": "retrieval_auroc"}


# torch.topk (MAP, MRR, precision, AUROC) orders equal predictions as its partial sort leaves them, which depends on
# k and no tie policy expresses; argsort (recall, fall-out, R-precision) keeps them in row order (ties=input)
TOPK = ("RetrievalMAP", "RetrievalMRR", "RetrievalPrecision", "RetrievalAUROC")


def distinct(run):
    """The run with every score of a query made distinct in float32, its sign kept (a score <= 0 stays <= 0)."""
    return {q: {d: s + 3.71e-5 * (i + 1) if s > 0 else s - 3.71e-5 * (i + 1) for i, (d, s) in enumerate(docs.items())}
            for q, docs in run.items()}


def theirs_per_query(functional, row, k, **kwargs):
    fn = getattr(retrieval, functional)
    top_k = {} if functional == "retrieval_r_precision" else {"top_k": k}
    return float(fn(torch.tensor(row.scores), torch.tensor(row.labels).long(), **top_k, **kwargs))


def spec_of(name, k, args=""):
    top = "" if k is None or name in ("RetrievalRPrecision", "retrieval_r_precision") else f"@{k}"
    return f"torchmetrics.{name}{args}{top}"


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("k", [None, 1, 3, 10])
@pytest.mark.parametrize("name", list(FUNCTIONAL))
def test_row_measures_match_per_query(name, k, seed):
    """Each functional form on each query's row (scores <= 0, graded qrels binarised, rows without a relevant or a
    nonrelevant doc; ties too, where torch orders them as ties=input does): torchmetrics' own numbers."""
    case = random_case(seed)
    qrels = binary(case.qrels)
    run = distinct(case.run) if name in TOPK else case.run
    rows = query_rows(qrels, run)
    functional = FUNCTIONAL[name]
    result = rf.evaluate(qrels, run, spec_of(functional, k)).results[0]
    ours = {row["query"]: row["value"] for row in result.per_query()}
    assert {r.query for r in rows} == {q for q, v in ours.items() if v is not None}
    for row in rows:
        assert close(ours[row.query], theirs_per_query(functional, row, k), 1e-6), (seed, k, row.query)


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("k", [None, 1, 3])
@pytest.mark.parametrize("name", ["RetrievalMRR", "RetrievalPrecision"])
def test_topk_ties_fall_within_the_tie_range(name, k, seed):
    """With tied scores, torch.topk's order of equal predictions (no tie policy) gives a value between
    ties=pessimistic and ties=optimistic (relevant docs of a tie group last or first), for the measures that grow
    as a relevant doc moves up (not row_ap: it divides by the relevant docs it finds in the top k)."""
    case = random_case(seed)
    qrels = binary(case.qrels)
    functional = FUNCTIONAL[name]
    bounds = [{row["query"]: row["value"] for row in rf.evaluate(
        qrels, case.run, f"{spec_of(functional, k)} ties={ties}").results[0].per_query()}
        for ties in ("pessimistic", "optimistic")]
    for row in query_rows(qrels, case.run):
        theirs = theirs_per_query(functional, row, k)
        assert bounds[0][row.query] - 1e-6 <= theirs <= bounds[1][row.query] + 1e-6, (seed, k, row.query)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("k", [2, 5])
def test_adaptive_k_matches_per_query(seed, k):
    case = random_case(seed)
    qrels, run = binary(case.qrels), distinct(case.run)
    ours = {row["query"]: row["value"] for row in rf.evaluate(
        qrels, run, f"torchmetrics.retrieval_precision(adaptive_k=True)@{k}").results[0].per_query()}
    for row in query_rows(qrels, run):
        assert close(ours[row.query], theirs_per_query("retrieval_precision", row, k, adaptive_k=True), 1e-6)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("action", ["neg", "pos", "skip"])
@pytest.mark.parametrize("name", list(FUNCTIONAL))
def test_class_mean_matches_with_empty_target_action(name, action, seed):
    """The class over all rows with `indexes` (scores made distinct: its sort by indexes is not stable) under
    each empty_target_action: queries with no positive (fall-out: no negative) target scored 0, 1 or left out."""
    case = random_case(seed)
    qrels = binary(case.qrels)
    run = distinct(case.run)
    rows = query_rows(qrels, run)
    k = None if name == "RetrievalRPrecision" else 3
    spec = spec_of(name, k, f"(empty_target_action={action})")
    ours = rf.evaluate(qrels, run, spec).results[0]
    kwargs = {} if k is None else {"top_k": k}
    metric = getattr(retrieval_classes, name)(empty_target_action=action, **kwargs)
    for i, row in enumerate(rows):
        metric.update(torch.tensor(row.scores), torch.tensor(row.labels).long(), torch.full((len(row.scores),), i))
    theirs = float(metric.compute()) if rows else 0.0
    if ours.mean is None:
        assert theirs == 0.0  # (torchmetrics: 0 when every query is skipped)
    else:
        assert close(theirs, ours.mean, 1e-6), (name, action, seed)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("action", ["neg", "pos", "skip"])
def test_ndcg_class_mean_matches_with_empty_target_action(action, seed):
    """RetrievalNormalizedDCG's empty_target_action on rows whose grades are all 0 (nonnegative grades: a row of
    grades summing to 0 is then a row of zeros, IDCG = 0)."""
    case = random_case(seed, negative=False)
    rows = query_rows(case.qrels, case.run)
    ours = rf.evaluate(case.qrels, case.run,
                       f"torchmetrics.RetrievalNormalizedDCG(empty_target_action={action})@5").results[0].mean
    metric = RetrievalNormalizedDCG(top_k=5, empty_target_action=action)
    for i, row in enumerate(rows):
        metric.update(torch.tensor(row.scores), torch.tensor(row.labels).long(), torch.full((len(row.scores),), i))
    theirs = float(metric.compute()) if rows else 0.0
    assert close(theirs, 0.0 if ours is None else ours, 1e-6), (action, seed)


def test_empty_target_action_error_is_the_empty_axis():
    assert parse_spec("torchmetrics.RetrievalMAP(empty_target_action=error)@5")[0].empty == "error"


@pytest.mark.parametrize("spec", ["torchmetrics.RetrievalMAP(ignore_index=-1)", "torchmetrics.RetrievalAUROC(max_fpr=0.5)",
                                  "torchmetrics.RetrievalMAP(adaptive_k=True)", "torchmetrics.RetrievalRPrecision@5",
                                  "torchmetrics.retrieval_recall(empty_target_action=skip)"])
def test_arguments_not_read_say_why(spec):
    with pytest.raises(SpecError, match="torchmetrics"):
        parse_spec(spec)


def test_hit_rate_needs_top_k():
    with pytest.raises(SpecError, match="write top_k as @k"):
        parse_spec("torchmetrics.RetrievalHitRate")


def test_misspelt_name_gets_a_did_you_mean():
    with pytest.raises(SpecError, match=r"did you mean torchmetrics\.RetrievalHitRate"):
        parse_spec("torchmetrics.RetrievalHitrate@5")
