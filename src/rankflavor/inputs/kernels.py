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
    import pyarrow._compute as _compute
except ImportError:  # pragma: no cover - every pyarrow this project supports has it
    import pyarrow.compute as _compute

CastOptions, MatchSubstringOptions = _compute.CastOptions, _compute.MatchSubstringOptions
ReplaceSubstringOptions, SetLookupOptions = _compute.ReplaceSubstringOptions, _compute.SetLookupOptions
SortOptions, call_function = _compute.SortOptions, _compute.call_function


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


def without(values: pa.Array, substring: str) -> pa.Array:
    """The strings with every occurrence of `substring` removed (a plain search: no regex)."""
    return call_function("replace_substring", [values], ReplaceSubstringOptions(substring, ""))


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


def take(values: pa.Array, indices: np.ndarray) -> pa.Array:
    """values[indices] (`Array.take`)."""
    return call_function("take", [values, int64_array(indices)])


def sort_ranks(values: pa.Array) -> np.ndarray:
    """Each value's rank (int64) in the ascending order of `values` (bytewise for strings); ties keep input order."""
    order = np.frombuffer(call_function("array_sort_indices", [values]).buffers()[1], dtype=np.uint64,
                          count=len(values)).astype(np.int64) if len(values) else np.zeros(0, dtype=np.int64)
    ranks = np.empty(len(values), dtype=np.int64)
    ranks[order] = np.arange(len(values), dtype=np.int64)
    return ranks


def group_then_string_order(group: np.ndarray, strings: pa.Array, descending: bool,
                            codes: np.ndarray | None = None) -> np.ndarray:
    """The stable permutation to (group asc, string desc or asc; bytewise) of rows of nondecreasing `group` whose
    strings are `strings` (or `strings[codes]`). Each group is sorted on its own (a track's tie groups: a few times
    faster than sorting every string): by the compiled sort (inputs/_string_order.c) when built, else by one Arrow
    sort whose string comparisons stay within a group."""
    if len(group) == 0:
        return np.zeros(0, dtype=np.int64)
    compiled = _compiled_order()
    if compiled is not None and isinstance(strings, pa.Array) and strings.null_count == 0 and (
            pa.types.is_string(strings.type) or pa.types.is_large_string(strings.type)):
        wide = pa.types.is_large_string(strings.type)
        offsets = np.frombuffer(strings.buffers()[1], dtype=np.int64 if wide else np.int32)
        offsets = offsets[strings.offset:strings.offset + len(strings) + 1]
        rows = np.arange(len(strings), dtype=np.int64) if codes is None else codes
        order = compiled.group_then_string_order(np.ascontiguousarray(group, dtype=np.int64),
                                                 np.ascontiguousarray(rows, dtype=np.int64), offsets,
                                                 strings.buffers()[2] or b"", wide, descending)
        return np.frombuffer(order, dtype=np.int64)
    if codes is not None:
        strings = take(strings, codes)
    batch = pa.RecordBatch.from_arrays([int64_array(group), strings], names=["group", "string"])
    order = call_function("sort_indices", [batch], SortOptions([("group", "ascending"),
                                                                ("string", "descending" if descending else "ascending")]))
    return np.frombuffer(order.buffers()[1], dtype=np.uint64, count=len(order)).astype(np.int64)


def _compiled_order():
    """inputs/_string_order.c's module, or None when it is not built or RANKFLAVOR_PURE_PYTHON=1 asks for Arrow."""
    from rankflavor.environment import compiled_module

    return compiled_module("rankflavor.inputs._string_order")


def shortest_length(values: pa.Array) -> int:
    """The length in bytes of the shortest string."""
    return call_function("min", [call_function("binary_length", [values])]).as_py()


def any_matches(values: pa.Array, pattern: str, regex: bool = True) -> bool:
    """Whether a string matches the RE2 `pattern` (regex=False: starts with it)."""
    kernel = "match_substring_regex" if regex else "starts_with"
    return bool(call_function("any", [call_function(kernel, [values], MatchSubstringOptions(pattern))]).as_py())
