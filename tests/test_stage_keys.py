"""The engine's stage memo (engine/scope.py): a stage's result is keyed by the function and every argument it
receives, so no flavor reuses a result that depends on an axis on which it differs from the flavor that made
it; what does not depend on that axis is still shared."""

from __future__ import annotations

from dataclasses import fields

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
from strategies import axis_values, flavors
from test_engine_fast import _data


def _outcome(engine: Engine, run, flavor):
    try:
        results = engine.evaluate(run, [flavor])[0].results
    except rf.EvaluationError as exc:
        return str(exc)
    out = {}
    for f in fields(results):
        value = getattr(results, f.name)
        if f.name == "parts":
            value = {name: part.tobytes() for name, part in value.items()}
        elif isinstance(value, np.ndarray):
            value = value.tobytes()
        out[f.name] = value
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
