"""Property tests and a hypothesis byte fuzzer over the readers, the pipeline and the CLI.

Any input either evaluates or raises the documented error (InputError, or EvaluationError when a flavor refuses
valid data); no other exception; no NDCG outside [0, 1] where gains are non-negative and the ideal is global or
local; the fast and the line TREC readers agree. Bounded by examples and a per-example deadline.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import math
import os
import pathlib
import tempfile

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.cli.main import main
from rankflavor.inputs.trec import QRELS_COLUMNS, RUN_COLUMNS
from test_fuzz_harness import ALLOWED, FLAVORS, check_files, check_report, same_table, trec_text

SCALE = int(os.environ.get("RANKFLAVOR_FUZZ_SCALE", "1"))  # more examples for a long run: RANKFLAVOR_FUZZ_SCALE=20
FUZZ = settings(max_examples=120 * SCALE, deadline=2000, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])


@st.composite
def trec_bytes(draw, columns: int) -> bytes:
    """TREC-ish text with noise, then sometimes a byte-level mutation, gzip, or a truncated gzip."""
    text = trec_text(lambda seq: draw(st.sampled_from(list(seq))), draw(st.integers(0, 8)), columns)
    data = text.encode("utf-8")
    mutation = draw(st.sampled_from(["none", "none", "none", "byte", "gzip", "gzip-cut", "raw"]))
    if mutation == "byte" and data:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=3)) + data[at:]
    elif mutation == "gzip":
        data = gzip.compress(data)
    elif mutation == "gzip-cut":
        data = gzip.compress(data)[: draw(st.integers(0, 30))]
    elif mutation == "raw":
        data = draw(st.binary(max_size=60))
    return data


def _write(directory: pathlib.Path, name: str, data: bytes) -> pathlib.Path:
    path = directory / name
    path.write_bytes(data)
    return path


@settings(FUZZ, max_examples=300 * SCALE)
@given(st.data())
def test_fast_and_line_readers_agree(data) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = pathlib.Path(tmp)
        for columns, cols, value_col in ((4, QRELS_COLUMNS, 3), (6, RUN_COLUMNS, 4)):
            blob = data.draw(trec_bytes(columns))
            name = data.draw(st.sampled_from(["f.txt", "f.gz"]))
            same_table(_write(directory, name, blob), cols, value_col)


@FUZZ
@given(trec_bytes(4), trec_bytes(6), st.sampled_from(["qrels.txt", "qrels.gz"]), st.sampled_from(["X.run", "X.gz"]))
def test_any_file_evaluates_or_raises_the_documented_error(qrels: bytes, run: bytes, qname: str, rname: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = pathlib.Path(tmp)
        check_files(_write(directory, qname, qrels), _write(directory, rname, run))


def _cli(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    return code, err.getvalue()


@settings(FUZZ, max_examples=60 * SCALE)
@given(trec_bytes(4), trec_bytes(6), st.sampled_from(["eval", "check"]))
def test_cli_exits_0_or_3_with_one_message(qrels: bytes, run: bytes, command: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = pathlib.Path(tmp)
        argv = [command, str(_write(directory, "qrels.txt", qrels)), str(_write(directory, "X.run", run))]
        if command == "eval":
            argv += ["-m", "ndcg@3", "-m", "ndcg@5 gain=exp2", "--format", "json"]
        code, message = _cli(argv)
        assert code in (0, 3), message
        assert "Traceback" not in message and "internal error" not in message
        if code == 3:  # an InputError (with its fix) or an EvaluationError (a flavor refusing valid data)
            message = "".join(line for line in message.splitlines(keepends=True) if " otherwise: ranx." not in line)
            assert message.startswith("rankflavor: ") and message.count("rankflavor: ") == 1  # (after eval's note)


# ---- Python inputs -------------------------------------------------------------------------------------------------
KEYS = st.one_of(st.sampled_from(["q1", "q2", "A", "B", "", "1"]), st.integers(-2, 3), st.booleans(), st.none(),
                 st.floats(allow_nan=True), st.text(max_size=3))
VALUES = st.one_of(st.integers(-3, 40), st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
                   st.sampled_from(["3", "x", 10**400, 2000, 1023, -0.0, 1e308]), st.lists(st.integers(), max_size=2))


@settings(FUZZ, max_examples=150 * SCALE)
@given(st.dictionaries(KEYS, st.one_of(st.dictionaries(KEYS, VALUES, max_size=4), VALUES), max_size=3),
       st.dictionaries(KEYS, st.one_of(st.dictionaries(KEYS, VALUES, max_size=4), VALUES), max_size=3))
def test_any_python_input_evaluates_or_raises_the_documented_error(qrels, run) -> None:
    try:
        report = rf.evaluate(qrels, run, FLAVORS)
    except ALLOWED:
        return
    check_report(report)


@settings(FUZZ, max_examples=80 * SCALE)
@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", None, 3]), st.sampled_from(["A", "B", "C", None, 1.5]),
                          st.one_of(st.integers(-1, 3), st.floats(allow_nan=True), st.none(), st.just("2"))),
                max_size=6),
       st.sampled_from([("qid", "docid", "grade"), ("query", "doc", "label"), ("query", "doc", "grade", "label"),
                        ("q", "doc", "grade"), ("query", "query", "grade")]))
def test_any_dataframe_evaluates_or_raises_the_documented_error(rows, columns) -> None:
    frame = pd.DataFrame([r + (1,) * (len(columns) - 3) for r in rows], columns=list(columns))
    run = {"q1": {"A": 1.0, "B": 0.5}, "q2": {"C": 2.0}}
    try:
        report = rf.evaluate(frame, run, FLAVORS)
    except ALLOWED:
        return
    check_report(report)


# ---- the [0, 1] bound on clean random data (many more reachable values than the noisy files) ------------------------
@settings(FUZZ, max_examples=150 * SCALE)
@given(st.dictionaries(st.sampled_from(["q1", "q2", "q3"]),
                       st.dictionaries(st.sampled_from("ABCDEFG"), st.sampled_from([0, 1, 2, 3, 0.5, -1, 30]),
                                       max_size=6), min_size=1, max_size=3),
       st.dictionaries(st.sampled_from(["q1", "q2", "q4"]),
                       st.dictionaries(st.sampled_from([*"ABCDEFGH", "q1"]),
                                       st.sampled_from([0.0, 1.0, 1.0, 2.5, -3.0, 1e9, 1.0 + 1e-9]),
                                       max_size=7), max_size=3),
       st.sampled_from(["linear", "exp2"]), st.sampled_from(["global", "local"]),
       st.sampled_from(["k", "all", "returned"]),
       st.sampled_from(["docid_desc", "input", "average", "pessimistic", "optimistic", "random(3)"]),
       st.sampled_from(["zero", "skip"]), st.sampled_from(["unjudged", "zero"]), st.sampled_from(["1", "3", "10"]),
       st.sampled_from(["log2", "jarvelin(2)", "reciprocal", "none", "log(10)"]),
       st.sampled_from(["min_grade=none", "min_grade=1", "run_depth=2", "self_docs=drop", "precision=f32",
                        "empty=one", "empty=skip", "missing=zero"]))
def test_ndcg_stays_in_unit_interval(qrels, run, gain, ideal, depth, ties, unjudged, negative, k, discount,
                                     other) -> None:
    spec = (f"ndcg@{k} gain={gain} ideal={ideal} ideal_depth={depth} ties={ties} unjudged={unjudged} "
            f"negative={negative} discount={discount} {other}")
    try:
        report = rf.evaluate(qrels, run, spec)
    except rf.SpecError:
        return
    except rf.InputError as error:  # (only a qrels without any judgment is refused here)
        assert not any(qrels.values()) and "the qrels has no judgment" in str(error)
        return
    for row in report.results[0].per_query():
        if row["value"] is not None:
            assert 0.0 <= row["value"] <= 1.0 + 1e-12, (spec, row)


# ---- regressions found by the fuzzers ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("columns", "value_col", "data"),
    [
        (QRELS_COLUMNS, 3, b"a  b 1\n"),  # an empty field made the fast reader shift columns
        (RUN_COLUMNS, 4, b"q Q0 d  2 X\n"),  # an empty rank, in a plain-ASCII file (only ids and value parsed)
        (RUN_COLUMNS, 4, b"q Q0 d 1 2 \n"),  # an empty tag: a trailing space
        (QRELS_COLUMNS, 3, b"a \x0c b 1\n"),  # a control character as a column
        (RUN_COLUMNS, 4, b"q Q0\tX d 1 2 t\n"),  # a tab inside an ignored column
        (RUN_COLUMNS, 4, b"q Q0 d 1 2 t\x00\n"),  # a NUL byte in an ignored column
        (QRELS_COLUMNS, 3, b"a 0 b 1\na \xef\xbb\xbf0 c 2\n"),  # a BOM past the start
        (QRELS_COLUMNS, 3, b"a 0 b 1\rc 0 d 2\n"),  # lone CR: both readers now end the line there
        (QRELS_COLUMNS, 3, b"a 0 b\xc2\xa0x 1\n"),  # a no-break space is part of the id for both
    ],
)
def test_fast_reader_regressions(tmp_path: pathlib.Path, columns, value_col: int, data: bytes) -> None:
    same_table(_write(tmp_path, "f.txt", data), columns, value_col)


def test_blank_lines_are_counted_even_in_a_tidy_file(tmp_path: pathlib.Path) -> None:
    qrels = _write(tmp_path, "q.txt", b"q 0 a 1\n\nq 0 b 0\n")
    run = _write(tmp_path, "r.run", b"q Q0 a 1 1 X\n")
    inputs = rf.evaluate(qrels, run, "ndcg@3").provenance["inputs"]
    assert inputs[0]["blank_lines"] == 1 and inputs[1]["blank_lines"] == 0


def test_sum_of_huge_gains_does_not_give_nan() -> None:
    """Three grades of 1023 under exp2: each gain is finite, their sum is not; the value must not be NaN."""
    qrels = {"q": {"a": 1023, "b": 1023, "c": 1023}}
    try:
        report = rf.evaluate(qrels, {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}, "ndcg@3 gain=exp2")
    except ALLOWED:
        return
    value = report.value("q")
    assert value is not None and math.isfinite(value) and 0 <= value <= 1


def test_np_arrays_of_values_are_not_numbers() -> None:
    with pytest.raises(rf.InputError):
        rf.evaluate({"q": {"a": np.array([1, 2])}}, {"q": {"a": 1.0}})


@settings(FUZZ, max_examples=400 * SCALE)
@given(st.one_of(st.from_regex(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", fullmatch=True),
                 st.text(alphabet="0123456789+-.eE_xXnaifNIFty\u0663\uff11", min_size=1, max_size=8)))
def test_number_parsing_is_the_documented_grammar(field: str) -> None:
    """parse_number (float() plus two refusals) accepts exactly the plain decimal grammar and nan/inf spellings."""
    from rankflavor.inputs.trec_lines import _NON_FINITE, _NUMBER, parse_number

    value = parse_number(field)
    grammar = _NUMBER.fullmatch(field) is not None or _NON_FINITE.fullmatch(field) is not None
    assert (value is not None) == grammar, field
    if value is not None and not math.isnan(value):
        assert value == float(field)


# ---- untidy but valid files give exactly the tidy file's numbers ------------------------------------------------------
@st.composite
def untidy(draw, lines: list[str]) -> bytes:
    """The same rows, written untidily: separators, line ends, blanks, comments, BOM, gzip, chosen per line."""
    out = []
    for line in lines:
        if draw(st.booleans()):
            out.append(draw(st.sampled_from(["", " ", "\t", "# a comment", "  #q1 0 A 3", "\t# x y z"])))
        fields = line.split(" ")
        text = draw(st.sampled_from(["", " ", "\t", " \t "])) + fields[0]
        for field in fields[1:]:
            text += draw(st.sampled_from([" ", "\t", "  ", " \t", "\t\t"])) + field
        out.append(text + draw(st.sampled_from(["", " ", "\t", " \t"])))
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    data = ending.join(out) + draw(st.sampled_from(["", ending, ending * 2]))
    raw = (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + data.encode("utf-8")
    return gzip.compress(raw) if draw(st.booleans()) else raw


@settings(FUZZ, max_examples=80 * SCALE)
@given(st.data(), st.dictionaries(st.sampled_from(["q1", "q2", "07", "é"]),
                                  st.dictionaries(st.sampled_from(["A", "B", "C", "d#1", "x,y"]),
                                                  st.sampled_from([0, 1, 2, 3, -1, 0.5]), min_size=1, max_size=4),
                                  min_size=1, max_size=3),
       st.dictionaries(st.sampled_from(["q1", "q2", "07", "q9"]),
                       st.dictionaries(st.sampled_from(["A", "B", "C", "D", "x,y"]),
                                       st.sampled_from([1.0, 2.0, 2.0, 0.5, -1.25, 3e-5]), min_size=1, max_size=5),
                       min_size=1, max_size=3))
def test_untidy_files_give_the_tidy_numbers(data, qrels, run) -> None:
    qrels_lines = [f"{q} 0 {d} {g}" for q, docs in qrels.items() for d, g in docs.items()]
    run_lines = [f"{q} Q0 {d} {i} {s!r} X" for q, docs in run.items() for i, (d, s) in enumerate(docs.items(), 1)]
    flavors = ["ndcg@3", "ndcg@10 gain=exp2 ties=input", "dcg@2 ties=average", "ndcg ideal=local missing=zero"]
    with tempfile.TemporaryDirectory() as tmp:
        directory = pathlib.Path(tmp)
        tidy = rf.evaluate(_write(directory, "q.txt", ("\n".join(qrels_lines) + "\n").encode()),
                           _write(directory, "r.run", ("\n".join(run_lines) + "\n").encode()), flavors)
        messy = rf.evaluate(_write(directory, "mq.txt", data.draw(untidy(qrels_lines))),
                            _write(directory, "mr.run", data.draw(untidy(run_lines))), flavors)
    for a, b in zip(tidy.results, messy.results, strict=True):
        assert a.per_query() == b.per_query() and a.mean == b.mean
