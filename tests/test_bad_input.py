"""The catalogue of bad and unusual input: one table, one test per row, and docs/input-catalogue.md made from it.

`python tests/test_bad_input.py` rewrites docs/input-catalogue.md from CASES; `test_catalogue_doc_is_current`
fails when the two drift apart.
"""

from __future__ import annotations

import collections
import contextlib
import gzip
import io
import json
import math
import os
import pathlib
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import pytest

import rankflavor as rf
from rankflavor.cli.main import main

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "input-catalogue.md"

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 2\nq1 0 D 0\nq2 0 A 1\nq2 0 E 2\n"
RUN = "q1 Q0 B 1 4 X\nq1 Q0 C 2 3 X\nq1 Q0 A 3 2 X\nq1 Q0 D 4 1 X\nq2 Q0 E 1 0.5 X\nq2 Q0 F 2 0.25 X\n"
QRELS_BYTES, RUN_BYTES = QRELS.encode(), RUN.encode()
RUN_ALL = RUN + "q2 Q0 A 3 0.125 X\n"  # (every judged doc retrieved: a RankLib score file scores each judgment line)
FLAVORS = ["ndcg@3", "ndcg@10 gain=exp2 ties=average", "dcg@2", "ndcg ideal=local missing=zero"]


@dataclass(frozen=True)
class File:
    """A file to write: its bytes and its name."""

    data: bytes
    name: str = ""


@dataclass(frozen=True)
class Err:
    """An InputError (or `kind`) from `role`'s input, at `line`, whose message holds `fragment`."""

    role: str
    line: int | None
    fragment: str
    kind: type = rf.InputError


@dataclass(frozen=True)
class Case:
    id: str
    input: str  # what the input is
    example: str  # a short example of it
    does: str  # what rankflavor does with it
    qrels: Any = QRELS_BYTES
    run: Any = RUN_BYTES
    expect: Any = "same"  # "same" (the tidy file's numbers), an Err, or a check(report)
    options: dict[str, Any] = field(default_factory=dict)
    flavors: list[str] = field(default_factory=lambda: FLAVORS)
    warns: str | None = None  # an input warning: in the provenance, first on eval's stderr, in check's output


def both(transform: Callable[[str], bytes]) -> dict[str, Any]:
    return {"qrels": transform(QRELS), "run": transform(RUN)}


def enc(text: str) -> bytes:
    return text.encode("utf-8")


def counts(role: str, **expected: Any) -> Callable[[rf.Report], None]:
    """A check: the tidy numbers, and the provenance of `role` ('qrels' or 'run') has these counts."""

    def check(report: rf.Report) -> None:
        item = next(i for i in report.provenance["inputs"] if i["role"] == role)
        assert {k: item[k] for k in expected} == expected
        assert _values(report) == _values(rf.evaluate(QRELS_DICT, RUN_DICT, FLAVORS))

    return check


def value_is(query: str, expected: float | None, flavor: str = "ndcg@3", warning: str | None = None, **run_count: int):
    """A check: the query's value, an input warning holding `warning`, the run's provenance counts `run_count`."""
    def check(report: rf.Report) -> None:
        got = report.value(query, flavor=flavor)
        assert (got is None and expected is None) or got == pytest.approx(expected, abs=1e-12)
        if warning is not None:
            assert any(warning in w for w in report.provenance["input_warnings"]), report.provenance["input_warnings"]
        item = next(i for i in report.provenance["inputs"] if i["role"] == "run")
        assert {k: item.get(k) for k in run_count} == run_count

    return check


def mean_is(expected: float | None, flavor: str = "ndcg@3", warning: str | None = None, **count: int):
    def check(report: rf.Report) -> None:
        got = report.mean(flavor=flavor)
        assert (got is None and expected is None) or got == pytest.approx(expected, abs=1e-12)
        result = report.result(flavor=flavor)
        assert {k: result.counts[k] for k in count} == count
        if warning is not None:
            assert any(warning in w for w in report.provenance["input_warnings"]), report.provenance["input_warnings"]

    return check


QRELS_DICT = {"q1": {"A": 3, "B": 2, "C": 2, "D": 0}, "q2": {"A": 1, "E": 2}}
RUN_DICT = {"q1": {"B": 4, "C": 3, "A": 2, "D": 1}, "q2": {"E": 0.5, "F": 0.25}}
A3 = 1 / math.log2(3)
Q1_NDCG3 = (2 + 2 * A3 + 3 * 0.5) / (3 + 2 * A3 + 2 * 0.5)  # ranked B, C, A; ideal A, B, C


def _binary() -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))


def _columns(text: str) -> dict[str, list[Any]]:
    """The TREC text as columns named as ir_datasets names them (query_id, doc_id, relevance or score)."""
    rows = [line.split() for line in text.splitlines()]
    if len(rows[0]) == 4:
        return {"query_id": [r[0] for r in rows], "doc_id": [r[2] for r in rows], "relevance": [int(r[3]) for r in rows]}
    return {"query_id": [r[0] for r in rows], "doc_id": [r[2] for r in rows], "score": [float(r[4]) for r in rows]}


def _parquet(columns: dict[str, list[Any]]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(pa.table(columns), sink)
    return sink.getvalue().to_pybytes()


def _feather(columns: dict[str, list[Any]]) -> bytes:
    import pyarrow as pa
    import pyarrow.feather as feather

    sink = pa.BufferOutputStream()
    feather.write_feather(pa.table(columns), sink)
    return sink.getvalue().to_pybytes()


def _swap_query_doc(text: str) -> str:
    """A TREC run with its first (query) and third (doc) columns swapped."""
    return "".join(" ".join([p[2], p[1], p[0], *p[3:]]) + "\n" for p in (line.split() for line in text.splitlines()))


def _rows(text: str) -> list[tuple[str, str, str]]:
    """(query, doc, value) of each line of TREC text."""
    rows = [line.split() for line in text.splitlines()]
    return [(r[0], r[2], r[3] if len(r) == 4 else r[4]) for r in rows]


def _csv(text: str, header: str, sep: str = ",", extra: bool = False) -> bytes:
    """TREC text as a CSV (or TSV) with a header: query, doc, value (`extra`: a run's six columns, as TREC)."""
    lines = text.splitlines() if extra else [sep.join(row) for row in _rows(text)]
    return enc(header + "\n" + "".join((line.replace(" ", sep) if extra else line) + "\n" for line in lines))


def _ranklib(text: str, docs: bool = True) -> bytes:
    """A qrels as a RankLib judgment file (two features; `docs`: each doc id in the line's comment)."""
    return enc("".join(f"{g} qid:{q} 1:{i}.5 2:0.25" + (f" # {d}" if docs else "") + "\n"
                       for i, (q, d, g) in enumerate(_rows(text))))


def _ranklib_scores(qrels: str, run: str) -> bytes:
    """A run as RankLib's score file of the judgment file `_ranklib(qrels)`, as Evaluator.score writes it: each
    judgment line's query, position within its query, score (Java's Double.toString), in the judgment file's order."""
    scores = {(q, d): float(s) for q, d, s in _rows(run)}
    lines, seen = [], {}
    for q, d, _ in _rows(qrels):
        seen[q] = seen.get(q, -1) + 1
        if (q, d) in scores:
            lines.append(f"{q}\t{seen[q]}\t{scores[(q, d)]}\n")
    return enc("".join(lines))


def _rank_eval(text: str, pretty: bool = False) -> bytes:
    """A qrels as an Elasticsearch _rank_eval request body, shaped as its reference shows it (index `i`)."""
    requests: dict[str, list[dict[str, Any]]] = {}
    for q, d, g in _rows(text):
        requests.setdefault(q, []).append({"_index": "i", "_id": d, "rating": int(g)})
    body = {"requests": [{"id": q, "request": {"query": {"match": {"text": q}}}, "ratings": r}
                         for q, r in requests.items()], "metric": {"dcg": {"k": 10, "normalize": True}}}
    return enc(json.dumps(body, indent=2 if pretty else None) + "\n")


def _responses(text: str) -> dict[str, dict[str, Any]]:
    """A run as Elasticsearch _search responses by query, shaped as the Search API's reference shows one."""
    out: dict[str, dict[str, Any]] = {}
    for q, d, s in _rows(text):
        response = out.setdefault(q, {"took": 5, "timed_out": False, "_shards": {"total": 1, "successful": 1,
                                      "skipped": 0, "failed": 0}, "hits": {"total": {"value": 0, "relation": "eq"},
                                                                             "max_score": None, "hits": []}})
        response["hits"]["hits"].append({"_index": "i", "_id": d, "_score": float(s), "_source": {"title": d}})
    return out


def _search_lines(text: str) -> bytes:
    """A run as _search responses, one per line, each with its query_id."""
    return enc("".join(json.dumps({**r, "query_id": q}) + "\n" for q, r in _responses(text).items()))


def _msearch(text: str, failed: bool = False) -> bytes:
    """A run as an _msearch response without query ids (`failed`: the second search failed)."""
    responses = [{**r, "status": 200} for r in _responses(text).values()]
    if failed:
        responses[1] = {"error": {"type": "index_not_found_exception", "reason": "no such index [x]"}, "status": 404}
    return enc(json.dumps({"took": 9, "responses": responses}) + "\n")


Qrel = collections.namedtuple("Qrel", "query_id doc_id relevance iteration")
ScoredDoc = collections.namedtuple("ScoredDoc", "query_id doc_id score")


CASES: list[Case] = [
    # ---- untidy but valid: the tidy file's numbers, exactly ------------------------------------------------
    Case("crlf", "CRLF line endings (Windows)", r"`q1 0 A 3\r\n`", "accepted; same numbers as the tidy file",
         **both(lambda t: enc(t.replace("\n", "\r\n")))),
    Case("cr", "lone CR line endings (classic Mac)", r"`q1 0 A 3\r`", "accepted (a line ends at \\n, \\r\\n or \\r); "
         "same numbers", **both(lambda t: enc(t.replace("\n", "\r")))),
    Case("bom", "UTF-8 byte-order mark at the start", r"`\ufeffq1 0 A 3`", "accepted, the BOM is dropped; same numbers",
         **both(lambda t: b"\xef\xbb\xbf" + enc(t))),
    Case("tabs", "tabs between columns", r"`q1\t0\tA\t3`", "accepted; same numbers",
         **both(lambda t: enc(t.replace(" ", "\t")))),
    Case("spaces", "several spaces, or spaces and tabs mixed, between columns", r"`q1   0 \t A  3`",
         "accepted; same numbers", **both(lambda t: enc(t.replace(" ", "  \t ")))),
    Case("trailing", "leading and trailing spaces or tabs", r"`  q1 0 A 3 \t`", "accepted; same numbers",
         **both(lambda t: enc("".join(f"  {line} \t\n" for line in t.splitlines())))),
    Case("blank", "blank lines, or lines of spaces and tabs only", r"`q1 0 A 3\n\n \t\n`",
         "accepted; skipped and counted (`blank_lines` in the provenance); same numbers",
         qrels=enc("\n" + QRELS.replace("\n", "\n \t\n", 2) + "\n"), expect=counts("qrels", blank_lines=4)),
    Case("comments", "comment lines (first non-blank character `#`)", "`# produced by bm25`, `  #q1 0 A 3`",
         "accepted; skipped and counted (`comment_lines`); same numbers",
         run=enc("# run X\n  #q1 Q0 Z 1 9 X\n" + RUN), expect=counts("run", comment_lines=2)),
    Case("no-final-newline", "no newline at the end of the file", "`...q2 0 E 2<EOF>`", "accepted; same numbers",
         **both(lambda t: enc(t.rstrip("\n")))),
    Case("gz", "gzip-compressed file named .gz", "`qrels.txt.gz`", "accepted; same numbers",
         qrels=File(gzip.compress(enc(QRELS)), "qrels.txt.gz"), run=File(gzip.compress(enc(RUN)), "X.run.gz")),
    Case("gz-unnamed", "gzip-compressed file without the .gz name", "`X.run` holding gzip bytes",
         "accepted (the gzip magic bytes decide); same numbers", run=File(gzip.compress(enc(RUN)), "X.run")),
    Case("rank-column", "a run whose rank column disagrees with its scores", "`q1 Q0 B 9 4 X`",
         "accepted; the rank column is ignored (as trec_eval): the order comes from the scores and `ties=`",
         run=enc(RUN.replace(" 1 4 X", " 9 4 X").replace(" 2 3 X", " 0 3 X"))),
    Case("number-forms", "scores written `4e0`, `+3.0`, `2.`, `.5`", "`q1 Q0 B 1 4e0 X`",
         "accepted: any plain ASCII decimal number; same numbers",
         run=enc(RUN.replace(" 4 X", " 4e0 X").replace(" 3 X", " +3.0 X").replace(" 2 X", " 2. X")
                 .replace(" 0.5 X", " .5 X"))),
    # ---- unusual ids: ids are strings, compared byte for byte ---------------------------------------------------
    Case("hash-in-id", "`#` inside an id (not the line's first non-blank character)", "`q1 0 doc#7 3`",
         "accepted: part of the id (only a line starting with `#` is a comment)",
         qrels=enc(QRELS.replace(" B ", " B#1 ")), run=enc(RUN.replace(" B ", " B#1 ")), expect="same"),
    Case("comma-id", "ids with commas", "`q,1 0 doc,7 3`", "accepted: part of the id",
         qrels=enc(QRELS.replace("q1", "q,1").replace(" A ", " a,b ")),
         run=enc(RUN.replace("q1", "q,1").replace(" A ", " a,b ")), expect=value_is("q,1", Q1_NDCG3)),
    Case("non-ascii-id", "non-ASCII ids", "`q1 0 café 3`, `問1 0 文書 2`", "accepted: UTF-8 ids, compared bytewise",
         qrels=enc(QRELS.replace("q1", "問1").replace(" A ", " café ")),
         run=enc(RUN.replace("q1", "問1").replace(" A ", " café ")), expect=value_is("問1", Q1_NDCG3)),
    Case("nbsp-id", "a no-break space (U+00A0) inside an id", r"`q1 0 A\u00a0B 3`",
         "accepted: part of the id (only spaces and tabs separate columns)",
         qrels=enc(QRELS.replace(" A ", " A\u00a0x ")), run=enc(RUN.replace(" A ", " A\u00a0x ")), expect="same"),
    Case("leading-zeros", "numeric-looking ids with leading zeros", "qrels `007 0 A 1`, run `7 Q0 A 1 1 X`",
         "accepted as different ids (`007` != `7`); a warning names the pair that matches only up to leading zeros",
         qrels=enc(QRELS.replace("q2", "007")), run=enc(RUN.replace("q2", "7")),
         expect=mean_is(Q1_NDCG3, missing=1, unjudged_queries=1, warning="only up to leading zeros")),
    Case("int-ids", "Python ids that are ints", "`{1: {2: 3}}`", "accepted: turned into their decimal text `'1'`, `'2'`",
         qrels={1: {"A": 3, 2: 1}}, run={"1": {"2": 1.0, "A": 0.5}}, expect=value_is("1", (1 + 3 * A3) / (3 + A3))),
    # ---- grades and scores --------------------------------------------------------------------------------------
    Case("float-grade", "non-integer grades", "`q1 0 A 0.5`",
         "accepted as is (a gain table must list them); counted (`non_integer_grades`) with a warning",
         qrels=enc(QRELS.replace(" A 3", " A 0.5")), expect=value_is("q1", (2 + 2 * A3 + 0.25) / (2 + 2 * A3 + 0.25),
                                                                      warning="non-integer grade")),
    Case("negative-grade", "negative grades", "`q1 0 D -1`",
         "accepted; the flavor's `negative=` axis decides (default `unjudged`, as trec_eval); counted with a warning",
         qrels=enc(QRELS.replace(" D 0", " D -1")), expect=value_is("q1", Q1_NDCG3, warning="negative grade")),
    Case("big-grade", "grades above 31", "`q1 0 A 40`",
         "accepted; a warning says LightGBM and XGBoost refuse them and `gain=exp2` overflows above 1023",
         qrels=enc(QRELS.replace(" A 3", " A 40")), flavors=["ndcg@3 gain=exp2"],
         expect=value_is("q1", (3 + 3 * A3 + (2 ** 40 - 1) * 0.5) / (2 ** 40 - 1 + 3 * A3 + 1.5), "ndcg@3 gain=exp2",
                         warning="above 31")),
    Case("huge-grade-exp2", "a grade whose 2^g overflows float64 under `gain=exp2`", "`q1 0 A 2000`",
         "read, then refused by the flavor: EvaluationError naming the grade (CLI exit 3); `gain=linear` accepts it",
         qrels=enc(QRELS.replace(" A 3", " A 2000")), flavors=["ndcg@3 gain=exp2"],
         expect=Err("qrels", None, "overflows for grade 2000", rf.EvaluationError)),
    # ---- queries on one side, short lists -----------------------------------------------------------------------
    Case("one-doc", "a run with one document for a query", "`q2 Q0 E 1 0.5 X` alone",
         "accepted; scored like any list (1 with `ideal=local` when that doc is the best)",
         run=enc(RUN.replace("q2 Q0 F 2 0.25 X\n", "")), expect=value_is("q2", 2 / (2 + A3))),
    Case("run-only-query", "a query in the run but not in the qrels", "`q9 Q0 A 1 1 X`",
         "not scored; counted (`unjudged_queries`, `rows_of_queries_not_in_qrels`) with a warning",
         run=enc(RUN + "q9 Q0 A 1 1 X\nq9 Q0 B 2 0 X\n"),
         expect=mean_is((Q1_NDCG3 + 2 / (2 + A3)) / 2, unjudged_queries=1, warning="1 query (2 rows) is not in the qrels")),
    Case("qrels-only-query", "a query in the qrels but not in the run", "qrels `q3 0 A 1`, no `q3` in the run",
         "status `missing`; the flavor's `missing=` axis decides (`skip` default: out of the mean; `zero`); counted",
         qrels=enc(QRELS + "q3 0 A 1\n"), expect=mean_is((Q1_NDCG3 + 2 / (2 + A3)) / 2, missing=1,
                                                         warning="1 judged query is absent")),
    Case("no-common-query", "a run with no query in common with the qrels", "qrels `q1 q2`, run `q8 q9`",
         "accepted; every judged query is `missing` (mean null under `missing=skip`, 0 under `zero`); a warning",
         run=enc(RUN.replace("q1", "q8").replace("q2", "q9")),
         expect=mean_is(None, missing=2, scored=0, unjudged_queries=2, warning="no query in common")),
    Case("empty-run", "an empty run file", "0 bytes", "accepted; every judged query is `missing`; a warning",
         run=b"", expect=mean_is(None, missing=2, scored=0, warning="the run has no rows")),
    Case("empty-python-query", "a Python query with an empty dict", "qrels `{'q': {}}` or run `{'q': {}}`",
         "a qrels query with no judgment is not judged (as pytrec_eval): never scored, counted "
         "(`queries_without_judgments`, a warning; a run query among them is in `unjudged_queries`); "
         "a run query with an empty list is present: DCG 0",
         qrels={"q1": {"A": 1}, "q2": {}}, run={"q1": {}, "q2": {"A": 1.0}},
         expect=mean_is(0.0, scored=1, zero_ideal=0, missing=0, unjudged_queries=1, warning="1 query has no judgment")),
    Case("python-qrels-all-empty", "a Python qrels whose queries all have empty dicts", "`{'q1': {}, 'q2': {}}`",
         "error: the qrels has no judgment (only 2 queries with no judgment)", qrels={"q1": {}, "q2": {}},
         expect=Err("qrels", None, "only 2 queries with no judgment")),
    Case("run-extra-columns", "run lines with columns after the sixth", "`q1 Q0 B 1 4 X 0.93 bm25`",
         "read: the columns after the sixth are skipped, as trec_eval does (get_trec_results.c); "
         "`extra_column_lines` counts the lines, and a warning says so",
         run=enc(RUN.replace("q1 Q0 B 1 4 X", "q1 Q0 B 1 4 X 0.93 bm25").replace("q1 Q0 C 2 3 X", "q1 Q0 C 2 3 X y")),
         expect=counts("run", extra_column_lines=2)),
    Case("hash-in-run-id", "a `#` inside an id (MS MARCO v2.1: `msmarco_v2.1_doc_50_2286987788#13_3087841662`)",
         "`q1 Q0 d#13 1 4 X`", "read as part of the id; only a line starting with `#` is a comment",
         qrels={"q1": {"d#13": 2}}, run=enc("# a comment\nq1 Q0 d#13 1 4 X\nq1 Q0 d#14 2 3 X\n"),
         expect=value_is("q1", 1.0, flavor="ndcg@3")),
    # ---- duplicates -----------------------------------------------------------------------------------------------
    Case("dup-run", "the same (query, doc) twice in a run", "`q1 Q0 B 1 4 X` ... `q1 Q0 B 7 1 X`",
         "error naming both lines; `--on-duplicate first|max` keeps the first or the highest score (counted)",
         run=enc(RUN + "q1 Q0 B 7 1 X\n"), expect=Err("run", 7, "duplicate document in the run (conflicting)")),
    Case("dup-run-max", "the same, with `on_duplicate='max'`", "as above",
         "the highest score is kept; `duplicates_removed` counts the row", run=enc(RUN + "q1 Q0 B 7 1 X\n"),
         options={"on_duplicate": "max"}, expect=counts("run", duplicates_removed={"identical": 0, "conflicting": 1})),
    Case("dup-judgment-identical", "the same judgment twice (same grade)", "`q1 0 A 3` twice",
         "error by default, saying the grades agree (files concatenated?); `first` and `max` collapse it (counted)",
         qrels=enc(QRELS + "q1 0 A 3\n"), expect=Err("qrels", 7, "duplicate judgment (identical)")),
    Case("dup-judgment-conflict", "conflicting duplicate judgments", "`q1 0 A 3` and `q1 0 A 1`",
         "error naming both lines and grades; `first` keeps the first grade, `max` the highest (counted)",
         qrels=enc(QRELS + "q1 0 A 1\n"), expect=Err("qrels", 7, "duplicate judgment (conflicting)")),
    Case("dup-judgment-first", "conflicting duplicate judgments with `on_duplicate='first'`",
         "`q1 0 A 1` then `q1 0 A 3`", "the first grade is kept (here 1), and counted",
         qrels=enc("q1 0 A 1\n" + QRELS), options={"on_duplicate": "first"},
         expect=value_is("q1", (2 + 2 * A3 + 0.5) / (2 + 2 * A3 + 0.5))),
    Case("subtopic-qrels", "a subtopic (diversity) qrels, `qid subtopic docid grade`, with a diversity measure",
         "`q1 2 B 1` with `-m s_recall@2`", "read as a subtopic qrels because a diversity measure is asked for "
         "(docs/diversity.md); a plain qrels there (every second column `0`) is an error",
         qrels=enc("q1 1 A 1\nq1 2 B 1\nq2 1 E 1\n"), flavors=["s_recall@2"], expect=mean_is(0.75, "s_recall@2")),
    Case("subtopic-qrels-plain-measure", "a subtopic qrels given to a doc-level measure", "`q1 1 A 1` and `q1 2 A 0`",
         "the duplicate judgment error; its fix says the second columns differ: a subtopic qrels goes with the "
         "diversity measures", qrels=enc("q1 1 A 1\nq1 2 A 0\nq2 1 E 1\n"),
         expect=Err("qrels", 2, "duplicate judgment (conflicting)")),
    # ---- rejected lines: file, line, text, fix --------------------------------------------------------------------
    Case("columns-qrels", "wrong column count in a qrels", "`q1 0 A 3 extra`",
         "error: expected 4 columns, found 5", qrels=enc(QRELS.replace("q1 0 C 2", "q1 0 C 2 extra")),
         expect=Err("qrels", 3, "expected 4 columns")),
    Case("columns-run", "wrong column count in a run (a missing tag)", "`q1 Q0 B 1 4`",
         "error: expected 6 columns, found 5", run=enc(RUN.replace("q1 Q0 C 2 3 X", "q1 Q0 C 2 3")),
         expect=Err("run", 2, "expected 6 columns")),
    Case("swapped", "qrels and run swapped", "a 4-column line where a run is expected",
         "error; the fix says the line has the shape of a qrels line", run=enc(QRELS),
         expect=Err("run", 1, "are the qrels and run swapped")),
    Case("qrels-doc-iter-order", "a qrels written `qid docid iter grade`", "`q1 A 0 3`",
         "error naming the layout (before any duplicate-judgment advice, whatever `--on-duplicate`); the fix is an "
         "awk command that swaps the columns", qrels=enc("q1 A 0 3\nq1 B 0 2\nq2 E 0 2\n"),
         options={"on_duplicate": "max"}, expect=Err("qrels", 1, "looks written as 'qid docid iter grade'")),
    Case("run-doc-q0-order", "a run written `qid docid Q0 rank score tag`", "`q1 B Q0 1 4 X`",
         "error naming the layout; the fix is an awk command that swaps the columns",
         run=enc("q1 B Q0 1 4 X\nq1 C Q0 2 3 X\n"), expect=Err("run", 1, "looks written as 'qid docid Q0")),
    Case("run-rank-score-swapped", "a run whose rank and score columns are swapped", "`q1 Q0 B 4 1 X`",
         "accepted with a warning (only likely: the scores are 1, 2, 3 ... down every query) and its awk fix",
         run=enc("q1 Q0 B 4 1 X\nq1 Q0 C 3 2 X\nq1 Q0 A 2 3 X\nq2 Q0 E 0.5 1 X\nq2 Q0 F 0.25 2 X\n"),
         # (ranked by those "scores": q1 A, C, B is ideal; q2 F (unjudged), E)
         expect=mean_is((1 + 2 * A3 / (2 + A3)) / 2, warning="rank and score columns swapped")),
    Case("csv-file", "a comma-separated file", "`q1,0,A,3`", "error: the file looks comma-separated (CSV), with "
         "the TREC columns of a run and a qrels; the fix gives a tr command", qrels=enc("q1,0,A,3\nq1,0,B,2\n"),
         expect=Err("qrels", 1, "looks comma-separated (CSV); TREC files are whitespace-separated")),
    Case("csv-no-header", "comma-separated lines of a run's three columns, no header, in a TREC-named file",
         "`q1,B,4`", "error naming the line: looks comma-separated (CSV); the fix: TREC columns, or a first line "
         "naming the columns (then read as CSV)", run=enc("q1,B,4\nq1,C,3\n"),
         expect=Err("run", 1, "looks comma-separated (CSV)")),
    Case("semicolon-file", "a semicolon-separated file", "`q1;0;A;3`", "error: looks semicolon-separated",
         qrels=enc("q1;0;A;3\n"), expect=Err("qrels", 1, "looks semicolon-separated")),
    Case("no-iteration", "a qrels without its iteration column", "`q1 A 3`",
         "error; the fix says to add 0 as the second column", qrels=enc("q1 A 3\n"),
         expect=Err("qrels", 1, "add 0 as the second column")),
    Case("msmarco-run", "an MS MARCO run (`qid docid rank`, tab-separated)", r"`1\t7067032\t1`",
         "error naming the line; the fix is an awk command that writes a TREC run whose score is minus the rank",
         run=enc("q1\tB\t1\nq1\tC\t2\n"), expect=Err("run", 1, "an MS MARCO run (qid docid rank)?")),
    Case("nbsp-separator", "a no-break space used as a column separator", r"`q1 0 A\u00a03`",
         "error (wrong column count); the fix names U+00A0", qrels=enc(QRELS.replace("q1 0 B 2", "q1 0 B\u00a02")),
         expect=Err("qrels", 2, "U+00A0")),
    Case("header-qrels", "a header line in a qrels", "`qid iter docid rel`",
         "error naming the line: it looks like a header (never guessed away)", qrels=enc("qid iter docid rel\n" + QRELS),
         expect=Err("qrels", 1, "looks like a header")),
    Case("header-run", "a header line in a run, after a comment", "`query Q0 docid rank score run`",
         "error naming the line: it looks like a header", run=enc("# bm25\nquery Q0 docid rank score run\n" + RUN),
         expect=Err("run", 2, "looks like a header")),
    Case("score-text", "a non-numeric score", "`q1 Q0 B 1 high X`", "error: score 'high' is not a number",
         run=enc(RUN.replace(" 4 X", " high X")), expect=Err("run", 1, "score 'high' is not a number")),
    Case("grade-text", "a non-numeric grade", "`q1 0 A R`", "error: grade 'R' is not a number",
         qrels=enc(QRELS.replace(" C 2", " C R")), expect=Err("qrels", 3, "grade 'R' is not a number")),
    Case("score-nan", "a NaN score", "`q1 Q0 B 1 nan X`", "error: not a finite number",
         run=enc(RUN.replace(" 3 X", " NaN X")), expect=Err("run", 2, "is not a finite number")),
    Case("score-inf", "an infinite score, or one that overflows float64", "`inf`, `-Infinity`, `1e400`",
         "error: not a finite number", run=enc(RUN.replace(" 1 X", " 1e400 X")),
         expect=Err("run", 4, "'1e400' is not a finite number")),
    Case("grade-nan", "a NaN or infinite grade", "`q1 0 A nan`", "error: not a finite number",
         qrels=enc(QRELS.replace(" A 1", " A -inf")), expect=Err("qrels", 5, "is not a finite number")),
    Case("number-odd", "numbers Python would take but a TREC file should not hold", "`1_000`, `٣` (Arabic-Indic 3)",
         "error: not a (plain ASCII decimal) number", run=enc(RUN.replace(" 0.25 X", " 1_000 X")),
         expect=Err("run", 6, "is not a number")),
    Case("control-char", "a control character in a line", r"`q1 0 A\x0c 3`",
         "error naming the character (only spaces and tabs separate columns)",
         qrels=enc(QRELS.replace("q1 0 D 0", "q1 0\x0cD 0")), expect=Err("qrels", 4, "control character U+000C")),
    Case("bom-inside", "a byte-order mark inside the file (files concatenated)", r"`...\n\ufeffq2 0 A 1`",
         "error: a byte-order mark inside the file", qrels=enc(QRELS.replace("q2 0 A", "\ufeffq2 0 A")),
         expect=Err("qrels", 5, "byte-order mark")),
    # ---- whole files -------------------------------------------------------------------------------------------------
    Case("empty-qrels", "an empty qrels file", "0 bytes", "error: the qrels has no judgment (nothing to evaluate against)",
         qrels=b"", expect=Err("qrels", None, "the qrels has no judgment (it is empty)")),
    Case("comments-only-qrels", "a qrels with nothing left after parsing", "only comments and blank lines",
         "error: the qrels has no judgment (only N comment lines and M blank lines)", qrels=b"# nothing\n\n",
         expect=Err("qrels", None, "only 1 comment line and 1 blank line")),
    Case("gz-truncated", "a truncated .gz file", "the first half of `qrels.txt.gz`",
         "error: broken gzip data; the fix says to compress it again",
         qrels=File(gzip.compress(enc(QRELS * 50))[:-20], "qrels.txt.gz"), expect=Err("qrels", None, "broken gzip")),
    Case("gz-not-gzip", "a plain text file named .gz", "`qrels.txt.gz` holding text",
         "error: named .gz but not gzip-compressed", qrels=File(enc(QRELS), "qrels.txt.gz"),
         expect=Err("qrels", None, "not gzip-compressed")),
    Case("binary", "a file that is not text", "a PNG image", "error: not a text file (NUL bytes), with the line",
         run=File(_binary(), "X.run"), expect=Err("run", 3, "not a text file")),
    Case("utf16-bom", "UTF-16 or UTF-32 text with a byte-order mark (PowerShell's `>`)", "`\\xff\\xfeq\\x001\\x00...`",
         "accepted: decoded (the provenance's `encoding`, and a warning, say so); same numbers",
         qrels=QRELS.encode("utf-16"), run=RUN.encode("utf-32"),
         expect=counts("qrels", encoding="UTF-16LE")),
    Case("utf16-no-bom", "UTF-16 text without a byte-order mark", "`q\\x001\\x00 \\x000\\x00...`",
         "error: the file is UTF-16LE encoded (never called binary); the fix is an iconv command",
         run=RUN.encode("utf-16-le"), expect=Err("run", None, "the file is UTF-16LE encoded")),
    Case("latin1", "text that is not UTF-8", "`q1 0 caf\\xe9 1` in Latin-1",
         "error: not valid UTF-8, naming the line and the bytes around", qrels=enc(QRELS) + b"q3 0 caf\xe9 1\n",
         expect=Err("qrels", 7, "not valid UTF-8")),
    Case("not-found", "a path that does not exist", "`/nonexistent/X.run`", "error: file not found",
         run="missing", expect=Err("run", None, "file not found")),
    Case("directory", "a directory instead of a file", "`runs/`", "error: is a directory, not a file",
         run="directory", expect=Err("run", None, "is a directory")),
    Case("unreadable", "a file without read permission", "`chmod 000 X.run`", "error: permission denied",
         run="unreadable", expect=Err("run", None, "permission denied")),
    # ---- Parquet and Arrow files: told by their first bytes, whatever their name -------------------------------------
    Case("parquet-arrow", "a Parquet qrels and an Arrow (Feather v2) run, named like text files",
         "`qrels.txt` holding Parquet (`PAR1`), `X.run` holding Arrow (`ARROW1`)",
         "accepted: columns named as a DataFrame's (query_id, doc_id, relevance, score ...); same numbers",
         qrels=_parquet(_columns(QRELS)), run=_feather(_columns(RUN))),
    Case("parquet-no-column", "a Parquet run without a score column", "columns `query_id doc_id value`",
         "error naming the file, the columns found and the names accepted",
         run=_parquet({**{k: v for k, v in _columns(RUN).items() if k != "score"}, "value": [1.0] * 6}),
         expect=Err("run", None, "no score column among ['query_id', 'doc_id', 'value']")),
    Case("parquet-nan", "a Parquet run with a NaN or null score", "`score` NaN at row 1",
         "error naming the file, the row, its query and doc",
         run=_parquet({**_columns(RUN), "score": [4.0, math.nan, 2, 1, 0.5, 0.25]}),
         expect=Err("run", None, "score at row 1 (query 'q1', doc 'C') is missing")),
    Case("parquet-dup", "a Parquet qrels listing a (query, doc) twice", "`q1 A` at rows 0 and 6",
         "error (as for a text file), naming the rows; `--on-duplicate first|max` applies",
         qrels=_parquet({k: [*v, v[0]] for k, v in _columns(QRELS).items()}),
         expect=Err("qrels", None, "duplicate judgment (identical) for query 'q1' doc 'A'")),
    Case("f32-overflow", "a score finite in float64 but beyond float32 under `precision=f32`", "`1e308`",
         "read, then refused by the flavor: EvaluationError naming the value, query and doc (no numpy warning); "
         "`precision=f64` accepts it", run=enc(RUN.replace(" 4 X", " 1e308 X")), flavors=["ndcg@3 precision=f32"],
         expect=Err("run", None, "1e+308 (query 'q1', doc 'B')", rf.EvaluationError)),
    # ---- CSV/TSV, RankLib, Elasticsearch: each format's reader in inputs/formats.py's table ---------------------------
    Case("csv-quepid", "Quepid's ratings export: `query,docid,rating`, query texts as query ids, a query with no "
         "rating written `text,,`", "`query,docid,rating` / `q1,A,3` / `q3,,`",
         "accepted: the header names the columns (a `rating` column is a grade); the query alone lists a query with "
         "no judgment (counted, a warning, never scored); same numbers",
         qrels=File(_csv(QRELS, "query,docid,rating") + b"q3,,\n", "judgments.csv"),
         run=File(_csv(RUN, "query,doc,score"), "results.csv"), expect=counts("qrels", queries_without_judgments=1)),
    Case("tsv", "a TSV file with a header, any columns beside the three it reads", "`qid<TAB>Q0<TAB>docid<TAB>...`",
         "accepted: the columns are read by their names, the others ignored; same numbers",
         run=File(_csv(RUN, "qid\tQ0\tdocno\trank\tscore\ttag", "\t", extra=True), "run.tsv")),
    Case("csv-short-row", "a CSV row with fewer fields than the header", "`q1,B` under `query,docid,rating`",
         "error naming the line and the widths", qrels=File(_csv(QRELS, "query,docid,rating") + b"q2,F\n", "j.csv"),
         expect=Err("qrels", 8, "2 fields, the header has 3")),
    Case("csv-long-row", "a CSV row with more fields than the header (a query text's comma, unquoted)",
         "`red shoes, size 9,A,3`", "error naming the line; the fix: quote a field that holds a comma",
         qrels=File(_csv(QRELS, "query,docid,rating") + b"red shoes, size 9,A,3\n", "j.csv"),
         expect=Err("qrels", 8, "4 fields, the header has 3")),
    Case("csv-empty-grade", "a CSV row whose grade is empty (a Quepid snapshot export's unrated document)",
         "`q1,F,`", "error naming the line; the fix says an unrated document is unjudged: delete the line",
         qrels=File(_csv(QRELS, "query,docid,rating") + b"q2,F,\n", "j.csv"),
         expect=Err("qrels", 8, "an empty grade")),
    Case("csv-rank-only", "a CSV run with a rank column and no score", "`query,doc,rank`",
         "error naming the header line; the fix says to add a score of minus the rank",
         run=File(enc("query,doc,rank\nq1,B,1\n"), "run.csv"),
         expect=Err("run", 1, "no score column among ['query', 'doc', 'rank'] in the header")),
    Case("csv-no-header-named", "a `.csv` file without a header line", "`q1,0,A,3` in `qrels.csv`",
         "error naming line 1: its fields are no column names; the fix: the first line is the header",
         qrels=File(enc("q1,0,A,3\nq1,0,B,2\n"), "qrels.csv"), expect=Err("qrels", 1, "no query column among")),
    Case("csv-quote", "a CSV field with a stray quote", '`q1,"B"x,4`', "error naming the line: not valid CSV; the fix "
         "says how a quote is written", run=File(enc('query,doc,score\nq1,"B"x,4\n'), "run.csv"),
         expect=Err("run", 2, "not valid CSV")),
    Case("csv-swapped", "a CSV qrels given as the run", "`query,docid,rating` as the run",
         "error: no score column; the fix says it has a grade column: are the qrels and run swapped?",
         run=File(_csv(QRELS, "query,docid,rating"), "judgments.csv"), expect=Err("run", 1, "no score column")),
    Case("format-ambiguous", "a file whose name and first line name two formats", "`3 qid:1 # A` in `run.csv`",
         "error naming both readings and the line (rankflavor never picks one); the fix: rename or rewrite it",
         qrels=File(_ranklib(QRELS), "judgments.csv"), expect=Err("qrels", None, "ambiguous: its name (.csv)")),
    Case("ranklib", "a RankLib / LETOR / SVMlight judgment file, doc ids in its comments, and its RankLib score "
         "file (`-score`: `qid<TAB>index<TAB>score`)", "`3 qid:q1 1:0.5 # A`, `q1<TAB>0<TAB>2.0`",
         "accepted: a doc is its comment's first word (LETOR's `docid = X`); each score line's (qid, index) is "
         "the judgment file's doc at that position; same numbers", qrels=File(_ranklib(QRELS + "q2 0 F 0\n"),
                                                                              "train.txt"),
         run=File(_ranklib_scores(QRELS + "q2 0 F 0\n", RUN_ALL), "scores.txt"), expect=value_is("q1", Q1_NDCG3)),
    Case("ranklib-positions", "a RankLib judgment file without comments, with its score file", "`3 qid:q1 1:0.5`",
         "accepted: each doc is named by its position within its query (0, 1, ...); the provenance's notes and a "
         "warning say so", qrels=File(_ranklib(QRELS + "q2 0 F 0\n", docs=False), "train.txt"),
         run=File(_ranklib_scores(QRELS + "q2 0 F 0\n", RUN_ALL), "scores.txt"),
         expect=value_is("q1", Q1_NDCG3, warning="each is named by its position within its query's lines")),
    Case("ranklib-mixed", "a RankLib file where some lines name their doc and others do not", "`2 qid:q1 1:0.5` "
         "after `3 qid:q1 1:0.5 # A`", "error naming the line: every line names its doc or none does",
         qrels=File(_ranklib(QRELS).replace(b" # B", b""), "train.txt"), expect=Err("qrels", 2, "names no document")),
    Case("ranklib-qid-again", "a RankLib file whose query's lines are not together", "`qid:q1` lines after `qid:q2`",
         "error naming the line: RankLib reads each run of one qid's lines as its own list; the fix sorts the file",
         qrels=File(_ranklib(QRELS + "q1 0 F 1\n"), "train.txt"), expect=Err("qrels", 7, "query qid:q1 again")),
    Case("ranklib-feature", "a RankLib line with a feature that is not ID:VALUE", "`3 qid:q1 x:1 # A`",
         "error naming the line and the feature (RankLib's DataPoint.parse refuses it too)",
         qrels=File(_ranklib(QRELS).replace(b"2:0.25 # C", b"color:red # C"), "train.txt"),
         expect=Err("qrels", 3, "feature 'color:red' is not ID:VALUE")),
    Case("ranklib-as-run", "a RankLib judgment file given as the run", "`3 qid:q1 1:0.5 # A` as the run",
         "error: it reads as a judgment file, a qrels; the fix names RankLib's -score output",
         run=File(_ranklib(QRELS), "train.txt"), expect=Err("run", None, "which is a qrels, not a run")),
    Case("ranklib-scores-alone", "a RankLib score file with a TREC qrels", "`q1<TAB>0<TAB>0.5` and `qrels.txt`",
         "error: a score file names no document, it pairs with the judgment file it scored",
         run=File(_ranklib_scores(QRELS + "q2 0 F 0\n", RUN_ALL), "scores.txt"),
         expect=Err("run", None, "the qrels is not a RankLib file (it is trec)")),
    Case("ranklib-scores-other", "a RankLib score file of another judgment file", "`q2<TAB>7<TAB>0.1`, q2 has 3 lines",
         "error naming the line: that query has no line at that position there",
         qrels=File(_ranklib(QRELS + "q2 0 F 0\n"), "train.txt"),
         run=File(_ranklib_scores(QRELS + "q2 0 F 0\n", RUN_ALL) + b"q2\t7\t0.1\n", "scores.txt"),
         expect=Err("run", 8, "query 'q2' has 3 lines there (positions 0 to 2)")),
    Case("ranklib-scores-nan", "a RankLib score file with a NaN score (Java's `NaN`)", "`q1<TAB>0<TAB>NaN`",
         "error naming the line", qrels=File(_ranklib(QRELS + "q2 0 F 0\n"), "train.txt"),
         run=File(_ranklib_scores(QRELS + "q2 0 F 0\n", RUN_ALL).replace(b"\t2.0\n", b"\tNaN\n"), "scores.txt"),
         expect=Err("run", 1, "score 'NaN' is not a finite number")),
    Case("elastic", "an Elasticsearch/OpenSearch `_rank_eval` request body and `_search` responses, one per line with "
         "a `query_id`", '`{"requests": [{"id": "q1", "ratings": [{"_index": "i", "_id": "A", "rating": 3}, ...]}]}`',
         "accepted: request ids are query ids, `_id` the docs, `rating` the grades; each response's hits in their "
         "order, `_score` the scores; same numbers", qrels=File(_rank_eval(QRELS), "rank_eval.json"),
         run=File(_search_lines(RUN), "X.jsonl")),
    Case("elastic-msearch", "an `_msearch` response whose responses carry no `query_id`", '`{"responses": [...]}`',
         "accepted: responses[i] is named by the `_rank_eval` request i (the qrels); a warning says so",
         qrels=File(_rank_eval(QRELS), "rank_eval.json"), run=File(_msearch(RUN), "X.json"),
         expect=value_is("q1", Q1_NDCG3), warns="each is named by the _rank_eval request of its position"),
    Case("elastic-no-id", "a `_rank_eval` rating without `_id`", '`{"_index": "i", "rating": 1}`',
         "error naming the line and the JSON path (`requests[0].ratings[0]`)",
         qrels=File(_rank_eval(QRELS, pretty=True).replace(b'"_id": "A",\n', b""), "rank_eval.json"),
         expect=Err("qrels", 13, "requests[0].ratings[0]: no document id")),
    Case("elastic-kibana", "a `_rank_eval` body copied from Kibana with its request line", "`GET /my-index/_rank_eval`",
         "error naming line 1: the file holds the JSON body alone",
         qrels=File(b"GET /my-index/_rank_eval\n" + _rank_eval(QRELS), "rank_eval.json"),
         expect=Err("qrels", 1, "Kibana's request line")),
    Case("elastic-no-score", "a hit whose `_score` is null (a search sorted by a field)", '`"_score": null`',
         "error naming the line and the hit; the fix: search with scores (`track_scores`)",
         run=File(_search_lines(RUN).replace(b'"_score": 3.0', b'"_score": null'), "X.jsonl"),
         expect=Err("run", 1, "hits.hits[1]: '_score' is null, not a finite number")),
    Case("elastic-failed-search", "an `_msearch` response with a failed search (`error`, `status`)",
         '`{"error": {...}, "status": 404}`', "error naming the response and the reason (never a dropped query)",
         qrels=File(_rank_eval(QRELS), "rank_eval.json"), run=File(_msearch(RUN, failed=True), "X.json"),
         expect=Err("run", 1, "responses[1]: a failed search")),
    Case("elastic-no-query-id", "`_search` responses one per line without `query_id`", "a line of `curl` output",
         "error naming the line; the fix is the jq command that adds the query id",
         run=File(_search_lines(RUN).replace(b', "query_id": "q2"', b""), "X.jsonl"),
         expect=Err("run", 2, "no query id")),
    Case("elastic-msearch-count", "an `_msearch` response (no `query_id`) with more responses than `_rank_eval` "
         "requests", "3 responses, 2 requests", "error: they pair by position", qrels=File(_rank_eval(QRELS),
                                                                                         "rank_eval.json"),
         run=File(_msearch(RUN + "q3 Q0 A 1 1 X\n"), "X.json"), expect=Err("run", 1, "3 _msearch responses, 2")),
    Case("elastic-two-indices", "one `_id` rated in two indices for a query", '`"_index": "a"` and `"_index": "b"`',
         "error naming the line: rankflavor matches documents by `_id` alone",
         qrels=File(_rank_eval(QRELS).replace(b'{"_index": "i", "_id": "E"', b'{"_index": "j", "_id": "A"'),
                    "rank_eval.json"), expect=Err("qrels", 1, "document 'A' is rated in two indices")),
    Case("elastic-request-twice", "a `_rank_eval` body with two requests of one id", '`"id": "q1"` twice',
         "error naming the second request and the first: one request per query",
         qrels=File(_rank_eval(QRELS).replace(b'"id": "q2"', b'"id": "q1"'), "rank_eval.json"),
         expect=Err("qrels", 1, "requests[1]: request id 'q1' again (requests[0] has it)")),
    Case("elastic-query-twice", "two `_search` responses with one `query_id`", '`"query_id": "q1"` on lines 1 and 2',
         "error naming the second line: one response per query (never merged, never the first kept silently)",
         run=File(_search_lines(RUN).replace(b'"query_id": "q2"', b'"query_id": "q1"'), "X.jsonl"),
         expect=Err("run", 2, "query 'q1' answered again")),
    Case("elastic-swapped", "`_search` responses given as the qrels", "`X.jsonl` as the qrels",
         "error: a search response is a run; are the qrels and run swapped?",
         qrels=File(_search_lines(RUN), "X.jsonl"), expect=Err("qrels", 1, "not a _rank_eval request")),
    Case("elastic-truncated", "a truncated JSON file", "`{\"requests\": [{\"id\": \"q1\", ...`",
         "error naming the line and column of the syntax error", qrels=File(_rank_eval(QRELS)[:-40], "rank_eval.json"),
         expect=Err("qrels", 1, "not valid JSON")),
    Case("elastic-duplicate-hit", "a response listing one document twice", "`hits.hits[0]` and `[2]` both `B`",
         "the duplicate error, naming the hits' lines and showing the hit (its `_source` left out)",
         run=File(_search_lines(RUN.replace(" A 3 2 X", " B 3 2 X")), "X.jsonl"),
         expect=Err("run", 1, "duplicate document in the run (conflicting) for query 'q1' doc 'B'")),
    # ---- Python inputs ---------------------------------------------------------------------------------------------
    Case("py-nan", "a NaN score in a dict", "`{'q1': {'A': float('nan')}}`", "error: not a finite number",
         run={"q1": {"A": float("nan")}}, expect=Err("run", None, "is not a finite number")),
    Case("py-str-score", "a score that is a string", "`{'q1': {'A': '3'}}`", "error: a str, not a number",
         run={"q1": {"A": "3"}}, expect=Err("run", None, "is a str, not a number")),
    Case("py-float-id", "an id that is a float or None", "`{1.5: {...}}`", "error: ids are strings (or ints)",
         qrels={1.5: {"A": 1}}, expect=Err("qrels", None, "is a float, not a string")),
    Case("df-columns", "a DataFrame with two grade columns, or none", "columns `qid docid grade label`",
         "error: several grade columns (rankflavor does not guess)",
         qrels=pd.DataFrame({"qid": ["q1"], "docid": ["A"], "grade": [1], "label": [2]}),
         expect=Err("qrels", None, "several grade columns")),
    Case("pyterrier", "PyTerrier's frames: results with `qid`, `query` (its text), `docno`, `docid` (Terrier's "
         "internal number), `score`, `rank`; qrels with `qid`, `docno`, `label`",
         "columns `qid query docno docid score rank`",
         "accepted: `qid` and `docno` are read, `query` and `docid` set aside (named in the provenance); same numbers",
         qrels=pd.DataFrame({"qid": _columns(QRELS)["query_id"], "docno": _columns(QRELS)["doc_id"],
                             "label": _columns(QRELS)["relevance"]}),
         run=pd.DataFrame({"qid": _columns(RUN)["query_id"], "query": [f"text of {q}" for q in _columns(RUN)["query_id"]],
                           "docno": _columns(RUN)["doc_id"], "docid": list(range(6)),
                           "score": _columns(RUN)["score"], "rank": list(range(6))})),
    Case("df-query-columns", "a DataFrame with two query id columns that are not PyTerrier's pair",
         "columns `qid query_id doc score`",
         "error: several query columns (only PyTerrier's `qid`+`query` and `docno`+`docid` are read without asking)",
         run=pd.DataFrame({"qid": ["q1"], "query_id": ["q1"], "doc": ["A"], "score": [1.0]}),
         expect=Err("run", None, "several query columns: qid, query_id")),
    Case("df-rank-only", "a DataFrame run with a rank column and no score", "columns `qid docno rank`",
         "error: no score column; the fix says to add a score of minus the rank (`df['score'] = -df['rank']`)",
         run=pd.DataFrame({"qid": ["q1", "q1"], "docno": ["A", "B"], "rank": [0, 1]}),
         expect=Err("run", None, "minus the rank, e.g. df['score'] = -df['rank']")),
    Case("namedtuples", "ir_datasets' namedtuples (`qrels_iter()`, `scoreddocs_iter()`), a list or a generator",
         "`Qrel(query_id, doc_id, relevance, iteration)`", "accepted (a list, a tuple, a generator); same numbers",
         qrels=[Qrel(q, d, g, "0") for q, d, g in zip(*_columns(QRELS).values(), strict=True)],
         run=tuple(ScoredDoc(*row) for row in zip(*_columns(RUN).values(), strict=True))),
    Case("df-nan", "a DataFrame with an empty score", "`score` NaN at row 1", "error naming the row",
         run=pd.DataFrame({"query": ["q1", "q1"], "doc": ["A", "B"], "score": [1.0, None]}),
         expect=Err("run", None, "at row 1")),
    # ---- ids that never meet: a silent 0 told (issue 24) -----------------------------------------------------------
    Case("doc-leading-zeros", "doc ids that match a judged doc of their query only up to leading zeros (or case, "
         "or surrounding whitespace)", "qrels `q1 0 0001040 3`, run `q1 Q0 1040 3 2 X`",
         "accepted as different ids (the doc is unjudged: grade 0); a warning gives the count of such retrieved docs, "
         "their queries and an example pair (`docs_judged_only_loosely` in the provenance)",
         qrels=enc(QRELS.replace(" A 3", " 0001040 3")), run=enc(RUN.replace(" A ", " 1040 ")),
         expect=value_is("q1", (2 + 2 * A3) / (4 + 2 * A3), warning="run '1040', qrels '0001040' (leading zeros)",
                         **{"docs_judged_only_loosely": 1}),
         warns="1 retrieved doc in 1 query matches a doc judged for its query only up to leading zeros"),
    Case("doc-case", "doc ids that differ from the qrels' in case only", "qrels `q1 0 A 3`, run `q1 Q0 a 3 2 X`",
         "as above: unjudged, with the same warning naming the pair and the difference (case)",
         run=enc(RUN.replace(" A ", " a ")), expect=value_is("q1", (2 + 2 * A3) / (4 + 2 * A3),
                                                            warning="run 'a', qrels 'A' (case)"),
         warns="1 retrieved doc in 1 query matches a doc judged for its query only up to"),
    Case("all-unjudged", "a run none of whose retrieved docs is judged for its query (doc ids written another "
         "way, the qrels of another collection)", "qrels `q1 0 A 3`, run `q1 Q0 doc_A 1 4 X`",
         "accepted: every score is 0; a warning in capitals, before any other (first on stderr, and in `check`), "
         "names the likely causes: an id mismatch or the wrong qrels",
         run=enc(RUN.replace(" Q0 ", " Q0 doc_")), expect=mean_is(0.0, warning="NO RETRIEVED DOC IS JUDGED"),
         warns="NO RETRIEVED DOC IS JUDGED"),
    Case("run-query-doc-swapped", "a run whose query and doc columns are swapped", "`B Q0 q1 1 4 X`",
         "error naming the layout (how many of its query ids are doc ids of the qrels, and of its doc ids query ids); "
         "the fix is an awk command that swaps the columns", run=enc(_swap_query_doc(RUN)),
         expect=Err("run", 1, "query and doc columns look swapped")),
    Case("df-query-doc-swapped", "a DataFrame run whose query column holds the doc ids (and doc column the queries)",
         "columns `qid docno score`, `qid` = `B`", "error naming the swap; the fix renames the two columns",
         run=pd.DataFrame({"qid": _columns(RUN)["doc_id"], "docno": _columns(RUN)["query_id"],
                           "score": _columns(RUN)["score"]}),
         expect=Err("run", None, "query and doc columns look swapped")),
    Case("run-query-id-space", "a run whose query ids hold a space, in quotes", '`"q 1" Q0 B 1 4 X`',
         "error: the query id seems to hold a space (columns split at every space; quotes do not group them), not the "
         "`qid docid Q0` layout advice; the fix: ids without spaces or quotes, as in the qrels",
         run=enc(RUN.replace("q1 Q0", '"q 1" Q0')), expect=Err("run", 1, 'the query id "q 1" seems to hold a space')),
    Case("run-query-id-spaces", "a run whose query ids hold spaces, without quotes", "`q 1 Q0 B 1 4 X`, `q a b Q0 ...`",
         "error: the query id seems to hold a space ('Q0' is not the second column); same fix",
         run=enc(RUN.replace("q2 Q0", "q a b Q0")), expect=Err("run", 5, "the query id 'q a b' seems to hold a space")),
    Case("run-doc-id-space", "a run whose doc ids hold a space, in quotes", '`q1 Q0 "doc 7" 1 4 X`',
         "error: the doc id seems to hold a space; same fix", run=enc(RUN.replace(" C ", ' "doc 7" ')),
         expect=Err("run", 2, 'the doc id "doc 7" seems to hold a space')),
    Case("qrels-doc-id-space", "a qrels whose doc ids hold a space, in quotes", '`q1 0 "doc 7" 3`',
         "error: the doc id seems to hold a space; same fix", qrels=enc(QRELS.replace(" E ", ' "doc 7" ')),
         expect=Err("qrels", 6, 'the doc id "doc 7" seems to hold a space')),
]


# ---- running a case --------------------------------------------------------------------------------------------------
def _materialise(value: Any, role: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    default = "qrels.txt" if role == "qrels" else "X.run"
    if isinstance(value, str) and value == "missing":
        return str(tmp_path / "nonexistent" / default)
    if isinstance(value, str) and value == "directory":
        (tmp_path / "runs").mkdir()
        return str(tmp_path / "runs")
    if isinstance(value, str) and value == "unreadable":
        path = tmp_path / default
        path.write_text(RUN)
        path.chmod(0)
        if os.geteuid() == 0:  # root reads anything: make the read fail as it would for anyone else
            real = pathlib.Path.open

            def open_(self: pathlib.Path, *args: object, **kwargs: object) -> object:
                if self == path:
                    raise PermissionError(13, "Permission denied", str(self))
                return real(self, *args, **kwargs)

            monkeypatch.setattr(pathlib.Path, "open", open_)
            monkeypatch.setattr("rankflavor.inputs.trec.read_fast", lambda *a: None)
            monkeypatch.setattr("rankflavor.inputs.trec.read_compiled", lambda *a: None)  # (it opens with open(2))
            monkeypatch.setattr("rankflavor.inputs.trec_compiled.read_compiled", lambda *a, **k: None)  # (prefetch's)
        return str(path)
    if isinstance(value, (bytes, File)):
        file = value if isinstance(value, File) else File(value)
        path = tmp_path / (file.name or default)
        path.write_bytes(file.data)
        return str(path)
    return value


def _values(report: rf.Report) -> list[Any]:
    return [(str(r.flavor), r.per_query(), r.mean) for r in report.results]


def _tidy(tmp_path: pathlib.Path) -> rf.Report:
    """The tidy files' report (single spaces, LF, no comments): what every untidy variant must equal."""
    (tmp_path / "tidy").mkdir()
    qrels, run = tmp_path / "tidy" / "qrels.txt", tmp_path / "tidy" / "X.run"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    report = rf.evaluate(qrels, run, FLAVORS)
    assert _values(report) == _values(rf.evaluate(QRELS_DICT, RUN_DICT, FLAVORS))
    return report


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_catalogue_row(case: Case, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    qrels = _materialise(case.qrels, "qrels", tmp_path, monkeypatch)
    run = _materialise(case.run, "run", tmp_path, monkeypatch)
    if isinstance(case.expect, Err):
        with pytest.raises(case.expect.kind) as info:
            rf.evaluate(qrels, run, case.flavors, **case.options)
        error = info.value
        assert case.expect.fragment in str(error)
        if isinstance(error, rf.InputError):
            where = qrels if case.expect.role == "qrels" else run
            assert error.source == (where if isinstance(where, str) else case.expect.role)
            assert error.line == case.expect.line
            assert error.fix
            if error.line is not None:
                assert error.text is not None
        _cli_fails_cleanly(qrels, run, case, error)
        return
    report = rf.evaluate(qrels, run, case.flavors, **case.options)
    if case.expect == "same":
        assert _values(report) == _values(_tidy(tmp_path))
    else:
        case.expect(report)
    if case.warns is not None:
        assert case.warns in report.provenance["input_warnings"][0], report.provenance["input_warnings"]
    if isinstance(qrels, str) and isinstance(run, str):
        assert main(["check", qrels, run, *_cli_options(case)]) == 0
        if case.warns is not None:
            _cli_warns_first(qrels, run, case)


def _cli_warns_first(qrels: str, run: str, case: Case) -> None:
    """`eval` prints the case's warning as its first warning on stderr (after a note on how a name is read, e.g.
    ranx's ndcg@3); `check` as its first warning."""
    assert case.warns is not None
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        assert main(["eval", qrels, run, "-m", case.flavors[0], *_cli_options(case)]) == 0
        assert main(["check", qrels, run, *_cli_options(case)]) == 0
    warned = [line for line in err.getvalue().splitlines() if line.startswith("warning: ")]
    assert warned[0].startswith(f"warning: {run.rsplit('/', 1)[-1]}: ") and case.warns in warned[0]
    checked = [line for line in out.getvalue().splitlines() if line.startswith("warning: ")]
    assert checked and case.warns in checked[0] and "no warnings" not in out.getvalue()


def _cli_options(case: Case) -> list[str]:
    return [f"--on-duplicate={case.options['on_duplicate']}"] if "on_duplicate" in case.options else []


def _cli_fails_cleanly(qrels: Any, run: Any, case: Case, error: Exception) -> None:
    """The CLI: exit 3, one message naming the file and line, no traceback (eval and check)."""
    if not (isinstance(qrels, str) and isinstance(run, str)):
        return
    commands = [["eval", "-q", qrels, run, "-m", case.flavors[0]]]  # (-q: no note on how a name is read)
    if isinstance(error, rf.InputError):
        commands.append(["check", qrels, run])
    for argv in commands:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(argv + _cli_options(case))
        message = err.getvalue()
        assert code == 3, message
        assert "Traceback" not in message and message.startswith("rankflavor: ")
        if isinstance(error, rf.InputError) and error.line is not None:
            assert f"{error.source}:{error.line}: " in message
        assert case.expect.fragment in message


# ---- the document ----------------------------------------------------------------------------------------------------
def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_catalogue() -> str:
    lines = [
        "# Bad and unusual input",
        "",
        "What rankflavor does with each kind of bad or unusual input. Generated from the table `CASES` in",
        "`tests/test_bad_input.py`, where every row is also a test (`python tests/test_bad_input.py` rewrites this",
        "file; a test fails when the two differ).",
        "",
        "Every rejection is a `rankflavor.InputError` (Python) with `.source` (file or input name), `.line`",
        "(1-based, when there is one), `.text` (the offending line) and `.fix`; the CLI prints it as one message",
        "`rankflavor: FILE:LINE: what is wrong`, then `offending text:` and `fix:` lines, and exits with 3 (no",
        "traceback unless `--debug`). A flavor that refuses valid data raises `rankflavor.EvaluationError`",
        "(also exit 3). `rankflavor check QRELS RUN...` reads and validates without computing a metric and",
        "prints every count below; the same counts are in the report's provenance (`--format json`).",
        "",
        "Rules: a line ends at `\\n`, `\\r\\n` or `\\r`; columns are separated by runs of spaces and tabs (only",
        "those); a line whose first non-blank character is `#` is a comment; ids are strings compared byte for",
        "byte; a value is a plain ASCII decimal number and finite. Duplicates follow `on_duplicate`",
        "(`--on-duplicate error|first|max`, `error` by default, recorded in the provenance). Those are TREC's; a",
        "file's format is told by its first bytes, its first line, then its name",
        "([how](inputs.md#formats-and-how-they-are-told)), and the CSV/TSV, RankLib and Elasticsearch rows below",
        "show each format's own.",
        "",
        f"{len(CASES)} cases:",
        "",
        "| # | input | example | what rankflavor does |",
        "|---|---|---|---|",
    ]
    for number, case in enumerate(CASES, start=1):
        lines.append(f"| {number} | {_cell(case.input)} (`{case.id}`) | {_cell(case.example)} | {_cell(case.does)} |")
    lines += ["", "## The messages", "", "What each rejected case above prints (the first line, then the fix), as",
              "produced by running the case; a path is shown by its file name.", "",
              "| case | message | fix |", "|---|---|---|"]
    for case in CASES:
        if isinstance(case.expect, Err):
            message, fix = _message(case)
            lines.append(f"| `{case.id}` | {_code(message)} | {_cell(fix)} |")
    lines += ["", "## The warnings", "", "What each case above that is accepted with a warning about its ids prints "
              "first (`eval` on stderr,", "`check` on stdout, Python in `report.provenance['input_warnings']`), as "
              "produced by running the case.", "", "| case | warning |", "|---|---|"]
    lines += [f"| `{case.id}` | {_code(_first_warning(case))} |" for case in CASES if case.warns is not None]
    return "\n".join(lines) + "\n"


def _first_warning(case: Case) -> str:
    """The first input warning of an accepted case (paths shortened to the file name)."""
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        directory = pathlib.Path(tmp)
        qrels = _materialise(case.qrels, "qrels", directory, monkeypatch)
        run = _materialise(case.run, "run", directory, monkeypatch)
        report = rf.evaluate(qrels, run, case.flavors, **case.options)
        return report.provenance["input_warnings"][0].replace(f"{directory}/", "")


def _code(text: str) -> str:
    return "`" + _cell(text).replace("`", "'") + "`"


def _message(case: Case) -> tuple[str, str]:
    """The first line and the fix of the error a rejected case raises (paths shortened to the file name)."""
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        directory = pathlib.Path(tmp)
        qrels = _materialise(case.qrels, "qrels", directory, monkeypatch)
        run = _materialise(case.run, "run", directory, monkeypatch)
        try:
            rf.evaluate(qrels, run, case.flavors, **case.options)
        except (rf.InputError, rf.EvaluationError) as error:
            first = str(error).splitlines()[0].replace(f"{directory}/nonexistent/", "").replace(f"{directory}/", "")
            fix = (getattr(error, "fix", None) or "").replace(f"{directory}/", "")
            return first, fix
    raise AssertionError(f"case {case.id} raised nothing")


def test_catalogue_doc_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == render_catalogue(), "run: python tests/test_bad_input.py"
    inputs_page = (DOC.parent / "inputs.md").read_text(encoding="utf-8")
    assert f"[input-catalogue.md](input-catalogue.md) lists {len(CASES)} kinds" in inputs_page


def test_catalogue_has_the_required_kinds() -> None:
    assert len(CASES) >= 25
    assert len({c.id for c in CASES}) == len(CASES)


if __name__ == "__main__":
    DOC.parent.mkdir(exist_ok=True)
    DOC.write_text(render_catalogue(), encoding="utf-8")
    sys.stdout.write(f"wrote {DOC} ({len(CASES)} cases)\n")
