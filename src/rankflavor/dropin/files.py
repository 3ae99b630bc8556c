"""What trec_eval reads of its files beside the rows rankflavor's readers give: the run id."""

from __future__ import annotations

import os


def last_run_tag(path: str) -> str | None:
    """The sixth field of a results file's last line: trec_eval's runid (get_trec_results.c keeps the run_id of
    the last line it parses). Standard input and gzip files: the first line's tag (inputs/trec.py run_tag)."""
    from rankflavor.inputs.trec import run_tag

    if path == "-" or path.endswith(".gz"):
        return run_tag(path) if path != "-" else None
    try:
        with open(path, "rb") as stream:
            size = stream.seek(0, os.SEEK_END)
            chunk = 1 << 16
            while True:
                start = max(0, size - chunk)
                stream.seek(start)
                lines = [line.split() for line in stream.read(size - start).splitlines()]
                lines = [fields for fields in lines if fields and not fields[0].startswith(b"#")]
                if lines and ((start > 0 and len(lines) > 1) or start == 0):
                    last = lines[-1]
                    return last[5].decode("utf-8", "surrogateescape") if len(last) > 5 else None
                if start == 0:
                    return None
                chunk *= 4
    except OSError:
        return None
