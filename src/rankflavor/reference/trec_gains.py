"""The reference of trec_eval's experimental gain measures of one query, transliterated from trec_eval 10.0's loops
(m_G.c, m_Rndcg.c, m_ndcg_rel.c; the gains of gain_init.c setup_gains/get_gain are the `gain` axis's): the ideal is
every judged doc's gain, descending (`ideal_at(i)`: 0 past the judged docs), the run's gains in rank order (an
unjudged doc: 0). Each gives (value, parts, undefined); `undefined` where trec_eval gives 0 or nan (`empty`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from rankflavor.flavor import Flavor
from rankflavor.reference.binary import Outcome, relevant_judgments
from rankflavor.reference.lists import RefList, judgment


def _ideal(judgments: Mapping[str, float], flavor: Flavor) -> Callable[[int], float]:
    ideal = sorted((g for judged, g in (judgment(grade, flavor) for grade in judgments.values()) if judged),
                   reverse=True)
    return lambda i: ideal[i] if i < len(ideal) else 0.0


def g_gain(gains: list[float], ideal_at: Callable[[int], float]) -> Outcome:
    """G = (1/S) sum over ranks i of g_i / log2(2 + C_i - G_i); C_i: the sum of max(ideal gain, 1) to rank i, G_i:
    the sum of the run's gains to rank i, S: the sum of the positive ideal gains."""
    results_g = sum_results = sum_ideal = sum_cost = 0.0
    ideal_gain, i, n = ideal_at(0), 0, len(gains)
    while i < n and ideal_gain > 0.0:
        sum_results += gains[i]
        ideal_gain = ideal_at(i)
        if ideal_gain > 0.0:
            sum_ideal += ideal_gain
        sum_cost += ideal_gain if ideal_gain >= 1.0 else 1.0
        if gains[i] != 0:
            results_g += gains[i] / math.log2(2 + sum_cost - sum_results)
        i += 1
    while i < n:
        sum_results += gains[i]
        sum_cost += 1.0
        if gains[i] != 0:
            results_g += gains[i] / math.log2(2 + sum_cost - sum_results)
        i += 1
    while ideal_gain > 0.0:
        ideal_gain = ideal_at(i)
        if ideal_gain > 0.0:
            sum_ideal += ideal_gain
        i += 1
    parts = {"ideal_gain": sum_ideal}
    return (results_g / sum_ideal, parts, False) if sum_ideal > 0.0 else (None, parts, True)


def rndcg(gains: list[float], ideal_at: Callable[[int], float], relevant: int) -> Outcome:
    """Rndcg = the mean of NDCG at each change of the ideal gain (and at the list's end when it runs on past the
    positive ideal gains by more than one doc); undefined when R = 0 (trec_eval: 0) or no point counts (nan)."""
    if relevant == 0:
        return None, {"points": 0.0}, True
    results_dcg = ideal_dcg = total = 0.0
    count, i, n = 0, 0, len(gains)
    ideal_gain = old = ideal_at(0)

    def point() -> None:
        nonlocal total, count
        if ideal_dcg > 0.0:
            total += results_dcg / ideal_dcg
            count += 1

    while i < n and ideal_gain > 0.0:
        ideal_gain = ideal_at(i)
        if old != ideal_gain:
            point()
            old = ideal_gain
        if gains[i] != 0:
            results_dcg += gains[i] / math.log2(i + 2)
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    if i < n:
        while i < n:
            if gains[i] != 0:
                results_dcg += gains[i] / math.log2(i + 2)
            i += 1
        point()
    while ideal_gain > 0.0:
        ideal_gain = ideal_at(i)
        if old != ideal_gain:
            point()
            old = ideal_gain
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    parts = {"points": float(count)}
    return (total / count, parts, False) if count else (None, parts, True)


def ndcg_rel(gains: list[float], ideal_at: Callable[[int], float]) -> Outcome:
    """ndcg_rel = (1/P) (sum over the docs of positive gain ranked i of DCG(i) / IDCG(i) + the P docs not
    retrieved, each DCG(n) / IDCG); P: the judged docs of positive gain; 0 when that sum is not positive."""
    results_dcg = ideal_dcg = total = 0.0
    positive = positive_ret = 0
    i, n = 0, len(gains)
    ideal_gain = ideal_at(0)
    while i < n and ideal_gain > 0.0:
        if gains[i] != 0:
            results_dcg += gains[i] / math.log2(i + 2)
        ideal_gain = ideal_at(i)
        if ideal_gain > 0.0:
            positive += 1
            ideal_dcg += ideal_gain / math.log2(i + 2)
        if gains[i] > 0:
            total += results_dcg / ideal_dcg
            positive_ret += 1
        i += 1
    while i < n:
        if gains[i] != 0:
            results_dcg += gains[i] / math.log2(i + 2)
        if gains[i] > 0:
            total += results_dcg / ideal_dcg
            positive_ret += 1
        i += 1
    while ideal_gain > 0.0:
        ideal_gain = ideal_at(i)
        if ideal_gain > 0.0:
            positive += 1
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    parts = {"positive": float(positive), "positive_retrieved": float(positive_ret)}
    if positive == 0:
        return None, parts, True
    total += (positive - positive_ret) * results_dcg / ideal_dcg
    return (total / positive if total > 0.0 else 0.0), parts, False


def query_value(name: str, flavor: Flavor, judgments: Mapping[str, float], ranked: RefList,
                qrels: Mapping[str, Mapping[str, float]]) -> Outcome:
    """The measure `name` (g, rndcg, ndcg_rel) of one query's ranked list."""
    ideal_at, gains = _ideal(judgments, flavor), ranked.gains
    if name == "rndcg":
        return rndcg(gains, ideal_at, relevant_judgments(judgments, flavor))
    return g_gain(gains, ideal_at) if name == "g" else ndcg_rel(gains, ideal_at)
