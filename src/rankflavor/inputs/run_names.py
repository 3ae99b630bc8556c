"""Runs' names: the default (a run's file name; its path when two file names collide; numbered when still equal),
the names a user gives (`--name FILE=NAME`, `names=`; `pipeline.apply_names` applies them), and a run found by
its name, its path as typed or its file name (`--baseline`)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rankflavor.errors import UsageError


def default_names(runs: Sequence[tuple[str, str | None]]) -> list[str]:
    """Each run's name from its (file name, path as typed): the file name; the path when two file names collide;
    numbered (`name#2`) when still equal."""
    names = [name for name, _ in runs]
    names = [path if names.count(name) > 1 and path else name for name, path in zip(names, (p for _, p in runs),
                                                                                   strict=True)]
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if names.count(name) == 1 else f"{name}#{seen[name]}")
    return out


def typed_path(run: Any) -> str | None:
    """The path a run was given as (a str or Path; a prefetched file's path), None for a run held in memory."""
    if isinstance(run, (str, Path)):
        return str(run)
    path = getattr(run, "path", None)
    return str(path) if isinstance(path, (str, Path)) else None


def parse_name_options(items: Sequence[str]) -> dict[str, str]:
    """{FILE: NAME} from `--name FILE=NAME` options (the last `=` splits: a path may hold one, a name not)."""
    out: dict[str, str] = {}
    for item in items:
        path, sep, name = item.rpartition("=")
        if not sep or not path or not name.strip():
            raise UsageError(f"--name {item!r}: write FILE=NAME, e.g. --name runs/bm25.txt=BM25")
        if path in out:
            raise UsageError(f"--name {path}=...: given twice ({out[path]!r} and {name!r})")
        out[path] = name
    return out


def given_names(typed: Sequence[str | None], names: Sequence[str] | Mapping[str, str]) -> list[str]:
    """The name of each run: `names` as a list (one per run, in order), or {run: name} where a run is its path
    as typed or its file name; a run not named keeps its default name. A name for no run given, or two runs with
    one name, is a UsageError (exit 2)."""
    files = [Path(t).name if t else (f"run{i + 1}" if len(typed) > 1 else "run") for i, t in enumerate(typed)]
    out = default_names(list(zip(files, typed, strict=True)))
    if isinstance(names, Mapping):
        for key, name in names.items():
            out[_index_of(str(key), typed, files, out, name)] = _checked(name)
    else:
        names = [names] if isinstance(names, str) else list(names)
        if len(names) != len(typed):
            raise UsageError(f"{len(names)} names for {len(typed)} runs: give one name per run, in order, or "
                             "{run: name}")
        out = [_checked(name) for name in names]
    for name in dict.fromkeys(out):
        holders = [typed[i] or files[i] for i, n in enumerate(out) if n == name]
        if len(holders) > 1:
            raise UsageError(f"two runs named {name!r}: {', '.join(holders)}; give each run its own name "
                             "(--name FILE=NAME, names=)")
    return out


def _checked(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise UsageError(f"a run's name must be a non-empty string, not {name!r}")
    return name


def _index_of(key: str, typed: Sequence[str | None], files: list[str], defaults: list[str], name: str) -> int:
    """The run `key` stands for: its path as typed (or the same path written otherwise), else its file name or
    default name when exactly one run has it."""
    for i, t in enumerate(typed):
        if t is not None and (t == key or os.path.normpath(t) == os.path.normpath(key)):
            return i
    for candidates in (files, defaults):
        found = [i for i, f in enumerate(candidates) if f == key]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise UsageError(f"a name for {key!r} ({name!r}): {len(found)} runs have that file name "
                             f"({', '.join(str(typed[i]) for i in found)}); name one by its path")
    given = ", ".join(t or f for t, f in zip(typed, files, strict=True))
    raise UsageError(f"a name for {key!r} ({name!r}): no run given is {key!r}; the runs: {given}")


def find_run(wanted: str, runs: Sequence[str], paths: Mapping[str, str | None]) -> str | None:
    """The run `wanted` names: a run's name, its path as typed (or the same path written otherwise), or its file
    name when exactly one run has it; None when none does, a UsageError when several do. paths: {run name: path
    as typed}."""
    if wanted in runs:
        return wanted
    norm = os.path.normpath(wanted)
    for run in runs:
        path = paths.get(run)
        if path is not None and (path == wanted or os.path.normpath(path) == norm):
            return run
    by_file = [run for run in runs if paths.get(run) is not None and Path(str(paths[run])).name == wanted]
    if len(by_file) > 1:
        raise UsageError(f"run {wanted!r} is ambiguous: {len(by_file)} runs have that file name "
                         f"({', '.join(by_file)}); name one by its path or its run name")
    return by_file[0] if by_file else None

