"""What a metric is: the contract every metric family module fulfils (see metrics/ndcg.py).

A metric declares its name, the axes it reads (they are printed in its canonical string; every other
axis must stay at its default), the per-query parts it reports beside the value, the columns it adds to
each ranked row of a record and the lists it adds to a record. It computes, for every query of a run's
ranked lists at once (rankflavor.engine.lists.RankedLists), a value, its parts, and which queries it
cannot score (their value is the `empty` axis's: status `zero_ideal`). It checks a record by recomputing
the value from the record alone (`verify()`), and names its slow reference (rankflavor.reference).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from rankflavor.flavor.values import Param

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor


class MetricValues:
    """A metric's numbers over every query code of the dataset (the engine keeps the queries it reports).

    `rows` and `lists` only when the engine asks for detail (records)."""

    value: np.ndarray  # float64 per query code, nan where undefined
    undefined: np.ndarray  # bool per query code: the metric cannot score the query (the `empty` axis decides)
    parts: dict[str, np.ndarray]  # float64 per query code, in the order of Metric.parts
    rows: dict[str, np.ndarray]  # per ranked row, in the order of Metric.row_columns
    lists: dict[str, dict[str, np.ndarray]]  # by name, each with its `q` column

    def __init__(self, value: np.ndarray, undefined: np.ndarray, parts: dict[str, np.ndarray],
                 rows: dict[str, np.ndarray] | None = None, lists: dict[str, dict[str, np.ndarray]] | None = None) -> None:
        self.value = value
        self.undefined = undefined
        self.parts = parts
        self.rows = {} if rows is None else rows
        self.lists = {} if lists is None else lists


class Metric:
    """A registered metric. Subclasses set the class attributes and implement `compute` and `check_record`."""

    name: ClassVar[str]
    reads: ClassVar[tuple[str, ...]]  # axes that can change the value (canonical order is AXES')
    parameters: ClassVar[tuple[Param, ...]] = ()  # its own parameters, in its head: rbp(p=0.8)
    not_read: ClassVar[dict[str, tuple[str, str]]] = {}  # axis -> (why it does not apply, a metric that reads it)
    parts: ClassVar[tuple[str, ...]] = ()  # per-query numbers beside the value
    row_columns: ClassVar[tuple[str, ...]] = ()  # per ranked row, in records (after judged, before tie_group)
    lists: ClassVar[tuple[str, ...]] = ()  # other per-query lists of a record (ndcg: the ideal list)
    undefined_reason: ClassVar[str] = "no value"  # why a query has no value ("N queries have ...")
    undefined_status: ClassVar[str] = "zero_ideal"  # the status (and count) of such a query
    undefined_note: ClassVar[str] = ""  # said after the reason in the warning, e.g. "(nothing relevant in the ideal)"
    # the metric reads no row of a doc absent from the qrels (such a doc adds nothing, its rank is kept in the rows
    # after it): the engine hands it only the rows in the qrels (engine/lists.py in_qrels)
    qrels_rows_only: ClassVar[bool] = False  # (a metric for which it depends on the flavor: `reads_qrels_rows_only`)
    aggregate: ClassVar[str] = "mean"  # how per-query values make the summary: "mean", "sum" (counts) or "gm"
    # ("gm": exp of the mean of log(max(value, MIN_GEO_MEAN)), engine/results.py; trec_eval meas_avg.c
    # te_calc_avg_meas_s_gm); "log_gm": the values are those logs already (pytrec_eval's gm_map), exp of their mean
    zero_value: ClassVar[float] = 0.0  # a query scored 0 (missing=zero, unjudged_queries=zero) takes this value
    # under missing=zero, a qrels query absent from the run keeps the metric's own value over an empty list (num_q:
    # 1), as missing=empty (trec_eval -c's bogus ranking) gives every metric
    scores_missing: ClassVar[bool] = False
    # unjudged_queries=score applies: the metric has a value over a list none of whose docs is judged, in a query
    # with no judgment at all (udcg: each passage a utility of 0)
    scores_unjudged_queries: ClassVar[bool] = False
    # axis values a spec naming the metric starts from instead of the axes' defaults (udcg_authors: the authors'
    # scoring of every passage list, missing=empty unjudged_queries=score); a Flavor built directly keeps the axes'
    axis_defaults: ClassVar[dict[str, str]] = {}
    # an unjudged doc read as grade 0 can bend the value (report/warnings.py's unjudged_in_top); False for a metric
    # that reads `unjudged` but not the grades of the docs it counts (num_ret counts docs, num_rel the qrels)
    grades_unjudged: ClassVar[bool] = True
    reference: ClassVar[Callable[..., Any] | None] = None  # the slow per-query formula (rankflavor.reference)
    # the values a query can take whatever its judgments (AP, P, RR: (0, 1)), or None when the family declares none:
    # the unjudged bounds of a query with too many ways to judge its holes (compare/fills.py); `value_range(flavor)`
    value_bounds: ClassVar[tuple[float, float] | None] = None
    # how many of a query's judgments of docs outside its ranked rows the value reads (inf: all; 0: none, P@k, RR):
    # `judgments_read(flavor)`
    judgments_beyond_rows: ClassVar[float] = math.inf
    # the value never falls when a judged doc of its ranked rows is judged at a higher grade, the rest as it is (P,
    # RR, DCG with a gain that grows with the grade): `grows_with_grade(flavor)`
    value_grows_with_grade: ClassVar[bool] = False

    def reads_qrels_rows_only(self, flavor: Flavor) -> bool:
        """Whether, under this flavor, the metric reads no row of a doc absent from the qrels."""
        return self.qrels_rows_only

    def counts_repeats(self, flavor: Flavor) -> bool:
        """Whether, under this flavor, a doc a run lists twice for a query is read as two docs (each listing
        ranked and counted) rather than refused as a duplicate (the inputs' on_duplicate policy)."""
        return False

    def reads_qrels_order(self, flavor: Flavor) -> bool:
        """Whether, under this flavor, the value depends on the order of the qrels' rows as given (the interned
        qrels' `position`): an engine that reshuffles the qrels must keep that order or refuse the flavor."""
        return False

    def judgments_read(self, flavor: Flavor) -> float:
        """How many of a query's judgments of docs outside its ranked rows (those `depth_read` reads) the value
        reads, the highest grades first: inf (all of them: R, the ideal list, N), 0 (none: P, RR), k (NDCG@k's
        global ideal). compare/fill_data.py carries no more through the fills of the unjudged bounds."""
        return self.judgments_beyond_rows

    def grows_with_grade(self, flavor: Flavor) -> bool:
        """Whether, under this flavor, the value never falls when a judged doc of its ranked rows is judged at a
        higher grade, the other judgments as they are: a run's extreme fills of the unjudged bounds are then every
        hole at 0 and every hole at the top grade (compare/fill_data.py)."""
        return self.value_grows_with_grade

    def value_range(self, flavor: Flavor) -> tuple[float, float] | None:
        """The values a query can take under this flavor, whatever its judgments (None: unbounded or undeclared)."""
        return self.value_bounds

    def why_not(self, axis: str) -> tuple[str, str]:
        """(why `axis` does not apply to this metric, a metric it applies to or ""), for the error message."""
        if axis in self.not_read:
            return self.not_read[axis]
        if axis == "rel_level":
            return "it reads grades as gains, not as relevant or not", ""
        if axis in ("gain", "min_grade", "discount"):
            return "it reads whether a doc is relevant (rel_level), not its gain", "ndcg"
        return f"it does not read {axis}", ""

    def validate(self, flavor: Flavor) -> None:
        """Raise SpecError for a combination of axes this metric cannot honour."""

    def depth_read(self, flavor: Flavor) -> float:
        """How many top ranks of each list the value depends on (inf: all)."""
        return flavor.depth

    def reads_whole_list(self, flavor: Flavor) -> bool:
        """Whether the value depends on facts of the whole list beyond `depth_read` (counts, judged docs)."""
        return False

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        raise NotImplementedError

    def universe_columns(self, flavor: Flavor, grade: float, judged: bool, gain: float) -> dict[str, Any]:
        """Columns a record's judged universe shows for one qrels row, beside doc, grade and judged."""
        return {}

    def status_name(self, code: int) -> str:
        """The status a per-query code stands for (0 ok, 1 no value: `undefined_status`, 2 missing)."""
        return ("ok", self.undefined_status, "missing")[code]

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        """Why a scored query has its value (a record's `reason`); missing queries are explained elsewhere."""
        return f"{self.name} of the ranked list"

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        """What in the record does not add up to its value (an empty list when it all does)."""
        return []

    def check_rows(self, rows: Any, res: Any, ds: Any, flavor: Flavor) -> dict[int, list[str]] | None:
        """`check_record` over a whole run's record rows (engine RecordRows, QueryResults) at once: what does not
        add up, per query code; None when the metric checks records one by one only (Report.verify)."""
        return None
