"""What an engine returns: per-query results, row-level records, and mergeable partial aggregates."""

from __future__ import annotations

import math

import numpy as np

OK, ZERO_IDEAL, MISSING = 0, 1, 2
MIN_GEO_MEAN = 1e-5  # trec_eval.h: a value below it counts as it in a geometric mean (gm_map, gm_bpref)
STATUS_NAMES = ("ok", "zero_ideal", "missing")


class QueryResults:
    """Columnar results of one (run, flavor) over the judged queries asked for, in query-code order."""

    query: np.ndarray  # int64 query codes
    value: np.ndarray  # float64, nan = null (excluded)
    raw_value: np.ndarray  # before `round`
    parts: dict[str, np.ndarray]  # the metric's per-query numbers (ndcg: dcg, idcg); nan for missing queries
    status: np.ndarray  # int8: OK, ZERO_IDEAL, MISSING
    ties_straddle: np.ndarray  # bool: a tie group spans the cutoff
    ties_any: np.ndarray  # bool: the ranked rows the flavor reads hold a tie (else every tie policy gives this value)
    judged_in_top: np.ndarray  # float64: share of judged docs among the scored ranks (nan when none)
    unjudged_in_top: np.ndarray  # int64: unjudged docs among the scored ranks
    row_counts: dict[str, int]  # rows excluded before scoring, by reason

    def __init__(self, query: np.ndarray, value: np.ndarray, raw_value: np.ndarray, parts: dict[str, np.ndarray],
                 status: np.ndarray, ties_straddle: np.ndarray, ties_any: np.ndarray, judged_in_top: np.ndarray,
                 unjudged_in_top: np.ndarray, row_counts: dict[str, int]) -> None:
        self.query = query
        self.value = value
        self.raw_value = raw_value
        self.parts = parts
        self.status = status
        self.ties_straddle = ties_straddle
        self.ties_any = ties_any
        self.judged_in_top = judged_in_top
        self.unjudged_in_top = unjudged_in_top
        self.row_counts = row_counts

    def where(self, mask: np.ndarray) -> QueryResults:
        """The results of the queries where `mask` is set (row counts kept)."""
        return QueryResults(self.query[mask], self.value[mask], self.raw_value[mask],
                            {name: part[mask] for name, part in self.parts.items()}, self.status[mask],
                            self.ties_straddle[mask], self.ties_any[mask], self.judged_in_top[mask],
                            self.unjudged_in_top[mask], dict(self.row_counts))

    def aggregate(self) -> Aggregate:
        return Aggregate.of(self.raw_value)


class RecordRows:
    """Row-level record of the ranked lists of one (run, flavor): every ranked row, what was removed before
    scoring, and the metric's own columns and lists (ndcg: gain, discount, contribution; the ideal list)."""

    q: np.ndarray
    d: np.ndarray
    score: np.ndarray
    grade: np.ndarray  # nan when not in the qrels
    judged: np.ndarray
    rank: np.ndarray  # 1-based
    tie_group: np.ndarray  # 1-based within the query
    columns: dict[str, np.ndarray]  # the metric's per-row columns
    dropped_q: np.ndarray
    dropped_d: np.ndarray
    dropped_reason: np.ndarray  # object array of str
    qrels_judged: np.ndarray  # per row of the sorted qrels: judged under the negative policy
    qrels_gain: np.ndarray  # ... and its gain (a record's judged universe)
    lists: dict[str, dict[str, np.ndarray]]  # the metric's other lists, by name

    def __init__(self, q: np.ndarray, d: np.ndarray, score: np.ndarray, grade: np.ndarray, judged: np.ndarray,
                 rank: np.ndarray, tie_group: np.ndarray, columns: dict[str, np.ndarray], dropped_q: np.ndarray,
                 dropped_d: np.ndarray, dropped_reason: np.ndarray, qrels_judged: np.ndarray, qrels_gain: np.ndarray,
                 lists: dict[str, dict[str, np.ndarray]] | None = None) -> None:
        self.q = q
        self.d = d
        self.score = score
        self.grade = grade
        self.judged = judged
        self.rank = rank
        self.tie_group = tie_group
        self.columns = columns
        self.dropped_q = dropped_q
        self.dropped_d = dropped_d
        self.dropped_reason = dropped_reason
        self.qrels_judged = qrels_judged
        self.qrels_gain = qrels_gain
        self.lists = {} if lists is None else lists


class Evaluation:
    """One flavor's results from the engine front door (`records` with detail only)."""

    results: QueryResults
    records: RecordRows | None = None

    def __init__(self, results: QueryResults, records: RecordRows | None = None) -> None:
        self.results = results
        self.records = records


class Aggregate:
    """A partial aggregate of per-query values that merges exactly across chunks and partitions.

    `partials` is a sum held exactly (Shewchuk's non-overlapping partials, as `math.fsum` keeps them), so
    merging is exact whatever the order; `log_partials` likewise for the sum of log(max(value, 1e-5)), the
    geometric mean's (trec_eval's MIN_GEO_MEAN, meas_avg.c te_calc_avg_meas_s_gm: gm_map, gm_bpref). The mean
    is correctly rounded: it can differ from numpy's pairwise mean of the same values in the last bit."""

    count: int
    partials: list[float]
    log_partials: list[float]

    def __init__(self, count: int = 0, partials: list[float] | None = None, log_partials: list[float] | None = None,
                 ) -> None:
        self.count = count
        self.partials = [] if partials is None else partials
        self.log_partials = [] if log_partials is None else log_partials

    def __repr__(self) -> str:
        return f"Aggregate(count={self.count}, partials={self.partials}, log_partials={self.log_partials})"

    @classmethod
    def of(cls, values: np.ndarray) -> Aggregate:
        ok = values[~np.isnan(values)]
        return cls(len(ok), _exact(ok.tolist()), _exact(np.log(np.maximum(ok, MIN_GEO_MEAN)).tolist()))

    def merge(self, other: Aggregate) -> Aggregate:
        return Aggregate(self.count + other.count, _exact(self.partials + other.partials),
                         _exact(self.log_partials + other.log_partials))

    @property
    def total(self) -> float:
        return math.fsum(self.partials)

    def mean(self) -> float | None:
        return None if self.count == 0 else math.fsum(self.partials) / self.count

    def geometric_mean(self) -> float | None:
        """exp(the mean of log(max(value, 1e-5))): the summary of a metric whose aggregate is "gm"."""
        return None if self.count == 0 else math.exp(math.fsum(self.log_partials) / self.count)


def exact_partials(values: list[float]) -> list[float]:
    """Non-overlapping partials whose exact sum is the exact sum of `values` (math.fsum of them is correctly rounded)."""
    return _exact(values)


def _exact(values: list[float]) -> list[float]:
    """Non-overlapping partials whose exact sum is the exact sum of `values` (Shewchuk 1997, msum)."""
    partials: list[float] = []
    for x in values:
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]
    return partials
