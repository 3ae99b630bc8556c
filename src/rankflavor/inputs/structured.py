"""Saved JSON (`rankflavor.load`, `eval --against`) and TOML (a project's flavors), read within bounds: the input cap
(the file's bytes: rankflavor/limits.py, `--max-input`), the nesting cap (`RANKFLAVOR_MAX_DEPTH`, default 64: a
file nested deeper is refused before a parser recurses into it), and JSON's numbers finite (`NaN`, `Infinity`,
`1e999` are not JSON, and a report holding one would be written back as invalid JSON)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from rankflavor.errors import InputError
from rankflavor.inputs.bounded import read_file_capped
from rankflavor.limits import depth_cap

_STEP = 1 << 18  # characters per block of the nesting count (its arrays: 3 MB)
JSON_OBJECTS = 10  # bytes of Python values per byte of JSON, about (dicts and strings of a saved report's rows)
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_TOML_SKIP = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*', re.DOTALL)


def read_text(path: str | Path, fix: str) -> str:
    """A small text file's UTF-8 text (a BOM dropped), within the input cap; InputError naming the file."""
    try:
        data = read_file_capped(path, text=True)
    except FileNotFoundError:
        raise InputError("file not found", source=str(path), fix=fix) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=str(path), fix=fix) from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror or exc})", source=str(path), fix=fix) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot be read as UTF-8 text ({exc.reason} at byte {exc.start})", source=str(path),
                         fix=fix) from None


def nesting(text: str, skip: re.Pattern[str]) -> int:
    """The deepest nesting of [ and { in `text`, outside what `skip` matches (strings, comments), a block at a
    time (no array as long as the text)."""
    import numpy as np

    codes = np.frombuffer(skip.sub("", text).encode("utf-8", "surrogatepass"), dtype=np.uint8)
    depth = peak = 0
    for start in range(0, len(codes), _STEP):
        part = codes[start:start + _STEP]
        steps = (part == 91).astype(np.int32) + (part == 123) - (part == 93) - (part == 125)
        levels = np.cumsum(steps, dtype=np.int64) + depth
        peak, depth = max(peak, int(levels.max(initial=0))), int(levels[-1]) if len(levels) else depth
    return peak


def check_depth(text: str, path: str | Path, skip: re.Pattern[str], fix: str) -> None:
    depth, cap = nesting(text, skip), depth_cap()
    if depth > cap:
        raise InputError(f"it nests {depth} levels deep, more than {cap}, the nesting cap (RANKFLAVOR_MAX_DEPTH; what "
                         "rankflavor writes nests 5 deep)", source=str(path), fix=fix)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is beyond a double's range (it reads as infinity)")
    return value


def load_json(path: str | Path, fix: str) -> Any:
    """A saved JSON's value: within the input and nesting caps, every number finite; InputError naming the file,
    the line and what is wrong."""
    text = read_text(path, fix)
    check_depth(text, path, _JSON_STRING, fix)
    from rankflavor.limits import MEMORY_OPTION, budget, size_text

    if len(text) * JSON_OBJECTS > budget():
        raise InputError(f"read as Python values it takes about {size_text(len(text) * JSON_OBJECTS)} ({JSON_OBJECTS} "
                         f"times its size), more than the memory budget, {size_text(budget())}", source=str(path),
                         fix=f"raise the budget ({MEMORY_OPTION}), or save fewer results (without --per-query)")
    try:
        return json.loads(text, parse_constant=_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        lines = text.splitlines()
        raise InputError(f"not JSON: {exc.msg} (column {exc.colno})", source=str(path), line=exc.lineno,
                         text=lines[exc.lineno - 1] if 0 < exc.lineno <= len(lines) else None, fix=fix) from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"not JSON as rankflavor writes it: {exc}", source=str(path), fix=fix) from None


def load_toml(path: str | Path, fix: str) -> dict[str, Any]:
    """A TOML file's table, within the input and nesting caps; InputError naming the file and what is wrong."""
    import tomllib  # (here: its import costs start-up time that only a TOML file needs)

    text = read_text(path, fix)
    check_depth(text, path, _TOML_SKIP, fix)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML ({exc})", source=str(path), fix=fix) from None
    except RecursionError:
        raise InputError("nested too deep to read", source=str(path), fix=fix) from None
