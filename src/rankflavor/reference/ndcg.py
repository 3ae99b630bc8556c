"""The reference NDCG and DCG of one query's ranked list, written straight from the formulas.

    DCG@k  = sum_{i=1..min(k,n)} g(r_i) d(i)
    IDCG@k = max over orders of the ideal set of DCG (= its gains sorted descending), cut at the ideal depth
    NDCG@k = DCG@k / IDCG@k

For ties=average, every order of every tie group is enumerated when there are few enough (otherwise the
closed form: each document of a group gets the mean discount of the group's positions).
`check_record` recomputes a record's value from the record alone (Report.verify).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

from rankflavor.flavor import Flavor
from rankflavor.reference.lists import CLOSE, RefList, gain, judgment

MAX_ENUMERATED_ORDERS = 720


def discount(i: int, flavor: Flavor) -> float:
    d = flavor.discount
    if d.kind == "log2":
        return 1.0 / math.log2(i + 1)
    if d.kind == "log":
        return 1.0 / math.log(i + 1, d.base)
    if d.kind == "jarvelin":
        return 1.0 if i < d.base else 1.0 / math.log(i, d.base)
    if d.kind == "reciprocal":
        return 1.0 / i
    return 1.0


def _dcg_of(gains: list[float], k: float, flavor: Flavor) -> float:
    return sum(g * discount(i, flavor) for i, g in enumerate(gains, start=1) if i <= k)


def query_value(flavor: Flavor, judgments: Mapping[str, float], ranked: RefList,
                qrels: Mapping[str, Mapping[str, float]]) -> tuple[float | None, dict[str, float | None], bool]:
    """(value, {dcg, idcg}, undefined): undefined when IDCG is 0 (the `empty` axis decides the value)."""
    k = flavor.depth
    gains = ranked.gains
    if flavor.ties == "average":
        dcg = _average_dcg(ranked.docs, ranked.scores, gains, k, flavor)
    else:
        dcg = _dcg_of(gains, k, flavor)
    if flavor.metric == "dcg":
        return dcg, {"dcg": dcg, "idcg": None}, False
    ideal = flavor.ideal
    if ideal.kind in ("global", "positive"):
        pool = [judgment(g, flavor) for g in judgments.values()]
        ideal_gains = [g for judged, g in pool if judged and (g > 0 or ideal.kind == "global")]
    elif ideal.kind == "local":
        ideal_gains = list(gains)
    elif ideal.kind == "recall":
        ideal_gains = gains[: ideal.k]
    else:
        ideal_gains = [_top_gain(qrels, flavor)] * int(k)
    depth = {"k": k, "all": math.inf, "returned": min(k, len(ranked.docs))}[flavor.ideal_depth]
    idcg = _dcg_of(sorted(ideal_gains, reverse=True), depth, flavor)
    if idcg > 0:
        return dcg / idcg, {"dcg": dcg, "idcg": idcg}, False
    return None, {"dcg": dcg, "idcg": idcg}, True


def _top_gain(qrels: Mapping[str, Mapping[str, float]], flavor: Flavor) -> float:
    """The largest gain of a judged doc in the whole qrels (ideal=max), 0 when none is judged."""
    gains = [g for judgments in qrels.values() for judged, g in (judgment(x, flavor) for x in judgments.values())
             if judged]
    return max(gains) if gains else 0.0


def _average_dcg(ranked: list[str], scores: dict[str, float], gains: list[float], k: float, flavor: Flavor,
                 ) -> float:
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


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=CLOSE, abs_tol=CLOSE)


def check_record(record: Any, flavor: Flavor) -> list[str]:
    """What in the record does not add up (an empty list when it all does)."""
    problems: list[str] = []
    k = flavor.depth
    judged_gain = {}
    for u in record.universe:
        if u["judged"]:
            judged_gain[u["doc"]] = u["gain"]
            raw = 0.0 if (u["grade"] < 0 and flavor.negative == "zero") else gain(u["grade"], flavor)
            if flavor.min_grade.threshold is not None and u["grade"] < flavor.min_grade.threshold:
                raw = 0.0
            if not _close(raw, u["gain"]):
                problems.append(f"universe doc {u['doc']}: gain {u['gain']} is not g({u['grade']}) = {raw}")
    if record.status == "missing":  # (missing=empty: its value over no docs, which the rows' check recomputes)
        expected = 0.0 if flavor.missing == "zero" else None
        if flavor.missing != "empty" and not _close(record.value, expected):
            problems.append(f"missing query has value {record.value}, expected {expected}")
        return problems
    groups: dict[int, list[dict]] = {}
    for row in record.ranked:
        expected_gain = judged_gain.get(row["doc"], 0.0) if row["judged"] else 0.0
        if not _close(row["gain"], expected_gain):
            problems.append(f"rank {row['rank']}: gain {row['gain']} but the universe gives {expected_gain}")
        if not _close(row["contribution"], row["gain"] * row["discount"]):
            problems.append(f"rank {row['rank']}: contribution is not gain x discount")
        groups.setdefault(row["tie_group"], []).append(row)
    for members in groups.values():
        positional = [discount(r["rank"], flavor) if r["rank"] <= k else 0.0 for r in members]
        if flavor.ties == "average":
            mean = sum(positional) / len(positional)
            positional = [mean] * len(members)
        for row, expected_disc in zip(members, positional, strict=True):
            if not _close(row["discount"], expected_disc):
                problems.append(f"rank {row['rank']}: discount {row['discount']} but d(i) gives {expected_disc}")
    dcg = sum(r["contribution"] for r in record.ranked)
    if not _close(dcg, record.dcg):
        problems.append(f"DCG {record.dcg} is not the sum of contributions {dcg}")
    if flavor.metric == "dcg":
        shown = record.dcg if flavor.round.decimals is None else round(record.dcg, flavor.round.decimals)
        if not _close(record.value, shown):
            problems.append(f"value {record.value} but DCG gives {shown}")
        return problems
    ideal_gains = [r["gain"] for r in record.ideal]
    if ideal_gains != sorted(ideal_gains, reverse=True):
        problems.append("the ideal list is not sorted by gain, descending")
    for row in record.ideal:
        if not _close(row["contribution"], row["gain"] * row["discount"]):
            problems.append(f"ideal rank {row['rank']}: contribution is not gain x discount")
    idcg = sum(r["contribution"] for r in record.ideal)
    if not _close(idcg, record.idcg):
        problems.append(f"IDCG {record.idcg} is not the sum of ideal contributions {idcg}")
    if idcg > 0:
        expected = dcg / idcg
        if flavor.round.decimals is not None:
            expected = round(expected, flavor.round.decimals)
    else:
        expected = {"skip": None, "zero": 0.0, "one": 1.0, "error": None}[flavor.empty]
    if not _close(record.value, expected):
        problems.append(f"value {record.value} but the record gives {expected}")
    return problems
