"""`replace` for the engine's plain records (engine/, inputs/dataset.py, inputs/query_major.py): classes with a
written `__init__` rather than dataclasses, as Python 3.11 compiles a dataclass's methods when its module is
imported (about 0.4 ms a class: a tenth of a `rankflavor trec_eval` call's own imports)."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def replace(record: T, **changes: object) -> T:
    """A new record made by its class's `__init__` from the record's values of the init's parameters, some of
    them changed (dataclasses.replace: what `__init__` does not take, a cached value included, starts afresh)."""
    code = type(record).__init__.__code__
    names = code.co_varnames[1:code.co_argcount]
    unknown = sorted(set(changes) - set(names))
    if unknown:
        raise TypeError(f"{type(record).__name__}() takes no argument {unknown[0]!r}")
    return type(record)(**{name: changes[name] if name in changes else getattr(record, name) for name in names})
