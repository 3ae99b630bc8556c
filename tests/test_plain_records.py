"""plain_records.replace, dataclasses.replace for the engine's plain records: a new record made by `__init__`, the
changed values taken, the others kept, what `__init__` does not take (cached values) made afresh, and a name
`__init__` does not take refused."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from rankflavor.inputs.dataset import InternedQrels
from rankflavor.plain_records import replace


class Record:
    def __init__(self, a: int, b: list[int] | None = None) -> None:
        self.a = a
        self.b = [] if b is None else b
        self.later = None  # (not an __init__ parameter: starts afresh)

    @functools.cached_property
    def doubled(self) -> int:
        return 2 * self.a


def test_replace_makes_a_new_record_by_its_init():
    old = Record(1, [5])
    old.later = "set"
    assert old.doubled == 2  # (cached on the old record)
    new = replace(old, a=3)
    assert (new.a, new.b, new.later, new.doubled) == (3, [5], None, 6)
    assert new.b is old.b and new is not old
    assert (old.a, old.doubled) == (1, 2)


def test_replace_refuses_a_name_init_does_not_take():
    with pytest.raises(TypeError, match="takes no argument 'later'"):
        replace(Record(1), later=2)


def test_replace_on_an_engine_record():
    qrels = InternedQrels(None, np.array([0]), np.array([1]), np.array([2.0]), np.array([1]))
    new = replace(qrels, grade=np.array([3.0]))
    assert new.grade.tolist() == [3.0] and new.q is qrels.q and new.position is None
