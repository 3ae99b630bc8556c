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
