"""dropin/c_reading.py's atol and atof (the parameters of -m, the preference and judgment-group readers) against the
C library's own atol and strtod, called through ctypes, on any text: hexadecimal numbers beyond a double, integers
of thousands of digits (past Python's int() limit), signs, white space, inf and nan."""

from __future__ import annotations

import ctypes
import math
import sys

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from rankflavor.dropin.c_reading import atof, atol

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="compared with glibc's functions")

LIBC = ctypes.CDLL(None)
LIBC.atol.argtypes, LIBC.atol.restype = [ctypes.c_char_p], ctypes.c_long
LIBC.strtod.argtypes, LIBC.strtod.restype = [ctypes.c_char_p, ctypes.c_void_p], ctypes.c_double

PIECES = ["0", "1", "7", "9", "00", "x", "X", "p", "P", "e", "E", ".", "+", "-", " ", "\t", "inf", "INFINITY",
          "nan", "nan(1a)", "a", "f", "p5000", "p-5000", "e400", "e-400", "0x", "1" * 25]
TEXT = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)


def same(ours: float, theirs: float) -> bool:
    if math.isnan(ours) or math.isnan(theirs):
        return math.isnan(ours) and math.isnan(theirs)
    return ours == theirs and math.copysign(1, ours) == math.copysign(1, theirs)


@given(TEXT)
@example("1" * 5000)
@example("-" + "9" * 5000)
@example("  +0000000000000000000000000012abc")
def test_atol_is_the_c_library_s(text):
    assert atol(text) == LIBC.atol(text.encode())


@given(TEXT)
@example("0x1p5000")
@example("-0x1p5000")
@example("0x1p999999999999999999999")
@example("0x0p99999")
@example("0x1.8p3")
@example("1e400")
@example("-1e-400")
def test_atof_is_the_c_library_s(text):
    assert same(atof(text), LIBC.strtod(text.encode(), None))
