"""Warnings attached to every result: what a hidden axis did to this number. Silent when nothing applies.

Each warning is a `FlavorWarning`: a `str` (the readable message, so lists of warnings print and
serialise as text) carrying a `code` and the `numbers` behind the message. Codes:

- `ties_across_cutoff`: tie groups straddle @k; numbers give the mean under `ties=pessimistic` (lower
  gain first) and `ties=optimistic`, the range over which the tie order can move the mean. Pessimistic is
  usually the lower one, not always: with an ideal built from the run's list (`ideal=local` with a
  `run_depth`, `recall(K)`) the tie order also moves the ideal. Silent when both give the same mean.
- `unjudged_in_top`: unjudged docs among the scored ranks count as grade 0; judged@k is the mean over
  queries of the judged share of the scored ranks (Buckley & Voorhees 2004 call its complement the
  "condensed list" problem; Sakai 2007); numbers give the mean with `unjudged=skip` (trec_eval -J). Not for a
  metric that reads no unjudged doc's grade (the counts num_ret, num_rel, ...: `Metric.grades_unjudged`).
- `zero_ideal` (ndcg; each metric names its own, e.g. `no_relevant`): queries the metric cannot score (IDCG 0)
  and what `empty` did with them; the mean without them.
- `missing`: judged queries absent from the run and what `missing` did; the mean under the other policy. Not for
  a metric whose summary is a sum (the counts): a missing query's 0 leaves a sum as it is under either policy.
- `unjudged_queries`: run queries that have no judgments (never scored; 0s in the mean under
  unjudged_queries=zero).
- `peer_degenerate`: queries whose value is a peer's degenerate number, reproduced (a metric's part
  `degenerate`: ranx_bpref, `ranx.bpref`); their count, the reason, the mean without them.

Extra evaluations (ties: two, unjudged: one, of the run without its unjudged docs) run only when their
warning applies; a `Cache` shared across results (as `compare` passes) evaluates a flavor once, e.g. the one
ties=pessimistic flavor of several.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from rankflavor import registry
from rankflavor.engine import MISSING, ZERO_IDEAL
from rankflavor.errors import EvaluationError
from rankflavor.flavor import Flavor
from rankflavor.plural import counted
from rankflavor.report.numbers import TOLERANCE
from rankflavor.report.result import Result

if TYPE_CHECKING:
    from rankflavor.engine import Engine
    from rankflavor.inputs.dataset import InternedRun


class FlavorWarning(str):
    """A readable warning message with a machine-readable `code` and the `numbers` behind it."""

    code: str
    numbers: dict[str, Any]

    def __new__(cls, code: str, message: str, **numbers: Any) -> FlavorWarning:
        self = super().__new__(cls, message)
        self.code = code
        self.numbers = numbers
        return self

    @property
    def message(self) -> str:
        return str.__str__(self)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.numbers}


class Cache:
    """Raw per-query values of whole evaluations (a result's, a warning's extra one), by run and flavor. A whole
    evaluation reads every axis, so its key is the whole Flavor (frozen: two are equal only when every axis and
    parameter is), never parts of it; the run is the InternedRun itself (by identity: two runs of one name, or
    of two datasets, never share an entry). Lookups and stores take the two typed arguments, not a key."""

    def __init__(self) -> None:
        self._values: dict[InternedRun, dict[Flavor, np.ndarray]] = {}

    def get(self, run: InternedRun, flavor: Flavor) -> np.ndarray | None:
        return self._values.get(run, {}).get(flavor)

    def has(self, run: InternedRun, flavor: Flavor) -> bool:
        return flavor in self._values.get(run, {})

    def put(self, run: InternedRun, flavor: Flavor, values: np.ndarray) -> None:
        if not isinstance(flavor, Flavor):
            raise TypeError(f"the warnings' cache keeps values by Flavor, not {type(flavor).__name__}")
        self._values.setdefault(run, {})[flavor] = values


def values_under(engine: Engine, run: InternedRun, flavor: Flavor, cache: Cache | None = None) -> np.ndarray:
    """Raw per-query values of the run under `flavor` (one full evaluation: the engine shares the run's
    stages across flavors), kept in `cache` when one is given."""
    out = None if cache is None else cache.get(run, flavor)
    if out is None:
        out = engine.evaluate(run, [flavor])[0].results.raw_value
        if cache is not None:
            cache.put(run, flavor, out)
    return out


def _many_tied(result: Result) -> bool:
    """More than a quarter of the queries hold a tie: the tie range then evaluates the whole run (whose stages
    are kept), else the tied queries alone."""
    tied = result.queries.ties_any
    return int(tied.sum()) > len(tied) // 4


def _tie_range(result: Result, flavor: Flavor, engine: Engine, run: InternedRun, cache: Cache | None,
               ) -> tuple[float | None, float | None]:
    """The means under ties=pessimistic and ties=optimistic (None when the data refuses that flavor).

    Only the queries whose ranked rows hold a tie can change with the tie policy (every value is per
    query): they are evaluated again, from their rows alone; the others keep their values."""
    tied = result.queries.ties_any
    out = []
    for ties in ("pessimistic", "optimistic"):
        other = flavor.with_(ties=ties)
        try:
            raw = None if cache is None else cache.get(run, other)
            if raw is None:
                codes = result.queries.query[tied]
                raw = result.queries.raw_value.copy()
                if _many_tied(result):
                    raw = values_under(engine, run, other)
                elif len(codes):
                    raw[tied] = engine.evaluate(run, [other], queries=codes)[0].results.raw_value
                if cache is not None:
                    cache.put(run, other, raw)
            out.append(result.mean_with(raw))
        except EvaluationError:  # e.g. empty=error meets a zero ideal only under the other order
            out.append(None)
    return out[0], out[1]


def _skip_mean(result: Result, flavor: Flavor, engine: Engine, run: InternedRun, cache: Cache | None,
               ) -> float | None:
    """The mean with unjudged=skip (None when the data refuses that flavor, e.g. empty=error)."""
    try:
        return _skip_mean_unchecked(result, flavor, engine, run, cache)
    except EvaluationError:
        return None


def _skip_mean_unchecked(result: Result, flavor: Flavor, engine: Engine, run: InternedRun, cache: Cache | None,
                         ) -> float | None:
    skip = flavor.with_(unjudged="skip")
    if flavor.run_depth.limit is not None or (cache is not None and cache.has(run, skip)):
        return result.mean_with(values_under(engine, run, skip, cache))  # run_depth cuts before unjudged docs go
    # the run without its unjudged docs under unjudged=zero: the values of unjudged=skip, from fewer rows
    values = engine.evaluate(run, [flavor.with_(unjudged="zero")], rows="judged")[0].results.raw_value
    if cache is not None:
        cache.put(run, skip, values)
    return result.mean_with(values)


def prefetch(pairs: list[tuple[Result, Flavor]], engine: Engine, run: InternedRun, cache: Cache) -> None:
    """Evaluate together, into `cache`, the whole-run extra flavors the warnings of these results will read
    (the tie range when many queries are tied, the unjudged=skip mean), so that a large run's chunks serve
    them all at once. An evaluation the data refuses is left to `warnings_for`, which reports it per result."""
    whole: list[Flavor] = []
    judged_rows: dict[Flavor, Flavor] = {}  # unjudged=skip flavor -> its unjudged=zero flavor on the judged rows
    for result, flavor in pairs:
        c = result.counts
        if c["ties_across_cutoff"] and _many_tied(result):
            whole += [flavor.with_(ties=ties) for ties in ("pessimistic", "optimistic")]
        if c["unjudged_in_top"] and unjudged_applies(result.metric, flavor):
            skip = flavor.with_(unjudged="skip")
            if flavor.run_depth.limit is not None:
                whole.append(skip)
            else:
                judged_rows[skip] = flavor.with_(unjudged="zero")
    try:
        todo = list(dict.fromkeys(f for f in whole if not cache.has(run, f)))
        for flavor, evaluation in zip(todo, engine.evaluate(run, todo), strict=True):
            cache.put(run, flavor, evaluation.results.raw_value)
        todo = [skip for skip in judged_rows if not cache.has(run, skip)]
        zero = [judged_rows[skip] for skip in todo]
        for skip, evaluation in zip(todo, engine.evaluate(run, zero, rows="judged"), strict=True):
            cache.put(run, skip, evaluation.results.raw_value)
    except EvaluationError:
        return


def unjudged_applies(metric: Any, flavor: Flavor) -> bool:
    """Whether the unjudged_in_top warning speaks of this metric under this flavor: its unjudged docs count as
    grade 0 (unjudged=zero) and that can bend its value (it reads `unjudged` and the grades of the docs it counts:
    not a count such as num_ret or num_rel, Metric.grades_unjudged)."""
    return flavor.unjudged == "zero" and "unjudged" in metric.reads and metric.grades_unjudged


def _fmt(x: float | None) -> str:
    return "null" if x is None else f"{x:.6f}"


def warnings_for(result: Result, flavor: Flavor, engine: Engine | None = None,
                 run: InternedRun | None = None, cache: Cache | None = None) -> list[FlavorWarning]:
    """The warnings of one result. With the engine and the run, also the numbers that need extra
    evaluations (the tie range, the mean with unjudged=skip); without them, only the counts.
    cache: raw values by run and flavor, shared across calls (several flavors share a pessimistic one)."""
    c = result.counts
    q = result.queries
    raw = q.raw_value
    can_evaluate = engine is not None and run is not None
    numbers = WarningNumbers(mean=result.mean)
    if c["ties_across_cutoff"] and can_evaluate:
        numbers.tie_range = _tie_range(result, flavor, engine, run, cache)
    if c["unjudged_in_top"] and unjudged_applies(result.metric, flavor):
        numbers.unjudged_queries_in_top = int((q.unjudged_in_top > 0).sum())
        shares = q.judged_in_top[~np.isnan(q.judged_in_top)]
        numbers.judged_at_k = float(shares.mean()) if len(shares) else None
        if can_evaluate:
            numbers.skip = (_skip_mean(result, flavor, engine, run, cache),)
    if c.get(result.metric.undefined_status) and "empty" in result.metric.reads:
        numbers.without_undefined = result.mean_with(np.where(q.status == ZERO_IDEAL, np.nan, raw))
    if c["missing"] and result.metric.aggregate != "sum":
        missing = q.status == MISSING
        zero = result.metric.zero_value  # (what missing=zero gives: gm_map_log's is log(1e-5))
        numbers.other_missing = result.mean_with(np.where(missing, zero, raw) if flavor.missing == "skip"
                                                 else np.where(missing, np.nan, raw))
    return compose_warnings(c, flavor, numbers) + _peer_degenerate(result)


def _peer_degenerate(result: Result) -> list[FlavorWarning]:
    """`peer_degenerate`: queries a peer's own computation leaves degenerate (a metric's part `degenerate`, e.g.
    ranx_bpref: 0.0 after a query without a relevant judgment), their count, the reason and the mean without them."""
    flags = result.queries.parts.get("degenerate")
    n = 0 if flags is None else int(np.nansum(flags))
    if not n:
        return []
    without = result.mean_with(np.where(flags > 0, np.nan, result.queries.raw_value))
    reason = getattr(result.metric, "degenerate_reason", "the peer's own computation")
    return [FlavorWarning("peer_degenerate", f"{counted(n, 'query scores', 'queries score')} 0.0, the peer's own "
                          f"degenerate number: {reason}; the mean is {_fmt(result.mean)}, {_fmt(without)} without "
                          f"{'it' if n == 1 else 'them'}",
                          queries=n, mean=result.mean, mean_without=without)]


@dataclass
class WarningNumbers:
    """The numbers behind a result's warnings, however they were computed (this module's extra evaluations on
    one machine; merged partial aggregates on Spark, rankflavor/spark). tie_range and skip stay None when they
    were not evaluated (the warning then tells the counts alone)."""

    mean: float | None
    tie_range: tuple[float | None, float | None] | None = None  # means under ties=pessimistic, optimistic
    skip: tuple[float | None] | None = None  # (the mean with unjudged=skip,)
    unjudged_queries_in_top: int = 0  # queries with an unjudged doc among the scored ranks
    judged_at_k: float | None = None  # the mean judged share of the scored ranks
    without_undefined: float | None = None  # the mean without the queries the metric cannot score
    other_missing: float | None = None  # the mean under the other missing= policy


def _ties_warning(c: dict[str, int], flavor: Flavor, numbers: WarningNumbers, k: str) -> list[FlavorWarning]:
    """The ties_across_cutoff warning, with the mean's range over the tie orders when it is not one value."""
    if not c["ties_across_cutoff"]:
        return []
    n, mean = c["ties_across_cutoff"], numbers.mean
    text = (f"{counted(n, 'query has', 'queries have')} tied scores across the cutoff {k}: ties={flavor.ties} "
            "decides which docs are scored")
    if numbers.tie_range is None:
        return [FlavorWarning("ties_across_cutoff", text, queries=n)]
    lo, hi = numbers.tie_range
    if lo is not None and hi is not None and abs(hi - lo) <= TOLERANCE:
        return []
    return [FlavorWarning(
        "ties_across_cutoff",
        f"{text}; the mean is {_fmt(lo)} with ties=pessimistic, {_fmt(hi)} with ties=optimistic, "
        f"{_fmt(mean)} with ties={flavor.ties}",
        queries=n, mean=mean, mean_pessimistic=lo, mean_optimistic=hi)]


def compose_warnings(c: dict[str, int], flavor: Flavor, numbers: WarningNumbers) -> list[FlavorWarning]:
    """The warnings of a result from its counts `c` and `numbers` (see warnings_for)."""
    k = "" if flavor.cutoff is None else f"@{flavor.cutoff}"
    mean = numbers.mean
    out = _ties_warning(c, flavor, numbers, k)

    metric = registry.get(flavor.metric)
    if c["unjudged_in_top"] and unjudged_applies(metric, flavor):
        n_docs = c["unjudged_in_top"]
        n_queries = numbers.unjudged_queries_in_top
        judged_at_k = numbers.judged_at_k
        text = (f"{counted(n_docs, 'unjudged doc', 'unjudged docs')} among the scored ranks of "
                f"{counted(n_queries, 'query', 'queries')} {'counts' if n_docs == 1 else 'count'} as grade 0 "
                f"(unjudged=zero); judged{k} = " + ("null" if judged_at_k is None else f"{judged_at_k:.3f}"))
        details: dict[str, Any] = {"unjudged_docs": n_docs, "queries": n_queries, "judged_at_k": judged_at_k}
        if numbers.skip is not None:
            skip = numbers.skip[0]
            text += f"; the mean is {_fmt(mean)}, {_fmt(skip)} with unjudged=skip"
            details.update(mean=mean, mean_unjudged_skip=skip)
        out.append(FlavorWarning("unjudged_in_top", text, **details))

    undefined = metric.undefined_status
    if c.get(undefined) and "empty" in metric.reads:  # (a query the metric cannot score: the empty policy)
        n = c[undefined]
        them = "it" if n == 1 else "them"
        did = {"skip": f"leaves {them} out of the mean", "zero": f"scores {them} 0", "one": f"scores {them} 1"}.get(
            flavor.empty, f"empty={flavor.empty}")
        without = numbers.without_undefined
        note = f" {metric.undefined_note}" if metric.undefined_note else ""
        text = f"{counted(n, 'query has', 'queries have')} {metric.undefined_reason}{note}; empty={flavor.empty} {did}"
        if flavor.empty != "skip":
            text += f"; the mean is {_fmt(mean)}, {_fmt(without)} without {them}"
        out.append(FlavorWarning(undefined, text, queries=n, empty=str(flavor.empty), mean=mean,
                                 mean_without=without))

    if c["missing"] and metric.aggregate != "sum":  # (a sum: a missing query's 0 adds nothing either way)
        n = c["missing"]
        other = numbers.other_missing
        them = "it" if n == 1 else "them"
        did = {"skip": f"leaves {them} out of the mean", "zero": f"scores {them} 0"}.get(
            str(flavor.missing), "scores each as an empty ranking")
        alt = "zero" if flavor.missing == "skip" else "skip"
        out.append(FlavorWarning(
            "missing",
            f"{counted(n, 'judged query is', 'judged queries are')} absent from the run; missing={flavor.missing} "
            f"{did}; the mean is {_fmt(mean)}, {_fmt(other)} with missing={alt}",
            queries=n, missing=str(flavor.missing), mean=mean, **{f"mean_missing_{alt}": other}))

    if c["unjudged_queries"]:
        n = c["unjudged_queries"]
        text = f"{counted(n, 'run query has', 'run queries have')} no judgments and {'is' if n == 1 else 'are'} not scored"
        if flavor.unjudged_queries == "zero":
            text += "; unjudged_queries=zero counts each as 0 in the mean"
        elif flavor.unjudged_queries == "score":
            text = (f"{counted(n, 'run query has', 'run queries have')} no judgments; unjudged_queries=score scores "
                    f"{'it' if n == 1 else 'each'} over {'its' if n == 1 else 'their'} list, every doc unjudged")
        out.append(FlavorWarning("unjudged_queries", text, queries=n))
    return out
