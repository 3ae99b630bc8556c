"""The reference's ranked list of one query under a flavor, straight from the definitions (plain Python).

Shares nothing with the engine but the Flavor: dicts, `sorted`, a string compare for doc ids.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping
from typing import NamedTuple

from rankflavor.engine.ties import quicksort_passes, random_tie_key
from rankflavor.flavor import Flavor

CLOSE = 1e-9  # a record's numbers agree with the formulas this closely (absolute and relative, as math.isclose)


class RefError(Exception):
    """The flavor refuses the data (mirrors the engine's EvaluationError)."""


def gain(grade: float, flavor: Flavor) -> float:
    """g(grade): linear g, exp2 2^g - 1, or the table's entry."""
    if flavor.gain.kind == "linear":
        return float(grade)
    if flavor.gain.kind == "exp2":
        value = 2.0 ** grade - 1.0
        if not math.isfinite(value):
            raise RefError("exp2 overflow")
        return value
    table = flavor.gain.table or {}
    if float(grade) not in table:
        if flavor.gain.rest == "g":
            return float(grade)
        raise RefError(f"grade {grade} not in the gain table")
    return table[float(grade)]


def judgment(grade: float | None, flavor: Flavor) -> tuple[bool, float]:
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
    if flavor.min_grade.threshold is not None and grade < flavor.min_grade.threshold:
        g = 0.0
    return True, g


class _Desc:
    """Wraps a string so that sorting is descending (strcmp order reversed)."""

    __slots__ = ("s",)

    def __init__(self, s: str) -> None:
        self.s = s

    def __lt__(self, other: _Desc) -> bool:
        return self.s.encode() > other.s.encode()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.s == other.s


class RefList(NamedTuple):
    """One query's ranked list: docs in rank order, their scores (in the flavor's precision), per doc
    (judged, gain), and their grades."""

    docs: list[str]
    scores: dict[str, float]
    info: dict[str, tuple[bool, float]]
    grades: dict[str, float | None]  # the qrels grade of each doc (None when not in the qrels)

    @property
    def gains(self) -> list[float]:
        return [self.info[d][1] for d in self.docs]

    def relevant(self, rel_level: float) -> list[bool]:
        """Per ranked doc: judged, with a grade of at least rel_level (binary measures)."""
        return [self.info[d][0] and self.grades[d] is not None and self.grades[d] >= rel_level for d in self.docs]


def ranked_list(flavor: Flavor, judgments: Mapping[str, float], ranking: Mapping[str, float],
                input_order: list[str] | None = None, query: str = "q") -> RefList:
    """The ranked list: drops (self_docs, negative=drop), score descending then the tie policy, run_depth,
    then unjudged=error or skip."""
    order = list(input_order) if input_order is not None else list(ranking)
    scores = {doc: float(ranking[doc]) for doc in order}
    if flavor.precision == "f32":
        scores = {d: struct.unpack("f", struct.pack("f", s))[0] for d, s in scores.items()}
    if flavor.self_docs == "drop":
        order = [d for d in order if d != query]
    if flavor.negative == "drop":
        order = [d for d in order if not (d in judgments and judgments[d] < 0)]
    info = {d: judgment(judgments.get(d), flavor) for d in order}
    kind = flavor.ties.kind
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
        raise AssertionError(kind)

    if kind == "random":
        seed = flavor.ties.seed
        ranked = sorted(order, key=lambda d: (-scores[d], random_tie_key(seed, query, d)))
    elif kind == "quicksort":
        ranked = [order[i] for i in quicksort_passes([-scores[d] for d in order], flavor.ties.passes or 1)]
    else:
        ranked = sorted(order, key=lambda d: (-scores[d], tie_key(d)))
    if flavor.run_depth.limit is not None:
        ranked = ranked[: flavor.run_depth.limit]
    if flavor.unjudged == "error" and not all(info[d][0] for d in ranked):
        raise RefError("unjudged doc")
    if flavor.unjudged == "skip":
        ranked = [d for d in ranked if info[d][0]]
    return RefList(ranked, scores, info, {d: judgments.get(d) for d in order})
