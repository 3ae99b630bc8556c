"""The reference measures over the run's own rows (torchmetrics 1.9.0 functional/retrieval/*.py), one query at a
time, straight from their definitions: `flags` are the ranked docs' relevance (judged, grade >= rel_level; an
unjudged doc is not relevant), `scores` their scores in the flavor's precision, in rank order; k the cutoff (None:
the whole list). R and N are the list's own relevant and nonrelevant rows, not the qrels'. Each gives (value, parts,
undefined): `undefined` when the list has no relevant row (fall-out: no nonrelevant row), which torchmetrics'
`empty_target_action` decides (the `empty` axis: neg = zero, pos = one, skip, error).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import Any

Outcome = tuple[float | None, dict[str, float | None], bool]


def counted(flags: Sequence[bool], scores: Sequence[float], scored: str) -> list[bool]:
    """The flags a measure counts: scored=positive sets a doc scored at or below 0 not relevant (preds > 0)."""
    return [f and (scored == "any" or s > 0) for f, s in zip(flags, scores, strict=True)]


def _top(k: int | None, n: int) -> int:
    return n if k is None else min(k, n)


def _empty(r: int, parts: dict[str, float | None]) -> Outcome | None:
    return (None, parts, True) if r == 0 else None


def row_ap(flags: Sequence[bool], scores: Sequence[float], k: int | None, scored: str) -> Outcome:
    """AP = mean over the counted relevant docs ranked i <= k of P@i (divided by their number, not R); 0 if none."""
    hits = [i for i, f in enumerate(counted(flags, scores, scored)[:_top(k, len(flags))], start=1) if f]
    parts = {"relevant_retrieved": float(len(hits)), "relevant": float(sum(flags))}
    return _empty(sum(flags), parts) or (
        (sum(j / i for j, i in enumerate(hits, start=1)) / len(hits) if hits else 0.0), parts, False)


def row_rr(flags: Sequence[bool], scores: Sequence[float], k: int | None, scored: str) -> Outcome:
    """RR = 1 / the rank of the first counted relevant doc within the top k, 0 when there is none."""
    first = next((i for i, f in enumerate(counted(flags, scores, scored)[:_top(k, len(flags))], start=1) if f), None)
    parts = {"first_relevant": None if first is None else float(first), "relevant": float(sum(flags))}
    return _empty(sum(flags), parts) or ((0.0 if first is None else 1.0 / first), parts, False)


def row_precision(flags: Sequence[bool], scores: Sequence[float], k: int | None, scored: str,
                  adaptive: bool) -> Outcome:
    """P = counted relevant docs in the top k / k (k = n without a cutoff, or with adaptive_k when k > n)."""
    n = len(flags)
    divisor = n if k is None or (adaptive and k > n) else k
    hits = sum(counted(flags, scores, scored)[:_top(k, n)])
    parts = {"relevant_retrieved": float(hits), "relevant": float(sum(flags))}
    return _empty(sum(flags), parts) or (hits / divisor, parts, False)


def row_recall(flags: Sequence[bool], scores: Sequence[float], k: int | None, scored: str) -> Outcome:
    """R = counted relevant docs in the top k / the list's relevant rows (all of them, whatever their score)."""
    hits = sum(counted(flags, scores, scored)[:_top(k, len(flags))])
    parts = {"relevant_retrieved": float(hits), "relevant": float(sum(flags))}
    return _empty(sum(flags), parts) or (hits / sum(flags), parts, False)


def row_fall_out(flags: Sequence[bool], scores: Sequence[float], k: int | None, scored: str) -> Outcome:
    """fall-out = nonrelevant docs in the top k / the list's nonrelevant rows."""
    nonrelevant = [not f for f in flags]
    hits = sum(nonrelevant[:_top(k, len(flags))])
    parts = {"nonrelevant_retrieved": float(hits), "nonrelevant": float(sum(nonrelevant))}
    return _empty(sum(nonrelevant), parts) or (hits / sum(nonrelevant), parts, False)


def row_rprec(flags: Sequence[bool], scores: Sequence[float], k: int | None, scored: str) -> Outcome:
    """R-precision = relevant docs in the top R / R, R the list's relevant rows (no cutoff)."""
    r = sum(flags)
    hits = sum(flags[:r])
    parts = {"relevant_retrieved": float(hits), "relevant": float(r)}
    return _empty(r, parts) or (hits / r, parts, False)


def _sigmoid_f32(score: float) -> float:
    """1 / (1 + e^-s) in float32 (each step rounded to float32, as torch computes it on a float32 tensor)."""
    x = struct.unpack("f", struct.pack("f", score))[0]
    e = struct.unpack("f", struct.pack("f", math.exp(-x) if -x < 88.7 else math.inf))[0]
    return struct.unpack("f", struct.pack("f", 1.0 / (1.0 + e)))[0]


def auroc(flags: Sequence[bool], scores: Sequence[float], k: int | None, scored: str) -> Outcome:
    """AUROC of the top k: over its (relevant, nonrelevant) pairs, 1 when the relevant scores higher, 1/2 when
    equal (the area under the ROC curve, scikit-learn's and torchmetrics' binary_auroc); 0 when the top k lacks
    either class. scored=sigmoid: the top k's scores mapped by the float32 logistic when one lies outside [0, 1]."""
    top = _top(k, len(flags))
    if scored == "sigmoid" and any(s < 0 or s > 1 for s in scores[:top]):
        scores = [_sigmoid_f32(s) for s in scores[:top]]
    pos = [s for f, s in zip(flags[:top], scores[:top], strict=True) if f]
    neg = [s for f, s in zip(flags[:top], scores[:top], strict=True) if not f]
    parts = {"relevant_retrieved": float(len(pos)), "relevant": float(sum(flags))}
    if not pos or not neg:
        return _empty(sum(flags), parts) or (0.0, parts, False)
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return _empty(sum(flags), parts) or (wins / (len(pos) * len(neg)), parts, False)


def query_value(measure: Any, flavor: Any, flags: Sequence[bool], scores: Sequence[float]) -> Outcome:
    """`measure` of one query's ranked list under the flavor's cutoff and parameters."""
    params = dict(flavor.params)
    scored = params["scored"].kind if "scored" in params else params["scores"].kind if "scores" in params else "any"
    if measure is row_precision:
        return row_precision(flags, scores, flavor.cutoff, scored, flavor.param("adaptive_k").kind == "true")
    return measure(flags, scores, flavor.cutoff, scored)
