"""The columnar NDCG/DCG kernel: one run, one flavor, all queries at once.

Pipeline (DESIGN.md): join grades -> negative / min_grade / unjudged policies -> rank with the tie policy
-> run_depth -> unjudged=skip condenses the list -> gains x discounts -> per-query sums -> ideal -> ratio.

    DCG@k  = sum_{i<=k} g(r_i) d(i)
    IDCG@k = DCG of the ideal list (its gains sorted descending), cut at the ideal depth
    NDCG@k = DCG@k / IDCG@k when IDCG@k > 0, else the `empty` policy (status zero_ideal)

With ties=average, DCG is its exact expectation over all orders of each tie group (McSherry & Najork
2008): every document of a group gets the mean discount of the positions the group occupies.

Two paths share this code. The general path ranks every row of the run (engine/order.py, then the tie
policy). With a cutoff and no `detail`, the fast path (engine/select.py) ranks only the prefix of each
query's list that the flavor can read (about k rows per query, found in linear time) and takes the
whole-run counts it cannot see from the selection; both give the same numbers. Layouts, joins, qrels
gains and ideal lists are cached on the run and the dataset, and ranks, tie groups and discounts on the
prefix (`TopRows.memo`: a tie policy only moves rows within tie groups), so that the flavors of one
report share them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rankflavor.data import Dataset, InternedRun
from rankflavor.engine import chunks
from rankflavor.engine.discounts import discount_values
from rankflavor.engine.gains import gain_values
from rankflavor.engine.order import distinct_sorted, tie_rows, trec_order
from rankflavor.engine.select import join_qrels, select_prefix, self_doc_codes
from rankflavor.errors import EvaluationError
from rankflavor.flavor import Flavor
from rankflavor.flavor.axes import parse_call
from rankflavor.flavor.ties import random_tie_key

OK, ZERO_IDEAL, MISSING = 0, 1, 2
_RANDOM = np.zeros(0, dtype=np.int64)  # marker: sort with every key
FAST_PATH = True  # False: every evaluation takes the general path (for timing or debugging)
STATUS_NAMES = ("ok", "zero_ideal", "missing")


@dataclass
class QueryResults:
    """Columnar results of one (run, flavor) over the judged queries, in query-code order."""

    query: np.ndarray  # int64 query codes
    value: np.ndarray  # float64, nan = null (excluded)
    raw_value: np.ndarray  # before `round`
    dcg: np.ndarray  # nan for missing queries
    idcg: np.ndarray  # nan for missing queries and for metric=dcg
    status: np.ndarray  # int8: OK, ZERO_IDEAL, MISSING
    ties_straddle: np.ndarray  # bool: a tie group spans the cutoff
    ties_any: np.ndarray  # bool: the ranked rows the flavor reads hold a tie (else every tie policy gives this value)
    judged_in_top: np.ndarray  # float64: share of judged docs among the scored ranks (nan when none)
    unjudged_in_top: np.ndarray  # int64: unjudged docs among the scored ranks
    row_counts: dict[str, int]  # rows excluded before scoring, by reason


@dataclass
class RankedRows:
    """Row-level record of the ranked list (after condensation) and of the ideal list."""

    q: np.ndarray
    d: np.ndarray
    score: np.ndarray
    grade: np.ndarray  # nan when not in the qrels
    judged: np.ndarray
    gain: np.ndarray
    rank: np.ndarray  # 1-based
    discount: np.ndarray  # effective (0 past the cutoff; mean of the group under ties=average)
    contribution: np.ndarray
    tie_group: np.ndarray  # 1-based within the query
    dropped_q: np.ndarray  # rows removed before scoring (self_docs, run_depth, unjudged=skip)
    dropped_d: np.ndarray
    dropped_reason: np.ndarray  # object array of str
    ideal_q: np.ndarray
    ideal_d: np.ndarray  # -1 for ideal=max positions
    ideal_grade: np.ndarray
    ideal_gain: np.ndarray
    ideal_rank: np.ndarray
    ideal_discount: np.ndarray
    ideal_contribution: np.ndarray


def _group_starts(sorted_q: np.ndarray) -> np.ndarray:
    """For sorted query codes, the index of the first row of each row's query."""
    if len(sorted_q) == 0:
        return np.zeros(0, dtype=np.int64)
    boundary = np.empty(len(sorted_q), dtype=bool)
    boundary[0] = True
    boundary[1:] = sorted_q[1:] != sorted_q[:-1]
    starts = np.flatnonzero(boundary)
    return starts[np.cumsum(boundary) - 1]


def _positions(sorted_q: np.ndarray) -> np.ndarray:
    """0-based position of each row within its query (rows sorted by query)."""
    return np.arange(len(sorted_q), dtype=np.int64) - _group_starts(sorted_q)


def qrels_gains(ds: Dataset, flavor: Flavor) -> tuple[np.ndarray, np.ndarray]:
    """(judged, gain) per qrels row after the negative and min_grade policies (cached on the dataset)."""
    key = ("qrels_gains", flavor.gain, flavor.negative, flavor.min_grade)
    cached = ds.cache.get(key)
    if cached is None:
        cached = ds.cache[key] = _qrels_gains(ds, flavor)
    return cached


def _qrels_gains(ds: Dataset, flavor: Flavor) -> tuple[np.ndarray, np.ndarray]:
    grade = ds.qrels.grade
    negative = grade < 0
    if flavor.negative == "error" and negative.any():
        row = int(np.flatnonzero(negative)[0])
        raise EvaluationError(
            f"negative grade {grade[row]:g} for query {ds.query_ids[ds.qrels.q[row]]!r} doc "
            f"{ds.doc_ids[ds.qrels.d[row]]!r} ({int(negative.sum())} negative grades in all) and negative=error; "
            "choose negative=unjudged, zero or keep"
        )
    judged = ~negative if flavor.negative in ("unjudged", "drop") else np.ones(len(grade), dtype=bool)
    gains = np.zeros(len(grade), dtype=np.float64)
    usable = judged & ~(negative & (flavor.negative == "zero"))
    gains[usable] = gain_values(grade[usable], flavor.gain)
    if flavor.min_grade != "none":
        gains[grade < float(flavor.min_grade)] = 0.0
    return judged, gains


def _tie_keys(ds: Dataset, flavor: Flavor, q: np.ndarray, d: np.ndarray, gain: np.ndarray, order: np.ndarray,
              ) -> list[np.ndarray]:
    """Secondary sort keys (least significant first, as np.lexsort wants) that break score ties."""
    kind, arg = parse_call(flavor.ties)
    if kind in ("docid_desc", "average"):
        return [-d]
    if kind == "docid_asc":
        return [d]
    if kind == "input":
        return [order]
    if kind == "pessimistic":
        return [-d, gain]
    if kind == "optimistic":
        return [-d, -gain]
    if kind == "random":
        seed = int(arg or 0)
        keys = [random_tie_key(seed, ds.query_ids[a], ds.doc_ids[b]) for a, b in zip(q.tolist(), d.tolist(), strict=True)]
        return [-d, np.array(keys, dtype=np.uint64)]
    raise ValueError(f"unknown tie policy {flavor.ties!r}")


def _reorder_ties(flavor: Flavor, q: np.ndarray, score: np.ndarray, d: np.ndarray, gain: np.ndarray,
                  order: np.ndarray, levels: np.ndarray, store: dict | None = None,
                  ) -> tuple[np.ndarray, np.ndarray] | np.ndarray | None:
    """How rows sorted by (query, score desc, doc desc) move into the tie policy's order: None when they
    are in it; (rows, from_rows) when only rows of tie groups move (row rows[i] takes the values of row
    from_rows[i]: one stable argsort of a packed key (tie group, key within the group) over those rows);
    _RANDOM for ties=random (the caller sorts with every key).
    `levels`: every gain a row can have, sorted (the qrels gains and 0). `store`: memo of the tie groups."""
    kind, _ = parse_call(flavor.ties)
    if kind in ("docid_desc", "average") or len(q) < 2:
        return None
    if kind not in ("input", "docid_asc", "pessimistic", "optimistic"):
        return _RANDOM
    rows, group = _memo(store, "tie_rows", lambda: tie_rows(q, score))
    if len(rows) == 0:
        return None  # no ties
    if kind == "input":
        within = order[rows]
    elif kind == "docid_asc":
        within = d[rows]
    else:  # pessimistic: gain asc (optimistic: desc), doc desc kept by the stable sort
        level = np.searchsorted(levels, gain[rows])
        within = level if kind == "pessimistic" else len(levels) - level
    within = within.astype(np.int64)
    shift = int(within.max()).bit_length()
    if shift + int(group[-1]).bit_length() > 62:
        return rows, rows[np.lexsort((within, group))]
    return rows, rows[np.argsort((group << shift) | within, kind="stable")]


def _moved(values: np.ndarray, rows: np.ndarray, from_rows: np.ndarray) -> np.ndarray:
    out = values.copy()
    out[rows] = values[from_rows]
    return out


def _memo(store: dict | None, key: object, compute):
    """store[key], computed once (no store: computed every time)."""
    if store is None:
        return compute()
    if key not in store:
        store[key] = compute()
    return store[key]


def _tie_groups(q: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Global tie-group id of each ranked row (rows of one query with one score)."""
    new_group = np.ones(len(q), dtype=bool)
    if len(q):
        new_group[1:] = (q[1:] != q[:-1]) | (score[1:] != score[:-1])
    return np.cumsum(new_group) - 1


def _straddle(q: np.ndarray, group: np.ndarray, in_top: np.ndarray, cutoff: int | None, nq: int) -> np.ndarray:
    """Per query code: a tie group holds ranks on both sides of the cutoff."""
    straddle = np.zeros(nq, dtype=bool)
    if cutoff is not None and len(q):
        both = (np.bincount(group, weights=in_top.astype(float)) > 0) & \
            (np.bincount(group, weights=(~in_top).astype(float)) > 0)
        straddle[q[both[group]]] = True
    return straddle


def _gain_levels(ds: Dataset, flavor: Flavor, q_gain: np.ndarray) -> np.ndarray:
    key = ("gain_levels", flavor.gain, flavor.negative, flavor.min_grade)
    if key not in ds.cache:
        ds.cache[key] = distinct_sorted(np.append(q_gain, 0.0))
    return ds.cache[key]


def _global_ideal(ds: Dataset, flavor: Flavor, q_judged: np.ndarray, q_gain: np.ndarray,
                  ) -> tuple[np.ndarray, ...]:
    """The judged docs of every query sorted by gain desc, doc desc, with their ideal ranks (cached)."""
    key = ("global_ideal", flavor.gain, flavor.negative, flavor.min_grade)
    cached = ds.cache.get(key)
    if cached is None:
        # the qrels are sorted by (query, doc): reversed, by (query desc, doc desc); a stable sort on one
        # packed key (query asc, gain desc) keeps doc desc within equal gains
        sel = np.flatnonzero(q_judged)[::-1]
        iq, id_, igrade, igain = ds.qrels.q[sel], ds.qrels.d[sel], ds.qrels.grade[sel], q_gain[sel]
        levels = _gain_levels(ds, flavor, q_gain)
        level = np.searchsorted(levels, igain)
        iperm = np.argsort(iq * len(levels) + (len(levels) - 1 - level), kind="stable")
        iq, id_, igrade, igain = iq[iperm], id_[iperm], igrade[iperm], igain[iperm]
        cached = ds.cache[key] = (iq, id_, igrade, igain, _positions(iq) + 1)
    return cached


def evaluate_run(ds: Dataset, run: InternedRun, flavor: Flavor, *, query: int | None = None,
                 detail: bool = False, split: bool = True) -> tuple[QueryResults, RankedRows | None]:
    """Score one run under one flavor over every judged query (or only `query`). split: a large run the fast
    path leaves to the general path is evaluated a chunk of queries at a time (engine/chunks.py)."""
    q_judged, q_gain = qrels_gains(ds, flavor)
    max_gain = float(q_gain[q_judged].max()) if q_judged.any() else 0.0
    prefix = select_prefix(ds, run, flavor, q_judged, q_gain) if query is None and not detail and FAST_PATH else None
    rows_per_chunk = chunks.chunk_rows(ds)
    if prefix is None and query is None and not detail and FAST_PATH and split and run.n_rows > rows_per_chunk:
        owner, parts = chunks.query_chunks(ds, run, rows_per_chunk)
        if len(parts) > 1:  # (engine/chunks.py: exact, as every number is per query)
            return chunks.evaluate_in_chunks(
                ds, run, owner, parts, lambda part: evaluate_run(ds, part, flavor, split=False)[0]), None

    # ---- the run's rows, joined with the qrels ------------------------------------------------------
    if prefix is not None:  # eligible, nothing to drop: the prefix of every judged query's ranking
        top = prefix.top
        order, rq, rd, score = top.rows, top.q, top.d, top.score
        row_counts = {"rows_of_unjudged_queries": prefix.counts["rows_of_unjudged_queries"]}
    elif query is not None:  # the rows of one query only (the other queries' codes are never built)
        order = run.q_codes.rows_of(query)
        rq, rd, score = np.full(len(order), query, dtype=np.int64), run.d_codes.at(order), run.score[order]
    else:
        rq, rd, score = run.q, run.d, run.score
        order = run.order
    if prefix is None:
        eligible = ds.judged[rq]  # queries absent from the qrels are never scored
        row_counts = {"rows_of_unjudged_queries": int(len(eligible) - np.count_nonzero(eligible))}
        if row_counts["rows_of_unjudged_queries"]:  # (else every row stays: no copies)
            rq, rd, score, order = rq[eligible], rd[eligible], score[eligible], order[eligible]
    gain_key = (flavor.gain, flavor.negative, flavor.min_grade)
    if prefix is not None and gain_key in prefix.top.gains:  # (shared by the flavors that read this prefix)
        index, found, grade = prefix.top.index, prefix.top.found, prefix.top.grade
        judged, gain = prefix.top.gains[gain_key]
    else:
        index = join_qrels(ds, rq, rd) if prefix is None else prefix.top.index
        found = index >= 0
        index_c = np.maximum(index, 0)
        grade = np.where(found, ds.qrels.grade[index_c] if len(ds.qrels.key) else 0.0, np.nan)
        judged = found & q_judged[index_c] if len(ds.qrels.key) else found
        gain = np.where(judged, q_gain[index_c] if len(ds.qrels.key) else 0.0, 0.0)
        if prefix is not None:
            prefix.top.gains[gain_key] = (judged, gain)
    if flavor.precision == "f32":
        score = score.astype(np.float32).astype(np.float64)

    dropped: list[tuple[np.ndarray, np.ndarray, str]] = []
    if flavor.self_docs == "drop" and prefix is not None:
        row_counts["rows_dropped_self_docs"] = prefix.counts["rows_dropped_self_docs"]
    elif flavor.self_docs == "drop":
        same = rd == self_doc_codes(ds)[rq]
        dropped.append((rq[same], rd[same], "doc id equals the query id (self_docs=drop)"))
        row_counts["rows_dropped_self_docs"] = int(same.sum())
        rq, rd, score, order, grade, judged, gain = (a[~same] for a in (rq, rd, score, order, grade, judged, gain))

    if flavor.negative == "drop" and prefix is not None:
        row_counts["rows_dropped_negative"] = prefix.counts["rows_dropped_negative"]
    elif flavor.negative == "drop":  # TF-Ranking masks labels < 0 out of the list before sorting
        neg = np.isfinite(grade) & (grade < 0)
        dropped.append((rq[neg], rd[neg], "negative grade (negative=drop)"))
        row_counts["rows_dropped_negative"] = int(neg.sum())
        rq, rd, score, order, grade, judged, gain = (a[~neg] for a in (rq, rd, score, order, grade, judged, gain))

    # ---- rank: query asc, score desc, then the tie policy --------------------------------------------
    if prefix is None:  # (the prefix comes in trec_eval order already)
        base = trec_order(rq, score, rd)
        rq, rd, score, order, grade, judged, gain = (a[base] for a in (rq, rd, score, order, grade, judged, gain))
    ranked = prefix.top.memo if prefix is not None else None  # memo of the prefix's rows in trec_eval order
    perm = _reorder_ties(flavor, rq, score, rd, gain, order, _gain_levels(ds, flavor, q_gain), ranked)
    if perm is _RANDOM:  # (in trec_eval order: only tie groups may need another order)
        perm = np.lexsort((*_tie_keys(ds, flavor, rq, rd, gain, order), -score, rq))
    if isinstance(perm, tuple):  # rows move within their tie groups: query and score stay
        rd, grade, judged, gain = (_moved(a, *perm) for a in (rd, grade, judged, gain))
    elif perm is not None:
        rq, rd, score, grade, judged, gain = (a[perm] for a in (rq, rd, score, grade, judged, gain))
    # A tie policy permutes rows within tie groups only: positions, groups and cutoffs are those of the
    # prefix in trec_eval order, so the flavors that rank the whole prefix share them (`shape`).
    shape = prefix.top.memo if prefix is not None and flavor.run_depth == "all" and flavor.unjudged != "skip" \
        else None
    tied = np.zeros(ds.n_queries, dtype=bool)  # (before any cut: a tie across run_depth changes what is kept)
    tied[rq[_memo(ranked, "tie_rows", lambda: tie_rows(rq, score))[0]]] = True

    if flavor.run_depth != "all":
        inside = _positions(rq) < int(flavor.run_depth)
        dropped.append((rq[~inside], rd[~inside], f"beyond run_depth={flavor.run_depth}"))
        row_counts["rows_beyond_run_depth"] = int((~inside).sum()) if prefix is None else \
            prefix.counts["rows_beyond_run_depth"]
        rq, rd, score, grade, judged, gain = (a[inside] for a in (rq, rd, score, grade, judged, gain))

    if flavor.unjudged == "error" and not judged.all():
        bad = int(np.flatnonzero(~judged)[0])
        raise EvaluationError(
            f"run {run.name!r}: doc {ds.doc_ids[rd[bad]]!r} of query {ds.query_ids[rq[bad]]!r} is not judged "
            f"({int((~judged).sum())} unjudged docs in all) and unjudged=error; choose unjudged=zero or skip"
        )
    if flavor.unjudged == "skip":
        dropped.append((rq[~judged], rd[~judged], "unjudged (unjudged=skip)"))
        row_counts["rows_unjudged_skipped"] = prefix.counts.get("rows_unjudged_skipped", int((~judged).sum())) \
            if prefix is not None else int((~judged).sum())
        rq, rd, score, grade, judged, gain = (a[judged] for a in (rq, rd, score, grade, judged, gain))

    rank = _memo(shape, "rank", lambda: _positions(rq) + 1)
    cutoff = flavor.cutoff
    in_top = _memo(shape, ("in_top", cutoff), lambda: rank <= cutoff if cutoff is not None else
                   np.ones(len(rank), dtype=bool))
    disc = _memo(shape, ("disc", flavor.discount, cutoff), lambda: np.where(
        in_top, discount_values(rank, flavor.discount) if len(rank) else np.zeros(0), 0.0))

    group = _memo(shape, "group", lambda: _tie_groups(rq, score))  # global group id
    tie_group = _memo(shape, "tie_group", lambda: group - group[_group_starts(rq)] + 1 if len(rq) else group)
    if flavor.ties == "average" and len(rq):
        disc = _memo(shape, ("average", flavor.discount, cutoff), lambda: (
            np.bincount(group, weights=disc) / np.bincount(group))[group])
    contribution = gain * disc

    nq = ds.n_queries
    dcg = np.bincount(rq, weights=contribution, minlength=nq).astype(np.float64)
    returned = np.bincount(rq, minlength=nq) if prefix is None or prefix.returned is None else prefix.returned

    # warnings material: ties across the cutoff, judged share of the scored ranks
    straddle = _memo(shape, ("straddle", cutoff), lambda: _straddle(rq, group, in_top, cutoff, nq))
    top_rows = _memo(shape, ("top_rows", cutoff), lambda: np.bincount(rq, weights=in_top.astype(float), minlength=nq))
    top_judged = np.bincount(rq, weights=(in_top & judged).astype(float), minlength=nq)
    with np.errstate(invalid="ignore", divide="ignore"):
        judged_share = np.where(top_rows > 0, top_judged / np.maximum(top_rows, 1), np.nan)

    # ---- ideal --------------------------------------------------------------------------------------
    kind, arg = parse_call(flavor.ideal)
    cut = np.inf if cutoff is None else float(cutoff)
    if flavor.ideal_depth == "k":
        depth = np.full(nq, cut)
    elif flavor.ideal_depth == "all":
        depth = np.full(nq, np.inf)
    else:
        depth = np.minimum(cut, returned.astype(float))

    ideal_sorted = None
    if kind == "global" and query is None:
        ideal_sorted = _global_ideal(ds, flavor, q_judged, q_gain)
    elif kind == "global":
        sel = q_judged & (ds.qrels.q == query)
        iq, id_, igrade, igain = ds.qrels.q[sel], ds.qrels.d[sel], ds.qrels.grade[sel], q_gain[sel]
    elif kind == "local" and prefix is not None and prefix.local is not None:
        ideal_sorted = prefix.local
    elif kind == "local":
        iq, id_, igrade, igain = rq, rd, grade, gain
    elif kind == "recall":
        sel = rank <= int(arg or 0)
        iq, id_, igrade, igain = rq[sel], rd[sel], grade[sel], gain[sel]
    else:  # max: the top gain of the whole qrels at every position up to the depth
        lengths = np.where(np.isinf(depth), 0, depth).astype(np.int64)
        lengths[~ds.judged] = 0
        if query is not None:
            lengths[np.arange(nq) != query] = 0
        iq = np.repeat(np.arange(nq, dtype=np.int64), lengths)
        id_ = np.full(len(iq), -1, dtype=np.int64)
        top_grade = float(ds.qrels.grade[q_judged][np.argmax(q_gain[q_judged])]) if q_judged.any() else 0.0
        igrade, igain = np.full(len(iq), top_grade), np.full(len(iq), max_gain)
    if ideal_sorted is not None:
        iq, id_, igrade, igain, irank = ideal_sorted
    else:
        iperm = np.lexsort((-id_, -igain, iq))
        iq, id_, igrade, igain = iq[iperm], id_[iperm], igrade[iperm], igain[iperm]
        irank = _positions(iq) + 1

    def ideal_dcg() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        idisc = discount_values(irank, flavor.discount) if len(irank) else np.zeros(0)
        idisc = np.where(irank <= depth[iq], idisc, 0.0)
        icontrib = igain * idisc
        return idisc, icontrib, np.bincount(iq, weights=icontrib, minlength=nq).astype(np.float64)

    # the global ideal cut at k (or not cut) is the run's business nowhere: shared by every run and flavor
    shared_ideal = kind == "global" and query is None and flavor.ideal_depth in ("k", "all")
    idisc, icontrib, idcg = _memo(ds.cache if shared_ideal else None, (
        "ideal_dcg", flavor.gain, flavor.negative, flavor.min_grade, flavor.discount, cutoff, flavor.ideal_depth),
        ideal_dcg)

    # ---- per query value and status -----------------------------------------------------------------
    codes = np.flatnonzero(ds.judged) if query is None else np.array([query], dtype=np.int64)
    present = run.present[codes]
    q_dcg, q_idcg = dcg[codes], idcg[codes]
    status = np.where(present, OK, MISSING).astype(np.int8)
    if flavor.metric == "dcg":
        value = q_dcg.copy()
        q_idcg = np.full(len(codes), np.nan)
    else:
        zero_ideal = present & ~(q_idcg > 0)
        status[zero_ideal] = ZERO_IDEAL
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(q_idcg > 0, q_dcg / np.where(q_idcg > 0, q_idcg, 1.0), np.nan)
        if zero_ideal.any():
            if flavor.empty == "error":
                names = ", ".join(repr(ds.query_ids[c]) for c in codes[zero_ideal][:5])
                raise EvaluationError(f"{int(zero_ideal.sum())} queries have IDCG 0 ({names}) and empty=error; "
                                      "choose empty=skip, zero or one")
            value[zero_ideal] = {"skip": np.nan, "zero": 0.0, "one": 1.0}[flavor.empty]
    missing = ~present
    value[missing] = 0.0 if flavor.missing == "zero" else np.nan
    q_dcg = np.where(missing, np.nan, q_dcg)
    q_idcg = np.where(missing, np.nan, q_idcg)
    raw = value
    value = raw if flavor.round == "none" else np.round(raw, int(flavor.round))

    results = QueryResults(
        query=codes, value=value, raw_value=raw, dcg=q_dcg, idcg=q_idcg, status=status,
        ties_straddle=straddle[codes] & present, ties_any=tied[codes] & present,
        judged_in_top=np.where(present, judged_share[codes], np.nan),
        unjudged_in_top=np.rint(top_rows - top_judged)[codes].astype(np.int64),  # (counts held in float64)
        row_counts=row_counts,
    )
    if not detail:
        return results, None
    empty_i = np.zeros(0, dtype=np.int64)
    dq = np.concatenate([x[0] for x in dropped]) if dropped else empty_i
    dd = np.concatenate([x[1] for x in dropped]) if dropped else empty_i
    dr = np.concatenate([np.full(len(x[0]), x[2], dtype=object) for x in dropped]) if dropped else \
        np.zeros(0, dtype=object)
    rows = RankedRows(
        q=rq, d=rd, score=score, grade=grade, judged=judged, gain=gain, rank=rank, discount=disc,
        contribution=contribution, tie_group=tie_group, dropped_q=dq, dropped_d=dd, dropped_reason=dr,
        ideal_q=iq, ideal_d=id_, ideal_grade=igrade, ideal_gain=igain, ideal_rank=irank, ideal_discount=idisc,
        ideal_contribution=icontrib,
    )
    return results, rows
