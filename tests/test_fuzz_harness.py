"""Shared by the hypothesis fuzz tests and the atheris harness: TREC-ish bytes, and what must hold for any input.

Run as a script it is the atheris (libFuzzer) harness: `python tests/test_fuzz_harness.py -max_total_time=20 DIR`
(tests/test_fuzz_atheris.py runs it inside `make test`). It holds no test of its own.

`check_files(qrels_path, run_path)` is the property: evaluation either succeeds or raises the documented errors
(InputError for bad input, EvaluationError for data a flavor refuses); no other exception; every scored NDCG lies
in [0, 1] when gains are non-negative and the ideal can hold every scored document (`global`, `local`); and the
fast TREC reader, whenever it accepts a file, gives exactly the line reader's table.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import pathlib
import sys
import tempfile

import numpy as np

if __name__ == "__main__":  # the atheris harness: instrument rankflavor's code for coverage guidance
    import atheris

    _instrumented = atheris.instrument_imports(include=["rankflavor"])
else:
    _instrumented = contextlib.nullcontext()
with _instrumented:
    import rankflavor as rf
    from rankflavor.inputs.trec import QRELS_COLUMNS, RUN_COLUMNS
    from rankflavor.inputs.trec_fast import read_fast
    from rankflavor.inputs.trec_lines import read_lines

    for _module in ("rankflavor.inputs.pipeline", "rankflavor.report.report", "rankflavor.engine.front",
                    "rankflavor.metrics.ndcg",
                    "rankflavor.inputs.frames", "rankflavor.inputs.duplicates", "rankflavor.flavor"):
        importlib.import_module(_module)  # the lazily imported modules, instrumented too

IDS = ["q1", "q2", "01", "1", "A", "B", "C", "doc#1", "a,b", "é", "x\u00a0y", "#c", "qid", "docid", "score", "rel",
       "Q0", "0", "X"]
NUMBERS = ["0", "1", "2", "3", "-1", "0.5", "1e3", "nan", "inf", "1e400", "+2.", "x", "1_0", "\u0663", "40", "1000",
           "2000", "-0", ".5", "7", "1e-300"]
SEPARATORS = [" ", " ", " ", "\t", "  ", " \t", "\u00a0", ""]
ENDS = ["\n", "\n", "\n", "\r\n", "\r", "\n\n", "\n \t\n", "\n# comment\n"]
NOISE = ["\ufeff", "\x00", "\x0c", "#", "\u00a0", "\x1f\x8b", " ", "\t"]

FLAVORS = ["ndcg@3", "ndcg@5 gain=exp2 ties=average", "ndcg ideal=local", "ndcg@2 ideal=local unjudged=skip negative=zero",
           "ndcg@4 ideal=global ideal_depth=all discount=none ties=input", "ndcg@3 negative=keep", "dcg@3"]
ALLOWED = (rf.InputError, rf.EvaluationError)


def bounded(flavor: rf.Flavor, grades: np.ndarray) -> bool:
    """NDCG must lie in [0, 1]: non-negative gains, and an ideal that holds every scored document."""
    if flavor.metric != "ndcg" or flavor.ideal not in ("global", "local") or flavor.gain not in ("linear", "exp2"):
        return False
    return flavor.negative != "keep" or not (grades < 0).any()


def same_table(path: pathlib.Path, columns: tuple[str, ...], value_col: int) -> None:
    """Whenever the fast reader accepts a file, the line reader accepts it too, with the same rows."""
    fast = read_fast(path, columns, value_col)
    table = getattr(fast, "table", fast)  # a FastRead (table, sha256) or a bare table
    if table is None or table.num_rows == 0:
        return
    read = read_lines(path, columns, value_col, "value")
    query, doc, value = read.query.to_pylist(), read.doc.to_pylist(), read.value.tolist()
    assert table.column(columns[0]).to_pylist() == query
    assert table.column(columns[2]).to_pylist() == doc
    assert table.column(columns[value_col]).to_pylist() == value


def check_report(report: rf.Report) -> None:
    grades = report.dataset.qrels.grade
    for result in report.results:
        for row in result.per_query():
            if row["status"] == "ok":
                assert row["value"] is not None and math.isfinite(row["value"]), (str(result.flavor), row)
            if row["value"] is not None and bounded(result.flavor, grades):
                assert -1e-12 <= row["value"] <= 1 + 1e-12, (str(result.flavor), row)
        if result.mean is not None:
            assert math.isfinite(result.mean)


def check_files(qrels: pathlib.Path, run: pathlib.Path, flavors: list[str] = FLAVORS) -> rf.Report | None:
    same_table(qrels, QRELS_COLUMNS, 3)
    same_table(run, RUN_COLUMNS, 4)
    try:
        report = rf.evaluate(qrels, run, flavors)
    except ALLOWED:
        return None
    check_report(report)
    return report


def _plain_number(text: str) -> bool:
    try:
        return text.isascii() and "_" not in text and math.isfinite(float(text))
    except ValueError:
        return False


def trec_text(pick, n_lines: int, columns: int) -> str:
    """A TREC-like text: mostly well-formed lines, with noise. `pick(seq)` chooses one element of seq.

    Half the files are nearly tidy (ASCII, single spaces, LF: the fast reader's own ground, where one empty
    field is the whole difference), the other half mix every separator, line end and noise.
    """
    tidy = pick([True, False])
    ids = [i for i in IDS if i.isascii() and not i.startswith("#")] if tidy else IDS
    separators, ends = ([" "], ["\n"]) if tidy else (SEPARATORS, ENDS)
    shapes = ["good"] * 6 + ["gap", "short", "long"]
    if tidy:
        numbers = [n for n in NUMBERS if _plain_number(n)]
    else:
        numbers, shapes = NUMBERS, [*shapes, "noise", "noise", "comment", "blank"]
    lines = []
    for _ in range(n_lines):
        shape = pick(shapes)
        if shape == "comment":
            lines.append(pick(["", " ", "\t"]) + "#" + pick(ids))
            continue
        if shape == "blank":
            lines.append(pick(["", " ", "\t "]))
            continue
        width = columns + {"short": -1, "long": 1}.get(shape, 0)
        if columns == 4:
            fields = [pick(ids[:4]), pick(["0", "Q0", "0"]), pick(ids), pick(numbers)]
        else:
            fields = [pick(ids[:4]), "Q0", pick(ids), pick(["1", "0", "9"]), pick(numbers), pick(["X", "tag"])]
        fields = [*fields, "extra"][:width]
        if shape == "gap":  # an empty field: two spaces in a row, or a leading or trailing space
            fields[pick(range(len(fields)))] = ""
        line = fields[0]
        for field in fields[1:]:
            line += pick(separators) + field
        if shape == "noise":
            at = pick(range(len(line) + 1))
            line = line[:at] + pick(NOISE) + line[at:]
        if not tidy:
            line = pick(["", "", " ", "\t"]) + line + pick(["", "", " ", "\t"])
        lines.append(line)
    text = ""
    for line in lines:
        text += line + pick(ends)
    return ("" if tidy else pick(["", "", "", "\ufeff"])) + text


def one_input(data: bytes) -> None:
    """The atheris entry point: bytes -> a qrels and a run (raw, structured, or gzip) -> `check_files`."""
    import atheris

    fdp = atheris.FuzzedDataProvider(data)
    mode = fdp.ConsumeIntInRange(0, 3)
    if mode == 0:  # raw bytes, split in two
        qrels, run = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 300)), fdp.ConsumeBytes(300)
    else:  # the structured generator, driven by the fuzzer's bytes

        def pick(seq):
            seq = list(seq)
            return seq[fdp.ConsumeIntInRange(0, len(seq) - 1)]

        qrels = trec_text(pick, fdp.ConsumeIntInRange(0, 8), 4).encode("utf-8")
        run = trec_text(pick, fdp.ConsumeIntInRange(0, 8), 6).encode("utf-8")
        if mode == 3:
            import gzip

            qrels = gzip.compress(qrels)[: fdp.ConsumeIntInRange(0, 400)]
    directory = pathlib.Path(_DIR.name)
    qrels_path = directory / ("qrels.gz" if mode == 3 else "qrels.txt")
    run_path = directory / "X.run"
    qrels_path.write_bytes(qrels)
    run_path.write_bytes(run)
    check_files(qrels_path, run_path)


_DIR = tempfile.TemporaryDirectory()

if __name__ == "__main__":
    import atheris

    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
