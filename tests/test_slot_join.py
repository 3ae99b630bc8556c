"""engine/_slot_join.c, the slots' pass of the run-qrels join (engine/join.py): against the definition written
with Python's loop over the same arrays, for int32 and int64 codes and tables, with and without a doc table, slots
that hold several judgments, and slices that start inside a run; indexes beyond a table are refused, never read.
End to end, the engine with the compiled pass and with numpy's gathers: tests/test_engine_fast.py
(test_fast_path_is_taken_and_exact, `filtered`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankflavor.engine import join

WIDTHS = st.sampled_from([np.int32, np.int64])


def definition(q, d, q_base, d_slot, slots, qrels_d, d_table, start):
    """(rows, qrels row or -1) of the rows whose slot holds their own judgment, or several."""
    rows, found = [], []
    for i in range(len(q)):
        held = int(slots[q_base[q[i]] + d_slot[d[i]]])
        doc = int(d[i]) if d_table is None else int(d_table[d[i]])
        if held < 0 or (held > 0 and int(qrels_d[held - 1]) == doc):
            rows.append(start + i)
            found.append(-1 if held < 0 else held - 1)
    return rows, found


@given(st.integers(0, 2**32 - 1), st.integers(0, 60), st.integers(1, 6), st.integers(1, 9), st.booleans(),
       st.integers(0, 1000), st.tuples(WIDTHS, WIDTHS, WIDTHS, WIDTHS))
def test_compiled_pass_follows_the_definition(seed, n, queries, docs, with_table, start, widths):
    compiled = join._compiled_join()
    assert compiled is not None, "engine/_slot_join.c is not built (pip install -e .)"
    rng = np.random.default_rng(seed)
    codes, tables, slot_kind, qrels_kind = widths
    width = int(rng.integers(1, 5))
    q = rng.integers(0, queries, n).astype(codes)
    d = rng.integers(0, docs, n).astype(codes)
    q_base = (np.arange(queries) * width).astype(tables)
    d_slot = rng.integers(0, width, docs).astype(tables)
    qrels_d = rng.integers(0, docs, int(rng.integers(1, 12))).astype(qrels_kind)
    slots = rng.integers(-1, len(qrels_d) + 1, queries * width).astype(slot_kind)  # (-1: several; 0: none)
    d_table = rng.permutation(docs).astype(np.int64) if with_table else None
    rows, at = np.full(n, 99, dtype=np.int64), np.full(n, 99, dtype=np.int64)
    k = compiled.slot_hits(q, d, q_base, d_slot, slots, qrels_d, d_table, start, rows, at)
    assert (rows[:k].tolist(), at[:k].tolist()) == definition(q, d, q_base, d_slot, slots, qrels_d, d_table, start)


def _arrays():
    q = np.array([0, 1], dtype=np.int32)
    d = np.array([1, 0], dtype=np.int32)
    q_base = np.array([0, 2], dtype=np.int32)
    d_slot = np.array([0, 1], dtype=np.int32)
    slots = np.array([1, 2, 0, 1], dtype=np.int32)
    return [q, d, q_base, d_slot, slots, np.array([1, 0], dtype=np.int64), None]


@pytest.mark.parametrize(("which", "value", "message"), [
    (0, np.array([0, 2], dtype=np.int32), "query code beyond q_base"),
    (1, np.array([1, -1], dtype=np.int32), "doc code beyond d_slot"),
    (2, np.array([0, 4], dtype=np.int32), "slot beyond the slots"),
    (4, np.array([1, 3, 0, 3], dtype=np.int32), "row beyond qrels_d"),
    (6, np.array([0], dtype=np.int64), "doc code beyond d_table"),
    (0, np.array([0, 1], dtype=np.uint32), "int32 or int64 array"),
    (4, np.array([1.0, 2.0, 0.0, 1.0]), "int32 or int64 array"),
])
def test_indexes_beyond_a_table_are_refused(which, value, message):
    arrays = _arrays()
    arrays[which] = value
    out = np.zeros(2, dtype=np.int64)
    with pytest.raises(ValueError, match=message):
        join._compiled_join().slot_hits(*arrays, 0, out, out.copy())


def test_outputs_too_short_are_refused():
    with pytest.raises(ValueError, match="fewer than len"):
        join._compiled_join().slot_hits(*_arrays(), 0, np.zeros(1, dtype=np.int64), np.zeros(2, dtype=np.int64))


def test_numpy_gathers_when_turned_off(monkeypatch):
    monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", "1")
    assert join._compiled_join() is None


class _Failing:
    """A compiled module whose pass fails on the rows from 4 on (the second thread's half)."""

    @staticmethod
    def slot_hits(q, d, q_base, d_slot, slots, qrels_d, d_table, start, rows, at):
        if start >= 4:
            raise ValueError("slot_hits: a slot beyond the slots")
        return 0


def test_a_failure_on_the_second_thread_is_raised_by_the_caller(monkeypatch):
    monkeypatch.setattr(join, "PARALLEL_ROWS", 0)
    codes = join.Codes(np.zeros(8, dtype=np.int64))
    ds = type("Dataset", (), {"qrels": type("Qrels", (), {"d": np.zeros(1, dtype=np.int64)})})
    parts = [slice(0, 4), slice(4, 8)]
    with pytest.raises(ValueError, match="beyond the slots"):
        join._compiled_pass(_Failing, ds, codes, codes, np.zeros(1), np.zeros(1), np.zeros(1), parts)
    assert [len(hit) for hit, _, _ in join._compiled_pass(_Failing, ds, codes, codes, np.zeros(1), np.zeros(1),
                                                         np.zeros(1), parts[:1])] == [0]
