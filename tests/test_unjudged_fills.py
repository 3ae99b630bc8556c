"""compare/holes.py and compare/fills.py: the rows a flavor reads, and the fills of the holes, checked against
rankflavor.evaluate on qrels completed by hand (every assignment of grades 0..g to the holes)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rankflavor
from rankflavor import registry
from rankflavor.compare.fills import query_ends
from rankflavor.compare.holes import HoleKey, within_depth
from rankflavor.compare.scores import Scores
from rankflavor.engine.metric import Metric
from rankflavor.errors import RankflavorError
from rankflavor.flavor import Flavor
from rankflavor.inputs.subtopics import reads_subtopics
from strategies import flavors, qrels_and_run

METRICS = [name for name in registry.names() if not reads_subtopics([name])]


def _raw(qrels: dict, run: dict, flavor: Flavor) -> dict[str, float]:
    result = rankflavor.evaluate(qrels, {"r": run}, [flavor]).results[0]
    return {str(result.query_ids[c]): v for c, v in zip(result.queries.query, result.queries.raw_value, strict=True)}


def _carried(qrels: dict, cut: dict, m: float) -> dict:
    """The judgments a fill's query carries (by hand): those of the docs of the cut run, and the m highest grades
    of the others (a query left with none keeps one at its top grade); a query no run answers holds every grade of
    the qrels (ideal=max reads the top one)."""
    if m == float("inf"):
        return qrels
    out = {}
    for q, docs in qrels.items():
        others = sorted((d for d in docs if d not in cut.get(q, {})), key=lambda d: -docs[d])
        out[q] = {d: g for d, g in docs.items() if d in cut.get(q, {}) or d in others[:int(m)]}
        if docs and not out[q]:
            out[q] = {"~kept": max(docs.values())}
    out["~all grades"] = {f"~{i}": g for i, g in enumerate(sorted({g for docs in qrels.values() for g in docs.values()}))}
    return out


def _check_cut(qrels: dict, run: dict, flavor: Flavor) -> None:
    """The flavor's per-query values on the run cut to the rows it reads, with the judgments a fill's query carries
    (Metric.judgments_read), equal those on the whole run and qrels."""
    try:
        whole = _raw(qrels, run, flavor)
        scores = Scores.load(qrels, {"r": run})
    except RankflavorError:
        assume(False)
    ds = scores.dataset
    interned = ds.runs[0]
    inside, _ = within_depth(ds, interned, HoleKey.of(flavor))
    cut: dict[str, dict[str, float]] = {q: {} for q in run}
    for q, d, score, keep in zip(interned.q, interned.d, interned.score, inside, strict=True):
        if keep:
            cut[str(ds.query_ids[q])][str(ds.doc_ids[d])] = float(score)
    assert _raw(qrels, cut, flavor) == pytest.approx(whole, nan_ok=True, rel=1e-12, abs=1e-12), flavor
    carried = _carried(qrels, cut, registry.get(flavor.metric).judgments_read(flavor))
    mine = {q: v for q, v in _raw(carried, cut, flavor).items() if q in whole}
    assert mine == pytest.approx(whole, nan_ok=True, rel=1e-12, abs=1e-12), (flavor, "judgments carried")


@settings(max_examples=200)
@given(case=qrels_and_run(), flavor=st.sampled_from(METRICS).flatmap(lambda name: flavors(metric=name)),
       seed=st.integers(0, 2**16))
def test_a_run_cut_to_the_rows_read_has_the_flavors_values(case, flavor, seed):
    """The rule of the holes: under a random fill of the unjudged docs, every flavor of every family (each axis
    drawn) has the same per-query values on the run cut to the rows holes.py says it reads (the first
    engine.rows_read(flavor) by score after the drops, ties at the cutoff in) as on the whole run, and with the
    judgments a fill's query carries (Metric.judgments_read) as with every judgment."""
    qrels, run = case
    rng = np.random.default_rng(seed)
    filled = {q: dict(docs) for q, docs in qrels.items()}
    for q, docs in run.items():
        if filled.get(q):
            for d in docs:
                if d not in filled[q] and rng.random() < 0.7:
                    filled[q][d] = int(rng.integers(0, 4))
    _check_cut(filled, run, flavor)


@pytest.mark.parametrize("spec, run", [
    ("ndcg@2 self_docs=drop", {"q0": {"q0": 9.0, "u1": 8.0, "d1": 7.0, "d2": 6.0}}),  # (the self doc is not read)
    ("p@2 negative=drop", {"q0": {"dn": 9.0, "u1": 8.0, "d1": 7.0, "d2": 6.0}}),  # (a negative grade: dropped)
    ("ndcg@2 precision=f32", {"q0": {"d1": 3.0, "d2": 1.0 + 2e-9, "d3": 1.0 + 1e-9, "u1": 1.0}}),  # (tied in f32)
    ("ndcg@2 ideal=local", {"q0": {"u1": 3.0, "d0": 2.0, "d3": 1.0, "d1": 0.5}}),  # (the ideal reads every row)
    ("ndcg@2 ideal=recall(3)", {"q0": {"u1": 3.0, "d0": 2.0, "d3": 1.0, "d1": 0.5}}),  # (K rows)
    ("ap@2 unjudged=skip", {"q0": {"u1": 3.0, "d0": 2.0, "u2": 1.0, "d1": 0.5}}),  # (a condensed list)
    ("ap@2 unjudged=skip run_depth=3", {"q0": {"u1": 3.0, "d0": 2.0, "u2": 1.0, "d1": 0.5}}),  # (cut, then condensed)
    ("ndcg@2 ties=quicksort(1)", {"q0": {f"d{i}": 1.0 for i in range(20)}}),  # (its tie order reads the list)
    ("row_ap@2", {"q0": {"u1": 3.0, "d0": 2.0, "d3": 1.0, "d1": 0.5}}),  # (R from the list)
    ("ndcg@2", {"q0": {"d2": 3.0, "u1": 2.0, "d0": 1.0}}),  # (the ideal's top 2: grade-2 docs no row holds)
    ("ndcg@2 ideal=max", {"q0": {"u1": 3.0, "d0": 2.0, "d3": 1.0}}),  # (the top grade of the whole qrels)
    ("ndcg@2 negative=keep", {"q0": {"u1": 3.0, "d0": 2.0, "dn": 1.0}}),
    ("dcg@2 gain=exp2", {"q0": {"u1": 3.0, "d0": 2.0, "d3": 1.0}}),
])
def test_the_cut_counts_rows_after_the_drops_and_in_the_flavors_precision(spec, run):
    """The hard cases of the rule, each a fill away from a wrong cut: the drops before ranking, float32 ties,
    the flavors that read below the cutoff, the judgments NDCG's ideal reads."""
    qrels = {"q0": {"q0": 1, "dn": -1, "d0": 0, "d1": 2, "d2": 1, "d3": 1, **{f"d{i}": i % 3 for i in range(4, 20)}}}
    for fill in itertools.product([0, 2], repeat=2):
        filled = {"q0": {**qrels["q0"], "u1": fill[0], "u2": fill[1]}}
        _check_cut(filled, run, Flavor.parse(spec))


@st.composite
def small_track(draw):
    """One or two queries, their judgments graded 0..2, and two runs over those docs and at most three unjudged
    ones (u0..u2), scores tying often."""
    qrels: dict[str, dict[str, int]] = {}
    runs: dict[str, dict[str, dict[str, float]]] = {"A": {}, "B": {}}
    for q in range(draw(st.integers(1, 2))):
        judged = [f"j{i}" for i in range(draw(st.integers(1, 5)))]
        qrels[f"q{q}"] = {d: draw(st.sampled_from([0, 0, 1, 2])) for d in judged}
        for name in runs:
            docs = draw(st.lists(st.sampled_from([*judged, "u0", "u1", "u2"]), min_size=1, max_size=6, unique=True))
            runs[name][f"q{q}"] = {d: float(draw(st.integers(0, 4))) for d in docs}
    return qrels, runs


CUT = ["ap@3", "ndcg@3", "ndcg@3 ties=average", "p@3", "rr@3", "dcg@3"]  # (the holes: the top 3 rows, ties in)
WHOLE = ["ap", "ndcg", "bpref", "ndcg@3 ideal=local", "ndcg@3 unjudged=skip", "p@3 unjudged=skip"]  # (the holes: every row)


def hand_holes(qrels: dict, run: dict, q: str, depth: int | None) -> set[str]:
    """The unjudged docs among the run's first `depth` rows by score, every doc tied with the last in."""
    scores = sorted(run[q].values(), reverse=True)
    kth = scores[min(depth, len(scores)) - 1] if depth else -np.inf
    return {d for d, s in run[q].items() if s >= kth and d not in qrels[q]}


def brute_force(qrels: dict, runs: dict, names: tuple[str, ...], specs: list[str], depth: int | None):
    """Per query, per flavor: every assignment of the grades 0..g (g: the query's top grade, at least 1) to the
    union of the runs' holes, each evaluated by rankflavor.evaluate on qrels completed by hand; returns
    {(q, spec): [(value of each run in `names`), ...]}."""
    filled_qrels, filled_runs, assigned = {}, {name: {} for name in names}, {}
    for q in qrels:
        holes = sorted(set().union(*(hand_holes(qrels, runs[name], q, depth) for name in names)))
        top = max(1, max(qrels[q].values()))
        for k, grades in enumerate(itertools.product(range(top + 1), repeat=len(holes))):
            fill_id = f"{q}|{k:03d}"
            filled_qrels[fill_id] = {**qrels[q], **dict(zip(holes, grades, strict=True))}
            for name in names:
                filled_runs[name][fill_id] = runs[name][q]
            assigned[fill_id] = q
    report = rankflavor.evaluate(filled_qrels, filled_runs, specs)
    values: dict[tuple[str, str], dict[str, list[float]]] = {}
    for result in report.results:
        for row in result.per_query():
            values.setdefault((assigned[row["query"]], result.label), {}).setdefault(row["query"], []).append(
                row["value"])
    return {key: list(map(tuple, by_fill.values())) for key, by_fill in values.items()}


@settings(max_examples=30)
@given(case=small_track())
def test_the_bounds_are_every_assignments_least_and_greatest(case):
    """Brute force: every assignment of grades 0..g to the holes (of a run; of the union of a pair's, both runs
    under one assignment) gives a value inside the interval, per query and per mean, and the ends are attained
    (the fills are enumerated exactly), for AP, NDCG (also ideal=local, unjudged=skip, ties=average), P, RR and
    bpref, at a cutoff and over whole lists."""
    import rankflavor.compare as rc
    from rankflavor.compare.query_set import summary_values
    from rankflavor.compare.unjudged_bounds import add_unjudged_bounds

    qrels, runs = case
    cmp = rc.compare(qrels, runs, [*CUT, *WHOLE], n_resamples=10)
    assert not cmp.skipped
    add_unjudged_bounds(cmp)
    ds = cmp.scores.dataset
    queries = [str(q) for q in ds.query_ids[np.flatnonzero(ds.judged)]]
    for specs, depth in ((CUT, 3), (WHOLE, None)):
        flavors = [cmp.flavor(str(Flavor.parse(s))) for s in specs]
        for names in (("A",), ("B",), ("A", "B")):
            brute = brute_force(qrels, runs, names, specs, depth)
            ends = query_ends(ds, [ds.run(n) for n in names], flavors, "top",
                              summary_values if len(names) == 2 else None)
            for spec, flavor, e in zip(specs, flavors, ends, strict=True):
                values = [[a if len(names) == 1 else a - b for a, *b_ in brute[(q, spec)] for b in (b_ or [0])]
                          for q in queries]
                lows, highs = [min(v) for v in values], [max(v) for v in values]
                assert not e.by_range.any()
                assert e.low == pytest.approx(lows, abs=1e-12) and e.high == pytest.approx(highs, abs=1e-12), (
                    spec, names)
                if len(names) == 1:
                    row = cmp.means[(cmp.means.run == names[0]) & (cmp.means.flavor == str(flavor))].iloc[0]
                    assert (row.mean_low, row.mean_high) == pytest.approx((np.mean(lows), np.mean(highs)))
                    means = list(map(np.mean, itertools.product(*values)))  # (each query's fill apart: a mean)
                    assert row.mean_low - 1e-12 <= min(means) and max(means) <= row.mean_high + 1e-12
                else:
                    row = cmp.pairs[cmp.pairs.flavor == str(flavor)].iloc[0]
                    assert (row.unjudged_low, row.unjudged_high) == pytest.approx((np.mean(lows), np.mean(highs)))
                    means = list(map(np.mean, itertools.product(*values)))
                    assert row.unjudged_low - 1e-12 <= min(means) and max(means) <= row.unjudged_high + 1e-12
                    assert row.unjudged_exact == len(queries) and row.unjudged_by_range == 0


def test_a_querys_fills_cut_across_chunks_give_the_same_ends(tmp_path, monkeypatch):
    """A row budget far below one query's fills: each query's fills cut into pieces over many chunks (evaluated two
    at a time) give the ends of one chunk, for a run and for a pair, under ideal=max too (its extra query)."""
    import rankflavor.compare.fills as fills
    from power_data import write_collection
    from rankflavor.compare.query_set import summary_values

    qrels, runs = write_collection(tmp_path, 8, 2, seed=3)
    ds = Scores.load(qrels, runs).dataset
    specs = [Flavor.parse(s) for s in ("ndcg@5", "ap@5", "p@5", "bpref", "ndcg@5 ideal=max")]
    pairs = [ds.runs[:1], ds.runs]
    whole = [query_ends(ds, r, specs, "top", summary_values) for r in pairs]
    monkeypatch.setattr(fills, "ROW_BUDGET", 7)
    monkeypatch.setattr(fills, "WORKERS", 2)
    for r, expected in zip(pairs, whole, strict=True):
        for mine, theirs in zip(query_ends(ds, r, specs, "top", summary_values), expected, strict=True):
            assert mine.low == pytest.approx(theirs.low, nan_ok=True) and mine.high == pytest.approx(theirs.high,
                                                                                                     nan_ok=True)
            assert (mine.by_range == theirs.by_range).all()
    assert any((e.high > e.low + 1e-9).any() for ends in whole for e in ends)


GROWING = [name for name in METRICS if registry.get(name).value_grows_with_grade  # (declared, or decided per flavor)
           or type(registry.get(name)).grows_with_grade is not Metric.grows_with_grade]


@settings(max_examples=150)
@given(case=qrels_and_run(), flavor=st.sampled_from(GROWING).flatmap(lambda name: flavors(metric=name)),
       seed=st.integers(0, 2**16))
def test_a_measure_that_grows_with_grade_never_falls_when_a_hole_is_judged_higher(case, flavor, seed):
    """Metric.grows_with_grade, which lets a run's bounds take only the extreme fills: under every axis drawn, a
    hole judged at a higher grade (the other holes judged at random, the judgments as they are) never lowers the
    value of any query."""
    assume(registry.get(flavor.metric).grows_with_grade(flavor))
    qrels, run = case
    rng = np.random.default_rng(seed)
    holes = [(q, d) for q, docs in run.items() if qrels.get(q) for d in docs if d not in qrels[q]]
    assume(holes)
    filled = {q: dict(docs) for q, docs in qrels.items()}
    for q, d in holes:
        filled[q][d] = int(rng.integers(0, 3))
    q, d = holes[int(rng.integers(len(holes)))]
    higher = {k: dict(v) for k, v in filled.items()}
    higher[q][d] = filled[q][d] + int(rng.integers(1, 3))
    try:
        low, high = _raw(filled, run, flavor), _raw(higher, run, flavor)
    except RankflavorError:
        assume(False)
    for query, value in low.items():
        assert not value > high[query] + 1e-12, (flavor, query, value, high[query])
