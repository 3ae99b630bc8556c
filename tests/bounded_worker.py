"""A process that reads inputs one after the other and reports each one's own peak memory (tests/test_safety_reads.py).

It reads one JSON command per line on its standard input: {"prefix": hex, "body": hex, "where": "stdin" | "file",
"size": bytes of a file's body, "cap": the input cap, "via": "evaluate" | "load" | "explain"}. A stdin input is a
pipe fed by a thread with the prefix, then the body over and over until the reader stops (endless); a file input is
the prefix, then the body repeated up to `size` (zeros: a sparse file). Before each, the peak resident memory is
reset (/proc/self/clear_refs, 5); after, it answers {"outcome", "message", "peak"} (peak over the baseline, bytes).
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import threading
import traceback


def _peak() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def _reset() -> None:
    with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
        refs.write("5")


def _feed(fd: int, prefix: bytes, body: bytes) -> None:
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(prefix)
            while body:
                out.write(body)
    except OSError:  # (the reader stopped: a broken pipe)
        pass


def _file(folder: str, prefix: bytes, body: bytes, size: int) -> str:
    path = os.path.join(folder, "input")
    with open(path, "wb") as out:
        out.write(prefix)
        if body.strip(b"\x00"):
            for _ in range(max(size // max(len(body), 1), 1)):
                out.write(body)
        else:
            out.truncate(len(prefix) + size)  # (zeros: a sparse file, no disk)
    return path


def _bound_address_space() -> None:
    """A read without a bound ends in MemoryError (reported) rather than taking the machine: the address space is
    limited to what the process maps now and 2 GB more."""
    import resource

    with open("/proc/self/status", encoding="ascii") as status:
        size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (size + (2 << 30), resource.getrlimit(resource.RLIMIT_AS)[1]))


def main() -> None:
    import rankflavor as rf
    from rankflavor import limits

    folder = tempfile.mkdtemp()
    qrels = os.path.join(folder, "q.qrels")
    with open(qrels, "w", encoding="ascii") as out:
        out.write("q1 0 d1 1\nq1 0 d2 0\n")
    rf.evaluate(qrels, {"q1": {"d1": 1.0}}, ["ndcg@3"])  # (the imports, once)
    _bound_address_space()
    _reset()
    rf.evaluate(qrels, {"q1": {"d1": 1.0}}, ["ndcg@3"])
    base = _peak()
    print(json.dumps({"ready": base}), flush=True)
    for line in sys.stdin:
        command = json.loads(line)
        prefix, body = bytes.fromhex(command["prefix"]), bytes.fromhex(command["body"])
        source, feeder = "-", None
        if command["where"] == "file":
            source = _file(folder, prefix, body, command["size"])
        else:
            read, write = os.pipe()
            feeder = threading.Thread(target=_feed, args=(write, prefix, body), daemon=True)
            feeder.start()
            sys.stdin = io.TextIOWrapper(os.fdopen(read, "rb"))  # (inputs/stdin.py reads sys.stdin.buffer)
        _reset()
        outcome, message = "ok", ""
        try:
            with limits.max_input(command["cap"]):
                if command["via"] == "load":
                    rf.load(source)
                elif command["via"] == "explain":
                    rf.explain(qrels, source, "q1", "ndcg@3")
                else:
                    rf.evaluate(qrels, source, ["ndcg@3"])
        except (rf.InputError, rf.EvaluationError) as exc:
            outcome, message = "InputError" if isinstance(exc, rf.InputError) else "EvaluationError", str(exc)[:300]
        except BaseException as exc:  # (reported: the test fails on anything undocumented)
            outcome, message = type(exc).__name__, traceback.format_exc()[-2000:]
        peak = _peak() - base
        if feeder is not None:
            sys.stdin.close()
            feeder.join(5)
            sys.stdin = sys.__stdin__
        print(json.dumps({"outcome": outcome, "message": message, "peak": peak}), flush=True)


if __name__ == "__main__":
    main()
