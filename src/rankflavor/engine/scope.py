"""Where stage results are kept: a memo keyed by the stage function and every argument it receives.

A stage is a plain function `stage(scope, *parts)`: `scope` says what it works on (the dataset, and a run
or not) and `parts` are the typed flavor parts it reads (a `Gain`, a cutoff, a `Ties`, ...), never the
whole Flavor. `scope.stage(fn, *parts)` computes it once per distinct arguments (the scope stands in the
key by its run). As the key is every argument, two flavors share a stage's result exactly when they agree
on every part it reads: a new axis cannot be forgotten in a hand-written key, since there is none. `Memo`
refuses a Flavor as an argument. Nothing a memo holds refers back to it, so a memo dropped is freed at once
(a chunk's, many times in one evaluation).

Scopes: `DatasetScope` (qrels-side results shared by every run: gains, ideal lists), `RunScope` (one run's
layout, joins, selections; released run by run), throwaway scopes for a chunk of a run, and `RowsScope` (one
set of ranked rows: what several metrics and cutoffs compute from the same rows, kept with them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rankflavor.flavor import Flavor

if TYPE_CHECKING:
    from rankflavor.inputs.dataset import Dataset, InternedRun

T = TypeVar("T")


class Memo:
    """Results of stage functions, keyed by (function, arguments); `computed` counts the computations."""

    def __init__(self) -> None:
        self._values: dict[tuple[Any, ...], Any] = {}
        self.computed: Counter[str] = Counter()

    def __call__(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args), once per distinct (fn, args)."""
        return self.get(fn, args, lambda: fn(*args))

    def get(self, fn: Callable[..., T], key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """The result of `fn` for the arguments `key` stands for, computed by `compute` the first time."""
        try:
            return self._values[(fn, key)]
        except KeyError:
            pass
        if any(isinstance(a, Flavor) for a in key):
            raise TypeError(f"stage {fn.__qualname__} was given a whole Flavor: pass the parts it reads")
        value = self._values[(fn, key)] = compute()
        self.computed[fn.__qualname__] += 1
        return value

    def has(self, fn: Callable[..., Any], *key: Any) -> bool:
        """Whether fn is computed already for these arguments."""
        return (fn, key) in self._values

    def clear(self) -> None:
        self._values.clear()


class DatasetScope:
    """The dataset, and the memo of the stages that read only the qrels side."""

    def __init__(self, dataset: Dataset) -> None:
        self.dataset = dataset
        self.memo = Memo()

    def stage(self, fn: Callable[..., T], *parts: Any) -> T:
        return self.memo.get(fn, parts, lambda: fn(self, *parts))

    def has(self, fn: Callable[..., Any], *parts: Any) -> bool:
        return self.memo.has(fn, *parts)


class RunScope:
    """One run of the dataset, the memo of its stages, and the dataset's scope. Runs derived from a run (its
    judged docs, some of its queries) share its memo: the run stands in every key."""

    def __init__(self, data: DatasetScope, run: InternedRun, memo: Memo | None = None) -> None:
        self.data = data
        self.dataset = data.dataset
        self.run = run
        self.memo = Memo() if memo is None else memo

    def stage(self, fn: Callable[..., T], *parts: Any) -> T:
        return self.memo.get(fn, (self.run, *parts), lambda: fn(self, *parts))

    def shared(self, fn: Callable[..., T], *parts: Any) -> T:
        """A stage of the qrels side (shared by every run)."""
        return self.data.stage(fn, *parts)


class HoldsMemo(Protocol):
    """What RowsScope reads of ranked rows (engine/lists.py `Rows`): the memo they hold."""

    memo: Memo


class RowsScope:
    """One object of ranked rows (engine/lists.py `Rows`), and the memo of the stages over them, which the rows
    hold and which dies with them. The rows are one object per stage that made them, shared by the flavors that
    agree on its parts (from_prefix.py `top_ranked`: per selection, gain, negative, min_grade and tie policy), so
    a stage here is computed once for those flavors and for each distinct `parts`: what it reads beyond the rows
    (their `Positions`, a rel_level, a gain: never the lists' spec, which it is not given). Values kept here
    refer to no scope, so that a chunk's scopes are freed at once when dropped."""

    def __init__(self, data: DatasetScope, rows: HoldsMemo) -> None:
        self.data = data
        self.dataset = data.dataset
        self.rows = rows

    def stage(self, fn: Callable[..., T], *parts: Any) -> T:
        return self.rows.memo.get(fn, parts, lambda: fn(self, *parts))

    def shared(self, fn: Callable[..., T], *parts: Any) -> T:
        """A stage of the qrels side (shared by every run)."""
        return self.data.stage(fn, *parts)
