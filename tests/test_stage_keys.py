"""The engine's stage memo (engine/scope.py): a stage's result is keyed by the function and every argument it
receives, so no flavor reuses a result that depends on an axis on which it differs from the flavor that made
it; what does not depend on that axis is still shared."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor import registry
from rankflavor.engine import Engine
from rankflavor.engine.scope import Memo
from rankflavor.flavor.axes import AXIS_NAMES
from rankflavor.inputs.pipeline import prepare
from rankflavor.report.warnings import Cache
from strategies import axis_values, flavors
from test_engine_fast import _data


def _outcome(engine: Engine, run, flavor):
    try:
        results = engine.evaluate(run, [flavor])[0].results
    except rf.EvaluationError as exc:
        return str(exc)
    out = {}
    for name, value in vars(results).items():
        if name == "parts":
            value = {part_name: part.tobytes() for part_name, part in value.items()}
        elif isinstance(value, np.ndarray):
            value = value.tobytes()
        out[name] = value
    return out


@st.composite
def neighbours(draw):
    """A flavor and flavors that differ from it on one axis each (or on the cutoff)."""
    base = draw(flavors())
    reads = registry.get(base.metric).reads
    out = [base]
    for _ in range(draw(st.integers(2, 6))):
        axis = draw(st.sampled_from([*(a for a in AXIS_NAMES if a in reads), "cutoff"]))
        value = draw(st.sampled_from([None, 1, 2, 3, 5, 8])) if axis == "cutoff" else draw(axis_values(axis))
        try:
            out.append(base.with_(**{axis: value}))
        except rf.SpecError:
            continue
    return out


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8), st.integers(1, 25), st.booleans(), neighbours())
def test_flavors_evaluated_in_turn_by_one_engine_get_what_a_fresh_engine_gives_each(seed, queries, max_docs,
                                                                                  interleave, sequence):
    qrels, rows = _data(seed, queries, max_docs, interleave)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    run = dataset.runs[0]
    shared = Engine(dataset)
    for flavor in sequence + sequence[::-1]:  # (and back: a later flavor's stages met by an earlier one)
        assert _outcome(shared, run, flavor) == _outcome(Engine(dataset), run, flavor), str(flavor)


def test_a_stage_is_never_given_a_whole_flavor():
    memo = Memo()
    with pytest.raises(TypeError, match="whole Flavor"):
        memo(lambda flavor: flavor.gain, rf.Flavor.parse("ndcg@10"))
    assert memo(lambda gain: str(gain), rf.Flavor.parse("ndcg@10").gain) == "linear"


def _computed(specs: list[str]) -> dict[str, int]:
    qrels, rows = _data(11, 20, 40, True)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    engine = Engine(dataset)
    engine.evaluate(dataset.runs[0], [rf.Flavor.parse(spec) for spec in specs])
    return {**engine.data.memo.computed, **engine.scope(dataset.runs[0]).memo.computed}


def test_what_does_not_depend_on_an_axis_is_shared_across_it():
    # 24 flavors: 2 cutoffs x 2 gains x 2 ideals x 3 tie orders
    computed = _computed([f"ndcg@{k} gain={g} ideal={i} ties={t}" for k in (3, 10) for g in ("linear", "exp2")
                          for i in ("global", "local") for t in ("docid_desc", "average", "input")])
    assert computed["score_matrix"] == 1  # the scores laid out once
    assert computed["top_rows"] == 2  # one selection per cutoff
    assert computed["top_gains"] == 4  # joined gains per selection and gain
    assert computed["top_positions"] == 2  # ranks and tie groups per selection, whatever the tie order
    assert computed["judgments"] == 2 and computed["global_ideal"] == 2  # per gain
    assert computed["whole_list_ideal"] == 2  # ideal=local over the whole lists: per gain


def test_a_stage_that_reads_an_axis_is_not_shared_across_it():
    computed = _computed(["ndcg@5", "ndcg@5 precision=f32", "ndcg@5 self_docs=drop", "ndcg@5 negative=drop"])
    assert computed["top_rows"] == 4  # precision, self_docs and negative=drop change which rows are ranked
    assert computed["drops_of"] == 3  # ... and self_docs and negative=drop what is dropped (not precision)
    assert computed["judgments"] == 2  # negative=drop changes which judgments count


def _evaluated_in_turn(monkeypatch, specs: list[str], fast_path: bool = True) -> Counter[str]:
    """Evaluate `specs` one after another through one engine, requiring of each flavor the outcome a fresh engine
    gives it; count the stages computed in every memo (the dataset's, the run's, those kept with ranked rows)."""
    qrels, rows = _data(11, 20, 40, True)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    run, flavors = dataset.runs[0], [rf.Flavor.parse(spec) for spec in specs]
    alone = [_outcome(Engine(dataset, fast_path=fast_path), run, flavor) for flavor in flavors]
    computed: Counter[str] = Counter()
    get = Memo.get

    def counting_get(memo, fn, key, compute):
        def count():
            computed[fn.__qualname__] += 1
            return compute()
        return get(memo, fn, key, count)

    monkeypatch.setattr(Memo, "get", counting_get)
    shared = Engine(dataset, fast_path=fast_path)
    for flavor, outcome in zip(flavors, alone, strict=True):
        assert _outcome(shared, run, flavor) == outcome, str(flavor)
    return computed


def test_a_value_kept_with_the_ranked_rows_is_shared_only_by_flavors_that_agree_on_what_it_reads(monkeypatch):
    # one selection, gain and tie order: the five flavors rank one object of rows, and iprec's table reads rel_level
    computed = _evaluated_in_turn(monkeypatch, ["iprec(level=0.5)", "iprec(level=0.2)", "iprec_avg",
                                               "iprec(level=0.5) rel_level=2", "iprec_avg rel_level=3"])
    assert computed["top_ranked"] == 1 and computed["qrels_rows"] == 1
    assert computed["interpolation_table"] == 3  # one per rel_level, for every level and points

    # trec_eval's gain measures: the frame reads gain, negative and min_grade (so do the ranked rows)
    computed = _evaluated_in_turn(monkeypatch, ["g", "rndcg", "ndcg_rel", "g gain=exp2", "ndcg_rel gain=exp2",
                                               "g negative=keep", "rndcg min_grade=2"])
    assert computed["top_ranked"] == 4 and computed["gain_frame"] == 4  # one per (gain, negative, min_grade)

    # every row ranked once, two cutoffs: the judged share of the top k is one per cutoff, the ranks of the rows
    # in the qrels one for both
    computed = _evaluated_in_turn(monkeypatch, ["p@3", "recall@3", "p@10", "recall@10"], fast_path=False)
    assert computed["ranked_rows"] == 1 and computed["qrels_rows"] == 1 and computed["qrels_shape"] == 1
    assert computed["qrels_positions"] == 2 and computed["judged_in_top"] == 2


def test_what_is_kept_with_the_ranked_rows_is_made_once_per_selection_gain_and_tie_order(monkeypatch):
    # 24 flavors: 2 cutoffs x 2 gains x 2 ideals x 3 tie orders; ndcg reads the rows in the qrels alone unless
    # ties=average or ideal=local (Metric.reads_qrels_rows_only)
    computed = _evaluated_in_turn(monkeypatch, [
        f"ndcg@{k} gain={g} ideal={i} ties={t}" for k in (3, 10) for g in ("linear", "exp2")
        for i in ("global", "local") for t in ("docid_desc", "average", "input")])
    assert computed["top_ranked"] == 12  # one object of ranked rows per (selection, gain, ties)
    assert computed["qrels_rows"] == 8  # ... their rows in the qrels when read so: ties=docid_desc or input, ideal=global
    assert computed["judged_in_top"] == 20  # once per object of rows read: 12 whole, 8 in the qrels


def test_the_warnings_cache_keeps_values_by_run_and_whole_flavor():
    qrels, rows = _data(3, 4, 6, False)
    run = pd.DataFrame(rows, columns=["query", "doc", "score"])
    first, second = prepare(qrels, run)[0].runs[0], prepare(qrels, run)[0].runs[0]  # (two runs of one name)
    flavor = rf.Flavor.parse("ndcg@5")
    cache = Cache()
    cache.put(first, flavor, np.ones(3))
    assert cache.has(first, flavor) and cache.get(first, rf.Flavor.parse("ndcg@5")) is not None
    assert not cache.has(second, flavor) and cache.get(second, flavor) is None
    assert cache.get(first, flavor.with_(ties="pessimistic")) is None
    with pytest.raises(TypeError, match="by Flavor"):
        cache.put(first, "ndcg@5", np.ones(3))
