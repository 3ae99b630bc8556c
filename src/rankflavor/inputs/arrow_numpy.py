"""Arrow -> numpy without pandas: views of fixed-width Arrow buffers.

pyarrow's `Array.to_numpy`, `np.asarray(array)` and `pa.array(...)` import pandas on first use (about 0.2 s
of start-up) to check for pandas types. The fast path reads only primitive columns without nulls, which
are plain buffers: viewing them with `np.frombuffer` costs nothing and imports nothing.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa


def array_to_numpy(array: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """The values of a primitive Arrow array without nulls (a zero-copy view for a single chunk; booleans unpacked)."""
    if isinstance(array, pa.ChunkedArray):
        chunks = [array_to_numpy(chunk) for chunk in array.chunks]
        if len(chunks) == 1:
            return chunks[0]
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=array.type.to_pandas_dtype())
    if array.null_count:
        raise ValueError("array_to_numpy needs an array without nulls")
    if pa.types.is_boolean(array.type):  # (bit-packed, least significant bit first)
        data = array.buffers()[1]
        if data is None or len(array) == 0:
            return np.zeros(0, dtype=bool)
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little", count=array.offset + len(array))
        return bits[array.offset:].astype(bool)
    dtype = np.dtype(array.type.to_pandas_dtype())
    if not pa.types.is_integer(array.type) and not pa.types.is_floating(array.type):
        raise TypeError(f"array_to_numpy reads integer and float arrays, not {array.type}")
    data = array.buffers()[1]
    if data is None or len(array) == 0:
        return np.zeros(0, dtype=dtype)
    return np.frombuffer(data, dtype=dtype, count=len(array), offset=array.offset * dtype.itemsize)


def string_array(values: list[str]) -> pa.Array:
    """An Arrow string array of Python strings, built from its buffers (`pa.array` on a list imports pandas)."""
    encoded = [value.encode() for value in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)), out=offsets[1:])
    if offsets[-1] >= 1 << 31:
        return pa.array(values, pa.string())  # (past a string array's 2 GiB: Arrow chunks it)
    data = pa.py_buffer(b"".join(encoded))
    return pa.Array.from_buffers(pa.string(), len(encoded), [None, pa.py_buffer(offsets.astype(np.int32)), data])
