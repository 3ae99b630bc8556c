"""The reference UDCG of one query's ranked list, written straight from the formula (docs/udcg.md).

    u(d)      = g(grade of d): the gain axis read on the qrels grade, negative allowed (a distractor);
                0 for a doc absent from the qrels
    w(u)      = relevant when u >= 0, distracting when u < 0 (a distractor's utility is already negative)
    d(i)      = discount(i) x positions(i)    (positions: flat, or the weights of ranks 1..m)
    S@k       = sum over ranks i <= k of w(u_i) u_i d(i)
    n         = the docs ranked within the cutoff
    norm=none          S
    norm=mean          S / n                  (0 when n = 0)
    norm=sigmoid_mean  1 / (1 + exp(-S / n))  (0 when n = 0: the authors' compute_udcg_score)
    norm=ideal         S / I, I = the query's positive utilities sorted descending, times relevant, against the
                       rank weights of ranks 1..k sorted descending (undefined when I = 0: the `empty` axis)

Shares nothing with the engine but the Flavor and reference/lists.py's ranked list.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rankflavor.flavor import Flavor
from rankflavor.reference.lists import CLOSE, RefList, gain
from rankflavor.reference.ndcg import discount


def rank_weight(i: int, flavor: Flavor) -> float:
    """d(i): the discount axis at rank i (1 for udcg_authors, which has none) times the `positions` weight of
    rank i."""
    positions = flavor.param("positions")
    extra = 1.0 if positions.kind == "flat" else positions.weights[i - 1]
    return (1.0 if flavor.metric == "udcg_authors" else discount(i, flavor)) * extra


def passage_weight(utility: float, flavor: Flavor) -> float:
    """w(u): `relevant` for a utility >= 0, `distracting` for a negative one."""
    return flavor.param("relevant" if utility >= 0 else "distracting").number


def normalised(total: float, passages: int, ideal: float | None, flavor: Flavor) -> tuple[float | None, bool]:
    """(value, undefined) of a sum over `passages` ranked docs under `norm`."""
    norm = flavor.param("norm")
    if norm == "none":
        return total, False
    if norm == "ideal":
        assert ideal is not None
        return (total / ideal, False) if ideal > 0 else (None, True)
    if passages == 0:
        return 0.0, False
    mean = total / passages
    return (mean if norm == "mean" else 1.0 / (1.0 + math.exp(-mean))), False


def ideal_sum(judgments: Mapping[str, float], k: float, flavor: Flavor) -> float:
    """I: the positive utilities of the query's judgments, largest first, against the largest rank weights."""
    utilities = sorted((u for u in (gain(g, flavor) for g in judgments.values()) if u > 0), reverse=True)
    span = len(utilities) if math.isinf(k) else int(k)  # (the ranks a list can fill)
    weights = sorted((rank_weight(i, flavor) for i in range(1, span + 1)), reverse=True)
    relevant = flavor.param("relevant").number
    return sum(relevant * u * w for u, w in zip(utilities, weights, strict=False))


def query_value(flavor: Flavor, judgments: Mapping[str, float], ranked: RefList,
                qrels: Mapping[str, Mapping[str, float]]) -> tuple[float | None, dict[str, float | None], bool]:
    """(value, {sum, passages, ideal}, undefined)."""
    k = flavor.depth
    total, passages = 0.0, 0
    for i, doc in enumerate(ranked.docs, start=1):
        if i > k:
            break
        grade = ranked.grades[doc]
        utility = 0.0 if grade is None else gain(grade, flavor)
        total += passage_weight(utility, flavor) * utility * rank_weight(i, flavor)
        passages += 1
    ideal = None
    if flavor.param("norm") == "ideal":
        for other in qrels.values():  # (every utility of the qrels is read, as the engine reads them at once)
            for grade in other.values():
                gain(grade, flavor)
        ideal = ideal_sum(judgments, k, flavor)
    value, undefined = normalised(total, passages, ideal, flavor)
    return value, {"sum": total, "passages": float(passages), "ideal": ideal}, undefined


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=CLOSE, abs_tol=CLOSE)


def check_record(record: Any, flavor: Flavor) -> list[str]:
    """What in a UDCG record does not add up: each ranked passage's utility against the universe, its weight,
    rank weight and contribution, the sum, the count of passages and the value."""
    problems: list[str] = []
    grades = {u["doc"]: u["grade"] for u in record.universe}
    if record.status == "missing":
        expected = 0.0 if flavor.missing == "zero" else None
        if not _close(record.value, expected):
            problems.append(f"missing query has value {record.value}, expected {expected}")
        return problems
    total, passages = 0.0, 0
    for row in record.ranked:
        in_top = row["rank"] <= flavor.depth
        grade = grades.get(row["doc"])
        utility = 0.0 if grade is None or not in_top else gain(grade, flavor)  # (read within the cutoff only)
        expected = {"utility": utility, "weight": passage_weight(utility, flavor),
                    "discount": rank_weight(row["rank"], flavor) if in_top else 0.0}
        expected["contribution"] = expected["utility"] * expected["weight"] * expected["discount"]
        for column, value in expected.items():
            if not _close(row[column], value):
                problems.append(f"rank {row['rank']}: {column} {row[column]} but the formula gives {value}")
        total += row["contribution"]
        passages += in_top
    if not _close(total, record.sum):
        problems.append(f"sum {record.sum} is not the sum of contributions {total}")
    if not _close(float(passages), record.passages):
        problems.append(f"passages {record.passages} but {passages} docs are ranked within the cutoff")
    value, undefined = normalised(total, passages, record.ideal, flavor)
    if undefined:
        value = {"skip": None, "zero": 0.0, "one": 1.0, "error": None}[flavor.empty]
    elif flavor.round.decimals is not None and value is not None:
        value = round(value, flavor.round.decimals)
    if not _close(record.value, value):
        problems.append(f"value {record.value} but the record gives {value}")
    return problems
