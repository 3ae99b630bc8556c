"""The reference binary-relevance measures of one query, straight from trec_eval 10.0's definitions.

A doc is relevant when it is judged (under `negative`) with a grade of at least `rel_level` (trec_eval -l);
R is the number of such judgments in the qrels; `flags` is the relevance of the ranked docs in rank order
(after run_depth and unjudged=skip). Each function gives (value, parts, undefined): `undefined` when the
measure divides by R = 0 (the `empty` axis decides; trec_eval gives 0). Sources: trec_eval m_P.c, m_recall.c,
m_map.c, m_map_cut.c, m_recip_rank.c, m_Rprec.c, m_success.c, m_num_ret.c, m_num_rel.c, m_num_rel_ret.c.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rankflavor.flavor import Flavor
from rankflavor.reference.lists import RefList, judgment

Outcome = tuple[float | None, dict[str, float | None], bool]


def relevant_judgments(judgments: Mapping[str, float], flavor: Flavor) -> int:
    """R: the query's judged docs with a grade of at least rel_level."""
    return sum(1 for grade in judgments.values()
               if judgment(grade, flavor)[0] and grade >= flavor.rel_level.threshold)


def _k(flavor: Flavor, flags: list[bool]) -> int:
    return len(flags) if flavor.cutoff is None else flavor.cutoff


def precision(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    """P@k = |relevant in the top k| / k (a list shorter than k is filled with nonrelevant docs)."""
    k = _k(flavor, flags)
    hits = sum(flags[:k])
    return (hits / k if k else 0.0), {"relevant_retrieved": float(hits)}, False  # (an empty list: set_P 0)


def success(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    """success@k = 1 when a relevant doc is in the top k, else 0."""
    hits = sum(flags[:_k(flavor, flags)])
    return (1.0 if hits else 0.0), {"relevant_retrieved": float(hits)}, False


def recall(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    """R@k = |relevant in the top k| / R."""
    hits = sum(flags[:_k(flavor, flags)])
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    return (None, parts, True) if relevant == 0 else (hits / relevant, parts, False)


def recall_cap(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    """capped R@k = |relevant in the top k| / min(k, R)."""
    k = _k(flavor, flags)
    hits = sum(flags[:k])
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    return (None, parts, True) if relevant == 0 else (hits / min(k, relevant), parts, False)


def rprec(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    """R-precision = |relevant in the top R| / R."""
    hits = sum(flags[:relevant])
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    return (None, parts, True) if relevant == 0 else (hits / relevant, parts, False)


def average_precision(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    """AP@k = (1/R) sum over the relevant docs ranked i <= k of P@i."""
    total, hits = 0.0, 0
    for i, flag in enumerate(flags[:_k(flavor, flags)], start=1):
        if flag:
            hits += 1
            total += hits / i
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    return (None, parts, True) if relevant == 0 else (total / relevant, parts, False)


def reciprocal_rank(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    """RR@k = 1 / the rank of the first relevant doc within the top k, 0 when there is none."""
    first = next((i for i, flag in enumerate(flags[:_k(flavor, flags)], start=1) if flag), None)
    return (0.0 if first is None else 1.0 / first), {"first_relevant": None if first is None else float(first)}, False


def relevant_count(level: float, relevant: int, count: str) -> int:
    """How many relevant docs a recall level stands for: lround(level·R) (trec_eval 10) or (long)(level·R + 0.9)
    (trec_eval 9 and before, pytrec_eval)."""
    x = level * relevant
    return math.floor(x + 0.9) if count == "add0.9" else (math.floor(x) + (1 if x - math.floor(x) >= 0.5 else 0))


def interpolated_precision(flags: list[bool], relevant: int, level: float, count: str) -> float:
    """Int_Prec at recall `level`: max P@i over the ranks i at or below the c-th relevant doc, c the level's count
    (c = 0: over the whole list); 0 when fewer than c relevant docs are retrieved."""
    c = relevant_count(level, relevant, count)
    ranks = [i for i, flag in enumerate(flags, start=1) if flag]
    if c > len(ranks) or not ranks:
        return 0.0
    start = ranks[max(c, 1) - 1]
    return max(sum(flags[:i]) / i for i in range(start, len(flags) + 1))


def iprec(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    """iprec(level) = Int_Prec at recall `level` (trec_eval iprec_at_recall)."""
    parts = {"relevant_retrieved": float(sum(flags)), "relevant": float(relevant)}
    if relevant == 0:
        return None, parts, True
    return interpolated_precision(flags, relevant, flavor.param("level").number, flavor.param("count")), parts, False


AVERAGE_LEVELS = {"11": tuple(i / 10 for i in range(11)), "3": (0.2, 0.5, 0.8)}


def iprec_avg(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    """iprec_avg = the mean of Int_Prec over the recall levels (11: 0, 0.1, ..., 1; 3: 0.2, 0.5, 0.8)."""
    parts = {"relevant_retrieved": float(sum(flags)), "relevant": float(relevant)}
    if relevant == 0:
        return None, parts, True
    levels = AVERAGE_LEVELS[flavor.param("points")]
    values = [interpolated_precision(flags, relevant, level, flavor.param("count")) for level in levels]
    return sum(values) / len(values), parts, False


def rprec_mult(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    """Rprec_mult(f) = P@c with c = (long)(f·R + 0.9) (a list shorter than c is filled with nonrelevant docs)."""
    c = math.floor(flavor.param("factor").number * relevant + 0.9)
    hits = sum(flags[:c])
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    return (None, parts, True) if relevant == 0 else (hits / c, parts, False)


def num_ret(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    return float(len(flags)), {}, False


def num_rel(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    return float(relevant), {}, False


def num_rel_ret(flags: list[bool], relevant: int, flavor: Flavor) -> Outcome:
    return float(sum(flags)), {}, False


def query_value(measure, flavor: Flavor, judgments: Mapping[str, float], ranked: RefList,
                qrels: Mapping[str, Mapping[str, float]]) -> Outcome:
    """`measure` (one of the functions above) of one query's ranked list."""
    return measure(ranked.relevant(flavor.rel_level.threshold), relevant_judgments(judgments, flavor), flavor)


def check_record(measure, record: Any, flavor: Flavor) -> list[str]:
    """What in a record does not add up: its relevance flags against its universe, its value against the
    measure's formula over them."""
    problems = []
    level = flavor.rel_level.threshold
    for row in record.ranked:
        expected = bool(row["judged"] and row["grade"] is not None and row["grade"] >= level)
        if bool(row["relevant"]) != expected:
            problems.append(f"rank {row['rank']}: relevant is {row['relevant']}, but its grade is {row['grade']}")
    if record.status == "missing":
        return problems
    relevant = sum(1 for u in record.universe if u["relevant"])
    value, _, undefined = measure([bool(r["relevant"]) for r in record.ranked], relevant, flavor)
    if undefined:
        value = {"skip": None, "zero": 0.0, "one": 1.0, "error": None}[flavor.empty]
    elif flavor.round.decimals is not None:
        value = round(value, flavor.round.decimals)
    same = (value is None and record.value is None) or (
        value is not None and record.value is not None and math.isclose(value, record.value, rel_tol=1e-9,
                                                                         abs_tol=1e-9))
    if not same:
        problems.append(f"value {record.value} but the ranked list's relevance gives {value}")
    return problems
