"""The reference of the measures rankflavor has for ir_measures' own providers alone, one query at a time,
straight from the formulas (ir_measures 0.4.3 providers/accuracy_provider.py, providers/compat_provider.py).

    accuracy@k = 1 - mean over the relevant docs of the top k of (nonrelevant docs above it / nonrelevant docs
                 in the top k)       (undefined without a relevant doc, or without a nonrelevant doc, in the top k)
    compat     = RBO(ranking, ideal, p, D) / RBO(ideal, ideal, p, D)      (normalize; else the numerator alone)
    RBO(A, B, p, D) = sum_{i=1..D} p^(i-1) |A[:i] & B[:i]| / i  /  sum_{i=1..D} p^(i-1),  D = max(|A|, |B|)

Compatibility is Clarke, Vtyurina and Smucker, 'Assessing top-k preferences', TOIS 39(3), 2021: the ideal is
the relevant docs by grade descending, equal grades by the run's score descending (0 for a doc not retrieved),
then by doc id or in the qrels' order (the `ideal_ties` parameter).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from rankflavor.flavor import Flavor
from rankflavor.reference.binary import Outcome, Ranked


def accuracy(ranked: Ranked, flavor: Flavor) -> Outcome:
    """accuracy@k: the chance that a relevant doc of the top k is ranked above a nonrelevant one of it."""
    flags = ranked.flags if flavor.cutoff is None else ranked.flags[: flavor.cutoff]
    above: list[int] = []
    nonrelevant = 0
    for flag in flags:
        if flag:
            above.append(nonrelevant)
        else:
            nonrelevant += 1
    parts = {"relevant_retrieved": float(len(above)), "nonrelevant_retrieved": float(nonrelevant)}
    if not above or not nonrelevant:
        return None, parts, True
    return 1.0 - sum(above) / (nonrelevant * len(above)), parts, False


def rbo(ranking: Sequence[str], ideal: Sequence[str], p: float, depth: int) -> float:
    """Rank-biased overlap of two lists to `depth`, its weights summed to `depth` (compat_provider.py rbo)."""
    seen_a: set[str] = set()
    seen_b: set[str] = set()
    score = normaliser = 0.0
    weight = 1.0
    for i in range(depth):
        if i < len(ranking):
            seen_a.add(ranking[i])
        if i < len(ideal):
            seen_b.add(ideal[i])
        score += weight * len(seen_a & seen_b) / (i + 1)
        normaliser += weight
        weight *= p
    return score / normaliser if normaliser else 0.0


def compat(ranking: Sequence[tuple[str, float]], judgments: Mapping[str, float], p: float, normalize: bool,
           level: float = 1.0, ideal_ties: str = "docid_asc") -> tuple[float, float, float]:
    """(compatibility, RBO of the ranking, RBO of the ideal) of one query: `ranking` the ranked (doc, score) in
    rank order, `judgments` doc -> grade in the qrels' order; a doc is relevant with a grade >= level. Equal
    grades and scores in the ideal: doc id ascending, or (ideal_ties="qrels") the judgments' order, which
    Python's stable sort keeps (compat_provider.py compatibility)."""
    scores = dict(ranking)
    relevant = [d for d, g in judgments.items() if g >= level]
    if ideal_ties == "docid_asc":
        relevant.sort()
    ideal = sorted(relevant, key=lambda d: (-judgments[d], -scores.get(d, 0.0)))
    return overlap([d for d, _ in ranking], ideal, p, normalize)


def overlap(docs: Sequence[str], ideal: Sequence[str], p: float, normalize: bool) -> tuple[float, float, float]:
    """(compatibility, RBO of the ranking, RBO of the ideal) of a ranked list and its ideal (compatibility)."""
    depth = max(len(docs), len(ideal))
    found, best = rbo(docs, ideal, p, depth), rbo(ideal, ideal, p, depth)
    return (found / best if normalize and best > 0 else found), found, best


def ideal_from_ranks(ranking: Sequence[tuple[str, float]], judgments: Mapping[str, float], shown: Mapping[str, int],
                     level: float) -> tuple[list[str] | None, str]:
    """The ideal a record shows: each ranked relevant doc at its shown ideal rank, the other relevant docs in the
    free places by grade, then score, descending; (None, why) when the shown ranks are no ideal (not each of 1..L
    at most once, or out of the order by grade descending, then run score descending, 0 for a doc not ranked)."""
    scores = dict(ranking)
    relevant = [d for d, g in judgments.items() if g >= level]
    places: list[str | None] = [None] * len(relevant)
    for doc, rank in shown.items():
        if not 1 <= rank <= len(relevant) or places[rank - 1] is not None:
            return None, f"ideal_rank {rank} of {doc} is not a free place among the {len(relevant)} relevant docs"
        places[rank - 1] = doc
    key = {d: (-judgments[d], -scores.get(d, 0.0)) for d in relevant}
    rest = iter(sorted((d for d in relevant if d not in shown), key=key.__getitem__))
    ideal = [d if d is not None else next(rest) for d in places]
    if any(key[a] > key[b] for a, b in itertools.pairwise(ideal)):
        return None, "the ideal ranks shown are not by grade, then run score, descending"
    return ideal, ""
