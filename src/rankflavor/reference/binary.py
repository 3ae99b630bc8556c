"""The reference binary-relevance measures of one query, straight from trec_eval 10.0's definitions.

A doc is relevant when it is judged (under `negative`) with a grade of at least `rel_level` (trec_eval -l);
R is the number of such judgments in the qrels; `flags` is the relevance of the ranked docs in rank order
(after run_depth and unjudged=skip). Each function gives (value, parts, undefined): `undefined` when the
measure divides by R = 0 (the `empty` axis decides; trec_eval gives 0). Sources: trec_eval m_P.c, m_recall.c,
m_map.c, m_map_cut.c, m_recip_rank.c, m_Rprec.c, m_success.c, m_num_ret.c, m_num_rel.c, m_num_rel_ret.c.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from rankflavor.flavor import Flavor
from rankflavor.reference.lists import CLOSE, RefList, judgment

Outcome = tuple[float | None, dict[str, float | None], bool]


class Ranked(NamedTuple):
    """What a measure of relevance reads of one query: per ranked doc, relevant and judged; R, the relevant
    judgments; N, the judged nonrelevant ones (grade < rel_level); the ranked docs' grades and the query's top
    grade (graded measures: ERR, RBP)."""

    flags: list[bool]
    judged: list[bool]
    r: int
    n: int
    grades: Sequence[float | None] = ()  # per ranked doc: its qrels grade (None: not in the qrels)
    top_grade: float | None = None  # the query's highest qrels grade


def relevant_judgments(judgments: Mapping[str, float], flavor: Flavor) -> int:
    """R: the query's judged docs with a grade of at least rel_level."""
    return sum(1 for grade in judgments.values()
               if judgment(grade, flavor)[0] and grade >= flavor.rel_level.threshold)


def _k(flavor: Flavor, flags: list[bool]) -> int:
    return len(flags) if flavor.cutoff is None else flavor.cutoff


def precision(ranked: Ranked, flavor: Flavor) -> Outcome:
    """P@k = |relevant in the top k| / k (a list shorter than k is filled with nonrelevant docs)."""
    flags = ranked.flags
    k = _k(flavor, flags)
    hits = sum(flags[:k])
    return (hits / k if k else 0.0), {"relevant_retrieved": float(hits)}, False  # (an empty list: set_P 0)


def success(ranked: Ranked, flavor: Flavor) -> Outcome:
    """success@k = 1 when a relevant doc is in the top k, else 0."""
    flags = ranked.flags
    hits = sum(flags[:_k(flavor, flags)])
    return (1.0 if hits else 0.0), {"relevant_retrieved": float(hits)}, False


def recall(ranked: Ranked, flavor: Flavor) -> Outcome:
    """R@k = |relevant in the top k| / R."""
    flags, relevant = ranked.flags, ranked.r
    hits = sum(flags[:_k(flavor, flags)])
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    return (None, parts, True) if relevant == 0 else (hits / relevant, parts, False)


def recall_cap(ranked: Ranked, flavor: Flavor) -> Outcome:
    """capped R@k = |relevant in the top k| / min(k, R) (no cutoff: k = |list|, trec_eval's set_relative_P)."""
    flags, relevant = ranked.flags, ranked.r
    k = _k(flavor, flags)
    hits = sum(flags[:k])
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    if relevant == 0:
        return None, parts, True
    return (hits / min(k, relevant) if k else 0.0), parts, False


def rprec(ranked: Ranked, flavor: Flavor) -> Outcome:
    """R-precision = |relevant in the top R| / R."""
    flags, relevant = ranked.flags, ranked.r
    hits = sum(flags[:relevant])
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    return (None, parts, True) if relevant == 0 else (hits / relevant, parts, False)


def average_precision(ranked: Ranked, flavor: Flavor) -> Outcome:
    """AP@k = (1/R) sum over the relevant docs ranked i <= k of P@i."""
    flags, relevant = ranked.flags, ranked.r
    total, hits = 0.0, 0
    for i, flag in enumerate(flags[:_k(flavor, flags)], start=1):
        if flag:
            hits += 1
            total += hits / i
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    return (None, parts, True) if relevant == 0 else (total / relevant, parts, False)


def yaap(ranked: Ranked, flavor: Flavor) -> Outcome:
    """yaap = log((1 + S) / (1 + R - S)), S = the sum of P@i over the relevant docs ranked i (m_yaap.c)."""
    flags, relevant = ranked.flags, ranked.r
    total, hits = 0.0, 0
    for i, flag in enumerate(flags, start=1):
        if flag:
            hits += 1
            total += hits / i
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    return math.log((1.0 + total) / (1.0 + relevant - total)), parts, False


def reciprocal_rank(ranked: Ranked, flavor: Flavor) -> Outcome:
    """RR@k = 1 / the rank of the first relevant doc within the top k, 0 when there is none."""
    flags = ranked.flags
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
    hits = list(itertools.accumulate(flags))  # hits[i - 1]: the relevant docs in the top i
    return max(hits[i - 1] / i for i in range(start, len(flags) + 1))


def iprec(ranked: Ranked, flavor: Flavor) -> Outcome:
    """iprec(level) = Int_Prec at recall `level` (trec_eval iprec_at_recall)."""
    flags, relevant = ranked.flags, ranked.r
    parts = {"relevant_retrieved": float(sum(flags)), "relevant": float(relevant)}
    if relevant == 0:
        return None, parts, True
    return interpolated_precision(flags, relevant, flavor.param("level").number, flavor.param("count")), parts, False


AVERAGE_LEVELS = {"11": tuple(i / 10 for i in range(11)), "3": (0.2, 0.5, 0.8)}


def average_levels(points: str) -> tuple[float, ...]:
    """The recall levels of iprec_avg's `points`: 11, 3, or levels joined by `/` (`0.25/0.5/0.75`: trec_eval's
    `-m 11pt_avg..25,.5,.75`, m_11pt_avg.c's parameters)."""
    return AVERAGE_LEVELS.get(points) or tuple(float(level) for level in points.split("/"))


def iprec_avg(ranked: Ranked, flavor: Flavor) -> Outcome:
    """iprec_avg = the mean of Int_Prec over the recall levels (11: 0, 0.1, ..., 1; 3: 0.2, 0.5, 0.8; or listed)."""
    flags, relevant = ranked.flags, ranked.r
    parts = {"relevant_retrieved": float(sum(flags)), "relevant": float(relevant)}
    if relevant == 0:
        return None, parts, True
    levels = average_levels(str(flavor.param("points")))
    values = [interpolated_precision(flags, relevant, level, flavor.param("count")) for level in levels]
    return sum(values) / len(values), parts, False


def rprec_mult(ranked: Ranked, flavor: Flavor) -> Outcome:
    """Rprec_mult(f) = P@c with c = (long)(f·R + 0.9) (a list shorter than c is filled with nonrelevant docs)."""
    flags, relevant = ranked.flags, ranked.r
    c = math.floor(flavor.param("factor").number * relevant + 0.9)
    hits = sum(flags[:max(c, 0)])
    parts = {"relevant_retrieved": float(hits), "relevant": float(relevant)}
    return (None, parts, True) if relevant == 0 else (hits / c if c > 0 else 0.0, parts, False)


def bpref(ranked: Ranked, flavor: Flavor) -> Outcome:
    """bpref = (1/R) sum over the relevant docs retrieved of 1 - min(n, R) / min(N, R), n the judged nonrelevant
    docs ranked above it (1 when n = 0), N the query's judged nonrelevant docs; unjudged docs are passed over."""
    total, above, hits = 0.0, 0, 0
    for flag, judged in zip(ranked.flags, ranked.judged, strict=True):
        if not judged:
            continue
        if not flag:
            above += 1
            continue
        hits += 1
        total += 1.0 if above == 0 else 1.0 - min(above, ranked.r) / min(ranked.n, ranked.r)
    parts = {"relevant_retrieved": float(hits), "relevant": float(ranked.r), "nonrelevant": float(ranked.n)}
    return (None, parts, True) if ranked.r == 0 else (total / ranked.r, parts, False)


INFAP_EPSILON = 1e-5  # trec_eval.h


def infap(ranked: Ranked, flavor: Flavor) -> Outcome:
    """infAP = (1/R) sum over the relevant docs ranked j+1 of 1 (j = 0), else 1/(j+1) + j/(j+1) ·
    (r + n + u)/j · (r + eps)/(r + n + 2 eps), r, n, u the relevant, judged nonrelevant and pooled-unjudged docs
    (in the qrels, not judged: trec_eval's negative grades) above it; docs absent from the qrels count in j only."""
    total, rel, nonrel, pooled = 0.0, 0, 0, 0
    for j, (flag, judged, grade) in enumerate(zip(ranked.flags, ranked.judged, ranked.grades, strict=True)):
        if not judged:
            pooled += grade is not None
            continue
        if not flag:
            nonrel += 1
            continue
        if j == 0:
            total += 1.0
        else:
            fj = float(j)
            total += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((rel + nonrel + pooled) / fj) * (
                (rel + INFAP_EPSILON) / (rel + nonrel + 2 * INFAP_EPSILON))
        rel += 1
    parts = {"relevant_retrieved": float(rel), "relevant": float(ranked.r)}
    return (None, parts, True) if ranked.r == 0 else (total / ranked.r, parts, False)


def bin_g(ranked: Ranked, flavor: Flavor) -> Outcome:
    """binG = (1/R) sum over the relevant docs of 1 / log2(2 + the docs above it that are not relevant)."""
    total, rel = 0.0, 0
    for i, flag in enumerate(ranked.flags):
        if flag:
            rel += 1
            total += 1.0 / math.log2(3 + i - rel)
    parts = {"relevant_retrieved": float(rel), "relevant": float(ranked.r)}
    return (None, parts, True) if ranked.r == 0 else (total / ranked.r, parts, False)


def utility(ranked: Ranked, flavor: Flavor) -> Outcome:
    """utility = p1 a + p2 b + p3 c + p4 d over the contingency table: a relevant retrieved, b retrieved not
    relevant, c relevant not retrieved, d = docs + a - retrieved - R."""
    a, retrieved = float(sum(ranked.flags)), float(len(ranked.flags))
    p = [flavor.param(name).number for name in ("rel_ret", "nonrel_ret", "rel_nonret", "nonrel_nonret", "docs")]
    value = p[0] * a + p[1] * (retrieved - a) + p[2] * (ranked.r - a) + p[3] * (p[4] + a - retrieved - ranked.r)
    return value, {"relevant_retrieved": a, "relevant": float(ranked.r)}, False


def judged_at(ranked: Ranked, flavor: Flavor) -> Outcome:
    """judged@k = |judged in the top k| / min(k, |list|) (0 for an empty list)."""
    top = ranked.judged[:_k(flavor, ranked.flags)]
    return (sum(top) / len(top) if top else 0.0), {"judged_retrieved": float(sum(top))}, False


def unjudged_at(ranked: Ranked, flavor: Flavor) -> Outcome:
    """unj@k = |unjudged in the top k| / k (a list shorter than k is filled with judged docs)."""
    k = _k(flavor, ranked.flags)
    unjudged = sum(1 for judged in ranked.judged[:k] if not judged)
    return (unjudged / k if k else 0.0), {"unjudged_retrieved": float(unjudged)}, False


def num_nonrel_judged_ret(ranked: Ranked, flavor: Flavor) -> Outcome:
    """The judged nonrelevant docs retrieved."""
    return float(sum(1 for f, j in zip(ranked.flags, ranked.judged, strict=True) if j and not f)), {}, False


def f_measure(ranked: Ranked, flavor: Flavor) -> Outcome:
    """F_beta@k = (1 + beta²) P R / (beta² P + R), P = P@k (no cutoff: over the list), R = R@k; 0 when P = R = 0."""
    precision_at, parts, _ = precision(ranked, flavor)
    hits = parts["relevant_retrieved"]
    parts = {"relevant_retrieved": hits, "relevant": float(ranked.r)}
    if ranked.r == 0:
        return None, parts, True
    b2 = flavor.param("beta").squared
    p, r = precision_at, hits / ranked.r
    return ((1 + b2) * p * r / (b2 * p + r) if hits else 0.0), parts, False


def set_map(ranked: Ranked, flavor: Flavor) -> Outcome:
    """set_map = P·R over the whole list = num_rel_ret² / (num_ret · R) (0 for an empty list)."""
    hits = sum(ranked.flags)
    parts = {"relevant_retrieved": float(hits), "relevant": float(ranked.r)}
    if ranked.r == 0:
        return None, parts, True
    return (hits * hits / (len(ranked.flags) * ranked.r) if ranked.flags else 0.0), parts, False


def num_ret(ranked: Ranked, flavor: Flavor) -> Outcome:
    flags = ranked.flags
    return float(len(flags)), {}, False


def num_q(ranked: Ranked, flavor: Flavor) -> Outcome:
    return 1.0, {}, False


def num_rel(ranked: Ranked, flavor: Flavor) -> Outcome:
    relevant = ranked.r
    return float(relevant), {}, False


def num_rel_ret(ranked: Ranked, flavor: Flavor) -> Outcome:
    flags = ranked.flags
    return float(sum(flags)), {}, False


def query_value(measure, flavor: Flavor, judgments: Mapping[str, float], ranked: RefList,
                qrels: Mapping[str, Mapping[str, float]]) -> Outcome:
    """`measure` (one of the functions above) of one query's ranked list."""
    level = flavor.rel_level.threshold
    judged = {doc: judgment(grade, flavor)[0] for doc, grade in judgments.items()}
    nonrelevant = sum(1 for doc, grade in judgments.items() if judged[doc] and grade < level)
    return measure(Ranked(ranked.relevant(level), [ranked.info[d][0] for d in ranked.docs],
                          relevant_judgments(judgments, flavor), nonrelevant, [ranked.grades[d] for d in ranked.docs],
                          max(judgments.values(), default=None)), flavor)


def check_record(measure, record: Any, flavor: Flavor) -> list[str]:
    """What in a record does not add up: its relevance flags against its universe, its value against the
    measure's formula over them."""
    problems = []
    level = flavor.rel_level.threshold
    for row in record.ranked:
        expected = bool(row["judged"] and row["grade"] is not None and row["grade"] >= level)
        if "relevant" in row and bool(row["relevant"]) != expected:  # (judged@k's rows show `judged` alone)
            problems.append(f"rank {row['rank']}: relevant is {row['relevant']}, but its grade is {row['grade']}")
    if record.status == "missing":
        return problems
    relevant = sum(1 for u in record.universe if u.get("relevant"))
    nonrelevant = sum(1 for u in record.universe if u["judged"] and not u.get("relevant"))
    value, _, undefined = measure(Ranked([bool(r.get("relevant")) for r in record.ranked],
                                         [bool(r["judged"]) for r in record.ranked], relevant, nonrelevant,
                                         [r["grade"] for r in record.ranked],
                                         max((u["grade"] for u in record.universe), default=None)), flavor)
    if undefined:
        value = {"skip": None, "zero": 0.0, "one": 1.0, "error": None}[flavor.empty]
    elif flavor.round.decimals is not None:
        value = round(value, flavor.round.decimals)
    same = (value is None and record.value is None) or (
        value is not None and record.value is not None and math.isclose(value, record.value, rel_tol=CLOSE,
                                                                         abs_tol=CLOSE))
    if not same:
        problems.append(f"value {record.value} but the ranked list's relevance gives {value}")
    return problems
