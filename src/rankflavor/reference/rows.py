"""The reference checks of a record (reference/ndcg.py, reference/binary.py: `check_record`), over a whole
run's record rows at once (Report.verify).

A record's checks are identities between its columns (contribution = gain x discount, DCG = the sum of the
contributions, a gain is g(grade), a discount is d(rank)) and, for a measure of relevance, the measure's
formula over the query's list. Here the identities are checked over the arrays of every query at once, the
gains and discounts taken from the reference's g and d for each distinct grade and rank, and the formula is
the reference's own, called once per query on its list: the same checks as `check_record`, without a dict
per ranked row (building those cost many times the evaluation they check).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from rankflavor import registry
from rankflavor.engine import MISSING, QueryResults, RecordRows
from rankflavor.flavor import Flavor
from rankflavor.reference.binary import Ranked
from rankflavor.reference.lists import CLOSE, RefError, gain
from rankflavor.reference.ndcg import discount

if TYPE_CHECKING:
    from rankflavor.inputs.dataset import Dataset

Problems = dict[int, list[str]]  # query code -> what in its record does not add up


def close(a: np.ndarray, b: np.ndarray, tolerance: float = CLOSE) -> np.ndarray:
    """Elementwise: equal within `tolerance` (absolute and relative, as math.isclose), or both null."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        diff = np.abs(a - b)
        near = diff <= tolerance
        if not near.all():  # (the relative test and the nulls, where the absolute one fails)
            rest = np.flatnonzero(~near)
            x, y = a[rest], b[rest]
            near[rest] = (diff[rest] <= tolerance * np.maximum(np.abs(x), np.abs(y))) | (np.isnan(x) & np.isnan(y))
    return near


def flag(out: Problems, codes: np.ndarray, bad: np.ndarray, message: Callable[[int], str]) -> None:
    """Add message(i) for the first bad row i of each query (`codes`: the rows' query codes)."""
    rows = np.flatnonzero(bad)
    if len(rows):
        _, first = np.unique(codes[rows], return_index=True)
        for i in rows[first].tolist():
            out.setdefault(int(codes[i]), []).append(message(i))


def reference_gains(grades: np.ndarray, flavor: Flavor, known: np.ndarray | None = None) -> np.ndarray:
    """The reference's gain of each grade after `negative` and `min_grade` (nan where it refuses one). known:
    every grade that occurs (the qrels'), so that only those are looked up."""
    distinct = np.unique(grades if known is None else known)
    threshold = flavor.min_grade.threshold
    out = []
    for grade in distinct.tolist():
        try:
            value = 0.0 if (grade < 0 and flavor.negative == "zero") else gain(grade, flavor)
        except RefError:
            value = math.nan
        out.append(0.0 if threshold is not None and grade < threshold else value)
    if not len(grades):
        return np.zeros(0)
    at = np.minimum(np.searchsorted(distinct, grades), len(distinct) - 1)
    return np.where(distinct[at] == grades, np.asarray(out, dtype=np.float64)[at], np.nan)


def reference_discounts(ranks: np.ndarray, flavor: Flavor) -> np.ndarray:
    """d(rank) for the ranks within the cutoff, 0 below it."""
    if not len(ranks):
        return np.zeros(0)
    k = flavor.depth
    table = np.array([0.0, *(discount(r, flavor) if r <= k else 0.0 for r in range(1, int(ranks.max()) + 1))])
    return table[ranks]


def group_means(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per row, the mean of `values` over the rows with its key."""
    _, inverse = np.unique(keys, return_inverse=True)
    return (np.bincount(inverse, weights=values) / np.bincount(inverse))[inverse]


def expected_values(raw: np.ndarray, undefined: np.ndarray, flavor: Flavor) -> np.ndarray:
    """The value a query's record must show: `empty` where the metric cannot score it, else `round` of raw."""
    filled = {"skip": math.nan, "zero": 0.0, "one": 1.0, "error": math.nan}[str(flavor.empty)]
    decimals = flavor.round.decimals
    rounded = raw if decimals is None else np.array([round(v, decimals) if v == v else v for v in raw.tolist()])
    return np.where(undefined, filled, rounded)


def check_values(out: Problems, res: QueryResults, expected: np.ndarray, scored: np.ndarray,
                 why: str = "the record gives") -> None:
    """Each scored query's value against the one its record gives."""
    bad = scored & ~close(res.value, expected)
    flag(out, res.query, bad, lambda i: f"value {_show(res.value[i])} but {why} {_show(expected[i])}")


def check_missing(out: Problems, res: QueryResults, flavor: Flavor) -> None:
    """A missing query's value: the metric's zero under missing=zero (num_q: 1, its value over an empty list), null
    under missing=skip."""
    if flavor.missing == "empty":  # (its value over no docs: not a constant; the reference checks it)
        return
    metric = registry.get(flavor.metric)
    zero = (1.0 if metric.scores_missing else metric.zero_value) if flavor.missing == "zero" else math.nan
    expected = np.full(len(res.query), zero)
    missing = res.status == MISSING
    flag(out, res.query, missing & ~close(res.value, expected),
         lambda i: f"missing query has value {_show(res.value[i])}, expected {_show(expected[i])}")


def _show(x: float) -> str:
    return "None" if x != x else repr(float(x))


def query_slices(q: np.ndarray, rank: np.ndarray) -> tuple[np.ndarray, dict[int, slice]]:
    """(the rows in (query, rank) order, each query's slice of them)."""
    order = np.lexsort((rank, q))
    codes, starts = np.unique(q[order], return_index=True)
    ends = [*starts[1:].tolist(), len(order)] if len(starts) else []
    return order, {int(c): slice(s, e) for c, s, e in zip(codes.tolist(), starts.tolist(), ends, strict=True)}


def check_ndcg_rows(rows: RecordRows, res: QueryResults, ds: Dataset, flavor: Flavor) -> Problems:
    """reference/ndcg.py's check_record over every query: universe gains, ranked gains, discounts (tie groups
    averaged under ties=average), contributions, DCG; the ideal list sorted, its contributions, IDCG; the value."""
    out: Problems = {}
    qr = ds.qrels
    universe = reference_gains(qr.grade, flavor)
    judged = rows.qrels_judged
    flag(out, qr.q, judged & ~close(rows.qrels_gain, universe), lambda i: (
        f"universe doc {ds.doc_ids[qr.d[i]]}: gain {rows.qrels_gain[i]} is not g({qr.grade[i]:g}) = {universe[i]}"))
    check_missing(out, res, flavor)
    col = rows.columns
    gains = np.where(rows.judged, reference_gains(np.nan_to_num(rows.grade), flavor, qr.grade), 0.0)
    flag(out, rows.q, ~close(col["gain"], gains),
         lambda i: f"rank {rows.rank[i]}: gain {col['gain'][i]} but the universe gives {gains[i]}")
    flag(out, rows.q, ~close(col["contribution"], col["gain"] * col["discount"]),
         lambda i: f"rank {rows.rank[i]}: contribution is not gain x discount")
    discounts = reference_discounts(rows.rank, flavor)
    if flavor.ties == "average":
        discounts = group_means(rows.q * (int(rows.tie_group.max(initial=0)) + 1) + rows.tie_group, discounts)
    flag(out, rows.q, ~close(col["discount"], discounts),
         lambda i: f"rank {rows.rank[i]}: discount {col['discount'][i]} but d(i) gives {discounts[i]}")
    n = ds.n_queries
    dcg = np.bincount(rows.q, weights=col["contribution"], minlength=n)[res.query]
    scored = res.status != MISSING
    flag(out, res.query, scored & ~close(res.parts["dcg"], dcg),
         lambda i: f"DCG {res.parts['dcg'][i]} is not the sum of contributions {dcg[i]}")
    if flavor.metric == "dcg":
        check_values(out, res, expected_values(res.parts["dcg"], np.zeros(len(res.query), dtype=bool), flavor), scored,
                     "DCG gives")  # (rounded as `round` says)
        return out
    ideal = rows.lists["ideal"]
    present = np.zeros(n, dtype=bool)  # (a missing query's record stops at its universe)
    present[res.query[scored]] = True
    order, _ = query_slices(ideal["q"], ideal["rank"])
    iq, ig = ideal["q"][order], ideal["gain"][order]
    flag(out, iq[1:], present[iq[1:]] & (iq[1:] == iq[:-1]) & (ig[1:] > ig[:-1] + CLOSE),
         lambda i: "the ideal list is not sorted by gain, descending")
    flag(out, ideal["q"], present[ideal["q"]] & ~close(ideal["contribution"], ideal["gain"] * ideal["discount"]),
         lambda i: f"ideal rank {ideal['rank'][i]}: contribution is not gain x discount")
    idcg = np.bincount(ideal["q"], weights=ideal["contribution"], minlength=n)[res.query]
    flag(out, res.query, scored & ~close(res.parts["idcg"], idcg),
         lambda i: f"IDCG {res.parts['idcg'][i]} is not the sum of ideal contributions {idcg[i]}")
    with np.errstate(invalid="ignore", divide="ignore"):
        raw = np.where(idcg > 0, dcg / np.where(idcg > 0, idcg, 1.0), np.nan)
    check_values(out, res, expected_values(raw, ~(idcg > 0), flavor), scored)
    return out


def check_relevance_rows(measure: Callable[[Ranked, Flavor], tuple], rows: RecordRows, res: QueryResults,
                         ds: Dataset, flavor: Flavor) -> Problems:
    """reference/binary.py's check_record over every query: each ranked doc's relevance against its grade and
    rel_level, then the measure's reference formula over each query's list against its value."""
    out: Problems = {}
    level = flavor.rel_level.threshold
    relevant = rows.judged & ~np.isnan(rows.grade) & (np.nan_to_num(rows.grade, nan=-np.inf) >= level)
    if "relevant" in rows.columns:  # (judged@k's rows show `judged` alone)
        shown = rows.columns["relevant"].astype(bool)
        flag(out, rows.q, shown != relevant,
             lambda i: f"rank {rows.rank[i]}: relevant is {bool(shown[i])}, but its grade is {_show(rows.grade[i])}")
        relevant = shown
    lists = ranked_lists(rows, relevant, ds, level)
    raw = np.full(len(res.query), np.nan)
    undefined = np.zeros(len(res.query), dtype=bool)
    scored = res.status != MISSING
    for pos in np.flatnonzero(scored).tolist():
        value, _, none = measure(lists[int(res.query[pos])], flavor)
        raw[pos], undefined[pos] = (math.nan if value is None else value), none
    check_values(out, res, expected_values(raw, undefined, flavor), scored, "the ranked list's relevance gives")
    return out


_LISTS: dict[bytes, dict[int, Ranked]] = {}  # the last few runs' lists, by the digest of what makes them
LISTS_KEPT = 4


def ranked_lists(rows: RecordRows, relevant: np.ndarray, ds: Dataset, level: float) -> dict[int, Ranked]:
    """Per query code, what a measure of relevance reads of its list (reference/binary.py's Ranked), from the
    record rows. Kept for the next flavors with the same rows (P@5 ... P@1000, AP, R-prec of one run share them):
    building the lists of a run costs more than most measures' formulas over them."""
    digest = hashlib.blake2b(digest_size=16)
    for array in (rows.q, rows.rank, rows.judged, rows.grade, relevant, rows.qrels_judged, ds.qrels.q, ds.qrels.grade):
        digest.update(np.ascontiguousarray(array).tobytes())
    digest.update(repr(level).encode())
    key = digest.digest()
    if key in _LISTS:
        return _LISTS[key]
    qr, n = ds.qrels, ds.n_queries
    universe_relevant = rows.qrels_judged & (qr.grade >= level)
    r = np.bincount(qr.q, weights=universe_relevant, minlength=n).astype(np.int64).tolist()
    nonrelevant = np.bincount(qr.q, weights=rows.qrels_judged & ~universe_relevant, minlength=n).astype(np.int64).tolist()
    top = np.full(n, -np.inf)
    np.maximum.at(top, qr.q, qr.grade)
    tops = [None if t == -np.inf else t for t in top.tolist()]
    order, slices = query_slices(rows.q, rows.rank)
    flags, judged = relevant[order].astype(bool).tolist(), rows.judged[order].tolist()
    ordered = rows.grade[order]
    grades_of = ordered.astype(object)
    grades_of[np.isnan(ordered)] = None  # (not in the qrels)
    grades = grades_of.tolist()
    out = {}
    for code in range(n):
        part = slices.get(code, slice(0, 0))
        out[code] = Ranked(flags[part], judged[part], r[code], nonrelevant[code], grades[part], tops[code])
    while len(_LISTS) >= LISTS_KEPT:
        _LISTS.pop(next(iter(_LISTS)))
    _LISTS[key] = out
    return out
