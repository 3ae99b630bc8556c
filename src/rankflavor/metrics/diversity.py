"""Diversity (intent-aware) measures over a subtopic qrels, as ndeval computes them (TREC Web track's ndeval.c,
version 4.5; pyndeval and ir_measures' pyndeval provider run the same code; docs/diversity.md cites its lines).

Per query, M = the subtopics with at least one relevant judgment (grade >= rel_level; ndeval reads any grade >= 1
as 1). The doc at rank i has the novelty gain g_i = sum over its relevant subtopics s of (1 - alpha)^c, c the docs
ranked above it relevant to s (Clarke et al., SIGIR 2008).

    alpha_ndcg@k = sum_{i<=k} g_i / log2(i + 1)  /  the same over the ideal            (Clarke et al. SIGIR 2008)
    err_ia@k     = sum_{i<=k} g_i / i            /  the same over the ideal            (ndeval's ERR-IA)
    nrbp         = sum_i g_i beta^(i-1)          /  the same over the ideal            (Clarke et al. ICTIR 2009)
    p_ia@k       = |relevant (doc, subtopic) pairs in the top k| / (k M)               (Agrawal et al. WSDM 2009)
    s_recall@k   = |subtopics covered by the top k| / M                                (Zhai et al. SIGIR 2003)
    ap_ia        = (1/M) sum_s (1/R_s) sum_{i: doc i relevant to s} P_s@i             (ndeval's MAP-IA)

with R_s the docs relevant to subtopic s and P_s@i the share of the top i relevant to s (ap_ia reads the whole
list, as ndeval's computeMAP; -M is run_depth).

The ideal (`norm`): greedy, ndeval's greedy approximation of the best list (each next doc the one of highest
novelty gain, a tie to the greatest doc id: ndeval's alpha-nDCG, nERR-IA, nNRBP), or ideal_ideal, a list whose
every doc is relevant to all M subtopics (ndeval's alpha-DCG, ERR-IA, NRBP). A run whose sum is 0 scores 0; a
query with M = 0 is left to `empty` (ndeval prints 0: empty=zero, the default).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from rankflavor.engine.metric import Metric, MetricValues
from rankflavor.errors import EvaluationError, SpecError
from rankflavor.flavor.values import Param, RelLevel, number_parser, word_parser
from rankflavor.metrics.relevance import NORMALISED_AXES
from rankflavor.reference import diversity as reference
from rankflavor.reference.lists import RefError
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.engine.scope import DatasetScope
    from rankflavor.flavor import Flavor

ALPHA = Param("alpha", "0.5", number_parser("alpha", 0.0, 1.0), "redundancy intolerance: a subtopic's gain is "
              "(1 - alpha)^(docs above relevant to it) (ndeval -alpha, default 0.5)", ("0.5", "0.25", "1"))
BETA = Param("beta", "0.5", number_parser("beta", 0.0, 0.999999), "patience: rank i weighs beta^(i-1) (ndeval "
             "-beta, default 0.5; below 1)", ("0.5", "0.8"))
NORMS = ("greedy", "ideal_ideal")


def norm_param(default: str) -> Param:
    return Param("norm", default, word_parser("norm", NORMS), "the ideal it is normalised by: greedy (ndeval's greedy "
                 "ideal list: alpha-nDCG, nERR-IA, nNRBP) or ideal_ideal (every doc relevant to all M subtopics: "
                 "alpha-DCG, ERR-IA, NRBP)", NORMS)


def subtopic_judgments(data: DatasetScope, rel_level: RelLevel) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The relevant (query, subtopic, doc) judgments: (keys q * n_docs + d ascending, subtopic codes, M per query)."""
    sub = data.dataset.subtopics
    assert sub is not None
    relevant = sub.grade >= rel_level.threshold
    m = np.zeros(data.dataset.n_queries, dtype=np.int64)
    if relevant.any():
        offset = int(sub.n_subtopics.max())
        pairs = np.unique(sub.q[relevant] * offset + sub.subtopic[relevant])
        m = np.bincount(pairs // offset, minlength=data.dataset.n_queries)
    return sub.key[relevant], sub.subtopic[relevant], m


def ideal_gains(data: DatasetScope, rel_level: RelLevel, alpha: float, depth: float) -> dict[int, np.ndarray]:
    """Per query code with M > 0: the novelty gains of ndeval's greedy ideal list, `depth` long at most."""
    keys, subtopics, m = data.stage(subtopic_judgments, rel_level)
    n_docs = max(data.dataset.n_docs, 1)
    out: dict[int, np.ndarray] = {}
    queries = keys // n_docs
    bounds = np.searchsorted(queries, np.flatnonzero(m > 0))
    ends = np.searchsorted(queries, np.flatnonzero(m > 0), side="right")
    for q, start, end in zip(np.flatnonzero(m > 0), bounds, ends, strict=True):
        docs, doc_index = np.unique(keys[start:end], return_inverse=True)  # ascending doc code
        subs, sub_index = np.unique(subtopics[start:end], return_inverse=True)
        matrix = np.zeros((len(docs), len(subs)))
        matrix[doc_index, sub_index] = 1.0
        weight, left, gains = np.ones(len(subs)), np.ones(len(docs), dtype=bool), []
        while left.any() and len(gains) < depth:
            score = np.where(left, matrix @ weight, -1.0)
            best = len(score) - 1 - int(np.argmax(score[::-1]))  # a tie: the greatest doc id (ndeval's strcmp)
            gains.append(score[best])
            left[best] = False
            weight = np.where(matrix[best] > 0, weight * (1.0 - alpha), weight)
        out[int(q)] = np.asarray(gains)
    return out


def subtopic_pairs(lists: RankedLists, rel_level: RelLevel) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per relevant (ranked row, subtopic) pair: its row, its subtopic, the docs ranked above relevant to that
    subtopic; and per ranked row, its relevant subtopics."""
    keys, subtopics, _ = lists.scope.shared(subtopic_judgments, rel_level)
    rows = lists.rows
    row_keys = rows.q * max(lists.scope.dataset.n_docs, 1) + rows.d
    left, right = np.searchsorted(keys, row_keys), np.searchsorted(keys, row_keys, side="right")
    count = right - left
    pair_row = np.repeat(np.arange(len(rows.q)), count)
    starts = np.cumsum(count) - count
    pair_sub = subtopics[np.arange(count.sum()) - np.repeat(starts, count) + np.repeat(left, count)]
    group = rows.q[pair_row] * (int(subtopics.max()) + 1 if len(subtopics) else 1) + pair_sub
    order = np.argsort(group, kind="stable")  # (rows are in rank order: within a group, by rank)
    sorted_group = group[order]
    first = np.searchsorted(sorted_group, sorted_group)
    seen = np.empty(len(order), dtype=np.float64)
    seen[order] = np.arange(len(order)) - first
    return pair_row, pair_sub, seen, count


def novelty(lists: RankedLists, rel_level: RelLevel, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Per ranked row: (its novelty gain g, its relevant subtopics)."""
    pair_row, _, seen, count = subtopic_pairs(lists, rel_level)
    gain = np.bincount(pair_row, weights=(1.0 - alpha) ** seen, minlength=len(lists.rows.q))
    return gain, count.astype(np.float64)


class DiversityMetric(Metric):
    """What the diversity measures share: the subtopic qrels, alpha, rel_level, a required cutoff."""

    reads = NORMALISED_AXES
    cutoff_rule: ClassVar[str] = "required"  # or "none" (NRBP)
    undefined_reason = "no subtopic with a relevant judgment (M = 0)"
    undefined_status = "no_relevant"
    subtopic_qrels: ClassVar[bool] = True  # report.py reads the qrels as a subtopic qrels for these
    weight_kind: ClassVar[str] = "log2"

    def validate(self, flavor: Flavor) -> None:
        if self.cutoff_rule == "required" and flavor.cutoff is None:
            raise SpecError(f"{self.name} needs a cutoff: write {self.name}@k, e.g. {self.name}@20")
        if self.cutoff_rule == "none" and flavor.cutoff is not None:
            raise SpecError(f"{self.name} takes no cutoff (it reads the whole list): write {self.name}")
        if flavor.ties == "average":
            raise SpecError(f"{self.name}: ties=average is not defined for novelty gains (a doc's gain depends on the "
                            "docs above it); pick another tie policy (ndeval: docid_desc with -traditional)")

    def subtopics_of(self, lists: RankedLists) -> None:
        if lists.scope.dataset.subtopics is None:
            raise EvaluationError(f"{self.name} needs a subtopic qrels (qid subtopic docid grade), not a plain qrels: "
                                  "give the diversity qrels (rankflavor reads the qrels as one when a diversity "
                                  "measure is asked for), or rankflavor.inputs.subtopics.read_subtopic_qrels(path)")

    def reference(self, flavor: Flavor, judgments: Any, ranked: Any, qrels: Any) -> tuple:
        raise RefError(f"{self.name} needs subtopic judgments: reference/diversity.py takes them")

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        top = [row for row in record.ranked if row["rank"] <= flavor.depth]
        problems = []
        score = sum(row["gain"] * row["weight"] for row in top)
        if record.parts.get("score") is not None and not math.isclose(score, record.parts["score"], abs_tol=1e-9):
            problems.append(f"the ranked rows' gains times weights sum to {score:g}, not score {record.parts['score']:g}")
        ideal = record.parts.get("ideal")
        if record.value is not None and record.status == "ok" and ideal:
            expected = score / ideal if score else 0.0
            if not math.isclose(expected, record.value, rel_tol=1e-9, abs_tol=1e-12):
                problems.append(f"score / ideal = {expected:g}, not the value {record.value:g}")
        return problems

    def universe_columns(self, flavor: Flavor, grade: float, judged: bool, gain: float) -> dict[str, Any]:
        return {}

    def weights(self, lists: RankedLists, flavor: Flavor) -> np.ndarray:
        rank = lists.positions.rank.astype(np.float64)
        if self.weight_kind == "log2":
            return 1.0 / np.log2(rank + 1.0)
        if self.weight_kind == "reciprocal":
            return 1.0 / rank
        return flavor.param("beta").number ** (rank - 1.0)

    def ideal(self, lists: RankedLists, flavor: Flavor, m: np.ndarray) -> np.ndarray:
        alpha, n = flavor.param("alpha").number, lists.n_queries
        depth = flavor.depth
        if flavor.param("norm") == "ideal_ideal":
            if self.weight_kind == "geometric":
                return m / (1.0 - (1.0 - alpha) * flavor.param("beta").number)
            i = np.arange(1, int(depth) + 1, dtype=np.float64)
            w = 1.0 / np.log2(i + 1.0) if self.weight_kind == "log2" else 1.0 / i
            return m * float(np.sum((1.0 - alpha) ** (i - 1.0) * w))
        greedy = lists.scope.shared(ideal_gains, flavor.rel_level, alpha, depth)
        out = np.zeros(n)
        for q, gains in greedy.items():
            i = np.arange(1, len(gains) + 1, dtype=np.float64)
            w = {"log2": 1.0 / np.log2(i + 1.0), "reciprocal": 1.0 / i}.get(self.weight_kind)
            out[q] = float(np.sum(gains * (w if w is not None else flavor.param("beta").number ** (i - 1.0))))
        return out

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        self.subtopics_of(lists)
        gain, count = novelty(lists, flavor.rel_level, flavor.param("alpha").number)
        weight = self.weights(lists, flavor)
        kept = lists.positions.in_top
        score = np.bincount(lists.rows.q, weights=np.where(kept, gain * weight, 0.0), minlength=lists.n_queries)
        m = lists.scope.shared(subtopic_judgments, flavor.rel_level)[2]
        ideal = self.ideal(lists, flavor, m)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(score > 0, score / np.where(ideal > 0, ideal, 1.0), 0.0)
        undefined = m == 0
        return MetricValues(np.where(undefined, np.nan, value), undefined,
                            {"score": score, "ideal": np.where(undefined, np.nan, ideal)},
                            {"subtopics": count, "gain": gain, "weight": weight} if detail else {})

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        if status == self.undefined_status:
            shown = "null, left out of the mean" if value is None else f"{value:g}"
            return f"no subtopic has a judgment of grade >= rel_level={flavor.rel_level} (M = 0); " \
                   f"empty={flavor.empty} gives {shown}"
        if self.parts == ("pairs", "subtopics"):
            return "the relevant (doc, subtopic) pairs in the top k, over k M"
        if self.parts == ("covered", "subtopics"):
            return "the subtopics the top k cover, over M"
        return f"the novelty gains weighted by rank, over the {flavor.param('norm')} ideal's"


class AlphaNDCG(DiversityMetric):
    """alpha-nDCG@k = sum_{i<=k} g_i / log2(i + 1) over the ideal's (Clarke et al., SIGIR 2008; ndeval)"""

    name = "alpha_ndcg"
    parameters = (ALPHA, norm_param("greedy"))
    parts = ("score", "ideal")
    row_columns = ("subtopics", "gain", "weight")
    formula = staticmethod(reference.normalised)  # the slow per-query reference over subtopic judgments


class ERRIA(AlphaNDCG):
    """ERR-IA@k = sum_{i<=k} g_i / i over the ideal's (ndeval's ERR-IA: ideal_ideal; nERR-IA: greedy)"""

    name = "err_ia"
    parameters = (ALPHA, norm_param("ideal_ideal"))
    weight_kind = "reciprocal"


class NRBP(AlphaNDCG):
    """NRBP = sum_i g_i beta^(i-1) over the ideal's (Clarke et al., ICTIR 2009; ndeval's NRBP, nNRBP: greedy)"""

    name = "nrbp"
    parameters = (ALPHA, BETA, norm_param("ideal_ideal"))
    cutoff_rule = "none"
    weight_kind = "geometric"


class PrecisionIA(DiversityMetric):
    """P-IA@k = relevant (doc, subtopic) pairs in the top k / (k M) (Agrawal et al., WSDM 2009; ndeval)"""

    name = "p_ia"
    parameters = ()
    parts = ("pairs", "subtopics")
    row_columns = ("subtopics",)
    formula = staticmethod(reference.precision_ia)

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        self.subtopics_of(lists)
        _, count = novelty(lists, flavor.rel_level, 0.0)
        kept = lists.positions.in_top
        pairs = np.bincount(lists.rows.q, weights=np.where(kept, count, 0.0), minlength=lists.n_queries)
        m = lists.scope.shared(subtopic_judgments, flavor.rel_level)[2].astype(np.float64)
        undefined = m == 0
        with np.errstate(invalid="ignore", divide="ignore"):
            value = pairs / (flavor.depth * m)
        return MetricValues(np.where(undefined, np.nan, value), undefined, {"pairs": pairs, "subtopics": m},
                            {"subtopics": count} if detail else {})

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        if record.parts.get("pairs") is None:
            return []
        pairs = sum(row["subtopics"] for row in record.ranked if row["rank"] <= flavor.depth)
        problems = [] if pairs == record.parts["pairs"] else [f"the top rows hold {pairs:g} pairs, not "
                                                              f"{record.parts['pairs']:g}"]
        m = record.parts["subtopics"]
        if record.status == "ok" and m and not math.isclose(pairs / (flavor.depth * m), record.value, abs_tol=1e-12):
            problems.append(f"pairs / (k M) = {pairs / (flavor.depth * m):g}, not the value {record.value:g}")
        return problems


class SubtopicRecall(PrecisionIA):
    """S-recall@k = subtopics covered by the top k / M (Zhai, Cohen & Lafferty, SIGIR 2003; ndeval's strec)"""

    name = "s_recall"
    parts = ("covered", "subtopics")
    formula = staticmethod(reference.subtopic_recall)

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        self.subtopics_of(lists)
        gain, count = novelty(lists, flavor.rel_level, 1.0)  # alpha = 1: a subtopic's first doc gains 1, later 0
        kept = lists.positions.in_top
        covered = np.bincount(lists.rows.q, weights=np.where(kept, gain, 0.0), minlength=lists.n_queries)
        m = lists.scope.shared(subtopic_judgments, flavor.rel_level)[2].astype(np.float64)
        undefined = m == 0
        with np.errstate(invalid="ignore", divide="ignore"):
            value = covered / m
        return MetricValues(np.where(undefined, np.nan, value), undefined, {"covered": covered, "subtopics": m},
                            {"subtopics": count, "new": gain} if detail else {})

    row_columns = ("subtopics", "new")

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        covered = sum(row["new"] for row in record.ranked if row["rank"] <= flavor.depth)
        m = record.parts.get("subtopics")
        if record.status == "ok" and m and not math.isclose(covered / m, record.value, abs_tol=1e-12):
            return [f"covered / M = {covered / m:g}, not the value {record.value:g}"]
        return []



def subtopic_sizes(data: DatasetScope, rel_level: RelLevel) -> tuple[np.ndarray, np.ndarray, int]:
    """The relevant docs of each (query, subtopic): (keys q * width + subtopic ascending, their counts, width)."""
    keys, subtopics, _ = data.stage(subtopic_judgments, rel_level)
    width = int(subtopics.max()) + 1 if len(subtopics) else 1
    groups, sizes = np.unique(keys // max(data.dataset.n_docs, 1) * width + subtopics, return_counts=True)
    return groups, sizes.astype(np.float64), width


class APIA(DiversityMetric):
    """AP-IA = (1/M) sum over the M subtopics s of AP_s over the whole list (ndeval's MAP-IA, computeMAP)"""

    name = "ap_ia"
    parameters = ()
    cutoff_rule = "none"
    parts = ("sum_ap", "subtopics")
    row_columns = ("subtopics", "gain")
    formula = staticmethod(reference.ap_ia)

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        """A row at rank i gains, per subtopic s it is relevant to, P_s@i / R_s (R_s: the docs relevant to s)."""
        self.subtopics_of(lists)
        pair_row, pair_sub, seen, count = subtopic_pairs(lists, flavor.rel_level)
        groups, sizes, width = lists.scope.shared(subtopic_sizes, flavor.rel_level)
        rows = lists.rows
        size = sizes[np.searchsorted(groups, rows.q[pair_row] * width + pair_sub)] if len(pair_row) else sizes[:0]
        rank = lists.positions.rank.astype(np.float64)[pair_row]
        gain = np.bincount(pair_row, weights=(seen + 1.0) / (rank * size), minlength=len(rows.q))
        kept = lists.positions.in_top
        sum_ap = np.bincount(rows.q, weights=np.where(kept, gain, 0.0), minlength=lists.n_queries)
        m = lists.scope.shared(subtopic_judgments, flavor.rel_level)[2].astype(np.float64)
        undefined = m == 0
        with np.errstate(invalid="ignore", divide="ignore"):
            value = sum_ap / m
        return MetricValues(np.where(undefined, np.nan, value), undefined, {"sum_ap": sum_ap, "subtopics": m},
                            {"subtopics": count.astype(np.float64), "gain": gain} if detail else {})

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        sum_ap = sum(row["gain"] for row in record.ranked if row["rank"] <= flavor.depth)
        problems = []
        if record.parts.get("sum_ap") is not None and not math.isclose(sum_ap, record.parts["sum_ap"], abs_tol=1e-9):
            problems.append(f"the ranked rows' gains sum to {sum_ap:g}, not sum_ap {record.parts['sum_ap']:g}")
        m = record.parts.get("subtopics")
        if record.status == "ok" and m and not math.isclose(sum_ap / m, record.value, rel_tol=1e-9, abs_tol=1e-12):
            problems.append(f"sum_ap / M = {sum_ap / m:g}, not the value {record.value:g}")
        return problems

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        if status == self.undefined_status:
            return super().reason(flavor, status, value)
        return "the mean over the M subtopics of each one's average precision (a row's gain: its P_s@i / R_s summed)"


register(AlphaNDCG(), aliases=("alpha_ndcg_ia",), peers={"ir_measures": ("alpha_nDCG@k",), "ndeval": ("alpha-nDCG@k",)})
register(ERRIA(), peers={"ir_measures": ("ERR_IA@k",), "ndeval": ("ERR-IA@k",)})
register(NRBP(), peers={"ir_measures": ("NRBP",), "ndeval": ("NRBP",)})
register(PrecisionIA(), aliases=("precision_ia",), peers={"ir_measures": ("P_IA@k",), "ndeval": ("P-IA@k",)})
register(SubtopicRecall(), aliases=("strec", "subtopic_recall"), peers={"ir_measures": ("StRecall@k",),
                                                                          "ndeval": ("strec@k",)})
register(APIA(), aliases=("map_ia",), peers={"ir_measures": ("AP_IA",), "ndeval": ("MAP-IA",)})
