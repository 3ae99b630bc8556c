"""trec_eval's experimental gain measures: G, Rndcg and ndcg_rel (trec_eval 10.0 m_G.c, m_Rndcg.c, m_ndcg_rel.c,
gains from gain_init.c; the same loops in 9.0.x).

    G        = (1/S) sum over ranks i of g_i / log2(2 + C_i - G_i)
               C_i = sum over ranks <= i of max(I_j, 1), G_i = sum over ranks <= i of g_j, S = sum of the I_j > 0
    Rndcg    = the mean of DCG(min(t, n)) / IDCG(t) over the ranks t <= P after which the ideal gain changes
               (I_{t+1} != I_t), plus DCG(n) / IDCG(P) when n > P + 1 (m_Rndcg.c's final implied point)
    ndcg_rel = (1/P) (sum over the docs of positive gain ranked i of DCG(i) / IDCG(min(i, P))
                      + (P - those docs) DCG(n) / IDCG(P)),  0 when that sum is not positive

g_i: the gain of the doc ranked i (0 unjudged), I_j: the j-th judged gain, descending (every judged doc, retrieved
or not: ideal=global, uncut), P: the judged docs of positive gain, n: the docs ranked, DCG and IDCG with 1/log2(i+1).
trec_eval's gains are its relevance levels (gain=linear) unless `-m G.1=3.5,...` sets them: other gain tables are
the `gain` axis (trec_eval sorts its levels with an int comparison of gains, so gains closer than 1 may be out
of order there; rankflavor sorts them exactly). Undefined (`empty`; trec_eval: 0, or nan for Rndcg without a point):
S = 0 (G), R = 0 at rel_level or no point (Rndcg: its only read of rel_level, -l), P = 0 (ndcg_rel).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from rankflavor.engine.metric import Metric, MetricValues
from rankflavor.flavor.axes import AXIS_NAMES
from rankflavor.metrics.ndcg import global_ideal
from rankflavor.metrics.relevance import relevant_judgments
from rankflavor.reference import trec_gains as reference
from rankflavor.reference.lists import CLOSE
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import Positions, RankedLists, Rows
    from rankflavor.engine.scope import DatasetScope, RowsScope
    from rankflavor.flavor import Flavor
    from rankflavor.flavor.values import Choice, Gain, MinGrade
    from rankflavor.metrics.ndcg import IdealList

GAIN_READS = tuple(a for a in AXIS_NAMES if a not in ("discount", "ideal", "ideal_depth", "rel_level"))
FIXED = "trec_eval's measure fixes it"


def segment_cumsum(q: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The running sum of x within each query (rows grouped by query), in row order: each query's sums are
    np.cumsum of its own values, bit for bit, whatever the queries beside it (a running sum over all rows minus
    each query's offset would carry the earlier queries' rounding into it: a query's value would then depend on
    the chunk or Spark slice it was evaluated in). Queries of similar length are summed as the rows of one
    zero-padded matrix (lengths rounded up to a power of two: at most twice the rows, per bucket)."""
    n = len(x)
    out = np.empty(n, dtype=np.result_type(x, np.float64))
    if not n:
        return out
    first = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
    length = np.diff(np.r_[first, n])
    width = np.left_shift(1, np.ceil(np.log2(length)).astype(np.int64))
    for w in np.unique(width):
        segments = np.flatnonzero(width == w)
        columns = np.arange(w)
        inside = columns[None, :] < length[segments, None]
        index = first[segments, None] + columns[None, :]
        block = np.where(inside, x[np.minimum(index, n - 1)], 0.0)
        out[index[inside]] = np.cumsum(block, axis=1)[inside]
    return out


class IdealSums:
    """The qrels side of a Frame, the same for every run and chunk of one (gain, negative, min_grade): the global
    ideal, per query its judged docs m, first ideal row and positive gains p, and per ideal row the running IDCG and
    cost (a dataset stage: a large run's chunks, each of which reads only its own queries, share it)."""

    def __init__(self, ideal: IdealList, nq: int) -> None:
        self.ideal = ideal
        self.m = np.bincount(ideal.q, minlength=nq)
        self.ideal_start = np.searchsorted(ideal.q, np.arange(nq))
        self.p = np.bincount(ideal.q, weights=(ideal.gain > 0).astype(np.float64), minlength=nq)
        with np.errstate(divide="ignore"):
            self.idcg = segment_cumsum(ideal.q, np.where(ideal.gain > 0, ideal.gain, 0.0) / np.log2(ideal.rank + 1.0))

    @functools.cached_property
    def gain_sum(self) -> np.ndarray:
        """Per query: S, the sum of its positive judged gains."""
        return np.bincount(self.ideal.q, weights=np.maximum(self.ideal.gain, 0.0), minlength=len(self.m))

    @functools.cached_property
    def ideal_cost(self) -> np.ndarray:
        """Per ideal row: the sum of max(I_j, 1) over the ranks j up to it."""
        return segment_cumsum(self.ideal.q, np.maximum(self.ideal.gain, 1.0))


def ideal_sums(data: DatasetScope, gain: Gain, negative: Choice, min_grade: MinGrade) -> IdealSums:
    return IdealSums(data.stage(global_ideal, gain, negative, min_grade), data.dataset.n_queries)


class Frame:
    """A query's run gains and ideal gains side by side, vectorised over queries. Only the ranked rows of nonzero
    gain are held (with their ranks): every sum these measures take adds nothing for the others, and a sum to a
    depth is read at the last held row at or above it (`dcg_at`)."""

    def __init__(self, rows: Rows, positions: Positions, sums: IdealSums) -> None:
        self.sums, self.ideal, self.m, self.ideal_start, self.p = sums, sums.ideal, sums.m, sums.ideal_start, sums.p
        self.idcg = sums.idcg
        held = np.flatnonzero(rows.gain != 0)
        self.q, self.gain = rows.q[held], rows.gain[held]
        self.rank = positions.rank[held].astype(np.int64)
        self.n = np.rint(positions.top_rows).astype(np.int64)  # ranked rows per query (the lists are uncut)
        self.span = int(self.n.max(initial=0)) + 2  # (q, rank) as one sorted key: q * span + rank
        self.key = self.q * self.span + self.rank
        self.dcg = segment_cumsum(self.q, self.gain / np.log2(self.rank + 1.0))

    def cost_at(self, q: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """C = the sum over ranks <= rank of max(I_j, 1), I_j the ideal gain at rank j (0 past the judged docs)."""
        m = self.m[q]
        inside = np.minimum(rank, m)
        cost = self.sums.ideal_cost
        at = np.where(inside > 0, self.ideal_start[q] + inside - 1, 0)
        return np.where(inside > 0, cost[at] if len(cost) else 0.0, 0.0) + np.maximum(rank - m, 0)

    def dcg_at(self, q: np.ndarray, depth: np.ndarray) -> np.ndarray:
        """DCG of query q's run to depth (0 for depth 0)."""
        if not len(self.dcg):
            return np.zeros(len(q))
        at = np.searchsorted(self.key, q * self.span + depth, side="right") - 1
        ok = at >= 0
        at = np.maximum(at, 0)
        return np.where(ok & (self.q[at] == q), self.dcg[at], 0.0)

    def idcg_at(self, q: np.ndarray, depth: np.ndarray) -> np.ndarray:
        ok = depth > 0
        return np.where(ok, self.idcg[np.where(ok, self.ideal_start[q] + depth - 1, 0)] if len(self.idcg) else 0.0,
                        0.0)


def frame(lists: RankedLists, flavor: Flavor) -> Frame:
    """The Frame of these lists, shared by g, rndcg and ndcg_rel over the same lists and gains."""
    return lists.rows_stage(gain_frame, lists.positions, flavor.gain, flavor.negative, flavor.min_grade)


def gain_frame(ranked: RowsScope, positions: Positions, gain: Gain, negative: Choice, min_grade: MinGrade) -> Frame:
    """The Frame of ranked rows at these positions, with the global ideal of (gain, negative, min_grade)."""
    return Frame(ranked.rows, positions, ranked.shared(ideal_sums, gain, negative, min_grade))


class TrecGainMetric(Metric):
    """One of trec_eval's experimental gain measures: `name` is its reference (reference/trec_gains.py)."""

    reads = GAIN_READS
    qrels_rows_only = True  # (a doc absent from the qrels has gain 0: the Frame never reads it)
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        "discount": (f"{FIXED}: 1/log2(i + 1)", "ndcg"), "ideal": (f"{FIXED}: every judged doc", "ndcg"),
        "ideal_depth": (f"{FIXED}: uncut", "ndcg"), "rel_level": ("it reads gains, not relevant or not", "bin_g")}
    row_columns = ("gain",)
    undefined_status = "zero_ideal"

    def validate(self, flavor: Flavor) -> None:
        from rankflavor.errors import SpecError
        if flavor.cutoff is not None:
            raise SpecError(f"{self.name} takes no cutoff (trec_eval's measure reads the whole list): write {self.name}")

    def universe_columns(self, flavor: Flavor, grade: float, judged: bool, gain: float) -> dict[str, Any]:
        return {"gain": float(gain) if judged else None}

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        if status == self.undefined_status:
            return f"{self.undefined_reason}; empty={flavor.empty} decides"
        return (type(self).__doc__ or self.name).strip().splitlines()[0]

    @classmethod
    def reference(cls, flavor, judgments, ranked, qrels):
        return reference.query_value(cls.name, flavor, judgments, ranked, qrels)

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        if record.status == "missing":
            return []
        ideal = sorted((u["gain"] for u in record.universe if u["judged"]), reverse=True)
        gains = [r["gain"] for r in record.ranked]
        relevant = sum(1 for u in record.universe if u["judged"] and u["grade"] >= flavor.rel_level.threshold)
        ideal_at = lambda i: ideal[i] if i < len(ideal) else 0.0  # noqa: E731
        if self.name == "rndcg":
            value, _, undefined = reference.rndcg(gains, ideal_at, relevant)
        else:
            value, _, undefined = (reference.g_gain if self.name == "g" else reference.ndcg_rel)(gains, ideal_at)
        if undefined:
            value = {"skip": None, "zero": 0.0, "one": 1.0, "error": None}[flavor.empty]
        elif flavor.round.decimals is not None:
            value = round(value, flavor.round.decimals)
        if (value is None) != (record.value is None) or (
                value is not None and not math.isclose(value, record.value, rel_tol=CLOSE, abs_tol=CLOSE)):
            return [f"value {record.value} but the ranked gains give {value}"]
        return []


class NormalizedGain(TrecGainMetric):
    """G = (1/S) sum over ranks i of g_i / log2(2 + C_i - G_i), C_i the ideal's cost so far, G_i the run's gain so far"""

    name = "g"
    parts = ("ideal_gain",)
    undefined_reason = "no judged doc of positive gain (S = 0)"

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        f = frame(lists, flavor)
        cost, so_far = f.cost_at(f.q, f.rank), segment_cumsum(f.q, f.gain)
        with np.errstate(divide="ignore", invalid="ignore"):
            contribution = f.gain / np.log2(2 + cost - so_far)
        total = np.bincount(f.q, weights=contribution, minlength=lists.n_queries)
        s = f.sums.gain_sum
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(s > 0, total / np.where(s > 0, s, 1.0), np.nan)
        return MetricValues(value, ~(s > 0), {"ideal_gain": s}, {"gain": lists.rows.gain} if detail else {})


class RNdcg(TrecGainMetric):
    """Rndcg = the mean of NDCG at the ranks where the ideal gain changes (and at the list's end)"""

    name = "rndcg"
    reads = tuple(a for a in AXIS_NAMES if a in (*GAIN_READS, "rel_level"))
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        k: v for k, v in TrecGainMetric.not_read.items() if k != "rel_level"}
    parts = ("points",)
    undefined_reason = "no relevant judgment (R = 0) or no point to average"

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        f, nq = frame(lists, flavor), lists.n_queries
        iq, gain = f.ideal.q, f.ideal.gain
        following = np.r_[gain[1:], 0.0] if len(gain) else gain
        if len(gain):
            following[np.r_[iq[1:] != iq[:-1], True]] = 0.0  # (past a query's judged docs: 0)
        change = (gain > 0) & (following != gain)
        t = f.ideal.rank.astype(np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            point = f.dcg_at(iq, np.minimum(t, f.n[iq])) / f.idcg_at(iq, t)
        total = np.bincount(iq, weights=np.where(change, point, 0.0), minlength=nq)
        count = np.bincount(iq, weights=change.astype(np.float64), minlength=nq)
        queries = np.arange(nq)
        p = f.p.astype(np.int64)
        final = (p >= 1) & (p + 1 < f.n)
        with np.errstate(divide="ignore", invalid="ignore"):
            last = f.dcg_at(queries, f.n) / f.idcg_at(queries, p)
        total, count = total + np.where(final, last, 0.0), count + final
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        ok = (r > 0) & (count > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(ok, total / np.where(ok, count, 1.0), np.nan)
        points = np.where(r > 0, count, 0.0)  # (R = 0: trec_eval returns before any point)
        return MetricValues(value, ~ok, {"points": points}, {"gain": lists.rows.gain} if detail else {})


class NdcgRel(TrecGainMetric):
    """ndcg_rel = the mean over the P judged docs of positive gain of NDCG at their rank (at the end if not ranked)"""

    name = "ndcg_rel"
    parts = ("positive", "positive_retrieved")
    undefined_reason = "no judged doc of positive gain (P = 0)"

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        f, nq = frame(lists, flavor), lists.n_queries
        p = f.p.astype(np.int64)
        positive = f.gain > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            at_rank = f.dcg / f.idcg_at(f.q, np.minimum(f.rank, p[f.q]))
        total = np.bincount(f.q, weights=np.where(positive, at_rank, 0.0), minlength=nq)
        retrieved = np.bincount(f.q, weights=positive.astype(np.float64), minlength=nq)
        queries = np.arange(nq)
        with np.errstate(divide="ignore", invalid="ignore"):
            tail = (p - retrieved) * f.dcg_at(queries, f.n) / f.idcg_at(queries, p)
            total = total + np.where(p > 0, tail, 0.0)
            value = np.where(p > 0, np.where(total > 0, total / np.maximum(p, 1), 0.0), np.nan)
        return MetricValues(value, ~(p > 0), {"positive": f.p, "positive_retrieved": retrieved},
                            {"gain": lists.rows.gain} if detail else {})


register(NormalizedGain(), peers={"trec_eval": ("G",)})
register(RNdcg(), peers={"trec_eval": ("Rndcg",)})
register(NdcgRel(), peers={"trec_eval": ("ndcg_rel",)})
