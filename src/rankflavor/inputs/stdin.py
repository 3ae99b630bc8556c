"""`-` as an input path: the standard input, read once, named `<stdin>` in errors and in the provenance.

The bytes are kept (per `sys.stdin` object) so that a second reading of the same input (a strict re-read after
a speculative one, the line of a duplicate for its error message) sees the same bytes. At most one input may
be `-`: standard input can be read once. It is read a block at a time, and stops at the first byte that cannot
be text (inputs/bounded.py): NULs piped in cost one block, not the whole stream.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from rankflavor.errors import InputError, UsageError
from rankflavor.inputs.bounded import read_checked

DASH = "-"
STDIN_NAME = "<stdin>"
_kept: tuple[Any, bytes] | None = None  # (the sys.stdin read, its bytes)


def is_stdin(data: Any) -> bool:
    """True for the path string `-` (a Path('-') is a file named -)."""
    return isinstance(data, str) and data == DASH


def stdin_bytes() -> bytes:
    """The standard input's bytes, read on first use and kept for the same sys.stdin."""
    global _kept
    stream = sys.stdin
    if _kept is not None and _kept[0] is stream:
        return _kept[1]
    if stream is None:
        raise InputError("there is no standard input to read", source=STDIN_NAME,
                         fix="pipe the file in (e.g. zcat run.gz | rankflavor eval qrels.txt -), or give its path")
    buffer = getattr(stream, "buffer", None)
    try:
        data = read_checked(buffer.read, Path(STDIN_NAME)) if buffer is not None else stream.read().encode("utf-8")
    except InputError:
        raise  # (a byte that cannot be text: inputs/bounded.py)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the standard input ({exc})", source=STDIN_NAME,
                         fix="pipe the file in, or give its path") from None
    _kept = (stream, data)
    return data


def check_one_stdin(qrels: Any, runs: Any) -> None:
    """UsageError when more than one input is `-` (standard input can be read once)."""
    items = [qrels, *(runs.values() if isinstance(runs, dict) else runs if isinstance(runs, (list, tuple)) else [runs])]
    if sum(is_stdin(item) for item in items) > 1:
        raise UsageError("more than one input is '-' (standard input): at most one input can be read from it; "
                         "give the others as file paths")
