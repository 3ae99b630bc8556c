"""The ranked lists every metric reads, and the stages that every way of producing them shares.

A flavor's lists are made in this order (ARCHITECTURE.md, the data flow): join grades -> drop (self_docs,
negative=drop) -> rank (score descending, then the tie policy) -> cut at run_depth -> condense
(unjudged=skip) or refuse (unjudged=error) -> positions (ranks, the cutoff, tie groups). Two producers
make them: `from_rows.py` from every row of a run, and `from_prefix.py` from the top of each list only
(engine/select.py); both give the same lists. Metrics (rankflavor.metrics) read `RankedLists`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import numpy as np

from rankflavor.engine.scope import Memo, RowsScope, RunScope
from rankflavor.flavor.values import Choice, Gain, MinGrade, RunDepth, Ties
from rankflavor.plain_records import replace

if TYPE_CHECKING:
    from rankflavor.flavor import Flavor

T = TypeVar("T")


class DropPolicy(NamedTuple):
    """What leaves every list before ranking, and whether the lists are condensed to their judged docs."""

    self_docs: Choice  # drop: docs whose id equals the query id
    negative_drop: bool  # docs with a negative grade (negative=drop)
    condensed: bool  # unjudged=skip over whole lists: only judged docs are ranked
    judged_under: Choice | None  # the negative policy that decides "judged", when it matters (drop, condensed)


class ListSpec(NamedTuple):
    """The parts of a flavor that decide its ranked lists, whatever the metric."""

    cutoff: int | None
    precision: Choice
    ties: Ties
    gain: Gain
    negative: Choice
    min_grade: MinGrade
    unjudged: Choice
    run_depth: RunDepth
    drops: DropPolicy
    need: float  # how many top ranks of each list the metric reads (inf: all)
    whole_list: bool  # the metric reads facts of the whole list (e.g. ideal=local): set when run_depth=all

    @classmethod
    def of(cls, flavor: Flavor, depth_read: float, reads_whole_list: bool) -> ListSpec:
        """The lists of `flavor` for a metric that reads `depth_read` top ranks of each list (inf: all) and,
        when `reads_whole_list`, facts of the whole list (Metric.depth_read, Metric.reads_whole_list)."""
        need = depth_read
        whole = flavor.run_depth.limit is None
        if flavor.run_depth.limit is not None:
            depth = float(flavor.run_depth.limit)
            # after the cut, unjudged=skip condenses, unjudged=error inspects, a whole-list metric reads it all
            need = depth if flavor.unjudged in ("skip", "error") or reads_whole_list else min(need, depth)
        if flavor.ties.kind == "quicksort":
            need = math.inf  # (its order of tied docs depends on every doc of the list)
        condensed = flavor.unjudged == "skip" and whole
        negative_drop = flavor.negative == "drop"
        drops = DropPolicy(flavor.self_docs, negative_drop, condensed,
                           flavor.negative if condensed or negative_drop else None)
        return cls(flavor.cutoff, flavor.precision, flavor.ties, flavor.gain, flavor.negative, flavor.min_grade,
                   flavor.unjudged, flavor.run_depth, drops, need, whole and reads_whole_list)

    @property
    def rows_read(self) -> float:
        """How many top rows of each list (ranked by score, after the drops) the value depends on: `need`, or every
        row (inf) when the lists are condensed (unjudged=skip: a judged doc below the cutoff moves up) or the
        metric reads facts of the whole list (ideal=local)."""
        return math.inf if self.whole_list or self.drops.condensed else self.need


class Rows:
    """Rows of one run being ranked: query and doc codes, score, input row, grade (nan when not in the
    qrels), judged (under the negative policy) and gain."""

    q: np.ndarray
    d: np.ndarray
    score: np.ndarray
    order: np.ndarray | None  # input row (kept until the tie policy has read it)
    grade: np.ndarray
    judged: np.ndarray
    gain: np.ndarray
    memo: Memo  # the stages kept with these rows (RowsScope), dies with them

    def __init__(self, q: np.ndarray, d: np.ndarray, score: np.ndarray, order: np.ndarray | None, grade: np.ndarray,
                 judged: np.ndarray, gain: np.ndarray, memo: Memo | None = None) -> None:
        self.q = q
        self.d = d
        self.score = score
        self.order = order
        self.grade = grade
        self.judged = judged
        self.gain = gain
        self.memo = Memo() if memo is None else memo

    def take(self, index: np.ndarray) -> Rows:
        """The rows at `index` (a mask or positions)."""
        return Rows(self.q[index], self.d[index], self.score[index],
                    None if self.order is None else self.order[index], self.grade[index], self.judged[index],
                    self.gain[index])

    def __len__(self) -> int:
        return len(self.q)


class Positions:
    """What depends on the rows' positions only, not on which doc sits where: the same for every tie policy
    (a tie policy moves docs within tie groups). `shared`: these are the positions of a list shape that
    several flavors rank (stages over them are kept and shared, see `RankedLists.stage`). `shape`: the ranks
    and tie groups held (q, rank, group and tie_group are its arrays), one object for every cutoff over them."""

    q: np.ndarray
    rank: np.ndarray  # 1-based
    in_top: np.ndarray  # rank <= cutoff
    group: np.ndarray  # global tie-group id (rows of one query with one score)
    tie_group: np.ndarray  # 1-based within the query
    straddle: np.ndarray  # per query code: a tie group holds ranks on both sides of the cutoff
    top_rows: np.ndarray  # per query code: rows within the cutoff (float64 counts)
    shape: Shape
    shared: bool = False

    def __init__(self, q: np.ndarray, rank: np.ndarray, in_top: np.ndarray, group: np.ndarray, tie_group: np.ndarray,
                 straddle: np.ndarray, top_rows: np.ndarray, shape: Shape, shared: bool = False) -> None:
        self.q = q
        self.rank = rank
        self.in_top = in_top
        self.group = group
        self.tie_group = tie_group
        self.straddle = straddle
        self.top_rows = top_rows
        self.shape = shape
        self.shared = shared


class Dropped:
    """Rows removed before scoring (for records): query and doc codes and the reason."""

    q: list[np.ndarray]
    d: list[np.ndarray]
    reason: list[str]

    def __init__(self, q: list[np.ndarray] | None = None, d: list[np.ndarray] | None = None,
                 reason: list[str] | None = None) -> None:
        self.q = [] if q is None else q
        self.d = [] if d is None else d
        self.reason = [] if reason is None else reason

    def add(self, rows: Rows, mask: np.ndarray, reason: str) -> None:
        self.q.append(rows.q[mask])
        self.d.append(rows.d[mask])
        self.reason.append(reason)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not self.q:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=object)
        reasons = [np.full(len(q), reason, dtype=object) for q, reason in zip(self.q, self.reason, strict=True)]
        return np.concatenate(self.q), np.concatenate(self.d), np.concatenate(reasons)


class WholeList:
    """For lists that hold only their prefix: the policy that made the whole lists (stages recover their
    judged rows from it, engine/select.py)."""

    drops: DropPolicy

    def __init__(self, drops: DropPolicy) -> None:
        self.drops = drops


class RankedLists:
    """One run's ranked lists under one flavor: every row a metric may read, ranked per query, and the
    whole-run facts the rows cannot show."""

    scope: RunScope
    spec: ListSpec
    rows: Rows  # in rank order, query by query (query codes ascending)
    positions: Positions
    returned: np.ndarray  # per query code: docs in the list after every drop and the condensation
    tied: np.ndarray  # per query code: the ranked rows (before run_depth) hold a tie
    row_counts: dict[str, int]  # rows left out before scoring, by reason
    whole: WholeList | None = None  # set when `rows` are a prefix of the lists
    dropped: Dropped | None = None  # with detail

    def __init__(self, scope: RunScope, spec: ListSpec, rows: Rows, positions: Positions, returned: np.ndarray,
                 tied: np.ndarray, row_counts: dict[str, int], whole: WholeList | None = None,
                 dropped: Dropped | None = None) -> None:
        self.scope = scope
        self.spec = spec
        self.rows = rows
        self.positions = positions
        self.returned = returned
        self.tied = tied
        self.row_counts = row_counts
        self.whole = whole
        self.dropped = dropped

    @property
    def n_queries(self) -> int:
        return self.scope.dataset.n_queries

    def rows_stage(self, fn: Callable[..., T], *parts: Any) -> T:
        """fn(RowsScope of these rows, *parts), kept with the rows (engine/scope.py RowsScope): the flavors whose
        lists hold the same rows share it when they agree on `parts`, which name all it reads beyond the rows
        (pass `positions` when it reads them)."""
        return RowsScope(self.scope.data, self.rows).stage(fn, *parts)

    def stage(self, fn: Callable[..., T], *parts: Any) -> T:
        """fn(positions, *parts), kept and shared when the positions are shared (fn must read positions only)."""
        if self.positions.shared:
            return self.scope.memo(fn, self.positions, *parts)
        return fn(self.positions, *parts)


def in_qrels(lists: RankedLists) -> RankedLists:
    """The lists without the rows of docs absent from the qrels, for a metric that never reads them
    (`Metric.reads_qrels_rows_only`): an unjudged doc adds nothing to it and its rank is kept in the rows that remain.
    The per-query facts (docs returned, rows within the cutoff, ties) stay those of the whole lists. The rows
    kept, the ranks of a list shape and the positions are stages kept with the rows (every metric and cutoff
    over them shares them)."""
    if lists.rows_stage(qrels_rows)[1] is None:
        return lists
    rows, positions = lists.rows_stage(qrels_positions, lists.positions)
    return replace(lists, rows=rows, positions=positions)


def qrels_rows(ranked: RowsScope) -> tuple[np.ndarray, Rows | None]:
    """The positions of the rows in the qrels, and those rows (None when every row is)."""
    rows = ranked.rows
    keep = np.flatnonzero(~np.isnan(rows.grade))
    return keep, None if len(keep) == len(rows) else rows.take(keep)


def qrels_shape(ranked: RowsScope, shape: Shape) -> Shape:
    """The ranks and tie groups of the rows in the qrels."""
    keep = ranked.stage(qrels_rows)[0]
    return Shape(shape.q[keep], shape.rank[keep], shape.group[keep], shape.tie_group[keep])


def qrels_positions(ranked: RowsScope, positions: Positions) -> tuple[Rows, Positions]:
    """The rows in the qrels and their positions (one object: stages over them are shared when these are)."""
    keep, rows = ranked.stage(qrels_rows)
    assert rows is not None
    shape = ranked.stage(qrels_shape, positions.shape)
    return rows, Positions(shape.q, shape.rank, positions.in_top[keep], shape.group, shape.tie_group,
                           positions.straddle, positions.top_rows, shape, positions.shared)


# ---- stages shared by both producers ------------------------------------------------------------------

def group_starts(sorted_q: np.ndarray) -> np.ndarray:
    """For sorted query codes, the index of the first row of each row's query."""
    if len(sorted_q) == 0:
        return np.zeros(0, dtype=np.int64)
    boundary = np.empty(len(sorted_q), dtype=bool)
    boundary[0] = True
    boundary[1:] = sorted_q[1:] != sorted_q[:-1]
    starts = np.flatnonzero(boundary)
    return starts[np.cumsum(boundary) - 1]


def positions_in_query(sorted_q: np.ndarray) -> np.ndarray:
    """0-based position of each row within its query (rows sorted by query)."""
    return np.arange(len(sorted_q), dtype=np.int64) - group_starts(sorted_q)


def _straddle(shape: Shape, cutoff: int, nq: int) -> np.ndarray:
    """Per query code: a tie group holds ranks on both sides of the cutoff, i.e. the rows ranked k and k + 1
    are of one tie group (ranks run 1, 2, ... within a query; a tie group is a run of them)."""
    straddle = np.zeros(nq, dtype=bool)
    q, group = shape.q, shape.group
    at = np.flatnonzero(shape.rank[:-1] == cutoff)
    straddle[q[at[(q[at + 1] == q[at]) & (group[at + 1] == group[at])]]] = True
    return straddle


class Shape:
    """Ranks and tie groups of ranked rows (the cutoff not applied yet)."""

    q: np.ndarray
    rank: np.ndarray
    group: np.ndarray
    tie_group: np.ndarray
    _first_tied: np.ndarray | None

    def __init__(self, q: np.ndarray, rank: np.ndarray, group: np.ndarray, tie_group: np.ndarray,
                 _first_tied: np.ndarray | None = None) -> None:
        self.q = q
        self.rank = rank
        self.group = group
        self.tie_group = tie_group
        self._first_tied = _first_tied

    def first_tied_rank(self, nq: int) -> np.ndarray:
        """Per query code: the smallest rank of a row in a tie group of two or more rows (inf: none). Made once
        per shape: every flavor with a cutoff asks it (ties_read), and it reads every row."""
        if self._first_tied is None or len(self._first_tied) != nq:
            sizes = np.bincount(self.group) if len(self.group) else np.zeros(0, dtype=np.int64)
            rows = np.flatnonzero(sizes[self.group] > 1)
            out = np.full(nq, np.inf)
            if len(rows):
                q = self.q[rows]
                first = np.r_[True, q[1:] != q[:-1]]  # (ranks rise within a query's rows: its first is its least)
                np.minimum.at(out, q[first], self.rank[rows][first])
            self._first_tied = out
        return self._first_tied


def shape_of(q: np.ndarray, score: np.ndarray) -> Shape:
    n = len(q)
    if n == 0:
        return Shape(q, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    new_query = np.empty(n, dtype=bool)
    new_query[0] = True
    np.not_equal(q[1:], q[:-1], out=new_query[1:])
    new_group = new_query.copy()
    new_group[1:] |= score[1:] != score[:-1]
    first = np.flatnonzero(new_query)[np.cumsum(new_query) - 1]  # each row's query's first row
    group = np.cumsum(new_group) - 1
    return Shape(q, np.arange(1, n + 1) - first, group, group - group[first] + 1)


def ties_read(tied: np.ndarray, shape: Shape, spec: ListSpec, nq: int) -> np.ndarray:
    """Per query code: `tied` (a tie among the rows held) narrowed to a tie the flavor reads, a tie group of two
    or more rows with a row at rank <= `spec.need` (the depth its metric reads: the cutoff, or deeper, e.g. K
    of ideal=recall(K); a tie wholly below it changes nothing). `shape`: every row held, ranked before any
    cut, so that the answer is the same whether the rows held are the top k's or a wider selection's (a
    chunk's, or the whole list). Unchanged for a metric that reads whole lists."""
    if math.isinf(spec.need) or spec.whole_list or not tied.any():
        return tied
    return tied & (shape.first_tied_rank(nq) <= spec.need)


def positions_at(shape: Shape, cutoff: int | None, nq: int, shared: bool = False) -> Positions:
    """The positions of ranked rows under a cutoff."""
    rows = np.bincount(shape.q, minlength=nq).astype(np.float64)  # (ranks 1, 2, ... n: min(n, k) of them within k)
    if cutoff is None:
        in_top, straddle, top_rows = np.ones(len(shape.rank), dtype=bool), np.zeros(nq, dtype=bool), rows
    else:
        in_top, straddle, top_rows = shape.rank <= cutoff, _straddle(shape, cutoff, nq), np.minimum(rows, cutoff)
    return Positions(shape.q, shape.rank, in_top, shape.group, shape.tie_group, straddle, top_rows, shape, shared)


def cut_run_depth(rows: Rows, limit: int, dropped: Dropped | None) -> tuple[Rows, int]:
    """The first `limit` ranked rows of each query, and how many rows went."""
    inside = positions_in_query(rows.q) < limit
    if dropped is not None:
        dropped.add(rows, ~inside, f"beyond run_depth={limit}")
    return rows.take(inside), int((~inside).sum())


def refuse_unjudged(scope: RunScope, rows: Rows) -> None:
    """unjudged=error: name the first unjudged doc of the ranked lists."""
    from rankflavor.errors import EvaluationError

    if rows.judged.all():
        return
    ds = scope.dataset
    bad = int(np.flatnonzero(~rows.judged)[0])
    raise EvaluationError(
        f"run {scope.run.name!r}: doc {ds.doc_ids[rows.d[bad]]!r} of query {ds.query_ids[rows.q[bad]]!r} is not judged "
        f"({int((~rows.judged).sum())} unjudged docs in all) and unjudged=error; choose unjudged=zero or skip"
    )


def condense(rows: Rows, dropped: Dropped | None) -> tuple[Rows, int]:
    """unjudged=skip: the judged rows only (ranks are renumbered after), and how many rows went."""
    if dropped is not None:
        dropped.add(rows, ~rows.judged, "unjudged (unjudged=skip)")
    return rows.take(rows.judged), int((~rows.judged).sum())
