"""The reference graded measures of one query beside NDCG, straight from their definitions: ERR (Chapelle et
al., CIKM 2009, as gdeval.pl computes it) and RBP with trec_eval 10.0's residual (Moffat & Zobel, TOIS 2008;
trec_eval m_rbp.c, m_rbp_resid.c). They read a `Ranked` (reference/binary.py) and give (value, parts, undefined).
"""

from __future__ import annotations

from rankflavor.flavor import Flavor
from rankflavor.reference.binary import Outcome, Ranked
from rankflavor.reference.lists import RefError


def err_probability(grade: float | None, judged: bool, max_grade: float) -> float:
    """The chance that a doc satisfies the user: (2^g - 1) / 2^max_grade, g its grade (0 when unjudged or <= 0)."""
    g = grade if judged and grade is not None and grade > 0 else 0.0
    return (2.0 ** g - 1) / 2.0 ** max_grade


def err(ranked: Ranked, flavor: Flavor) -> Outcome:
    """ERR@k = sum over ranks i <= k of R_i / i * prod over j < i of (1 - R_j); undefined (`empty`) when no
    judgment of the query has a grade above 0 (gdeval.pl does not print such a query)."""
    max_grade = flavor.param("max_grade").number
    if ranked.top_grade is not None and ranked.top_grade > max_grade:
        raise RefError(f"grade {ranked.top_grade} above max_grade={max_grade}")
    k = len(ranked.flags) if flavor.cutoff is None else flavor.cutoff
    score, decay = 0.0, 1.0
    for i, (grade, judged) in enumerate(zip(ranked.grades[:k], ranked.judged[:k], strict=True), start=1):
        r = err_probability(grade, judged, max_grade)
        score += r * decay / i
        decay *= 1 - r
    undefined = ranked.top_grade is None or ranked.top_grade <= 0
    return (None if undefined else score), {}, undefined


def rbp_gain(grade: float | None, judged: bool, relevant: bool, top_grade: float | None, scale: str) -> float:
    """A doc's gain: scale=binary, 1 when relevant (grade >= rel_level); scale=grade, its grade when relevant
    (ranx); scale=query_max, its grade over the query's top grade when that exceeds 1 (trec_eval 10 m_rbp.c
    normalises the gains to [0, 1])."""
    if scale == "binary":
        return 1.0 if relevant else 0.0
    if scale == "grade":
        return float(grade) if relevant and grade is not None else 0.0
    if not judged or grade is None or grade <= 0:
        return 0.0
    return grade / top_grade if top_grade is not None and top_grade > 1 else grade


def rbp(ranked: Ranked, flavor: Flavor) -> Outcome:
    """RBP@k = (1 - p) sum over ranks i <= k of gain_i p^(i-1)."""
    p, scale = flavor.param("p").number, flavor.param("scale")
    k = len(ranked.flags) if flavor.cutoff is None else flavor.cutoff
    total, weight = 0.0, 1.0
    for grade, judged, relevant in list(zip(ranked.grades, ranked.judged, ranked.flags, strict=True))[:k]:
        total += rbp_gain(grade, judged, relevant, ranked.top_grade, scale) * weight
        weight *= p
    return (1.0 - p) * total, {}, False


def rbp_resid(ranked: Ranked, flavor: Flavor) -> Outcome:
    """RBP's residual: p^n + (1 - p) sum over the unjudged docs ranked i of p^(i-1) (n: the docs ranked), the
    most RBP could rise were every unjudged doc and every doc past the list of gain 1; trec_eval 10 gives 0
    when no ranked doc is unjudged."""
    p = flavor.param("p").number
    total, weight = 0.0, 1.0
    for judged in ranked.judged:
        if not judged:
            total += weight
        weight *= p
    return (weight + (1 - p) * total if not all(ranked.judged) else 0.0), {}, False
