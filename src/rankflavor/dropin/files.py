"""What trec_eval reads of its files beside the rows rankflavor's readers give: the run id."""

from __future__ import annotations

import os


def last_run_tag(path: str) -> str | None:
    """The sixth field of a results file's last line: trec_eval's runid (get_trec_results.c keeps the run_id of
    the last line it parses); `-` reads the standard input's kept bytes (inputs/stdin.py). A gzip file: its
    first line's tag (inputs/trec.py run_tag)."""
    if path == "-":
        from rankflavor.inputs.stdin import stdin_bytes

        return _tag(stdin_bytes())
    if path.endswith(".gz"):
        from rankflavor.inputs.trec import run_tag

        return run_tag(path)
    try:
        with open(path, "rb") as stream:
            size = stream.seek(0, os.SEEK_END)
            chunk = 1 << 16
            while True:  # (the file's tail, longer until it holds a whole last line)
                start = max(0, size - chunk)
                stream.seek(start)
                tail = stream.read(size - start)
                if start == 0 or tail.rstrip().count(b"\n") >= 1:
                    return _tag(tail)
                chunk *= 4
    except OSError:
        return None


def _tag(text: bytes) -> str | None:
    for line in reversed(text.splitlines()):
        fields = line.split()
        if fields and not fields[0].startswith(b"#"):
            return fields[5].decode("utf-8", "surrogateescape") if len(fields) > 5 else None
    return None
