"""The few Arrow compute kernels the TREC path calls, called by name without importing `pyarrow.compute`.

`import pyarrow.compute` generates a Python wrapper, docstring included, for each of Arrow's hundreds of
kernels: a noticeable share of a `rankflavor eval` on a TREC-sized run, which is mostly start-up. Every wrapper
calls `call_function(name, args, options)`, which pyarrow defines in its compiled `_compute` module with
the options classes; these functions call it the same way. (A pyarrow without that module: the public one.)
Array methods such as `take`, `cast` or `unique` import `pyarrow.compute`: the TREC path uses these instead.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

try:
    from pyarrow._compute import CastOptions, MatchSubstringOptions, ReplaceSubstringOptions, SetLookupOptions, call_function
except ImportError:  # pragma: no cover - every pyarrow this project supports has it
    from pyarrow.compute import CastOptions, MatchSubstringOptions, ReplaceSubstringOptions, SetLookupOptions, call_function


def to_string(values: pa.Array) -> pa.Array:
    """The values as `string` (`Array.cast`, which imports `pyarrow.compute`)."""
    return values if values.type == pa.string() else call_function("cast", [values], CastOptions.safe(pa.string()))


def int64_array(values: np.ndarray) -> pa.Array:
    """A numpy array as an Arrow int64 array, its buffer shared (`pa.array` on a numpy array imports pandas, when
    installed, to ask whether it is a categorical)."""
    values = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])


def bool_array(values: np.ndarray) -> pa.Array:
    """A numpy boolean array as an Arrow boolean array (bit-packed; see `int64_array`)."""
    bits = np.packbits(np.asarray(values, dtype=bool), bitorder="little")
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])


def index_in(values: pa.Array, value_set: pa.Array) -> pa.Array:
    """Position of each value in `value_set`, null when absent (`pyarrow.compute.index_in`)."""
    return call_function("index_in", [values], SetLookupOptions(value_set))


def trimmed_lower(values: pa.Array) -> pa.Array:
    """The strings without surrounding whitespace, in lower case (`utf8_trim_whitespace`, `utf8_lower`)."""
    return call_function("utf8_lower", [call_function("utf8_trim_whitespace", [values])])


def replace_regex(values: pa.Array, pattern: str, replacement: str) -> pa.Array:
    """Every match of the RE2 `pattern` replaced (backreferences \\1 ... in `replacement`)."""
    return call_function("replace_substring_regex", [values], ReplaceSubstringOptions(pattern, replacement))


def unique(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The distinct values, in order of first appearance."""
    return call_function("unique", [values])


def dictionary_encode(values: pa.Array) -> pa.DictionaryArray:
    """The values as codes into their distinct values (`pyarrow.compute.dictionary_encode`)."""
    return call_function("dictionary_encode", [values])


def sorted_unique(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The distinct values, sorted ascending (bytewise for strings, as strcmp sorts)."""
    distinct = unique(values)
    return call_function("take", [distinct, call_function("array_sort_indices", [distinct])])


def shortest_length(values: pa.Array) -> int:
    """The length in bytes of the shortest string."""
    return call_function("min", [call_function("binary_length", [values])]).as_py()


def any_matches(values: pa.Array, pattern: str, regex: bool = True) -> bool:
    """Whether a string matches the RE2 `pattern` (regex=False: starts with it)."""
    kernel = "match_substring_regex" if regex else "starts_with"
    return bool(call_function("any", [call_function(kernel, [values], MatchSubstringOptions(pattern))]).as_py())
