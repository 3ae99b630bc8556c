"""What trec_eval's C does with text and how it stops: atol and atof as its parameter parsing reads numbers
(meas_init.c, trec_eval.c), and TrecEvalExit, an exit with trec_eval's code and one line for stderr."""

from __future__ import annotations

import math
import re

_C_SPACE = "[ \t\n\v\f\r]*"  # (C's isspace in the C locale)
# (patterns as text: `re` compiles each the first time it is used, not at every start-up)
_LEADING_INT = _C_SPACE + r"([+-]?[0-9]+)"
_LEADING_FLOAT = ("(?i)" + _C_SPACE + r"([+-]?)(?:(0x(?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?[0-9]+)?)|"
                  r"((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?)|(inf(?:inity)?)|(nan(?:\([0-9a-z_]*\))?))")


class TrecEvalExit(Exception):
    """trec_eval stops: its exit code and one line for stderr (empty: nothing to say)."""

    def __init__(self, code: int, message: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


LONG_MAX = (1 << 63) - 1


def atol(text: str) -> int:
    """C's atol (glibc's strtol): the leading integer of a string, 0 when there is none, clamped to a long (of any
    length: past 19 digits it is beyond a long, and Python's int() refuses over 4,300)."""
    match = re.match(_LEADING_INT, text)
    if match is None:
        return 0
    sign, digits = match.group(1)[:1], match.group(1).lstrip("+-").lstrip("0") or "0"
    value = int(digits) if len(digits) <= 19 else LONG_MAX + 1
    return max(-LONG_MAX - 1, min(LONG_MAX, -value if sign == "-" else value))


def atof(text: str) -> float:
    """C's atof (glibc's strtod without error reporting): the longest prefix that is a decimal or hexadecimal
    (`0x1.8p3`) number, `inf`, `infinity` or `nan[(chars)]`, in any case, after white space; 0 when there is none
    (`1e400` is inf, `0x` alone reads its 0)."""
    match = re.match(_LEADING_FLOAT, text)
    if match is None:
        return 0.0
    sign, hexadecimal, decimal, infinite, _nan = match.groups()
    negative = sign == "-"
    if hexadecimal is not None:
        try:
            value = float.fromhex(hexadecimal + ("p0" if "p" not in hexadecimal.lower() else ""))
        except OverflowError:  # (beyond a double: strtod's HUGE_VAL)
            value = math.inf
    elif decimal is not None:
        value = float(decimal)
    else:
        value = math.inf if infinite is not None else math.nan
    return -value if negative else value


def c_longs(text: str) -> list[int]:
    """A comma-separated parameter string as meas_init.c's get_long_cutoffs reads it."""
    return [atol(part) for part in text.split(",")]


def c_doubles(text: str) -> list[float]:
    """A comma-separated parameter string as meas_init.c's get_double_cutoffs and get_double_params read it."""
    return [atof(part) for part in text.split(",")]
