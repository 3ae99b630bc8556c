"""What trec_eval's C does with text and how it stops: atol and atof as its parameter parsing reads numbers
(meas_init.c, trec_eval.c), and TrecEvalExit, an exit with trec_eval's code and one line for stderr."""

from __future__ import annotations

import re

_C_SPACE = "[ \t\n\v\f\r]*"  # (C's isspace in the C locale)
_LEADING_INT = re.compile(_C_SPACE + r"([+-]?[0-9]+)")
_LEADING_FLOAT = re.compile(_C_SPACE + r"([+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan))",
                            re.IGNORECASE)


class TrecEvalExit(Exception):
    """trec_eval stops: its exit code and one line for stderr (empty: nothing to say)."""

    def __init__(self, code: int, message: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def atol(text: str) -> int:
    """C's atol: the leading integer of a string, 0 when there is none; beyond a long, LONG_MAX or LONG_MIN (glibc's
    strtol saturates)."""
    match = _LEADING_INT.match(text)
    return min(max(int(match.group(1)), -(1 << 63)), (1 << 63) - 1) if match else 0


def atof(text: str) -> float:
    """C's atof (strtod without error reporting): the longest decimal, `inf` or `nan` prefix, 0 when there is none."""
    match = _LEADING_FLOAT.match(text)
    return float(match.group(1)) if match else 0.0


def c_longs(text: str) -> list[int]:
    """A comma-separated parameter string as meas_init.c's get_long_cutoffs reads it."""
    return [atol(part) for part in text.split(",")]


def c_doubles(text: str) -> list[float]:
    """A comma-separated parameter string as meas_init.c's get_double_cutoffs and get_double_params read it."""
    return [atof(part) for part in text.split(",")]
