"""dropin/te_parse.py, the qrels and results reader of `rankflavor trec_eval`: the compiled `_te_reader` and the
Python loops give the same ids, codes, values, run_id and errors on any bytes, and both give what standard_read
read before them (te_read_reference.py: Arrow's CSV reader for a tidy file, else the line loop); C's atol and atof
on odd numbers; the messages and line numbers of a malformed file; no pyarrow or pandas imported."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from te_read_reference import reference_qrels, reference_results

from rankflavor.dropin import te_files, te_parse
from rankflavor.dropin.c_reading import TrecEvalExit

needs_reader = pytest.mark.skipif(te_parse._te_reader is None and not os.environ.get("CI"),
                                  reason="the compiled reader is not built (pip install -e . builds it)")
IDS = [b"q1", b"301", b"Q0", b"d1", b"FR94-1", b"d#2", b"#c", b"\xe9t\xe9", b"\xef\xbb\xbfq", b"x\x00y", b"\xa0",
       b"\x85", b"\x1c", b"-", b"x" * 70, b"DOC-1"]
NUMBERS = [b"0", b"1", b"2", b"-1", b"0.5", b"1e1", b"3x", b"0x2", b"0x10", b"1e400", b"-1e400", b"2.5abc", b"nan",
           b"-nan", b"NaN", b"inf", b"-Infinity", b"nan(12)", b"0x1p-3", b"0x1.8p3", b"+5", b"-0", b"007", b"1_0",
           b"99999999999999999999", b"-99999999999999999999", b"9223372036854775807", b"9223372036854775808",
           b".", b"e5", b"1e", b"0x", b"123456789012345678", b"1234567890123456789", b"0.1", b".5", b"5.",
           b"3.14159265358979323846", b"1e-400", b"4.9e-324", b"123456789012345", b"1234567890123456", b"+-1",
           b"0" * 70 + b"1", b"1" + b"0" * 70, b"2.5" * 30, b"1.5\xff", b"-.5e-3"]
SPACES = [b" ", b"\t", b"\v", b"\f", b"\r", b"  ", b" \t", b"\r\r"]
NUMBER = st.one_of(st.sampled_from(NUMBERS), st.integers(-10**20, 10**20).map(lambda n: str(n).encode()),
                   st.floats().map(lambda x: repr(x).encode()))
FIELD = st.one_of(st.sampled_from(IDS), NUMBER, st.binary(min_size=1, max_size=4))


@st.composite
def te_bytes(draw) -> bytes:
    """Lines mostly of a qrels or results file's shape, with any white space, comments, blank lines, odd numbers
    and bytes; or any bytes at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=60))
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["qrels"] * 4 + ["results"] * 4 + ["wild", "blank", "comment", "comment"]))
        if kind == "blank":
            text = b"".join(draw(st.lists(st.sampled_from(SPACES), max_size=2)))
        elif kind == "comment":
            text = draw(st.sampled_from([b"", b"", b" ", b"\t"])) + b"#" + draw(st.sampled_from([b"", b" a b",
                                                                                                  b"q1 0 d1 1"]))
        else:
            ids = st.sampled_from(IDS)
            fields = {"qrels": [ids, st.just(b"0"), ids, NUMBER],
                      "results": [ids, st.just(b"Q0"), ids, st.just(b"1"), NUMBER, ids],
                      "wild": [FIELD] * draw(st.integers(0, 8))}[kind]
            values = [draw(field) for field in fields]
            text = draw(st.sampled_from([b"", b"", b" ", b"\t", b"\r"]))
            text += b"".join(value + draw(st.sampled_from(SPACES)) for value in values[:-1]) + b"".join(values[-1:])
            text += draw(st.sampled_from([b"", b"", b" ", b"\r"]))
        lines.append(text + draw(st.sampled_from([b"\n", b"\n", b"\r\n"])))
    data = b"".join(lines)
    return data[:-1] if data and draw(st.booleans()) else data


@st.composite
def tidy_bytes(draw) -> bytes:
    """Printable ASCII, one space between fields: the files the reference reads with Arrow's CSV reader."""
    word = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=5).map(str.encode)
    lines, usual = [], draw(st.sampled_from([4, 6]))
    for _ in range(draw(st.integers(1, 6))):
        width = usual if draw(st.integers(0, 7)) else draw(st.sampled_from([3, 4, 5, 6, 7]))
        fields = [draw(NUMBER if i in (3, 4) else st.one_of(st.sampled_from(IDS[:7]), word)) for i in range(width)]
        fields = [b"1" if b"\x00" in f or any(c <= 32 or c > 126 for c in f) else f for f in fields]
        lines.append(b" ".join(fields).lstrip(b"#") or b"1")
    data = b"\n".join(lines)
    return data + b"\n" if draw(st.booleans()) else data


def normal(values: np.ndarray) -> list:
    """Values comparable with ==: a NaN by its sign (glibc keeps nan(12)'s payload, Python cannot)."""
    return [("nan", bool(np.signbit(v))) if isinstance(v, float) and math.isnan(v) else v for v in values.tolist()]


def parsed(parse, data: bytes) -> tuple:
    """What te_parse gives: the rows and run_id, or the error's exit code and message."""
    try:
        out = parse(data, "f")
    except TrecEvalExit as exc:
        return exc.code, exc.message
    values = out.grade if isinstance(out, te_parse.ParsedQrels) else out.score
    assert out.q.dtype == np.int32 and out.d.dtype == np.int32
    assert values.dtype == (np.int64 if isinstance(out, te_parse.ParsedQrels) else np.float64)
    for codes, ids in ((out.q, out.query_ids), (out.d, out.doc_ids)):  # (codes in order of first appearance)
        assert list(dict.fromkeys(codes.tolist())) == list(range(len(ids)))
    return (out.query_ids, out.q.tolist(), out.doc_ids, out.d.tolist(), normal(values),
            getattr(out, "run_id", None))


def both(parse, data: bytes, monkeypatch) -> tuple[tuple, tuple]:
    monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", "0")
    compiled = parsed(parse, data)
    monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", "1")
    return compiled, parsed(parse, data)


def reference(read, data: bytes) -> tuple:
    """The reference's rows in the same shape (ids expanded per row) as `expanded`."""
    try:
        rows = read(data, "f")
    except TrecEvalExit as exc:
        return exc.code, exc.message
    return (rows[0], rows[1], normal(rows[2]), *rows[3:])


def expanded(result: tuple) -> tuple:
    if len(result) == 2:
        return result
    query_ids, q, doc_ids, d, values, run_id = result
    out = ([query_ids[c] for c in q], [doc_ids[c] for c in d], values)
    return out if run_id is None else (*out, run_id)


@needs_reader
@given(te_bytes())
def test_compiled_and_python_agree(data):
    with pytest.MonkeyPatch.context() as monkeypatch:
        for parse in (te_parse.parse_qrels, te_parse.parse_results):
            compiled, python = both(parse, data, monkeypatch)
            assert compiled == python


@given(st.one_of(te_bytes(), tidy_bytes()))
def test_both_read_as_standard_read_did(data):
    with pytest.MonkeyPatch.context() as monkeypatch:
        for parse, read in ((te_parse.parse_qrels, reference_qrels), (te_parse.parse_results, reference_results)):
            want = reference(read, data)
            for got in both(parse, data, monkeypatch):
                assert expanded(got) == want


@pytest.mark.parametrize("pure", ["0", "1"])
def test_c_numbers(pure, monkeypatch):
    """atol: strtol's leading integer; atof: strtod's longest number, both in the C locale."""
    monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", pure)
    grades = {b"0.5": 0, b"1e1": 1, b"3x": 3, b"0x2": 0, b"-7": -7, b"+7": 7, b"abc": 0, b"-0": 0, b"0" * 5000 + b"9": 9,
              b"9" * 5000: 2**63 - 1, b"-" + b"9" * 20: -2**63, b"9223372036854775807": 2**63 - 1}
    qrels = te_parse.parse_qrels(b"".join(b"q 0 d%d %s\n" % (i, g) for i, g in enumerate(grades)), "f")
    assert qrels.grade.tolist() == list(grades.values())
    scores = {b"0x10": 16.0, b"1e400": math.inf, b"-1e400": -math.inf, b"2.5abc": 2.5, b"inf": math.inf,
              b"-Infinity": -math.inf, b"0x1.8p3": 12.0, b"1e": 1.0, b"0x": 0.0, b".": 0.0, b"0.1": 0.1,
              b"0x1p99999": math.inf, b"-0x1p5000": -math.inf, b"1" + b"0" * 400: math.inf, b"4.9e-324": 5e-324,
              b"-0": -0.0, b"1_0": 1.0}
    results = te_parse.parse_results(b"".join(b"q Q0 d%d 1 %s r\n" % (i, s) for i, s in enumerate(scores)), "f")
    assert results.score.tolist() == list(scores.values())
    assert [math.copysign(1, s) for s in results.score] == [math.copysign(1, s) for s in scores.values()]
    nans = te_parse.parse_results(b"q Q0 a 1 nan r\nq Q0 b 1 -NaN r\nq Q0 c 1 nan(7)x r\n", "f").score
    assert np.isnan(nans).all() and np.signbit(nans).tolist() == [False, True, False]


ERRORS = [
    ("qrels", b"q 0 d 1\nq 0 d\n", "f:2: malformed qrels line: 3 fields where trec_eval reads exactly 4 (qid iter "
     "docno rel; '#' starts a comment line, one at a time)"),
    ("qrels", b"# one\n# two\nq 0 d 1\n", "f:2: malformed qrels line: 2 fields"),
    ("qrels", b"q 0 d 1\n#\n\nq 0 d 1\n", "f:3: malformed qrels line: 0 fields"),
    ("qrels", b"q 0 d 1 x y\r\n", "f:1: malformed qrels line: 6 fields"),
    ("qrels", b" # q 0 d 1\n", "f:1: malformed qrels line: 5 fields"),
    ("qrels", b"#only\n", "f:1: malformed qrels line: no judgment line"),
    ("results", b"\n# c\nq Q0 d 1 0.5 r\n q Q0 d 1 0.5\n", "f:4: malformed results line: 5 fields where trec_eval "
     "reads six or more (qid iter docno rank sim run_id)"),
    ("results", b"\n  \n#a\n \t# b c d e f\r\n", "f:1: malformed results line: no result line"),
]


@pytest.mark.parametrize("pure", ["0", "1"])
@pytest.mark.parametrize(("kind", "data", "message"), ERRORS)
def test_errors(kind, data, message, pure, monkeypatch):
    monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", pure)
    parse = te_parse.parse_qrels if kind == "qrels" else te_parse.parse_results
    with pytest.raises(TrecEvalExit) as caught:
        parse(data, "f")
    assert caught.value.code == 2 and caught.value.message.startswith("trec_eval: " + message)


def test_a_qrels_comment_skips_one_line_and_a_results_line_keeps_the_rest():
    qrels = te_parse.parse_qrels(b"#c\n#q 0 d 1\nq\t0\vd2\f2\r\n#\n", "f")
    assert (qrels.query_ids, qrels.doc_ids, qrels.grade.tolist()) == (["#q", "q"], ["d", "d2"], [1, 2])
    results = te_parse.parse_results(b"\xe9 Q0 \xff 1 2 r1 x y\n\xe9 Q0 d 2 1 \xefr2\n#\n", "f")
    assert (results.query_ids, results.doc_ids, results.q.tolist(), results.d.tolist()) == (["é"], ["ÿ", "d"], [0, 0],
                                                                                             [0, 1])
    assert results.run_id == "ïr2"


def test_pure_python_when_asked_or_not_built(monkeypatch):
    if te_parse._te_reader is not None:
        monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", "1")
        assert not te_parse.compiled()
        monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", "0")
        assert te_parse.compiled()
    monkeypatch.setattr(te_files, "_te_reader", None)
    assert not te_parse.compiled()
    assert te_parse.parse_qrels(b"q 0 d 1\n", "f").grade.tolist() == [1]


def test_imports_neither_pyarrow_nor_pandas():
    code = ("import sys, rankflavor.dropin.te_parse as t; t.parse_results(b'q Q0 d 1 1 r', 'f'); "
            "print(sorted(m for m in ('pyarrow', 'pandas') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.stdout.strip() == "[]"


@needs_reader
def test_plain_decimals_are_correctly_rounded(monkeypatch):
    """The compiled reader's fast path (15 digits or fewer, no exponent) gives strtod's value, as float() does."""
    monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", "0")
    rng = np.random.default_rng(40)
    texts = []
    for width in range(1, 21):
        digits = ["".join(map(str, row)) for row in rng.integers(0, 10, size=(2000, width))]
        texts += [f"{d[:p]}.{d[p:]}" for d, p in zip(digits, rng.integers(0, width + 1, size=2000), strict=True)]
    data = "".join(f"q Q0 d{i} 1 {'-' * (i % 2)}{t} r\n" for i, t in enumerate(texts)).encode()
    scores = te_parse.parse_results(data, "f").score
    assert scores.tolist() == [(-1) ** (i % 2) * float(t) for i, t in enumerate(texts)]


KNOWN = [i.decode("latin-1") for i in (b"d1", b"FR94-1", b"\xe9t\xe9", b"only-in-qrels", b"x" * 70)]


@given(te_bytes(), st.lists(st.sampled_from(KNOWN), unique=True))
def test_known_doc_ids_come_first_and_change_nothing_else(data, known):
    """parse_results(known=the qrels' doc ids): those ids coded 0..n-1 in their order, then the file's others in
    order of first appearance; each row's doc id and every other output as without them, compiled or not."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        for pure in ("0", "1") if te_parse._te_reader is not None else ("1",):
            monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", pure)
            try:
                plain = te_parse.parse_results(data, "f")
            except TrecEvalExit as exc:
                with pytest.raises(TrecEvalExit, match=exc.message.replace("(", r"\(").replace(")", r"\)")):
                    te_parse.parse_results(data, "f", known)
                continue
            seeded = te_parse.parse_results(data, "f", known)
            assert seeded.doc_ids[:len(known)] == known and seeded.known == len(known)
            assert [seeded.doc_ids[c] for c in seeded.d] == [plain.doc_ids[c] for c in plain.d]
            others = [doc for doc in plain.doc_ids if doc not in known]
            assert seeded.doc_ids[len(known):] == others
            assert (seeded.query_ids, seeded.q.tolist(), seeded.run_id) == (plain.query_ids, plain.q.tolist(),
                                                                            plain.run_id)


@given(st.lists(st.sampled_from([*IDS, b"", b"a", b"ab", b"a\x00", b"\xff", b"b"]), max_size=30))
def test_id_ranks_are_strcmp_s_order(raw):
    """te_parse.id_ranks (the compiled qsort, or Python's sort): each id's place in the bytes' order, a prefix first,
    equal ids in list order; what Dataset.doc_keys ranks the drop-in's doc ids by."""
    ids = np.array([r.decode("latin-1") for r in raw], dtype=object)
    want = np.empty(len(raw), dtype=np.int64)
    want[sorted(range(len(raw)), key=lambda i: (raw[i], i))] = np.arange(len(raw))
    with pytest.MonkeyPatch.context() as monkeypatch:
        for pure in ("0", "1") if te_parse._te_reader is not None else ("1",):
            monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", pure)
            assert te_parse.id_ranks(ids).tolist() == want.tolist()


_PIECES = st.sampled_from([b"", b"doc", b"\x00", b"\xff", b"0", b"1", b"a", b"0123456789", b"clueweb09-en"])


@given(st.lists(st.lists(_PIECES, max_size=6).map(b"".join), min_size=64, max_size=400), st.binary(max_size=12))
def test_id_ranks_of_many_ids_are_strcmp_s_order(tails, prefix):
    """From 64 ids on, the compiled rank_ids sorts by radix on 8 bytes past the prefix every id shares, equal keys by
    the whole comparison: ids alike far beyond those bytes, a prefix of another, a NUL inside, repeated ids."""
    raw = [prefix + tail for tail in tails]
    ids = np.array([r.decode("latin-1") for r in raw], dtype=object)
    want = np.empty(len(raw), dtype=np.int64)
    want[sorted(range(len(raw)), key=lambda i: (raw[i], i))] = np.arange(len(raw))
    assert te_parse.id_ranks(ids).tolist() == want.tolist()
