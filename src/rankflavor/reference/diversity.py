"""The reference diversity measures of one query, in plain Python, from ndeval.c's definitions (TREC Web track,
version 4.5; docs/diversity.md cites its lines).

A doc is relevant to a subtopic when that judgment's grade is at least rel_level (ndeval: any grade >= 1, grades
above 1 read as 1). M is the number of subtopics of the query with at least one relevant doc (ndeval's
`actualSubtopics`); a query with M = 0 has no value (the `empty` axis; ndeval prints 0). `ranked` lists the docs
in rank order (after ties, unjudged and run_depth); each doc's novelty gain at rank i is

    g_i = sum over the subtopics s the doc is relevant to of (1 - alpha)^c(s, i)

with c(s, i) the docs ranked above i relevant to s. The normalisers: `greedy`, the same sum over ndeval's greedy
ideal list (each next doc the one of highest novelty gain, ties to the greatest doc id); `ideal_ideal`, a list
whose every doc is relevant to all M subtopics (g_i = M (1 - alpha)^(i-1)). AP-IA (ndeval's MAP-IA) is
the mean over the M subtopics of each one's average precision over the whole list.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Sets = Mapping[str, frozenset[str]]


def relevant_sets(judgments: Mapping[str, Mapping[str, float]], rel_level: float) -> tuple[dict[str, frozenset[str]],
                                                                                           int]:
    """Per doc: the subtopics it is relevant to; and M. `judgments` is {subtopic: {doc: grade}}."""
    sets: dict[str, set[str]] = {}
    for subtopic, docs in judgments.items():
        for doc, grade in docs.items():
            if grade >= rel_level:
                sets.setdefault(doc, set()).add(subtopic)
    covered = {s for subs in sets.values() for s in subs}
    return {doc: frozenset(subs) for doc, subs in sets.items()}, len(covered)


def novelty_gains(ranked: Sequence[str], sets: Sets, alpha: float) -> list[float]:
    """g_i of each ranked doc."""
    seen: dict[str, int] = {}
    gains = []
    for doc in ranked:
        gain = 0.0
        for subtopic in sorted(sets.get(doc, ())):
            gain += (1.0 - alpha) ** seen.get(subtopic, 0)
            seen[subtopic] = seen.get(subtopic, 0) + 1
        gains.append(gain)
    return gains


def greedy_ideal(sets: Sets, alpha: float, depth: int | None) -> list[str]:
    """ndeval's idealResult: at each rank the doc of highest novelty gain, a tie to the greatest doc id (strcmp)."""
    left = set(sets)
    weight: dict[str, float] = {}
    order: list[str] = []
    while left and (depth is None or len(order) < depth):
        def score(doc: str) -> tuple[float, bytes]:
            return sum(weight.get(s, 1.0) for s in sorted(sets[doc])), doc.encode()

        best = max(left, key=score)
        order.append(best)
        left.remove(best)
        for subtopic in sets[best]:
            weight[subtopic] = weight.get(subtopic, 1.0) * (1.0 - alpha)
    return order


def _weights(kind: str, n: int, beta: float) -> list[float]:
    if kind == "log2":
        return [1.0 / math.log2(i + 2) for i in range(n)]
    if kind == "reciprocal":
        return [1.0 / (i + 1) for i in range(n)]
    return [beta ** i for i in range(n)]


def normalised(kind: str, ranked: Sequence[str], sets: Sets, m: int, alpha: float, depth: int | None, norm: str,
               beta: float = 0.5) -> tuple[float | None, dict[str, float | None], bool]:
    """alpha-nDCG (kind log2), ERR-IA (reciprocal), NRBP (geometric, depth None): (value, parts, undefined)."""
    top = list(ranked) if depth is None else list(ranked)[:depth]
    gains = novelty_gains(top, sets, alpha)
    score = sum(g * w for g, w in zip(gains, _weights(kind, len(gains), beta), strict=True))
    if m == 0:
        return None, {"score": score, "ideal": None}, True
    if norm == "greedy":
        ideal_gains = novelty_gains(greedy_ideal(sets, alpha, depth), sets, alpha)
    else:
        n = depth if depth is not None else None
        ideal_gains = [m * (1.0 - alpha) ** i for i in range(n)] if n is not None else []
    if norm != "greedy" and depth is None:
        ideal = m / (1.0 - (1.0 - alpha) * beta)  # the geometric series of NRBP's ideal ideal
    else:
        ideal = sum(g * w for g, w in zip(ideal_gains, _weights(kind, len(ideal_gains), beta), strict=True))
    value = score / ideal if score else 0.0
    return value, {"score": score, "ideal": ideal}, False


def precision_ia(ranked: Sequence[str], sets: Sets, m: int, depth: int) -> tuple[float | None, dict, bool]:
    """P-IA@k = (relevant (doc, subtopic) pairs in the top k) / (k M); the list is padded to k."""
    pairs = sum(len(sets.get(doc, ())) for doc in list(ranked)[:depth])
    if m == 0:
        return None, {"pairs": float(pairs), "subtopics": 0.0}, True
    return pairs / (depth * m), {"pairs": float(pairs), "subtopics": float(m)}, False


def subtopic_recall(ranked: Sequence[str], sets: Sets, m: int, depth: int) -> tuple[float | None, dict, bool]:
    """S-recall@k = (subtopics covered by the top k) / M."""
    covered = len({s for doc in list(ranked)[:depth] for s in sets.get(doc, ())})
    if m == 0:
        return None, {"covered": float(covered), "subtopics": 0.0}, True
    return covered / m, {"covered": float(covered), "subtopics": float(m)}, False


def ap_ia(ranked: Sequence[str], sets: Sets, m: int) -> tuple[float | None, dict, bool]:
    """AP-IA = (1/M) sum over the M subtopics s of AP_s, AP_s = (1/R_s) sum over the ranks i whose doc is
    relevant to s of (the docs at ranks <= i relevant to s) / i, R_s the docs relevant to s; the whole list
    (ndeval's computeMAP)."""
    relevant: dict[str, int] = {}
    for subtopics in sets.values():
        for subtopic in subtopics:
            relevant[subtopic] = relevant.get(subtopic, 0) + 1
    sum_ap = 0.0
    for subtopic, r in relevant.items():
        found, total = 0, 0.0
        for i, doc in enumerate(ranked, start=1):
            if subtopic in sets.get(doc, ()):
                found += 1
                total += found / i
        sum_ap += total / r
    if m == 0:
        return None, {"sum_ap": sum_ap, "subtopics": 0.0}, True
    return sum_ap / m, {"sum_ap": sum_ap, "subtopics": float(m)}, False
