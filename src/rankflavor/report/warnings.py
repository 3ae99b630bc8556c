"""Warnings attached to every result: what a hidden axis did to this number. Silent when nothing applies.

Each warning is a `FlavorWarning`: a `str` (the readable message, so lists of warnings print and
serialise as text) carrying a `code` and the `numbers` behind the message. Codes:

- `ties_across_cutoff`: tie groups straddle @k; numbers give the mean under `ties=pessimistic` (lower
  gain first) and `ties=optimistic`, the range over which the tie order can move the mean. Pessimistic is
  usually the lower one, not always: with an ideal built from the run's list (`ideal=local` with a
  `run_depth`, `recall(K)`) the tie order also moves the ideal. Silent when both give the same mean.
- `unjudged_in_top`: unjudged docs among the scored ranks count as grade 0; judged@k is the mean over
  queries of the judged share of the scored ranks (Buckley & Voorhees 2004 call its complement the
  "condensed list" problem; Sakai 2007); numbers give the mean with `unjudged=skip` (trec_eval -J).
- `zero_ideal`: queries with IDCG 0 and what `empty` did with them; the mean without them.
- `missing`: judged queries absent from the run and what `missing` did; the mean under the other policy.
- `unjudged_queries`: run queries that have no judgments (never scored).

Extra evaluations (ties: two, unjudged: one, of the run without its unjudged docs) run only when their
warning applies; a cache shared across results (as `compare` passes) evaluates a flavor once, e.g. the one
ties=pessimistic flavor of several.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rankflavor.flavor import Flavor

if TYPE_CHECKING:
    from rankflavor.data import Dataset, InternedRun
    from rankflavor.report.report import Result

WIDTH = 1e-12  # a range narrower than this is no range


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


def mean_of(raw: np.ndarray, flavor: Flavor) -> float | None:
    """The mean as `Result.mean` computes it: over non-null values, rounded after averaging."""
    ok = ~np.isnan(raw)
    if not ok.any():
        return None
    mean = float(raw[ok].mean())
    return mean if flavor.round == "none" else round(mean, int(flavor.round))


Cache = dict[tuple[str, Flavor], np.ndarray]


def values_under(ds: Dataset, run: InternedRun, flavor: Flavor, cache: Cache | None = None) -> np.ndarray:
    """Raw per-query values of the run under `flavor` (one full evaluation: the engine shares the run's
    layout across flavors), kept in `cache` under (run name, flavor) when one is given."""
    from rankflavor.engine import evaluate_run

    key = (run.name, flavor)
    if cache is not None and key in cache:
        return cache[key]
    out = evaluate_run(ds, run, flavor)[0].raw_value
    if cache is not None:
        cache[key] = out
    return out


def _tie_range(result: Result, flavor: Flavor, ds: Dataset, run: InternedRun, cache: Cache | None,
               ) -> tuple[float | None, float | None]:
    """The means under ties=pessimistic and ties=optimistic (None when the data refuses that flavor).

    Only the queries whose ranked rows hold a tie can change with the tie policy (every value is per
    query): they are evaluated again, from a run of their rows alone; the others keep their values."""
    from rankflavor.errors import EvaluationError

    tied = result.queries.ties_any
    out = []
    for ties in ("pessimistic", "optimistic"):
        other = flavor.with_(ties=ties)
        key = (run.name, other)
        try:
            if cache is not None and key in cache:
                raw = cache[key]
            else:
                codes = result.queries.query[tied]
                raw = result.queries.raw_value.copy()
                if len(codes) > len(tied) // 4:  # many: the whole run, whose layout and selections are cached
                    raw = values_under(ds, run, other)
                elif len(codes):
                    sub = evaluate_run_of(ds, run, codes, other)
                    raw[tied] = sub[tied]
                if cache is not None:
                    cache[key] = raw
            out.append(mean_of(raw, flavor))
        except EvaluationError:  # e.g. empty=error meets a zero ideal only under the other order
            out.append(None)
    return out[0], out[1]


def evaluate_run_of(ds: Dataset, run: InternedRun, codes: np.ndarray, flavor: Flavor) -> np.ndarray:
    """Raw values under `flavor` of the queries `codes`, from a run of their rows alone (the other judged
    queries come out absent: their values are not these queries' business). The sub-run is kept on the
    run, so that the flavors that ask about the same queries share its layout, selections and joins."""
    from rankflavor.engine import evaluate_run

    key = ("warnings.sub_run", codes.tobytes())
    store = getattr(run, "cache", None)
    sub = store.get(key) if store is not None else None
    if sub is None:
        sub = _sub_run(ds, run, codes)
        if store is not None:
            store[key] = sub
    return evaluate_run(ds, sub, flavor)[0].raw_value


def _sub_run(ds: Dataset, run: InternedRun, codes: np.ndarray) -> InternedRun:
    from rankflavor.engine.select import layout_of

    wanted = np.zeros(ds.n_queries, dtype=bool)
    wanted[codes] = True
    layout = layout_of(ds, run)
    return run.subset(layout.input_rows_of(np.flatnonzero(wanted[layout.seg_q])), run.present & wanted)


def judged_only(ds: Dataset, run: InternedRun, flavor: Flavor) -> InternedRun:
    """The run without the docs that are unjudged under the flavor's `negative` policy (cached on the run).

    With run_depth=all, evaluating it under unjudged=zero gives the values of the whole run under
    unjudged=skip (the skipped docs are gone, the rest keep their order), on the engine's fast path."""
    from rankflavor.engine.kernel import qrels_gains

    key = ("warnings.judged_only", flavor.negative)
    store = getattr(run, "cache", None)  # the engine's per-run cache, when the engine keeps one
    if store is None:
        store = {}
    if key not in store:
        from rankflavor.engine.select import judged_hits  # the engine's join, cached on the run

        q_judged, _ = qrels_gains(ds, flavor)
        rows, index = judged_hits(ds, run)
        rows = rows[q_judged[index]]  # (in input order: the join keeps it)
        store[key] = run.subset(rows, run.present)
    return store[key]


def _skip_mean(flavor: Flavor, ds: Dataset, run: InternedRun, cache: Cache | None) -> float | None:
    """The mean with unjudged=skip (None when the data refuses that flavor, e.g. empty=error)."""
    from rankflavor.errors import EvaluationError

    try:
        return _skip_mean_unchecked(flavor, ds, run, cache)
    except EvaluationError:
        return None


def _skip_mean_unchecked(flavor: Flavor, ds: Dataset, run: InternedRun, cache: Cache | None) -> float | None:
    skip = flavor.with_(unjudged="skip")
    if flavor.run_depth != "all" or (cache is not None and (run.name, skip) in cache):
        return mean_of(values_under(ds, run, skip, cache), flavor)  # run_depth cuts before unjudged docs go
    from rankflavor.engine import evaluate_run

    values = evaluate_run(ds, judged_only(ds, run, flavor), flavor.with_(unjudged="zero"))[0].raw_value
    if cache is not None:
        cache[(run.name, skip)] = values
    return mean_of(values, flavor)


def _fmt(x: float | None) -> str:
    return "null" if x is None else f"{x:.6f}"


def warnings_for(result: Result, flavor: Flavor, dataset: Dataset | None = None,
                 run: InternedRun | None = None, cache: Cache | None = None) -> list[FlavorWarning]:
    """The warnings of one result. With the dataset and the run, also the numbers that need extra
    evaluations (the tie range, the mean with unjudged=skip); without them, only the counts.
    cache: (run name, flavor) -> raw values, shared across calls (several flavors share a pessimistic one)."""
    from rankflavor.engine import MISSING, ZERO_IDEAL

    c = result.counts
    q = result.queries
    raw = q.raw_value
    k = "" if flavor.cutoff is None else f"@{flavor.cutoff}"
    can_evaluate = dataset is not None and run is not None
    out: list[FlavorWarning] = []

    if c["ties_across_cutoff"]:
        n = c["ties_across_cutoff"]
        text = f"{n} queries have tied scores across the cutoff {k}: ties={flavor.ties} decides which docs are scored"
        if can_evaluate:
            lo, hi = _tie_range(result, flavor, dataset, run, cache)
            if not (lo is not None and hi is not None and abs(hi - lo) <= WIDTH):
                out.append(FlavorWarning(
                    "ties_across_cutoff",
                    f"{text}; the mean is {_fmt(lo)} with ties=pessimistic, {_fmt(hi)} with ties=optimistic, "
                    f"{_fmt(result.mean)} with ties={flavor.ties}",
                    queries=n, mean=result.mean, mean_pessimistic=lo, mean_optimistic=hi))
        else:
            out.append(FlavorWarning("ties_across_cutoff", text, queries=n))

    if c["unjudged_in_top"] and flavor.unjudged == "zero":
        n_docs = c["unjudged_in_top"]
        n_queries = int((q.unjudged_in_top > 0).sum())
        shares = q.judged_in_top[~np.isnan(q.judged_in_top)]
        judged_at_k = float(shares.mean()) if len(shares) else None
        text = (f"{n_docs} unjudged docs among the scored ranks of {n_queries} queries count as grade 0 "
                f"(unjudged=zero); judged{k} = " + ("null" if judged_at_k is None else f"{judged_at_k:.3f}"))
        numbers: dict[str, Any] = {"unjudged_docs": n_docs, "queries": n_queries, "judged_at_k": judged_at_k}
        if can_evaluate:
            skip = _skip_mean(flavor, dataset, run, cache)
            text += f"; the mean is {_fmt(result.mean)}, {_fmt(skip)} with unjudged=skip"
            numbers.update(mean=result.mean, mean_unjudged_skip=skip)
        out.append(FlavorWarning("unjudged_in_top", text, **numbers))

    if c["zero_ideal"] and flavor.metric == "ndcg":
        n = c["zero_ideal"]
        did = {"skip": "leaves them out of the mean", "zero": "scores them 0", "one": "scores them 1"}.get(
            flavor.empty, f"empty={flavor.empty}")
        without = mean_of(np.where(q.status == ZERO_IDEAL, np.nan, raw), flavor)
        text = f"{n} queries have IDCG 0 (nothing relevant in the ideal); empty={flavor.empty} {did}"
        if flavor.empty != "skip":
            text += f"; the mean is {_fmt(result.mean)}, {_fmt(without)} without them"
        out.append(FlavorWarning("zero_ideal", text, queries=n, empty=flavor.empty, mean=result.mean,
                                 mean_without=without))

    if c["missing"]:
        n = c["missing"]
        missing = q.status == MISSING
        if flavor.missing == "skip":
            other, did = mean_of(np.where(missing, 0.0, raw), flavor), "leaves them out of the mean"
        else:
            other, did = mean_of(np.where(missing, np.nan, raw), flavor), "scores them 0"
        alt = "zero" if flavor.missing == "skip" else "skip"
        out.append(FlavorWarning(
            "missing",
            f"{n} judged queries are absent from the run; missing={flavor.missing} {did}; the mean is "
            f"{_fmt(result.mean)}, {_fmt(other)} with missing={alt}",
            queries=n, missing=flavor.missing, mean=result.mean, **{f"mean_missing_{alt}": other}))

    if c["unjudged_queries"]:
        n = c["unjudged_queries"]
        out.append(FlavorWarning("unjudged_queries", f"{n} run queries have no judgments and are not scored",
                                 queries=n))
    return out
