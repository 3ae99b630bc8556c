"""Bytes read in bounded blocks, each checked as it arrives, whatever the first bytes say the rest is.

Every read stops at the input cap (rankflavor/limits.py, `--max-input`): the bytes as read, and again the text
once inflated or decoded. Within it, a read stops at the first impossible byte:

- text (UTF-8, a BOM at the start dropped): a NUL byte or a byte that is not UTF-8 ends the read, with the message
  `encoding.decode_text` gives on the bytes read so far (the same file, line and text as on the whole file: it is
  given at least `encoding.SAMPLE` bytes, and `_AFTER` past the block that failed);
- UTF-16 or UTF-32 after its byte-order mark: decoded as it arrives, a NUL character or a unit that does not decode
  ends it the same way;
- gzip: inflated as it arrives (a member at a time, zero padding between members as gzip allows), the inflated
  text checked as text, a header or stream that is not gzip's ends it at once; the inflated bytes are capped too;
- Parquet and Arrow (their magic bytes): read whole up to the cap; their declared sizes are checked before their
  columns are made (inputs/columnar.py).

So `/dev/zero`, `/dev/urandom`, NULs behind a BOM or a gzip magic, a gzip bomb of NULs cost a block or two; a
stream of newlines, or a Parquet magic in front of an endless stream, stops at the cap.
"""

from __future__ import annotations

import codecs
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

from rankflavor.errors import InputError
from rankflavor.inputs.encoding import SAMPLE, decode_text
from rankflavor.limits import input_cap, input_cap_fix, over_input_cap

BLOCK = 1 << 20  # bytes read (or inflated) per step
INPUT_STEP = 1 << 16  # compressed bytes fed to zlib per step
_AFTER = 64  # bytes read past the failing block, so that the message can show the text around the byte
_GZIP_MAGIC = b"\x1f\x8b"
_UTF8_BOM = b"\xef\xbb\xbf"
_WIDE_BOMS = ((b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe\x00\x00", "utf-32-le"), (b"\xfe\xff", "utf-16-be"),
              (b"\xff\xfe", "utf-16-le"))  # (UTF-32LE's mark starts as UTF-16LE's: tried first)
_STORED = (b"PAR1", b"ARROW1", b"FEA1", b"\xff\xff\xff\xff")  # a Parquet or Arrow file's first bytes
_HEAD = 8  # bytes that decide how the stream is checked


class CapExceeded(InputError):
    """An input beyond the input cap (rankflavor/limits.py): an InputError, exit 3, naming the cap and its option."""


def cap_error(path: Path | str, size: float | None, what: str = "holds") -> CapExceeded:
    """The InputError of an input beyond the input cap."""
    return CapExceeded(over_input_cap(size, what), source=str(path), fix=input_cap_fix())


class TextGuard:
    """The bytes of one input, collected block by block; `add` raises the InputError of the first impossible
    byte (once enough bytes are in to word it as the whole file's reading would), or of the cap."""

    def __init__(self, path: Path, compressed_ok: bool, keep: bool = True, stage: str = "holds") -> None:
        self.path = path
        self.compressed_ok = compressed_ok  # bytes as stored: gzip (checked inflated), Parquet, Arrow allowed
        self.keep = keep  # False: check only (a second pass inflates again)
        self.stage = stage  # how the cap's message names the bytes ("holds", "inflates to")
        self.blocks: list[bytes] = []
        self.size = 0
        self.cap = input_cap()
        self._mode: str | None = None  # None until the head decides: utf-8, wide, gzip, stored
        self._decoder: codecs.IncrementalDecoder = codecs.getincrementaldecoder("utf-8")()
        self._gzip: _Inflater | None = None
        self._fail_at: int | None = None  # the size after which the error is raised

    def add(self, block: bytes) -> None:
        self.size += len(block)
        if self.size > self.cap:
            raise cap_error(self.path, None, self.stage)
        if self.keep or self._mode is None or self._fail_at is not None:
            self.blocks.append(block)
        if self._mode is None:
            if self.size >= _HEAD + len(_UTF8_BOM):
                self._decide()
        elif self._fail_at is None:
            self._check(block)
        if self._fail_at is not None and self.size >= self._fail_at:
            self.fail()

    def _decide(self) -> None:
        data = b"".join(self.blocks)
        head = data[len(_UTF8_BOM):] if data.startswith(_UTF8_BOM) else data  # (as decode_text drops it)
        wide = next((encoding for bom, encoding in _WIDE_BOMS if head.startswith(bom)), None)
        if wide is not None:
            self._mode, self._decoder = "wide", codecs.getincrementaldecoder(wide)()
            head = head[len(next(bom for bom, encoding in _WIDE_BOMS if encoding == wide)):]
        elif self.compressed_ok and head.startswith(_GZIP_MAGIC):
            self._mode, self._gzip = "gzip", _Inflater(TextGuard(self.path, False, keep=False, stage="inflates to"))
            head = data
        elif self.compressed_ok and head.startswith(_STORED):
            self._mode = "stored"
        else:
            self._mode = "utf-8"
            head = data
        if not self.keep:
            self.blocks = []
        self._check(head)

    def _check(self, block: bytes) -> None:
        if self._mode == "gzip" and self._gzip is not None:
            try:
                self._gzip.feed(block)
            except (zlib.error, EOFError):
                raise InputError("broken gzip data (truncated or corrupt)", source=str(self.path),
                                 fix="the .gz file is truncated or corrupt: compress it again") from None
            except CapExceeded:
                raise
            except InputError as exc:
                self._inflated_error(exc)
        elif self._mode in ("utf-8", "wide") and _impossible(block, self._decoder):
            self._fail_at = max(self.size + _AFTER, SAMPLE)

    def _inflated_error(self, found: InputError) -> None:
        """The error the inflated text holds, worded as the whole file's: the compressed bytes read so far inflated
        again, keeping the text up to the error (the check alone kept none of it)."""
        try:
            gunzip_checked(b"".join(self.blocks), self.path)
        except InputError:
            raise
        except (zlib.error, EOFError):
            pass
        raise found

    def fail(self, final: bool = False) -> None:
        """Raise the error the bytes read so far hold (`final`: they are all the input's)."""
        data = b"".join(self.blocks)
        if self.compressed_ok and self.path.suffix == ".gz":
            raise InputError("named .gz but not gzip-compressed", source=str(self.path),
                             fix="compress it with gzip, or drop the .gz from its name")
        decode_text(data, self.path, final=final)  # (raises: the first NUL, or the first byte that is not text)
        raise InputError("this is not a text file", source=str(self.path),
                         fix="give a TREC text file, plain or .gz, or a Parquet or Arrow file")

    def finish(self) -> bytes:
        """All the bytes, once the stream has ended (the error, if one was found near the end)."""
        if self._mode is None:
            self._decide()
        if self._mode == "gzip" and self._gzip is not None:
            try:
                self._gzip.finish()
            except (zlib.error, EOFError):
                raise InputError("broken gzip data (truncated or corrupt)", source=str(self.path),
                                 fix="the .gz file is truncated or corrupt: compress it again") from None
        if self._mode in ("utf-8", "wide") and self._fail_at is None:
            try:
                self._decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                self._fail_at = self.size
        if self._fail_at is not None:
            self.fail(final=True)
        data = b"".join(self.blocks)
        self.blocks = [data] if self.keep else []
        return data


def _impossible(block: bytes, decoder: codecs.IncrementalDecoder) -> bool:
    """A NUL, or bytes that cannot continue the text."""
    try:
        text = decoder.decode(block)
    except UnicodeDecodeError:
        return True
    return "\x00" in text


class _Inflater:
    """gzip's members inflated as the compressed bytes arrive, at most BLOCK bytes out per step, handed to `out`."""

    def __init__(self, out: TextGuard) -> None:
        self.out = out
        self.inflater: zlib._Decompress | None = None
        self.pending = b""  # bytes between members, not yet known to be padding or a member's start

    def feed(self, data: bytes) -> None:
        view = memoryview(data)
        for start in range(0, len(view), INPUT_STEP):
            self._step(bytes(view[start:start + INPUT_STEP]))

    def _step(self, data: bytes) -> None:
        while data:
            if self.inflater is None:
                data = (self.pending + data).lstrip(b"\x00")  # (zero padding between members, as gzip skips it)
                self.pending = b""
                if len(data) < 2:
                    self.pending = data
                    return
                if data[:2] != _GZIP_MAGIC:
                    raise zlib.error("not a gzip member")
                self.inflater = zlib.decompressobj(wbits=31)
            while True:
                out = self.inflater.decompress(data, BLOCK)
                if out:
                    self.out.add(out)
                data = self.inflater.unconsumed_tail
                if self.inflater.eof or (not data and len(out) < BLOCK):
                    break
            if not self.inflater.eof:
                return
            data, self.inflater = self.inflater.unused_data, None

    def finish(self) -> bytes:
        if self.inflater is not None or (self.pending and self.pending.strip(b"\x00")):
            raise EOFError("truncated gzip data")
        return self.out.finish()


def read_checked(read: Callable[[int], bytes], path: Path) -> bytes:
    """The bytes `read(n)` gives until it gives none, a block at a time, stopping at the first impossible byte
    or at the input cap (module docstring); gzip is checked inflated, and kept as stored."""
    guard = TextGuard(path, compressed_ok=True)
    while True:
        block = read(BLOCK)
        if not block:
            return guard.finish()
        guard.add(block)


def gunzip_checked(raw: bytes, path: Path) -> bytes:
    """gzip's members (zero padding between them skipped, as gzip.decompress does) inflated a block at a time,
    the text checked as it comes and capped (see the module's note); zlib.error or EOFError for broken or
    truncated data. The compressed bytes are fed INPUT_STEP at a time, so that no step copies the rest."""
    if raw[:2] != _GZIP_MAGIC:
        raise zlib.error("not a gzip member")
    inflater = _Inflater(TextGuard(path, compressed_ok=False, stage="inflates to"))
    view = memoryview(raw)
    for start in range(0, len(view), BLOCK):
        inflater.feed(bytes(view[start:start + BLOCK]))
    return inflater.finish()


def text_blocks(text: str, size: int = BLOCK) -> Iterator[tuple[int, str]]:
    """(first line's number, a piece of `text` ending at a line end) in order: lines at \\n, \\r\\n or \\r, as
    trec_lines.split_lines cuts them, without a list of every line."""
    start, line = 0, 1
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            cut = max(text.rfind("\n", start, end), text.rfind("\r", start, end))
            if cut < start:  # (a line longer than the piece: to its end)
                found = [i for i in (text.find("\n", end), text.find("\r", end)) if i >= 0]
                cut = min(found) if found else len(text) - 1
            if text[cut] == "\r" and cut + 1 < len(text) and text[cut + 1] == "\n":
                cut += 1
            end = cut + 1
        piece = text[start:end]
        yield line, piece
        line += piece.count("\n") + piece.count("\r") - piece.count("\r\n")
        start = end


def read_capped(read: Callable[[int], bytes], path: Path | str) -> bytes:
    """The bytes `read(n)` gives until it gives none, refused past the input cap (no check of what they are: the
    caller's format decides)."""
    cap, blocks, size = input_cap(), [], 0
    while block := read(BLOCK):
        size += len(block)
        if size > cap:
            raise cap_error(path, None)
        blocks.append(block)
    return b"".join(blocks)


def read_file_capped(path: Path | str, text: bool = False) -> bytes:
    """A file's bytes (a regular file past the cap refused by its size, at once; a device or a FIFO as it streams);
    `text`: checked as text as they arrive (TextGuard: /dev/zero stops at its first block). OSError as open and read
    raise it."""
    import os
    import stat

    with open(path, "rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > input_cap():
            raise cap_error(path, info.st_size)
        if not text:
            return read_capped(handle.read, path)
        guard = TextGuard(Path(path), compressed_ok=False)
        while block := handle.read(BLOCK):
            guard.add(block)
        return guard.finish()
