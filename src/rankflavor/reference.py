"""A slow, per-query reference implementation written straight from the formulas, for testing the engine.

It shares nothing with the engine but the Flavor parser: plain Python lists, `sorted`, `math.log`, and
for ties=average an explicit enumeration of every order of every tie group when there are few enough
(otherwise the closed form: each document of a group gets the mean discount of the group's positions).

    DCG@k  = sum_{i=1..min(k,n)} g(r_i) d(i)
    IDCG@k = max over orders of the ideal set of DCG (= its gains sorted descending), cut at the ideal depth
    NDCG@k = DCG@k / IDCG@k
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass

from rankflavor.flavor import Flavor
from rankflavor.flavor.axes import parse_base, parse_call, parse_gain
from rankflavor.flavor.ties import random_tie_key

MAX_ENUMERATED_ORDERS = 720


@dataclass
class RefResult:
    value: float | None  # as reported (rounded when the flavor says round=N)
    dcg: float | None
    idcg: float | None
    status: str
    raw_value: float | None = None  # before rounding: the mean is taken over these


def _rounded(result: RefResult, flavor: Flavor) -> RefResult:
    result.raw_value = result.value
    if flavor.round != "none" and result.value is not None:
        result.value = round(result.value, int(flavor.round))
    return result


class RefError(Exception):
    """The flavor refuses the data (mirrors the engine's EvaluationError)."""


def gain(grade: float, flavor: Flavor) -> float:
    kind = parse_gain(flavor.gain)
    if kind == "linear":
        return float(grade)
    if kind == "exp2":
        value = 2.0 ** grade - 1.0
        if not math.isfinite(value):
            raise RefError("exp2 overflow")
        return value
    assert isinstance(kind, dict)
    if float(grade) not in kind:
        raise RefError(f"grade {grade} not in the gain table")
    return kind[float(grade)]


def discount(i: int, flavor: Flavor) -> float:
    kind, arg = parse_call(flavor.discount)
    if kind == "log2":
        return 1.0 / math.log2(i + 1)
    if kind == "log":
        return 1.0 / math.log(i + 1, parse_base(arg or "2"))
    if kind == "jarvelin":
        b = parse_base(arg or "2")
        return 1.0 if i < b else 1.0 / math.log(i, b)
    if kind == "reciprocal":
        return 1.0 / i
    return 1.0


def _judgment(grade: float | None, flavor: Flavor) -> tuple[bool, float]:
    """(is judged, gain) of one qrels grade (None = not in the qrels) after negative and min_grade."""
    if grade is None:
        return False, 0.0
    if grade < 0:
        if flavor.negative == "error":
            raise RefError("negative grade")
        if flavor.negative in ("unjudged", "drop"):
            return False, 0.0
        if flavor.negative == "zero":
            return True, 0.0
    g = gain(grade, flavor)
    if flavor.min_grade != "none" and grade < float(flavor.min_grade):
        g = 0.0
    return True, g


def _dcg_of(gains: list[float], k: float, flavor: Flavor) -> float:
    return sum(g * discount(i, flavor) for i, g in enumerate(gains, start=1) if i <= k)


def reference_query(flavor: Flavor, judgments: Mapping[str, float], ranking: Mapping[str, float] | None,
                    input_order: list[str] | None = None, query: str = "q", top_gain: float | None = None,
                    ) -> RefResult:
    """Score one query. `ranking` None means the query is missing from the run; `input_order` lists the
    run's docs in input order (defaults to the mapping's order); `top_gain` is the largest gain of the
    whole qrels (for ideal=max)."""
    for grade in judgments.values():
        _judgment(grade, flavor)  # negative=error and table errors hold for every judged doc
    if ranking is None:
        if flavor.missing == "zero":
            return RefResult(0.0, None, None, "missing")
        return RefResult(None, None, None, "missing")
    order = list(input_order) if input_order is not None else list(ranking)
    scores = {doc: float(ranking[doc]) for doc in order}
    if flavor.precision == "f32":
        import struct

        scores = {d: struct.unpack("f", struct.pack("f", s))[0] for d, s in scores.items()}
    if flavor.self_docs == "drop":
        order = [d for d in order if d != query]
    if flavor.negative == "drop":
        order = [d for d in order if not (d in judgments and judgments[d] < 0)]
    info = {d: _judgment(judgments.get(d), flavor) for d in order}

    kind, arg = parse_call(flavor.ties)
    position = {d: i for i, d in enumerate(order)}

    def tie_key(d: str):
        if kind in ("docid_desc", "average"):
            return _Desc(d)
        if kind == "docid_asc":
            return d
        if kind == "input":
            return position[d]
        if kind == "pessimistic":
            return (info[d][1], _Desc(d))
        if kind == "optimistic":
            return (-info[d][1], _Desc(d))
        raise AssertionError

    if kind == "random":
        ranked = sorted(order, key=lambda d: (-scores[d], random_tie_key(int(arg or 0), query, d)))
    else:
        ranked = sorted(order, key=lambda d: (-scores[d], tie_key(d)))
    if flavor.run_depth != "all":
        ranked = ranked[: int(flavor.run_depth)]
    if flavor.unjudged == "error" and not all(info[d][0] for d in ranked):
        raise RefError("unjudged doc")
    if flavor.unjudged == "skip":
        ranked = [d for d in ranked if info[d][0]]
    k = math.inf if flavor.cutoff is None else flavor.cutoff
    gains = [info[d][1] for d in ranked]

    if flavor.ties == "average":
        dcg = _average_dcg(ranked, scores, gains, k, flavor)
    else:
        dcg = _dcg_of(gains, k, flavor)
    if flavor.metric == "dcg":
        return RefResult(dcg, dcg, None, "ok")

    ideal_kind, ideal_arg = parse_call(flavor.ideal)
    if ideal_kind == "global":
        pool = [_judgment(g, flavor) for g in judgments.values()]
        ideal_gains = [g for judged, g in pool if judged]
    elif ideal_kind == "local":
        ideal_gains = list(gains)
    elif ideal_kind == "recall":
        ideal_gains = gains[: int(ideal_arg or 0)]
    else:
        ideal_gains = [top_gain or 0.0] * int(k)
    depth = {"k": k, "all": math.inf, "returned": min(k, len(ranked))}[flavor.ideal_depth]
    idcg = _dcg_of(sorted(ideal_gains, reverse=True), depth, flavor)
    if idcg > 0:
        return RefResult(dcg / idcg, dcg, idcg, "ok")
    if flavor.empty == "error":
        raise RefError("zero ideal")
    value = {"skip": None, "zero": 0.0, "one": 1.0}[flavor.empty]
    return RefResult(value, dcg, idcg, "zero_ideal")


def _average_dcg(ranked: list[str], scores: dict[str, float], gains: list[float], k: float, flavor: Flavor) -> float:
    """Expected DCG over all orders of each group of equal scores, enumerated when small enough."""
    groups: list[list[float]] = []
    for d, g in zip(ranked, gains, strict=True):
        if groups and scores[d] == groups[-1][0]:
            groups[-1][1].append(g)
        else:
            groups.append([scores[d], [g]])
    sizes = [len(g[1]) for g in groups]
    total_orders = math.prod(math.factorial(s) for s in sizes)
    if total_orders <= MAX_ENUMERATED_ORDERS:
        total = 0.0
        for combo in itertools.product(*(itertools.permutations(g[1]) for g in groups)):
            total += _dcg_of([x for part in combo for x in part], k, flavor)
        return total / total_orders
    dcg, start = 0.0, 1
    for _, members in groups:
        positions = range(start, start + len(members))
        mean_disc = sum(discount(i, flavor) if i <= k else 0.0 for i in positions) / len(members)
        dcg += sum(members) * mean_disc
        start += len(members)
    return dcg


class _Desc:
    """Wraps a string so that sorting is descending (strcmp order reversed)."""

    __slots__ = ("s",)

    def __init__(self, s: str) -> None:
        self.s = s

    def __lt__(self, other: _Desc) -> bool:
        return self.s.encode() > other.s.encode()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.s == other.s


def reference_evaluate(flavor: Flavor, qrels: Mapping[str, Mapping[str, float]],
                       run: Mapping[str, Mapping[str, float]]) -> dict[str, RefResult]:
    """Score every judged query of a run given as nested dicts (dict order is the input order)."""
    all_gains = []
    for judgments in qrels.values():
        for grade in judgments.values():
            judged, g = _judgment(grade, flavor)
            if judged:
                all_gains.append(g)
    top_gain = max(all_gains) if all_gains else 0.0
    return {
        query: _rounded(reference_query(flavor, judgments, run.get(query), query=query, top_gain=top_gain), flavor)
        for query, judgments in qrels.items()
    }
