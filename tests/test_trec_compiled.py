"""The compiled TREC reader (inputs/_trec_reader.c) against the line reader (inputs/trec_lines.py): on any text,
either it declines (None: the Python readers then read the file and say what is wrong) or it gives the line
reader's ids, values and skipped-line counts; it declines only what it must (bytes beyond printable ASCII, a run's
extra columns, an error, no rows). Without the extension the Python readers read every file, and a file is read the
same way, errors included, with it and without it."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rankflavor.errors import InputError
from rankflavor.inputs import trec_compiled
from rankflavor.inputs.columns import QRELS_COLUMNS, RUN_COLUMNS
from rankflavor.inputs.trec import read_trec_qrels, read_trec_run
from rankflavor.inputs.trec_lines import RUN_WIDTH, read_lines

needs_reader = pytest.mark.skipif(trec_compiled._trec_reader is None and not os.environ.get("CI"),
                                  reason="the compiled reader is not built (pip install -e . builds it)")
FIELDS = ["q1", "q2", "Q0", "d1", "d#2", "D3", "0", "1", "2", "-0.5", "+2.", ".5", "1e3", "1E-2", "3.25", "007",
          "1_0", "inf", "nan", "-Infinity", "1e400", "abc", "score", ".", "e5", "1e", "é", "d\u00a0", "\ufeffq",
          "x\x0by", "\x00", "", "tag", "#c", "7" * 300]
SEPARATORS = [" ", "\t", "  ", " \t "]
ENDS = ["\n", "\r\n", "\r"]


IDS = ["q1", "q2", "Q0", "d1", "d#2", "D3", "0", "7", "x" * 40]
NUMBERS = ["0", "1", "2", "-0.5", "+2.", ".5", "1e3", "1E-2", "3.25", "007", "-0", "1e-400", "123456789.123456789"]


@st.composite
def trec_texts(draw, width: int) -> str:
    """Lines mostly of the format's shape (ids, plain numbers), some of any fields, widths and bytes."""
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["row"] * 10 + ["wild", "blank", "comment"]))
        if kind == "blank":
            text = draw(st.sampled_from(["", " ", "\t ", "  "]))
        elif kind == "comment":
            text = draw(st.sampled_from(["", " ", "\t"])) + "#" + draw(st.sampled_from(["", " a b", "q1 0 d1 1"]))
        else:
            if kind == "row":
                fields = [draw(st.sampled_from(NUMBERS if i == (4 if width == 6 else 3) else IDS))
                          for i in range(width)]
            else:
                fields = [draw(st.sampled_from(FIELDS)) for _ in range(draw(st.sampled_from([3, 4, 5, 6, 7])))]
            seps = [draw(st.sampled_from(SEPARATORS)) for _ in range(len(fields) - 1)]
            text = draw(st.sampled_from(["", " ", "\t"])) + "".join(f + s for f, s in zip(fields, [*seps, ""], strict=True))
            text += draw(st.sampled_from(["", "", " ", "\t"]))
        lines.append(text + draw(st.sampled_from(ENDS)))
    text = "".join(lines)
    return text[:-1] if text and draw(st.booleans()) else text  # (a last line without its end)


def _python(path: Path, columns: tuple[str, ...], value_col: int):
    try:
        return read_lines(path, columns, value_col, "value")
    except InputError as exc:
        return exc


def _should_read(text: str, read, columns: tuple[str, ...], value_col: int) -> bool:
    """What the compiled reader must read: the line reader's rows of a file of printable ASCII, tabs and line ends,
    no run line wider than six columns, no value over 256 characters."""
    if isinstance(read, InputError) or not read.query or read.extra_columns:
        return False
    if any(not (c in "\t\n\r" or " " <= c <= "~") for c in text):
        return False
    rows = [line.split() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return all(len(row[value_col]) <= 256 for row in rows if len(row) == len(columns) and row[0][0] != "#")


@needs_reader
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), run=st.booleans())
def test_compiled_reader_reads_what_the_line_reader_reads(tmp_path, data, run):
    text = data.draw(trec_texts(6 if run else 4))
    path = tmp_path / "input.txt"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    columns, value_col = (RUN_COLUMNS, 4) if run else (QRELS_COLUMNS, 3)
    compiled = trec_compiled.read_compiled(path, columns, value_col)
    python = _python(path, columns, value_col)
    assert (compiled is not None) == _should_read(text, python, columns, value_col), (text, python)
    if compiled is not None:
        assert compiled.query.to_pylist() == python.query.to_pylist()
        assert compiled.doc.to_pylist() == python.doc.to_pylist()
        assert np.array_equal(compiled.values, np.asarray(python.value, dtype=np.float64))
        assert (compiled.comments, compiled.blanks) == (python.comments, python.blanks)


@needs_reader
def test_line_ends_split_across_blocks_and_a_large_file(tmp_path):
    """A \\r\\n astride the reader's 1 MiB blocks, lines longer than a block, a million rows: the line reader's."""
    parts = []
    for i in range(40_000):
        parts.append(f"q{i % 97}\tQ0 d{i * 7919 % 50_021}  {i % 13} {(i * 0.37) % 5:.6g} run" + ("\r\n", "\n", "\r")[i % 3])
    parts.insert(20_000, "q1 Q0 " + "d" * (3 << 20) + " 1 2.5 run\r\n")
    text = "".join(parts)
    path = tmp_path / "run.txt"
    path.write_text(text, newline="")
    compiled = trec_compiled.read_compiled(path, RUN_COLUMNS, 4)
    python = read_lines(path, RUN_COLUMNS, 4, "score")
    assert compiled is not None and len(compiled.values) == len(python.value) == 40_001
    assert compiled.doc.to_pylist() == python.doc.to_pylist() and compiled.query.to_pylist() == python.query.to_pylist()
    assert np.array_equal(compiled.values, python.value)


def _same_table(a, b) -> None:
    assert a.query.to_pylist() == b.query.to_pylist() and a.doc.to_pylist() == b.doc.to_pylist()
    assert np.array_equal(getattr(a, "score", getattr(a, "grade", None)), getattr(b, "score", getattr(b, "grade", None)))
    assert (a.source.sha256, a.source.comment_lines, a.source.blank_lines) == \
        (b.source.sha256, b.source.comment_lines, b.source.blank_lines)


GOOD = "# a comment\nq2 Q0 d1 1 2.5 run\n\nq1\tQ0\td2\t2\t-1e-3\trun\r\nq1 Q0 d1 3 7 run"
BAD = ["q1 Q0 d1 1 2.5 run\nq1 Q0 d2 2 NaN run\n", "q1 Q0 d1 1 2.5 run\nq1 Q0 d2 2 run\n",
       "qid Q0 docno rank score tag\nq1 Q0 d1 1 2 run\n", "q1 Q0 d1 1 2.5 run\n\x00\x00\x00",
       "q1 Q0 d1 1 2.5 run\nq1 Q0 d2 2 1\x0b5 run\n", "q1,Q0,d1,1,2.5,run\n"]


@pytest.mark.parametrize("pure", [False, True])
def test_a_file_reads_the_same_with_and_without_the_extension(tmp_path, monkeypatch, pure):
    """The fallback: with the extension absent (or turned off), the Python readers give the same table, and a bad
    file the same error (file, line, text, fix) either way."""
    path = tmp_path / "run.txt"
    path.write_text(GOOD, newline="")
    with_it = read_trec_run(path)
    if pure:
        monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", "1")
    else:
        monkeypatch.setattr(trec_compiled, "_trec_reader", None)
    assert not trec_compiled.available()
    _same_table(with_it, read_trec_run(path))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\n")
    monkeypatch.undo()
    judged = read_trec_qrels(qrels)
    monkeypatch.setattr(trec_compiled, "_trec_reader", None)
    _same_table(judged, read_trec_qrels(qrels))


@pytest.mark.parametrize("text", BAD)
def test_errors_are_the_python_readers_with_the_extension(tmp_path, monkeypatch, text):
    path = tmp_path / "run.txt"
    path.write_bytes(text.encode())
    with pytest.raises(InputError) as compiled:
        read_trec_run(path)
    monkeypatch.setattr(trec_compiled, "_trec_reader", None)
    with pytest.raises(InputError) as python:
        read_trec_run(path)
    assert str(compiled.value) == str(python.value)
    assert (compiled.value.line, compiled.value.fix) == (python.value.line, python.value.fix)


def test_the_extension_is_built_under_ci():
    """`make test` (CI set) runs on the `pip install -e .` of pyproject.toml, which builds the reader."""
    if os.environ.get("CI") and "site-packages" not in trec_compiled.__file__:
        assert trec_compiled._trec_reader is not None


def test_trec_eval_prints_the_same_bytes_without_the_extension(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n")
    run.write_text("q1\tQ0\td1\t1\t0.5\tr\nq1 Q0 d2 2 0.25 r\nq2 Q0 d3 1 1 r\nq2 Q0 d4 2 1 r\n")
    outputs = []
    for pure in ("0", "1"):
        env = {**os.environ, "RANKFLAVOR_PURE_PYTHON": pure}
        done = subprocess.run([sys.executable, "-m", "rankflavor", "trec_eval", "-q", str(qrels), str(run)],
                              capture_output=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and b"map" in outputs[0]


def test_run_width_is_the_readers():
    assert RUN_WIDTH == len(RUN_COLUMNS) == 6


@needs_reader
def test_a_carriage_return_ending_the_first_block(tmp_path):
    """The \\r of a \\r\\n as the last byte of the reader's first 1 MiB read, its \\n the first of the next."""
    head = "q1 Q0 d0 1 1 run"
    text = head + " " * ((1 << 20) - 1 - len(head)) + "\r\n" + "q1 Q0 d1 2 0.5 run\r\n\rq2 Q0 d1 1 3 run\n"
    path = tmp_path / "run.txt"
    path.write_text(text, newline="")
    assert text.index("\r") == (1 << 20) - 1
    compiled = trec_compiled.read_compiled(path, RUN_COLUMNS, 4)
    python = read_lines(path, RUN_COLUMNS, 4, "score")
    assert compiled is not None and compiled.doc.to_pylist() == python.doc.to_pylist() == ["d0", "d1", "d1"]
    assert (compiled.comments, compiled.blanks) == (python.comments, python.blanks) == (0, 1)


@needs_reader
def test_values_are_read_as_float_reads_them(tmp_path):
    """Decimals of 1 to 20 digits, signs, fractions and exponents: the same double as Python's float()."""
    rng = np.random.default_rng(7)
    fields = []
    for _ in range(20_000):
        digits = "".join(map(str, rng.integers(0, 10, rng.integers(1, 21))))
        point = rng.integers(0, len(digits) + 1)
        text = digits[:point] + "." + digits[point:] if rng.random() < 0.8 else digits
        text = ("-" if rng.random() < 0.3 else "") + text
        if rng.random() < 0.1:
            text += f"e{rng.integers(-30, 30)}"
        fields.append(text)
    path = tmp_path / "run.txt"
    path.write_text("".join(f"q1 Q0 d{i} 1 {v} r\n" for i, v in enumerate(fields)))
    compiled = trec_compiled.read_compiled(path, RUN_COLUMNS, 4)
    assert compiled is not None
    expected = np.array([float(v) for v in fields])
    assert np.array_equal(compiled.values, expected)
    assert np.array_equal(np.signbit(compiled.values), np.signbit(expected))


def _parsed(path: Path, parts: int, run: bool):
    """The compiled reader's raw answer, its buffers as bytes."""
    out = trec_compiled._trec_reader.parse(str(path), 6 if run else 4, 4 if run else 3, parts)
    if out is None:
        return None
    rows, query, doc, values, comments, blanks = out
    return rows, [bytes(b) for b in query[:3]], query[3], [bytes(b) for b in doc[:3]], doc[3], bytes(values), \
        comments, blanks


@needs_reader
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), run=st.booleans())
def test_a_file_read_in_parts_reads_as_in_one(tmp_path, data, run):
    """Cut after a line end into 2 to 4 parts read on threads, their dictionaries merged in file order: the
    same codes, ids, values and counts as one pass (or None from every split)."""
    text = data.draw(trec_texts(6 if run else 4))
    path = tmp_path / "input.txt"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    whole = _parsed(path, 1, run)
    for parts in (2, 3, 4):
        assert _parsed(path, parts, run) == whole, (text, parts)


@needs_reader
def test_ids_of_every_length_across_parts(tmp_path):
    """Ids of 1 to 40 bytes (a word of 8 bytes and its remainder compared), new ones in every part and old ones
    again, in a file large enough to be read in parts without being asked: the line reader's ids."""
    rng = np.random.default_rng(3)
    ids = ["".join(rng.choice(list("abcdefghij0123456789-_.:"), n)) for n in rng.integers(1, 41, 3000)]
    lines = [f"q{i // 300} Q0 {ids[int(j)]} {i} {i % 97 / 8} r\n"
             for i, j in enumerate(rng.integers(0, len(ids), 300_000) * np.linspace(0.1, 1, 300_000))]
    path = tmp_path / "run.txt"
    path.write_text("".join(lines))
    python = read_lines(path, RUN_COLUMNS, 4, "score")
    for parts in (0, 1, 2, 4):
        compiled = _parsed(path, parts, True)
        assert compiled == _parsed(path, 1, True)
    read = trec_compiled.read_compiled(path, RUN_COLUMNS, 4)
    assert read is not None and read.doc.to_pylist() == python.doc.to_pylist()
    assert read.query.to_pylist() == python.query.to_pylist() and np.array_equal(read.values, python.value)


@needs_reader
def test_a_table_of_ids_that_come_back_grows_sparse(tmp_path):
    """5,000 doc ids, each seen 30 times: once the look-ups reach 8 an id, the doc table is grown to a quarter full
    (_trec_reader.h interner_sparsen); every id keeps its code and is interned once, in one part and in two."""
    n = 5_000
    order = np.random.default_rng(5).permutation(30 * n) % n
    path = tmp_path / "run.txt"
    path.write_text("".join(f"q{i // 1000} Q0 doc{j:06d} {i % 1000 + 1} {-i} r\n" for i, j in enumerate(order)))
    python = read_lines(path, RUN_COLUMNS, 4, "score")
    one = _parsed(path, 1, True)
    assert one[4] == n and _parsed(path, 2, True) == one  # (one[4]: the distinct doc ids)
    read = trec_compiled.read_compiled(path, RUN_COLUMNS, 4)
    assert read is not None and read.doc.to_pylist() == python.doc.to_pylist() and len(read.doc.dictionary) == n


@needs_reader
def test_an_output_without_digests_reads_without_hashing(tmp_path, monkeypatch):
    """`eval` printing a table, CSV or trec_eval's lines hashes no TREC file it reads (no SHA-256 is shown);
    `--format json` and --against do, and a command in this process leaves hashing on for the next."""
    from cli_capture import cli

    made = []

    class Counted(trec_compiled.HashPending):
        def __init__(self, path):
            made.append(path)
            super().__init__(path)

    monkeypatch.setattr(trec_compiled, "HashPending", Counted)
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\n")
    run.write_text("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n")
    for fmt in ("table", "csv", "trec"):
        code, out, _ = cli("eval", str(qrels), str(run), "-m", "P@1", "--format", fmt)
        assert code == 0 and out and made == [] and trec_compiled.hashes_on()
    code, out, _ = cli("eval", str(qrels), str(run), "-m", "P@1", "--format", "json")
    inputs = json.loads(out)["provenance"]["inputs"]
    assert code == 0 and [i["sha256"] for i in inputs] == [hashlib.sha256(p.read_bytes()).hexdigest() for p in (qrels, run)]
    assert sorted(made) == sorted([qrels, run])


LIMITED = """
import resource, sys
from rankflavor.inputs import _trec_reader
size = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmSize")) * 1024
resource.setrlimit(resource.RLIMIT_AS, (size + int(sys.argv[2]), resource.RLIM_INFINITY))
try:
    out = _trec_reader.parse(sys.argv[1], 6, 4, 4)
    print("read", out[0] if out else None)
except MemoryError:
    print("MemoryError")
"""


@needs_reader
def test_a_file_too_large_for_the_memory_left_raises_memory_error(tmp_path):
    """A run read in 4 parts under an address-space limit that its tables do not fit (each part's doc table is made
    before any thread starts: _trec_reader.c read_file): MemoryError, the process intact; with room, the file."""
    path = tmp_path / "run.txt"
    path.write_text("".join(f"q{i // 1000} Q0 doc{i} {i % 1000 + 1} {-i} r\n" for i in range(400_000)))
    seen = {}
    for room in (1 << 20, 3 << 20, 6 << 20, 1 << 30):
        done = subprocess.run([sys.executable, "-c", LIMITED, str(path), str(room)], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        seen[room] = done.stdout.strip()
    assert seen == {1 << 20: "MemoryError", 3 << 20: "MemoryError", 6 << 20: "MemoryError", 1 << 30: "read 400000"}
