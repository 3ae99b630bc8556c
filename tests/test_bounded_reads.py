"""Reads stop at the first byte that cannot be text (inputs/bounded.py), within bounded memory.

Each case runs rankflavor (the CLI, or the API from `python -c`) in a subprocess and reads that process's own
peak resident memory from `os.wait4`. The inputs would cost far more than the bound read whole: 400 MB of NULs
from /dev/zero on the standard input, /dev/zero itself (endless), a gzip of 400 MB of NULs after a valid line.
"""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankflavor.errors import InputError
from rankflavor.inputs.bounded import gunzip_checked, read_checked
from rankflavor.inputs.encoding import decode_text

SRC = Path(__file__).resolve().parents[1] / "src"
PEAK_LIMIT_KB = 200 * 1024  # the bound the issue sets (ru_maxrss is in KiB on Linux)
NULS = 400_000_000  # bytes of NULs: read whole, they alone would pass the bound twice
RUN_LINE = b"q1 Q0 d1 1 2.0 r\n"
NOT_TEXT = "this is not a text file (it contains NUL bytes)"

pytestmark = pytest.mark.skipif(not Path("/dev/zero").exists() or not hasattr(os, "wait4"),
                                reason="needs /dev/zero and os.wait4 (a child's own peak memory)")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}


# Linux counts a process's peak RSS from before its exec: a child forked from this (large) test process would
# report this process's size. So a small helper process starts the command and reads its peak with os.wait4.
_MEASURE = ("import os, subprocess, sys\n"
            "child = subprocess.Popen(sys.argv[2:])\n"
            "_, status, usage = os.wait4(child.pid, 0)\n"
            "open(sys.argv[1], 'w').write(f'{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}')\n")


def _run(argv: list[str], cwd: Path, stdin: int | None = None) -> tuple[int, str, int]:
    """(exit code, stderr, peak RSS in KiB) of `python argv...` in its own process."""
    err, measured = cwd / "stderr.txt", cwd / "measured.txt"
    with err.open("wb") as sink:
        subprocess.run([sys.executable, "-c", _MEASURE, str(measured), sys.executable, *argv], cwd=cwd, env=_env(),
                       stdin=stdin, stdout=subprocess.DEVNULL, stderr=sink, check=True)
    code, peak = (int(word) for word in measured.read_text().split())
    return code, err.read_text(), peak


@pytest.fixture
def qrels(tmp_path: Path) -> Path:
    path = tmp_path / "q.txt"
    path.write_text("q1 0 d1 1\n")
    return path


def _nul_gzip(path: Path) -> Path:
    """A valid run line, then NULS NULs, gzip-compressed (about 0.4 MB on disk), written a block at a time."""
    block = bytes(1 << 20)
    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(RUN_LINE)
        for _ in range(NULS // len(block)):
            out.write(block)
    return path


def _api(qrels: Path, run: str) -> list[str]:
    return ["-c", f"import rankflavor; rankflavor.evaluate({str(qrels)!r}, {run!r})"]


@pytest.mark.parametrize("via", ["cli", "api"])
def test_dev_zero_as_a_run(qrels: Path, tmp_path: Path, via: str) -> None:
    argv = ["-m", "rankflavor", "eval", str(qrels), "/dev/zero"] if via == "cli" else _api(qrels, "/dev/zero")
    code, err, peak = _run(argv, tmp_path)
    assert code != 0 and "/dev/zero:1: " + NOT_TEXT in err, err
    assert peak < PEAK_LIMIT_KB, f"peak RSS {peak} KiB"


@pytest.mark.parametrize("via", ["cli", "api"])
def test_gzip_bomb_of_nuls(qrels: Path, tmp_path: Path, via: str) -> None:
    bomb = _nul_gzip(tmp_path / "bomb.run.gz")
    assert bomb.stat().st_size < 4 << 20
    argv = ["-m", "rankflavor", "eval", str(qrels), str(bomb)] if via == "cli" else _api(qrels, str(bomb))
    code, err, peak = _run(argv, tmp_path)
    assert code != 0 and f"{bomb}:2: {NOT_TEXT}" in err, err  # (line 2: after the valid first line)
    assert peak < PEAK_LIMIT_KB, f"peak RSS {peak} KiB"


@pytest.mark.parametrize("via", ["cli", "api"])
def test_nuls_on_stdin(qrels: Path, tmp_path: Path, via: str) -> None:
    head = subprocess.Popen(["head", "-c", str(NULS), "/dev/zero"], stdout=subprocess.PIPE)
    try:
        argv = ["-m", "rankflavor", "eval", str(qrels), "-"] if via == "cli" else _api(qrels, "-")
        code, err, peak = _run(argv, tmp_path, stdin=head.stdout)
    finally:
        head.stdout.close()
        head.kill()
        head.wait()
    assert code != 0 and "<stdin>:1: " + NOT_TEXT in err, err
    assert peak < PEAK_LIMIT_KB, f"peak RSS {peak} KiB"


def test_nuls_after_a_valid_line_in_a_regular_file(qrels: Path, tmp_path: Path) -> None:
    run = tmp_path / "x.run"
    with run.open("wb") as out:
        out.write(RUN_LINE)
        out.truncate(len(RUN_LINE) + NULS)  # (a sparse file: NULs that cost no disk)
    code, err, peak = _run(["-m", "rankflavor", "eval", str(qrels), str(run)], tmp_path)
    assert code != 0 and f"{run}:2: {NOT_TEXT}" in err, err
    assert peak < PEAK_LIMIT_KB, f"peak RSS {peak} KiB"


FIRST_LINES = {  # a valid first line of each text format of inputs/formats.py, which the sniffer reads as such
    "judgments.csv": b"query,docid,rating\n",
    "train.txt": b"3 qid:1 1:0.5 # d1\n",
    "body.json": b'{"requests": [\n',
    "run.jsonl": b'{"hits": {"hits": []}, "query_id": "q1"}\n',
    "scores.txt": b"q1\t0\t0.5\n",
}


@pytest.mark.parametrize("name", list(FIRST_LINES))
def test_nuls_after_each_formats_first_line(name: str, qrels: Path, tmp_path: Path) -> None:
    """Whatever the first bytes tell, each reader reads as the TREC reader does: a block at a time, stopping at the
    first NUL (inputs/text_file.py)."""
    path = tmp_path / name
    with path.open("wb") as out:
        out.write(FIRST_LINES[name])
        out.truncate(len(FIRST_LINES[name]) + NULS)
    run = name in ("run.jsonl", "scores.txt")
    inputs = [str(qrels), str(path)] if run else [str(path), str(qrels)]  # (the qrels is read first)
    argv = ["-m", "rankflavor", "eval", *inputs]
    code, err, peak = _run(argv, tmp_path)
    assert code != 0 and f"{path}:2: {NOT_TEXT}" in err, err
    assert peak < PEAK_LIMIT_KB, f"peak RSS {peak} KiB"


def test_urandom_stops_with_the_message(qrels: Path, tmp_path: Path) -> None:
    if not Path("/dev/urandom").exists():
        pytest.skip("no /dev/urandom")
    code, err, peak = _run(["-m", "rankflavor", "eval", str(qrels), "/dev/urandom"], tmp_path)
    assert code != 0 and "/dev/urandom:" in err and ("not a text file" in err or "not valid UTF-8" in err), err
    assert peak < PEAK_LIMIT_KB, f"peak RSS {peak} KiB"


@given(st.lists(st.binary(max_size=3000).map(lambda b: b.replace(b"\x00", b"a")), min_size=1, max_size=4),
       st.integers(0, 3))
def test_gunzip_checked_inflates_as_gzip_does(members: list[bytes], padding: int) -> None:
    """Multi-member gzip with zero padding: the bytes gzip.decompress gives, or the error their whole decoding
    gives (encoding.decode_text), word for word."""
    raw = b"".join(gzip.compress(member) + bytes(padding) for member in members)
    expected = gzip.decompress(raw)
    try:
        decode_text(expected, Path("x.gz"))
    except InputError as whole:
        with pytest.raises(InputError) as info:
            gunzip_checked(raw, Path("x.gz"))
        assert str(info.value) == str(whole)
    else:
        assert gunzip_checked(raw, Path("x.gz")) == expected


def test_gunzip_checked_refuses_truncated_and_trailing_data() -> None:
    whole = gzip.compress(b"q1 0 d1 1\n" * 1000)
    with pytest.raises(EOFError):
        gunzip_checked(whole[:-9], Path("x.gz"))
    with pytest.raises(zlib.error):
        gunzip_checked(whole + b"junk", Path("x.gz"))


def test_read_checked_reads_text_and_binary_formats_whole() -> None:
    """Text, a UTF-16 file with its byte-order mark and a Parquet head pass whole; the error names the line."""
    for data in (b"q1 0 d1 1\n" * 300_000, "q1 0 d1 1\n".encode("utf-16"), b"PAR1" + bytes(3 << 20)):
        assert read_checked(io.BytesIO(data).read, Path("f")) == data
    with pytest.raises(InputError, match="NUL") as info:
        read_checked(io.BytesIO(b"q1 0 d1 1\n" * 200_000 + bytes(5 << 20)).read, Path("f"))
    assert info.value.line == 200_001
