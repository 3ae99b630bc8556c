"""Sizes in bytes as a person writes them (`8G`, `512MB`, `1.5GB`) and as a message shows them (`1.5 GB`): the
memory budget's, the input cap's and the size-valued RANKFLAVOR_* variables' (environment.py, limits.py)."""

from __future__ import annotations

import math
import re

from rankflavor.errors import UsageError

MEMORY_OPTION = "--max-memory SIZE, max_memory= in Python, or RANKFLAVOR_MAX_MEMORY"
_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20,
          "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}
_SIZE = r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*([A-Za-z]*)\s*"
LARGEST = 1 << 60  # a size beyond any machine's memory: refused as a typo (an exabyte)


def parse_size(text: str | int | float, what: str = "the memory budget", option: str = MEMORY_OPTION,
               least: int = 1 << 20) -> int:
    """Bytes of a size: a number of bytes, or with a unit (K, M, G, T; KB = KiB = 1024 bytes): `8G`, `512MB`."""
    if isinstance(text, bool):
        raise UsageError(f"{what} {text!r} ({option}) is not a size: give bytes or a size such as 8G")
    if isinstance(text, (int, float)):
        value, unit = float(text), ""
    else:
        match = re.fullmatch(_SIZE, str(text))
        if match is None or match.group(2).upper() not in _UNITS:
            raise UsageError(f"{what} {text!r} ({option}) is not a size: give bytes or a size such as 8G, 512M "
                             "or 1.5GB")
        value, unit = float(match.group(1)), match.group(2).upper()
    size = value * _UNITS[unit]
    if not math.isfinite(size) or size < least:
        raise UsageError(f"{what} {text!r} ({option}) is too small: give at least {size_text(least)} (a size such "
                         "as 8G or 512M)")
    if size > LARGEST:
        raise UsageError(f"{what} {text!r} ({option}) is larger than any machine's memory: give a size such as 8G")
    return int(size)


def size_text(size: float) -> str:
    """A size for a message: `1.5 GB`, `640 MB`, `12 KB`, `300 bytes` (units of 1024)."""
    for unit, scale in (("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            value = size / scale
            return f"{value:,.1f} {unit}".replace(".0 ", " ") if value < 100 else f"{value:,.0f} {unit}"
    return f"{int(size)} bytes"
