"""The text of a TREC file's bytes: UTF-8 (a BOM at the very start dropped), or UTF-16 or UTF-32 with a
byte-order mark, decoded (the provenance records the encoding). UTF-16 or UTF-32 without a byte-order mark
is named as such, with the command that converts it; never decoded by guess, never called binary.
"""

from __future__ import annotations

import codecs
import re
import shlex
from pathlib import Path

from rankflavor.errors import InputError

_UTF8_BOM = b"\xef\xbb\xbf"
_BOMS = ((b"\x00\x00\xfe\xff", "UTF-32BE"), (b"\xff\xfe\x00\x00", "UTF-32LE"),  # (UTF-32LE's starts as UTF-16LE's)
         (b"\xfe\xff", "UTF-16BE"), (b"\xff\xfe", "UTF-16LE"))
SAMPLE = 4096  # bytes looked at to tell UTF-16 or UTF-32 without a byte-order mark from binary data


def line_at(raw: bytes, position: int) -> int:
    """The 1-based line holding byte `position` (lines end at \\n, \\r\\n or \\r, as in `split_lines`)."""
    return len(re.findall(rb"\r\n|\r|\n", raw[:position])) + 1


def around(raw: bytes, start: int, end: int) -> str:
    return raw[max(0, start - 20): end + 20].decode("utf-8", "replace")


def _iconv(encoding: str, path: Path) -> str:
    name = shlex.quote(str(path))
    return f"re-save it as UTF-8, e.g. iconv -f {encoding} -t UTF-8 {name} > {name}.utf8"


def _wide(raw: bytes) -> str | None:
    """UTF-16LE/BE or UTF-32LE/BE when the NUL bytes fall where mostly-ASCII text in that encoding puts them."""
    sample = raw[:SAMPLE]
    for width, names in ((4, ("UTF-32LE", "UTF-32BE")), (2, ("UTF-16LE", "UTF-16BE"))):
        units = len(sample) // width
        if units < 2:
            continue
        nul = [sample[i:units * width:width].count(0) for i in range(width)]
        low, high = (nul[0], nul[1:]), (nul[-1], nul[:-1])  # (the byte that holds ASCII, the bytes that are NUL)
        for (text, zeros), name in zip((low, high), names, strict=True):
            if text <= units * 0.05 and all(z >= units * 0.5 for z in zeros):
                return name
    return None


def decode_text(raw: bytes, path: Path, final: bool = True) -> tuple[str, str | None]:
    """(the text, the encoding when it is not UTF-8); InputError naming the file and, when it has one, the line.
    `final` False: `raw` may stop inside a character (a read stopped early, inputs/bounded.py); its errors before
    that are the whole file's. NUL is not text in any encoding."""
    if raw.startswith(_UTF8_BOM):
        raw = raw[3:]
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            try:
                text = codecs.getincrementaldecoder(encoding.lower())().decode(raw[len(bom):], final=final)
            except UnicodeDecodeError:
                raise InputError(f"not valid {encoding} text (the file starts with a {encoding} byte-order mark)",
                                 source=str(path), fix=_iconv(encoding, path)) from None
            nul = text.find("\x00")
            if nul >= 0:
                line = text.count("\n", 0, nul) + text.count("\r", 0, nul) - text.count("\r\n", 0, nul) + 1
                raise InputError("this is not a text file (it contains NUL characters)", source=str(path), line=line,
                                 text=text[max(0, nul - 20): nul + 20],
                                 fix="give a TREC text file, plain or .gz, or a Parquet or Arrow file")
            return text, encoding
    nul = raw.find(b"\x00")
    if nul >= 0:
        wide = _wide(raw)
        if wide is not None:
            raise InputError(f"the file is {wide} encoded (without a byte-order mark), not UTF-8", source=str(path),
                             fix=_iconv(wide, path))
        raise InputError("this is not a text file (it contains NUL bytes)", source=str(path),
                         line=line_at(raw, nul), text=around(raw, nul, nul + 1),
                         fix="give a TREC text file, plain or .gz, or a Parquet or Arrow file")
    try:
        return raw.decode("utf-8") if final else codecs.getincrementaldecoder("utf-8")().decode(raw), None
    except UnicodeDecodeError as exc:
        raise InputError("not valid UTF-8 text", source=str(path), line=line_at(raw, exc.start),
                         text=around(raw, exc.start, exc.end),
                         fix="save the file as UTF-8 (a binary file is not a TREC file)") from None
