"""A text input read whole as the TREC line reader reads its file (inputs/trec_lines.py): a block at a time, the
read stopping at the first byte that cannot be text (inputs/bounded.py: a device, a FIFO of NULs or a gzip bomb
costs a block or two, whatever the file's first bytes); gzip inflated; UTF-8, or UTF-16/32 with a byte-order mark
decoded. What the CSV, RankLib and JSON readers parse, with the SHA-256 of the bytes read.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from rankflavor.inputs.encoding import decode_text
from rankflavor.inputs.tables import Source, file_source
from rankflavor.inputs.trec_lines import decompress, read_raw


@dataclass
class TextFile:
    """A text file's path, text, SHA-256 (of the bytes as stored) and encoding (None: UTF-8)."""

    path: Path
    text: str
    sha256: str
    encoding: str | None

    def source(self, kind: str) -> Source:
        """The file's Source (provenance: path, sha256, kind, encoding)."""
        source = file_source(self.path, kind)
        source.sha256, source.encoding = self.sha256, self.encoding
        return source

    @property
    def where(self) -> str:
        """The name errors give the file (its path as given; `<stdin>`)."""
        return str(self.path)


def read_text_file(path: Path, raw: bytes | None = None) -> TextFile:
    """The file's text (`raw`: its bytes when read already; `<stdin>`: the standard input's kept bytes)."""
    raw = read_raw(path) if raw is None else raw
    text, encoding = decode_text(decompress(raw, path), path)
    return TextFile(path, text, hashlib.sha256(raw).hexdigest(), encoding)
