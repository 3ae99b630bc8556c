"""Bytes read in bounded blocks, each checked as it arrives: a read stops at the first impossible byte.

A TREC file is text. So a NUL byte or a byte that is not UTF-8, in a file that does not start as UTF-16 or
UTF-32 (a byte-order mark), gzip or a Parquet or Arrow file (their magic bytes), ends the read there, with
the message `encoding.decode_text` gives on the bytes read so far (the same file, line and text as on the
whole file: it is given at least `encoding.SAMPLE` bytes, and `_AFTER` past the block that failed). So
`/dev/zero`, `/dev/urandom`, a FIFO of NULs, NULs on the standard input or a gzip bomb of NULs cost one
block or two, never the whole stream. gzip is inflated a block at a time (`zlib`, at most BLOCK bytes
out per step) and its text checked the same way.
"""

from __future__ import annotations

import codecs
import zlib
from collections.abc import Callable
from pathlib import Path

from rankflavor.errors import InputError
from rankflavor.inputs.encoding import SAMPLE, decode_text

BLOCK = 1 << 20  # bytes read (or inflated) per step
INPUT_STEP = 1 << 16  # compressed bytes fed to zlib per step
_AFTER = 64  # bytes read past the failing block, so that the message can show the text around the byte
_GZIP_MAGIC = b"\x1f\x8b"
_UTF8_BOM = b"\xef\xbb\xbf"
_WIDE_BOMS = (b"\xfe\xff", b"\xff\xfe", b"\x00\x00\xfe\xff")  # a UTF-16 or UTF-32 byte-order mark
_STORED = (_GZIP_MAGIC, b"PAR1", b"ARROW1", b"FEA1", b"\xff\xff\xff\xff")  # a file's gzip, Parquet or Arrow
_HEAD = 8  # bytes that decide whether the stream is checked


class TextGuard:
    """The bytes of one input, collected block by block; `add` raises the InputError of the first impossible
    byte (once enough bytes are in to word it as the whole file's reading would)."""

    def __init__(self, path: Path, compressed_ok: bool) -> None:
        self.path = path
        self.compressed_ok = compressed_ok  # a file's bytes as stored: gzip (checked inflated), Parquet, Arrow
        self.blocks: list[bytes] = []
        self.size = 0
        self._checked: bool | None = None  # None until the head decides
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._fail_at: int | None = None  # the size after which the error is raised

    def add(self, block: bytes) -> None:
        self.blocks.append(block)
        self.size += len(block)
        if self._checked is None:
            if self.size >= _HEAD + len(_UTF8_BOM):
                self._decide()
        elif self._checked and self._fail_at is None and _impossible(block, self._decoder):
            self._fail_at = max(self.size + _AFTER, SAMPLE)
        if self._fail_at is not None and self.size >= self._fail_at:
            self.fail()

    def _decide(self) -> None:
        head = b"".join(self.blocks)[:_HEAD + len(_UTF8_BOM)]
        head = head[len(_UTF8_BOM):] if head.startswith(_UTF8_BOM) else head[:_HEAD]  # (as decode_text drops it)
        unchecked = head.startswith(_WIDE_BOMS) or (self.compressed_ok and head.startswith(_STORED))
        self._checked = not unchecked
        if self._checked:
            for block in self.blocks:
                if _impossible(block, self._decoder):
                    self._fail_at = max(self.size + _AFTER, SAMPLE)
                    break

    def fail(self) -> None:
        """Raise the error the bytes read so far hold."""
        data = b"".join(self.blocks)
        if self.compressed_ok and self.path.suffix == ".gz":
            raise InputError("named .gz but not gzip-compressed", source=str(self.path),
                             fix="compress it with gzip, or drop the .gz from its name")
        decode_text(data, self.path)  # (raises: the first NUL, or the first byte that is not UTF-8)
        raise InputError("this is not a text file", source=str(self.path),
                         fix="give a TREC text file, plain or .gz, or a Parquet or Arrow file")

    def finish(self) -> bytes:
        """All the bytes, once the stream has ended (the error, if one was found near the end)."""
        if self._checked is None:
            self._decide()
        if self._checked and self._fail_at is None:
            try:
                self._decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                self._fail_at = self.size
        if self._fail_at is not None:
            self.fail()
        data = b"".join(self.blocks)
        self.blocks = [data]
        return data


def _impossible(block: bytes, decoder: codecs.IncrementalDecoder) -> bool:
    """A NUL byte, or a byte that cannot continue UTF-8 text."""
    if b"\x00" in block:
        return True
    try:
        decoder.decode(block)
    except UnicodeDecodeError:
        return True
    return False


def read_checked(read: Callable[[int], bytes], path: Path) -> bytes:
    """The bytes `read(n)` gives until it gives none, a block at a time, stopping at the first impossible byte
    of a text stream (gzip, UTF-16/32 with a BOM, Parquet and Arrow are read whole: gzip is checked inflated)."""
    guard = TextGuard(path, compressed_ok=True)
    while True:
        block = read(BLOCK)
        if not block:
            return guard.finish()
        guard.add(block)


def gunzip_checked(raw: bytes, path: Path) -> bytes:
    """gzip's members (zero padding between them skipped, as gzip.decompress does) inflated a block at a time,
    the text checked as it comes (see the module's note); zlib.error or EOFError for broken or truncated
    data. The compressed bytes are fed INPUT_STEP at a time, so that no step copies the rest of the input."""
    guard = TextGuard(path, compressed_ok=False)
    view, position = memoryview(raw), 0
    while position < len(raw):
        if bytes(view[position:position + 2]) != _GZIP_MAGIC:
            raise zlib.error("not a gzip member")
        inflater = zlib.decompressobj(wbits=31)
        while not inflater.eof:
            if position >= len(raw):
                raise EOFError("truncated gzip data")
            data: bytes | memoryview = view[position:position + INPUT_STEP]
            position += len(data)
            while True:
                out = inflater.decompress(data, BLOCK)
                if out:
                    guard.add(out)
                data = inflater.unconsumed_tail
                if inflater.eof or (not data and len(out) < BLOCK):
                    break
        position -= len(inflater.unused_data)
        while position < len(raw) and raw[position] == 0:
            position += 1
    return guard.finish()
