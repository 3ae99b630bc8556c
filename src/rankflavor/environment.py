"""The environment variables rankflavor reads (docs/inputs.md, "Bounds"), each declared once with its range: a
value outside it is a UsageError naming the variable, the value and the range (exit 2 from the CLI, which checks
every one set before the command runs: `check_all`), never a silent default nor an internal error. An empty
value is unset.
"""

from __future__ import annotations

import importlib
import math
import os
from typing import Any, NamedTuple

from rankflavor.errors import UsageError


class Variable(NamedTuple):  # (a table row; a NamedTuple is made at start-up for a fifth of a dataclass's cost)
    name: str
    kind: str  # "whole" (a whole number), "seconds" (a decimal number), "size" (bytes or 8G: limits.parse_size)
    least: float
    most: float
    means: str


VARIABLES = {v.name: v for v in (
    Variable("RANKFLAVOR_MAX_MEMORY", "size", 1 << 20, 1 << 60, "the memory budget (--max-memory)"),
    Variable("RANKFLAVOR_MAX_INPUT", "size", 1 << 10, 1 << 60, "the input cap (--max-input)"),
    Variable("RANKFLAVOR_MAX_DEPTH", "whole", 1, 500, "the nesting cap of a saved JSON or a TOML file (default 64)"),
    Variable("RANKFLAVOR_PROCESSES", "whole", 1, 256, "eval --format trec's worker processes (1: one process)"),
    Variable("RANKFLAVOR_PROGRESS_AFTER", "seconds", 0, 86_400, "seconds before the progress line shows (default 3)"),
    Variable("RANKFLAVOR_JEMALLOC_DECAY", "whole", 0, 3_600_000, "Arrow's jemalloc decay in milliseconds"),
)}


def _refuse(variable: Variable, text: str, why: str) -> UsageError:
    kind = "a whole number" if variable.kind == "whole" else "a number"
    return UsageError(f"{variable.name}={text!r} {why}: give {kind} from {variable.least:,.0f} to "
                      f"{variable.most:,.0f} ({variable.means}), or unset it")


def value(name: str) -> float | None:
    """The variable's value, checked against its range; None when unset or empty."""
    variable = VARIABLES[name]
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    if variable.kind == "size":
        from rankflavor.sizes import parse_size

        return parse_size(text, variable.means.split(" (")[0], f"the variable {name}", least=int(variable.least))
    try:
        number = int(text) if variable.kind == "whole" else float(text)
    except ValueError:
        raise _refuse(variable, text, "is not " + ("a whole number" if variable.kind == "whole" else "a number")) from None
    if not math.isfinite(number) or not variable.least <= number <= variable.most:
        raise _refuse(variable, text, "is out of range")
    return number


def whole(name: str, default: int) -> int:
    """A whole-number variable's value, else `default`."""
    found = value(name)
    return default if found is None else int(found)


def seconds(name: str, default: float) -> float:
    found = value(name)
    return default if found is None else float(found)


def check_all() -> None:
    """Every variable set, checked (the CLI, before the command runs)."""
    for name in VARIABLES:
        value(name)


def compiled_module(name: str) -> Any:
    """The compiled extension `name` (a module imported on first use), or None when it is not built (a checkout run
    from its sources) or RANKFLAVOR_PURE_PYTHON=1 asks for the Python path."""
    if pure_python():
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def pure_python() -> bool:
    """RANKFLAVOR_PURE_PYTHON set (not empty, not 0): the Python readers and Arrow's sorts instead of the compiled
    extensions (inputs/_trec_reader.c, inputs/_string_order.c, dropin/_te_reader.c, engine/_slot_join.c), each
    of which is optional."""
    return os.environ.get("RANKFLAVOR_PURE_PYTHON", "") not in ("", "0")
