"""The bounds every read and every evaluation keeps to, and the options that set them (docs/inputs.md, "Bounds").

- The memory budget (`--max-memory SIZE`, `max_memory=` in Python, `RANKFLAVOR_MAX_MEMORY`): what an evaluation may
  hold (engine/budget.py plans within it). Default: half of what this process can still get: the least of the
  machine's available memory (MemAvailable), its cgroup's room (memory.max less memory.current, cgroup v2 or v1)
  and its rlimits' room (RLIMIT_AS less the address space in use, RLIMIT_DATA less the data in use); 4 GiB when
  none can be read.
- The input cap (`--max-input SIZE`, `RANKFLAVOR_MAX_INPUT`, `rankflavor.limits.max_input(SIZE)` in Python): the
  most bytes one input may hold as read, and again once decompressed or decoded, or as a Parquet or Arrow file
  declares its columns. Default: a quarter of the memory budget (the slowest reader holds about four copies).
- The nesting cap (`RANKFLAVOR_MAX_DEPTH`, default 64): how deep a saved JSON or a TOML file may nest (what
  rankflavor writes nests 5 deep).

Each is a ContextVar (a block or the process); each refusal names the cap and the option that raises it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token

from rankflavor.sizes import LARGEST, MEMORY_OPTION, parse_size, size_text

FALLBACK = 4 << 30  # the budget when the machine's available memory cannot be read
INPUT_SHARE = 4  # the input cap's default: the budget / INPUT_SHARE
DEPTH = 64  # the nesting cap's default
INPUT_OPTION = "--max-input SIZE, RANKFLAVOR_MAX_INPUT, or rankflavor.limits.max_input(SIZE) in Python"
_budget: ContextVar[int | None] = ContextVar("rankflavor_max_memory", default=None)
_input: ContextVar[int | None] = ContextVar("rankflavor_max_input", default=None)




def _environment(name: str, what: str, option: str) -> int | None:
    text = os.environ.get(name)
    if text is None or not text.strip():
        return None
    return parse_size(text, what, f"{option}: the variable {name}")


@contextmanager
def max_memory(size: str | int | float | None) -> Iterator[None]:
    """Evaluations inside the block keep within `size` (None: the budget already set, else the default)."""
    if size is None:
        yield
        return
    token = _budget.set(parse_size(size))
    try:
        yield
    finally:
        _budget.reset(token)


def set_max_memory(size: str | int | float | None) -> Token:
    """The budget for the rest of the process (the CLI's `--max-memory`); the token that `reset` takes."""
    return _budget.set(None if size is None else parse_size(size))


def reset(*tokens: Token) -> None:
    """Put back what `set_max_memory` and `set_max_input` replaced (the CLI, once a command is done)."""
    for token in reversed(tokens):
        token.var.reset(token)


def budget() -> int:
    """The budget in bytes: the one set, else RANKFLAVOR_MAX_MEMORY, else the default (module docstring)."""
    chosen = chosen_budget()
    return chosen if chosen is not None else default_budget()


def chosen_budget() -> int | None:
    """The budget set (an option, max_memory=, RANKFLAVOR_MAX_MEMORY), or None for the default."""
    chosen = _budget.get()
    return chosen if chosen is not None else _environment("RANKFLAVOR_MAX_MEMORY", "the memory budget",
                                                          "--max-memory")


def budget_chosen() -> bool:
    """Whether the budget was set (an option, max_memory=, the variable), rather than the default."""
    return _budget.get() is not None or bool(os.environ.get("RANKFLAVOR_MAX_MEMORY", "").strip())


@contextmanager
def max_input(size: str | int | float | None) -> Iterator[None]:
    """Inputs read inside the block hold at most `size` bytes each (module docstring)."""
    if size is None:
        yield
        return
    token = _input.set(parse_size(size, "the input cap", INPUT_OPTION, least=1 << 10))
    try:
        yield
    finally:
        _input.reset(token)


def set_max_input(size: str | int | float | None) -> Token:
    """The input cap for the rest of the process (the CLI's `--max-input`); the token that `reset` takes."""
    return _input.set(None if size is None else parse_size(size, "the input cap", INPUT_OPTION, least=1 << 10))


def input_cap() -> int:
    """The input cap in bytes: the one set, else RANKFLAVOR_MAX_INPUT, else a quarter of the memory budget."""
    chosen = _input.get()
    if chosen is not None:
        return chosen
    named = _environment("RANKFLAVOR_MAX_INPUT", "the input cap", "--max-input")
    return named if named is not None else max(budget() // INPUT_SHARE, 1 << 20)


def over_input_cap(size: float | None, what: str = "holds") -> str:
    """Why an input is refused: `it holds [SIZE, ]more than CAP, the input cap`, for an InputError's message (`size`
    None: a stream, read up to the cap)."""
    cap = input_cap()
    default = "" if _input.get() is not None or os.environ.get("RANKFLAVOR_MAX_INPUT") else (
        f" (by default a quarter of the memory budget, {size_text(budget())})")
    shown = f"{size_text(size)}, " if size is not None and size > cap else ""
    return f"it {what} {shown}more than {size_text(cap)}, the input cap{default}"


def input_cap_fix() -> str:
    return f"if the input is meant to be this large, raise the cap: {INPUT_OPTION}; else give the right file"


def depth_cap() -> int:
    """The nesting cap of a saved JSON or a TOML file: RANKFLAVOR_MAX_DEPTH, else DEPTH."""
    from rankflavor.environment import whole

    return whole("RANKFLAVOR_MAX_DEPTH", DEPTH)


def room() -> int | None:
    """What this process can still get: the least of the machine's, the cgroup's and the rlimits' room (None: none
    can be read)."""
    rooms = [r for r in (_available(), _cgroup_room(), _rlimit_room()) if r is not None]
    return min(rooms) if rooms else None


def out_of_memory() -> str:
    """The message of a MemoryError (the CLI): the budget, what the process can get, and what to change."""
    left = room()
    chosen = "set" if budget_chosen() else "the default: half of what the process could get"
    can = f"; this process can now get about {size_text(left)} (the machine, its cgroup and its rlimits)" if (
        left is not None) else ""
    return (f"out of memory: an allocation failed under the memory budget of {size_text(budget())} ({chosen}){can}; "
            f"give a memory budget the machine can hold ({MEMORY_OPTION}) so the job is planned or refused up "
            "front, or fewer flavors, runs or queries")


def default_budget() -> int:
    """Half of the least of what the machine, the cgroup and the rlimits leave this process (module docstring),
    read again when the last reading is older than DEFAULT_FRESH seconds (a track's runs ask several times a run:
    four files read each time)."""
    now = time.monotonic()
    if _default_read[1] is None or now - _default_read[0] > DEFAULT_FRESH:
        rooms = [room for room in (_available(), _cgroup_room(), _rlimit_room()) if room is not None]
        _default_read[:] = [now, max(min(rooms) // 2, 1 << 20) if rooms else FALLBACK]
    return _default_read[1]


DEFAULT_FRESH = 0.5  # seconds a reading of the default budget is used again
_default_read: list = [0.0, None]  # (when, bytes)


def _available() -> int | None:
    """MemAvailable (/proc/meminfo), in bytes."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _read_number(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as handle:
            text = handle.read(64).strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _cgroup_room() -> int | None:
    """This process's cgroup's limit less its usage (cgroup v2 memory.max, else v1 memory.limit_in_bytes)."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as handle:
            lines = handle.read(65536).splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[0] == "0" and parts[1] == "":  # (v2)
            base = "/sys/fs/cgroup" + parts[2].rstrip("/")
            limit, used = _read_number(base + "/memory.max"), _read_number(base + "/memory.current")
        elif "memory" in parts[1].split(","):  # (v1)
            base = "/sys/fs/cgroup/memory" + parts[2].rstrip("/")
            limit, used = _read_number(base + "/memory.limit_in_bytes"), _read_number(base + "/memory.usage_in_bytes")
        else:
            continue
        if limit is not None and limit < LARGEST:
            return max(limit - (used or 0), 0)
    return None


def _rlimit_room() -> int | None:
    """RLIMIT_AS less the address space in use, RLIMIT_DATA less the data in use (/proc/self/status)."""
    try:
        import resource
    except ImportError:
        return None
    rooms = []
    for limit, field in ((resource.RLIMIT_AS, "VmSize:"), (resource.RLIMIT_DATA, "VmData:")):
        soft = resource.getrlimit(limit)[0]
        if soft == resource.RLIM_INFINITY or soft <= 0:
            continue
        rooms.append(max(soft - _status_kb(field) * 1024, 0))
    return min(rooms) if rooms else None


def _status_kb(field: str) -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0
