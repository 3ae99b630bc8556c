"""NDCG and DCG (Järvelin & Kekäläinen 2002; Burges et al. 2005 for the exponential gain).

    DCG@k  = sum_{i <= k} g(r_i) d(i)           g: the `gain` axis, d: the `discount` axis
    IDCG@k = DCG of the ideal list (its gains sorted descending), cut at the ideal depth (`ideal_depth`)
    NDCG@k = DCG@k / IDCG@k when IDCG@k > 0, else the `empty` policy (status zero_ideal)

The ideal list holds every judged doc of the query (`ideal=global`, trec_eval's m_ndcg_cut.c), the docs
the run returned (`local`: scikit-learn's ndcg_score, LightGBM, XGBoost), the judged docs among the run's
top K (`recall(K)`), or the top grade of the whole qrels at every position (`max`). With `ties=average`,
DCG is its exact expectation over every order of each tie group (McSherry & Najork 2008): each doc of a
group gets the mean discount of the positions the group occupies (scikit-learn's _tie_averaged_dcg).
DCG reads neither the ideal nor `empty`. The slow reference is rankflavor.reference.ndcg.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

import rankflavor.reference.ndcg as reference
from rankflavor.engine.discounts import at_ranks, discount_values
from rankflavor.engine.lists import Positions, RankedLists, positions_in_query
from rankflavor.engine.metric import Metric, MetricValues
from rankflavor.engine.order import distinct_sorted, level_index, stable_order
from rankflavor.engine.qrels import gain_levels, judgments
from rankflavor.engine.scope import DatasetScope, RunScope
from rankflavor.engine.select import returned_of, whole_list_judged
from rankflavor.errors import SpecError
from rankflavor.flavor.axes import AXIS_NAMES
from rankflavor.flavor.values import Choice, Discount, Gain, MinGrade
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import DropPolicy
    from rankflavor.flavor import Flavor


@dataclass(eq=False)
class IdealList:
    """Ideal lists of every query, query by query, each by gain descending then doc descending."""

    q: np.ndarray
    d: np.ndarray  # -1 for the positions of ideal=max
    grade: np.ndarray
    gain: np.ndarray
    rank: np.ndarray  # 1-based


def position_discounts(positions: Positions, discount: Discount) -> np.ndarray:
    """d(rank) within the cutoff, 0 past it."""
    rank = positions.rank
    return np.where(positions.in_top, at_ranks(rank, discount), 0.0)


def average_discounts(positions: Positions, discount: Discount) -> np.ndarray:
    """Each row's mean discount over its tie group (ties=average)."""
    disc, group = position_discounts(positions, discount), positions.group
    return (np.bincount(group, weights=disc) / np.bincount(group))[group]


def global_ideal(data: DatasetScope, gain: Gain, negative: Choice, min_grade: MinGrade, positive: bool = False,
                 ) -> IdealList:
    """The judged docs of every query sorted by gain desc, doc desc, ranked (positive: those of gain > 0 only,
    ideal=positive: the same list cut after its last positive gain)."""
    if positive:
        whole = data.stage(global_ideal, gain, negative, min_grade)
        keep = whole.gain > 0
        return IdealList(whole.q[keep], whole.d[keep], whole.grade[keep], whole.gain[keep], whole.rank[keep])
    ds = data.dataset
    judged_gains = data.stage(judgments, gain, negative, min_grade)
    # the qrels are sorted by (query, doc): reversed, by (query desc, doc desc); a stable sort on one
    # packed key (query asc, gain desc) keeps doc desc within equal gains
    judged = judged_gains.judged
    sel = slice(None, None, -1) if judged.all() else np.flatnonzero(judged)[::-1]  # (all: views, not copies)
    q, d, grade, gains = ds.qrels.q[sel], ds.qrels.d[sel], ds.qrels.grade[sel], judged_gains.gain[sel]
    levels = data.stage(gain_levels, gain, negative, min_grade)
    key = q * len(levels)
    key += len(levels) - 1
    key -= level_index(levels, gains)
    perm = stable_order(key, max(ds.n_queries, 1) * len(levels))
    q, d, grade, gains = q[perm], d[perm], grade[perm], gains[perm]
    return IdealList(q, d, grade, gains, positions_in_query(q) + 1)


def whole_list_ideal(scope: RunScope, drops: DropPolicy, gain: Gain, negative: Choice, min_grade: MinGrade,
                     ) -> IdealList:
    """ideal=local over whole lists of which the ranked rows are only a prefix: the lists' nonzero gains,
    sorted, ranked after the zero gains (unjudged docs too) where they are negative."""
    ds, run = scope.dataset, scope.run
    hits, hit_index = whole_list_judged(scope, drops, negative)
    gains = scope.shared(judgments, gain, negative, min_grade).gain[hit_index]
    nonzero = gains != 0
    hits, hit_index, gains = hits[nonzero], hit_index[nonzero], gains[nonzero]
    q, d, grade = run.q_codes.at(hits), run.d_codes.at(hits), ds.qrels.grade[hit_index]
    zeros = returned_of(scope, drops) - np.bincount(q, minlength=ds.n_queries)
    perm = _ideal_order(q, gains, d, max(ds.n_queries, 1), max(ds.n_docs, 1))
    q, d, grade, gains = q[perm], d[perm], grade[perm], gains[perm]
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]]) if len(q) else np.zeros(0, dtype=np.int64)
    rank = np.arange(1, len(q) + 1) - np.repeat(starts, np.diff(np.r_[starts, len(q)]))
    rank += np.where(gains < 0, zeros[q], 0)  # zero gains (unjudged docs too) come before negative ones
    return IdealList(q, d, grade, gains, rank)


def _ideal_order(q: np.ndarray, gain: np.ndarray, d: np.ndarray, n_queries: int, n_docs: int) -> np.ndarray:
    """The permutation to (query asc, gain desc, doc desc): one argsort of a packed int64 key when it fits
    (a lexsort over three keys is several times slower)."""
    levels = distinct_sorted(gain)
    n_levels = max(len(levels), 1)
    if n_queries * n_levels * n_docs >= 1 << 62:
        return np.lexsort((-d, -gain, q))
    level = n_levels - 1 - level_index(levels, gain)
    return np.argsort((q * n_levels + level) * n_docs + (n_docs - 1 - d))  # (keys distinct: any sort)


def _sorted_ideal(q: np.ndarray, d: np.ndarray, grade: np.ndarray, gain: np.ndarray, doc_keys: np.ndarray,
                  ) -> IdealList:
    """The ideal list of these rows: by query, gain desc, doc id desc (doc_keys: keys ordered as the ids)."""
    perm = np.lexsort((-doc_keys, -gain, q))
    q, d, grade, gain = q[perm], d[perm], grade[perm], gain[perm]
    return IdealList(q, d, grade, gain, positions_in_query(q) + 1)


def ideal_list(lists: RankedLists, flavor: Flavor) -> IdealList:
    """The ideal list of every query under the flavor's `ideal`."""
    scope, rows, spec = lists.scope, lists.rows, lists.spec
    kind = flavor.ideal.kind
    if kind in ("global", "positive"):
        return scope.shared(global_ideal, flavor.gain, flavor.negative, flavor.min_grade, kind == "positive")
    if kind == "local" and lists.whole is not None:
        return scope.stage(whole_list_ideal, lists.whole.drops, flavor.gain, flavor.negative, flavor.min_grade)
    if kind == "local":
        return _sorted_ideal(rows.q, rows.d, rows.grade, rows.gain, scope.dataset.doc_keys(rows.d))
    if kind == "recall":
        sel = lists.positions.rank <= flavor.ideal.k
        return _sorted_ideal(rows.q[sel], rows.d[sel], rows.grade[sel], rows.gain[sel],
                             scope.dataset.doc_keys(rows.d[sel]))
    # max: the top gain of the whole qrels at every position up to the depth
    ds = scope.dataset
    depths = ideal_depths(lists, flavor)
    lengths = np.where(np.isinf(depths), 0, depths).astype(np.int64)
    lengths[~ds.judged] = 0
    q = np.repeat(np.arange(ds.n_queries, dtype=np.int64), lengths)
    judged_gains = scope.shared(judgments, spec.gain, spec.negative, spec.min_grade)
    usable = judged_gains.judged
    top_grade = float(ds.qrels.grade[usable][np.argmax(judged_gains.gain[usable])]) if usable.any() else 0.0
    no_doc = np.full(len(q), -1, dtype=np.int64)
    return _sorted_ideal(q, no_doc, np.full(len(q), top_grade), np.full(len(q), judged_gains.max_gain), no_doc)


def ideal_depths(lists: RankedLists, flavor: Flavor) -> np.ndarray:
    """Per query code, the depth the ideal list is cut at (inf: uncut)."""
    nq = lists.n_queries
    cut = flavor.depth
    if flavor.ideal_depth == "k":
        return np.full(nq, cut)
    if flavor.ideal_depth == "all":
        return np.full(nq, np.inf)
    return np.minimum(cut, lists.returned.astype(float))


def _ideal_dcg(ideal: IdealList, depth: np.ndarray, discount: Discount, nq: int,
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(discount, contribution) per ideal row and IDCG per query code."""
    disc = discount_values(ideal.rank, discount) if len(ideal.rank) else np.zeros(0)
    disc = np.where(ideal.rank <= depth[ideal.q], disc, 0.0)
    contribution = ideal.gain * disc
    return disc, contribution, np.bincount(ideal.q, weights=contribution, minlength=nq).astype(np.float64)


def global_ideal_dcg(data: DatasetScope, gain: Gain, negative: Choice, min_grade: MinGrade, discount: Discount,
                     depth: float, positive: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """_ideal_dcg of the global ideal (positive: its positive gains) cut at `depth` (k, or inf: uncut): the same
    for every run."""
    nq = data.dataset.n_queries
    ideal = data.stage(global_ideal, gain, negative, min_grade, positive)
    return _ideal_dcg(ideal, np.full(nq, depth), discount, nq)


def dcg_of(lists: RankedLists, flavor: Flavor) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(discount, contribution) per ranked row and DCG per query code."""
    disc = lists.stage(position_discounts, flavor.discount)
    if flavor.ties == "average" and len(lists.rows):
        disc = lists.stage(average_discounts, flavor.discount)
    contribution = lists.rows.gain * disc
    return disc, contribution, np.bincount(lists.rows.q, weights=contribution, minlength=lists.n_queries
                                           ).astype(np.float64)


class DCG(Metric):
    """DCG@k = sum over ranks i <= k of g(grade) d(i)"""

    name = "dcg"
    reads = tuple(a for a in AXIS_NAMES if a not in ("ideal", "ideal_depth", "empty", "rel_level"))
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        axis: ("it has no ideal", "ndcg") for axis in ("ideal", "ideal_depth", "empty")}
    parts = ("dcg", "idcg")
    row_columns = ("gain", "discount", "contribution")
    lists = ("ideal",)
    reference = staticmethod(reference.query_value)

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        disc, contribution, dcg = dcg_of(lists, flavor)
        none = np.full(lists.n_queries, np.nan)
        rows = {"gain": lists.rows.gain, "discount": disc, "contribution": contribution} if detail else {}
        return MetricValues(dcg, np.zeros(lists.n_queries, dtype=bool), {"dcg": dcg, "idcg": none}, rows)

    def universe_columns(self, flavor: Flavor, grade: float, judged: bool, gain: float) -> dict[str, Any]:
        return {"gain": float(gain) if judged else None}

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        return "DCG = sum of contributions"

    def judgments_read(self, flavor: Flavor) -> float:
        """DCG reads the gains of its ranked rows only."""
        return 0.0

    def grows_with_grade(self, flavor: Flavor) -> bool:
        """A positive discount times a gain that grows with the grade (linear, exp2, min_grade; not a table); a tie
        order by gain (pessimistic, optimistic) or the average over the orders keeps it so."""
        return flavor.gain.table is None

    def reads_qrels_rows_only(self, flavor: Flavor) -> bool:
        """A doc absent from the qrels has gain 0: it adds nothing to DCG, unless ties=average spreads the discounts
        of its tie group (every row of the group counts), or the ideal is made from the list's own docs."""
        return flavor.ties != "average" and flavor.ideal.kind in ("global", "positive")

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        return reference.check_record(record, flavor)

    def check_rows(self, rows: Any, res: Any, ds: Any, flavor: Flavor) -> dict[int, list[str]] | None:
        from rankflavor.reference.rows import check_ndcg_rows

        return check_ndcg_rows(rows, res, ds, flavor)


class NDCG(DCG):
    """NDCG@k = DCG@k / IDCG@k (the ideal list's DCG)"""

    name = "ndcg"
    reads = tuple(a for a in AXIS_NAMES if a != "rel_level")
    not_read: ClassVar[dict[str, tuple[str, str]]] = {}
    undefined_reason = "IDCG 0"
    undefined_note = "(nothing relevant in the ideal)"

    def validate(self, flavor: Flavor) -> None:
        ideal = flavor.ideal
        if ideal.kind == "recall":
            assert ideal.k is not None
            if flavor.cutoff is None:
                raise SpecError(f"ideal={ideal} needs a cutoff @k with k <= {ideal.k}")
            if flavor.cutoff > ideal.k:
                raise SpecError(f"ideal={ideal} needs K >= k, but k = {flavor.cutoff}; use recall({flavor.cutoff}) or more")
            if flavor.ties == "average":
                raise SpecError(
                    "ties=average with ideal=recall(K) is rejected: the docs in the top K, and so the ideal, "
                    "would depend on the tie order; pick another tie policy or another ideal"
                )
        if ideal.kind == "max":
            if flavor.cutoff is None:
                raise SpecError("ideal=max needs a cutoff @k (the ideal puts the top grade at every position)")
            if flavor.ideal_depth == "all":
                raise SpecError("ideal=max with ideal_depth=all is unbounded; use ideal_depth=k or returned")

    def grows_with_grade(self, flavor: Flavor) -> bool:
        return False  # (a doc judged relevant can raise the ideal more than the DCG)

    def judgments_read(self, flavor: Flavor) -> float:
        """The global ideal cut at k reads the k highest gains of the qrels, the highest grades where the gain grows
        with the grade (linear, exp2, min_grade; not a table); an ideal of the list's own docs (local, recall(K))
        reads none beyond them, ideal=max the top grade of the whole qrels only."""
        ideal = flavor.ideal.kind
        if ideal in ("local", "recall", "max"):
            return 0.0
        if flavor.cutoff is None or flavor.ideal_depth == "all" or flavor.gain.table is not None:
            return math.inf
        return float(flavor.cutoff)

    def value_range(self, flavor: Flavor) -> tuple[float, float] | None:
        """[0, 1] when no gain is negative: DCG over the run's docs is at most the ideal's (the ideal holds them, or
        the top grade everywhere); a negative gain (negative=keep, a table's) makes NDCG unbounded."""
        table = flavor.gain.table or {}
        if flavor.negative == "keep" or any(gain < 0 for grade, gain in table.items() if grade >= 0):
            return None
        return (0.0, 1.0)

    def depth_read(self, flavor: Flavor) -> float:
        need = flavor.depth
        return max(need, float(flavor.ideal.k)) if flavor.ideal.kind == "recall" else need

    def reads_whole_list(self, flavor: Flavor) -> bool:
        return flavor.ideal.kind == "local"

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        disc, contribution, dcg = dcg_of(lists, flavor)
        nq = lists.n_queries
        positive = flavor.ideal.kind == "positive"
        if flavor.ideal.kind in ("global", "positive") and flavor.ideal_depth in ("k", "all"):  # (every run's)
            ideal_disc, ideal_contrib, idcg = lists.scope.shared(
                global_ideal_dcg, flavor.gain, flavor.negative, flavor.min_grade, flavor.discount,
                flavor.depth if flavor.ideal_depth == "k" else math.inf, positive)
            ideal = lists.scope.shared(global_ideal, flavor.gain, flavor.negative, flavor.min_grade, positive)
        else:
            ideal = ideal_list(lists, flavor)
            ideal_disc, ideal_contrib, idcg = _ideal_dcg(ideal, ideal_depths(lists, flavor), flavor.discount, nq)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(idcg > 0, dcg / np.where(idcg > 0, idcg, 1.0), np.nan)
        out = MetricValues(value, ~(idcg > 0), {"dcg": dcg, "idcg": idcg})
        if detail:
            out.rows = {"gain": lists.rows.gain, "discount": disc, "contribution": contribution}
            out.lists = {"ideal": {"q": ideal.q, "d": ideal.d, "grade": ideal.grade, "gain": ideal.gain,
                                   "rank": ideal.rank, "discount": ideal_disc, "contribution": ideal_contrib}}
        return out

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        if status == "zero_ideal":
            shown = "null, left out of the mean" if value is None else f"{value:g}"
            return f"IDCG is 0 (no positive gain in the ideal {flavor.ideal}); empty={flavor.empty} gives {shown}"
        return "NDCG = DCG / IDCG"


register(NDCG(), aliases=("ndcg_cut",),
         peers={"trec_eval": ("ndcg", "ndcg_cut_{k}"), "ir_measures": ("nDCG", "nDCG@k"), "ranx": ("ndcg", "ndcg_burges")})
register(DCG(), peers={"ranx": ("dcg", "dcg_burges")})
