"""What an Arrow IPC file or stream declares it holds once read, without reading it: the sum over its record and
dictionary batches of their buffers' lengths, a compressed buffer's own uncompressed length (its first 8 bytes),
read from each message's flatbuffer (Arrow's Message.fbs: Message, RecordBatch, DictionaryBatch, Buffer). So an
LZ4 or ZSTD body of a few KB that inflates to gigabytes is refused before pyarrow allocates it (inputs/columnar.py).
"""

from __future__ import annotations

import struct

_CONTINUATION = 0xFFFFFFFF
_RECORD_BATCH, _DICTIONARY_BATCH = 3, 2  # MessageHeader's union types


class Malformed(ValueError):
    """The bytes are not Arrow IPC messages as the format lays them out."""


def _u32(data: bytes, at: int) -> int:
    if at < 0 or at + 4 > len(data):
        raise Malformed(f"offset {at} past the end")
    return struct.unpack_from("<I", data, at)[0]


def _i64(data: bytes, at: int) -> int:
    if at < 0 or at + 8 > len(data):
        raise Malformed(f"offset {at} past the end")
    return struct.unpack_from("<q", data, at)[0]


def _field(data: bytes, table: int, index: int) -> int | None:
    """The position of field `index` of the flatbuffer table at `table`, or None when it is absent."""
    vtable = table - struct.unpack_from("<i", data, table)[0] if table + 4 <= len(data) else -1
    if vtable < 0 or vtable + 4 > len(data):
        raise Malformed("a table's vtable is out of range")
    size = struct.unpack_from("<H", data, vtable)[0]
    if 4 + 2 * index + 2 > size or vtable + 4 + 2 * index + 2 > len(data):
        return None
    offset = struct.unpack_from("<H", data, vtable + 4 + 2 * index)[0]
    return table + offset if offset else None


def _target(data: bytes, at: int) -> int:
    return at + _u32(data, at)


def _batch_size(meta: bytes, batch: int, body: bytes) -> int:
    """Bytes a RecordBatch table's buffers hold once read (a compressed buffer: its declared uncompressed length)."""
    buffers_at = _field(meta, batch, 2)
    if buffers_at is None:
        return 0
    vector = _target(meta, buffers_at)
    count = _u32(meta, vector)
    if count > (len(meta) - vector) // 16:
        raise Malformed("more buffers than the metadata holds")
    compressed = _field(meta, batch, 3) is not None
    total = 0
    for i in range(count):
        offset, length = _i64(meta, vector + 4 + 16 * i), _i64(meta, vector + 12 + 16 * i)
        if offset < 0 or length < 0:
            raise Malformed("a buffer of negative offset or length")
        if compressed and length >= 8:
            declared = _i64(body, offset)
            total += length - 8 if declared == -1 else max(declared, 0)
        else:
            total += length
    return total


def declared_size(data: bytes, start: int = 0) -> int:
    """The bytes the IPC messages from `start` (an Arrow file's stream part begins at 8) declare once read."""
    total, at = 0, start
    while at + 4 <= len(data):
        size = _u32(data, at)
        at += 4
        if size == _CONTINUATION:
            if at + 4 > len(data):
                break
            size, at = _u32(data, at), at + 4
        if size == 0:  # (end of stream; an Arrow file's footer follows)
            break
        meta = data[at:at + size]
        if len(meta) < size:
            raise Malformed("a message's metadata is cut short")
        message = _target(meta, 0)
        kind_at, header_at, body_at = _field(meta, message, 1), _field(meta, message, 2), _field(meta, message, 3)
        kind = meta[kind_at] if kind_at is not None else 0
        body_length = _i64(meta, body_at) if body_at is not None else 0
        if body_length < 0 or at + size + body_length > len(data):
            raise Malformed("a message's body is cut short")
        body = data[at + size: at + size + body_length]
        if header_at is not None and kind in (_RECORD_BATCH, _DICTIONARY_BATCH):
            header = _target(meta, header_at)
            if kind == _DICTIONARY_BATCH:
                inner = _field(meta, header, 1)
                header = _target(meta, inner) if inner is not None else -1
            if header >= 0:
                total += _batch_size(meta, header, body)
        at += size + body_length
    return total
