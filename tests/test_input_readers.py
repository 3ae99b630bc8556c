"""The files relevance teams have (issue 39 item 4): CSV/TSV with a header (Quepid's export), RankLib / LETOR /
SVMlight judgment files and RankLib's score files, Elasticsearch / OpenSearch `_rank_eval` bodies and `_search` /
`_msearch` responses; each read by one module of inputs/formats.py's table, told by content then name.

The documents are shaped as their sources show them: Quepid's export as o19s/quepid's ratings_controller.rb writes
it, RankLib's files as codelibs/ranklib's DataPoint.parse reads and Evaluator.score writes them, Elasticsearch's as
its reference documentation's examples (docs/reference/search/rank-eval.asciidoc, search.asciidoc,
multi-search.asciidoc). The catalogue (tests/test_bad_input.py) holds each format's bad files.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.cli.main import main
from rankflavor.errors import InputError
from rankflavor.inputs.formats import FORMATS, sniff
from rankflavor.inputs.load import load_qrels, load_run
from rankflavor.inputs.prefetch import Prefetched, prefetch_runs

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 2\nq1 0 D 0\nq2 0 A 1\nq2 0 E 2\n"
RUN = "q1 Q0 B 1 4 X\nq1 Q0 C 2 3 X\nq1 Q0 A 3 2 X\nq1 Q0 D 4 1 X\nq2 Q0 E 1 0.5 X\nq2 Q0 A 2 0.25 X\n"
FLAVORS = ["ndcg@3", "ndcg@10 gain=exp2 ties=average", "map", "p@2", "quepid", "elastic.ndcg"]


def values(report: rf.Report) -> list[Any]:
    return [(str(r.flavor), r.per_query(), r.mean) for r in report.results]


def rows(text: str) -> list[tuple[str, str, str]]:
    """(query, doc, value) of each TREC line."""
    return [(f[0], f[2], f[3] if len(f) == 4 else f[4]) for f in (line.split() for line in text.splitlines())]


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def trec(tmp_path: Path) -> list[Any]:
    """The TREC files' numbers: what every other format of the same data must give."""
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "X.run").write_text(RUN)
    return values(rf.evaluate(tmp_path / "qrels.txt", tmp_path / "X.run", FLAVORS))


# ---- the table and its precedence ----------------------------------------------------------------------------------
SNIFFED = [  # (name, first bytes, role, the format read)
    ("qrels.txt", b"q1 0 A 3\n", "qrels", "trec"),
    ("run", b"# bm25\nq1 Q0 A 1 2.5 x\n", "run", "trec"),
    ("msmarco.tsv.txt", b"1048585\t7187158\t1\n", "run", "trec"),  # (QID DOCID RANK: not RankLib's scores)
    ("judgments.txt", b"query,docid,rating\nred shoes,A,3\n", "qrels", "csv"),
    ("run.tsv", b"qid\tQ0\tdocno\trank\tscore\ttag\n", "run", "csv"),
    ("nohead.csv", b"q1,0,A,3\n", "qrels", "csv"),  # (the name decides: the CSV reader's header error follows)
    ("judgments.csv.gz", gzip.compress(b"query,docid,rating\nq,A,3\n"), "qrels", "csv"),
    ("utf16.txt", "query\tdoc\tscore\n".encode("utf-16"), "run", "csv"),
    ("train.txt", b"# LETOR\n2 qid:10032 1:0.056537 #docid = GX029-35-5894638 inc = 0.01\n", "qrels", "ranklib"),
    ("scores.txt", b"10032\t0\t-1.3490717E-4\n", "run", "ranklib_scores"),
    ("scores", b"1\t3\tNaN\n", "run", "ranklib_scores"),
    ("body.json", b'{"requests": []}', "qrels", "rank_eval"),
    ("body", b'\n  {"requests": []}', "qrels", "rank_eval"),
    ("run.jsonl", b'{"hits": {"hits": []}, "query_id": "q"}\n', "run", "es_search"),
    ("empty.json", b"", "run", "es_search"),  # (no first line: the name decides)
    ("run.parquet.csv", b"PAR1" + bytes(8), "run", "columnar"),  # (magic bytes, whatever the name)
]


@pytest.mark.parametrize(("name", "head", "role", "expected"), SNIFFED, ids=[s[0] for s in SNIFFED])
def test_each_file_is_told_by_its_content_then_its_name(name: str, head: bytes, role: str, expected: str) -> None:
    assert sniff(Path(name), head, role).name == expected


@pytest.mark.parametrize(("name", "head", "role", "fragment"), [
    ("ratings.csv", b"3 qid:1 # a\n", "qrels", "ambiguous: its name (.csv) says a CSV or TSV file with a header, its "
                                              "first line says a RankLib / LETOR / SVMlight judgment file"),
    ("body.tsv", b'{"requests": []}', "qrels", "ambiguous: its name (.tsv)"),
    ("train.txt", b"3 qid:1 # a\n", "run", "which is a qrels, not a run"),
    ("scores.txt", b"1\t0\t0.5\n", "qrels", "which is a run, not a qrels"),
])
def test_two_readings_or_the_wrong_role_are_errors_naming_them(name: str, head: bytes, role: str,
                                                               fragment: str) -> None:
    with pytest.raises(InputError, match=fragment.replace("(", r"\(").replace(")", r"\)")) as info:
        sniff(Path(name), head, role)
    assert info.value.fix


def test_a_file_read_as_trec_by_default_says_what_else_was_tried_at_its_first_line(tmp_path: Path) -> None:
    (tmp_path / "odd.txt").write_text("q1|A|3\n")
    with pytest.raises(InputError) as info:
        load_qrels(tmp_path / "odd.txt")
    assert info.value.line == 1 and info.value.fix.startswith("(read as TREC: its first line is no CSV/TSV header")
    (tmp_path / "odd.txt").write_text("q1 0 A 3\nq1 0 B x\n")  # (a TREC file: its second line's error alone)
    with pytest.raises(InputError) as info:
        load_qrels(tmp_path / "odd.txt")
    assert info.value.line == 2 and "read as TREC" not in info.value.fix


def test_the_table_names_one_module_per_format_each_with_its_readers() -> None:
    import importlib

    modules = [entry.module for entry in FORMATS]
    assert len(modules) == len(set(modules))  # (one reader module per format)
    for entry in FORMATS:
        module = importlib.import_module(entry.module)
        for role in entry.roles:
            assert callable(getattr(module, f"read_{role}")), (entry.name, role)
        assert (module.__doc__ or "").strip(), entry.module


# ---- CSV and TSV: Quepid's export ----------------------------------------------------------------------------------
def quepid_export(text: str, lone: tuple[str, ...] = ()) -> str:
    """A qrels as Quepid writes its ratings export (ratings_controller.rb prepare_csv: the header, one line per
    rating, a query with no rating padded to three fields, no line feed after the last line)."""
    lines = ["query,docid,rating", *(f"{q},{d},{g}" for q, d, g in rows(text)), *(f"{q},," for q in lone)]
    return "\r\n".join(lines)  # (Ruby's CSV.generate_line ends lines with the row separator: \n; CRLF read too)


def test_quepid_export_and_a_csv_run_give_the_trec_numbers(tmp_path: Path, trec: list[Any]) -> None:
    (tmp_path / "judgments.csv").write_text(quepid_export(QRELS, lone=("q3",)), newline="")
    (tmp_path / "results.csv").write_text("query,doc,score\n" + "".join(f"{q},{d},{s}\n" for q, d, s in rows(RUN)))
    report = rf.evaluate(tmp_path / "judgments.csv", tmp_path / "results.csv", FLAVORS)
    assert values(report) == trec
    qrels = report.provenance["inputs"][0]
    assert (qrels["kind"], qrels["queries_without_judgments"]) == ("csv", 1)
    assert any("1 query has no judgment (a line with the query alone)" in w for w in report.provenance["input_warnings"])
    code, out, err = run_cli(["eval", str(tmp_path / "judgments.csv"), str(tmp_path / "results.csv"), "-m", "quepid"])
    assert code == 0 and out.startswith("run          label   mean") and "results.csv  quepid" in out, err


def test_query_texts_with_spaces_commas_and_quepids_leading_space(tmp_path: Path) -> None:
    """Quepid writes a query text starting with =, +, - or @ after a space (app/services/csv_export.rb): the id keeps
    it, and the run's query without it is named in the loose-id warning, never matched silently."""
    (tmp_path / "j.csv").write_text('query,docid,rating\n"red shoes, size 9",A,3\n -shoes,B,1\n')
    (tmp_path / "r.csv").write_text('query,doc,score\n"red shoes, size 9",A,1\n-shoes,B,1\n')
    report = rf.evaluate(tmp_path / "j.csv", tmp_path / "r.csv", "p@1")
    assert report.value("red shoes, size 9") == 1.0 and report.value(" -shoes") is None
    assert any("surrounding whitespace" in w and "' -shoes'" in w for w in report.provenance["input_warnings"])


def test_a_tsv_after_blank_lines_is_read_as_tsv(tmp_path: Path, trec: list[Any]) -> None:
    (tmp_path / "j.tsv").write_text("\n\nquery\tdocid\trating\n" + "".join(f"{q}\t{d}\t{g}\n" for q, d, g in rows(QRELS)))
    report = rf.evaluate(tmp_path / "j.tsv", tmp_path / "X.run", FLAVORS)
    assert values(report) == trec and report.provenance["inputs"][0]["blank_lines"] == 2


def test_a_dataframe_rating_column_is_a_grade(trec: list[Any]) -> None:
    frame = pd.DataFrame([{"query": q, "doc": d, "rating": int(g)} for q, d, g in rows(QRELS)])
    run = {q: {} for q, _, _ in rows(RUN)}
    for q, d, s in rows(RUN):
        run[q][d] = float(s)
    assert values(rf.evaluate(frame, run, FLAVORS)) == trec


def test_csv_from_stdin_and_gzip(tmp_path: Path, trec: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    data = quepid_export(QRELS).encode()
    (tmp_path / "j.csv.gz").write_bytes(gzip.compress(data))
    assert values(rf.evaluate(tmp_path / "j.csv.gz", tmp_path / "X.run", FLAVORS)) == trec
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = run_cli(["eval", "-", str(tmp_path / "X.run"), "-m", "ndcg@3", "--format", "json"])
    assert code == 0, err
    assert json.loads(out)["provenance"]["inputs"][0]["kind"] == "csv"


def test_a_csv_duplicate_names_both_lines_and_the_text(tmp_path: Path) -> None:
    (tmp_path / "j.csv").write_text("query,docid,rating\nq1,A,3\nq1,B,1\nq1,A,2\n")
    with pytest.raises(InputError) as info:
        rf.evaluate(tmp_path / "j.csv", {"q1": {"A": 1.0}}, "p@1")
    assert info.value.line == 4 and info.value.text == "q1,A,2" and "grade 3 on line 2" in info.value.reason


def test_a_csv_run_with_swapped_columns_is_named_at_its_header(tmp_path: Path) -> None:
    """The query/doc swap check applies to every reader's tables; a CSV's fix is its header."""
    (tmp_path / "j.csv").write_text(quepid_export(QRELS))
    (tmp_path / "r.csv").write_text("\nquery,doc,score\n" + "".join(f"{d},{q},{s}\n" for q, d, s in rows(RUN)))
    with pytest.raises(InputError, match="query and doc columns look swapped") as info:
        rf.evaluate(tmp_path / "j.csv", tmp_path / "r.csv", "ndcg@3")
    assert (info.value.line, info.value.text) == (2, "query,doc,score")
    assert "swap the names of the query and doc columns in its first line" in info.value.fix


def test_a_csv_run_is_not_prefetched_as_trec(tmp_path: Path) -> None:
    (tmp_path / "r.csv").write_text("query,doc,score\nq1,A,1\n")
    (tmp_path / "r.txt").write_text("q1 Q0 A 1 1 x\n")
    items = prefetch_runs([str(tmp_path / "r.csv"), str(tmp_path / "r.txt")])
    assert items[0] == str(tmp_path / "r.csv") and isinstance(items[1], Prefetched)


# ---- RankLib / LETOR / SVMlight ------------------------------------------------------------------------------------
def ranklib(text: str, comment: str = "# {doc}") -> str:
    """A qrels as a RankLib judgment file (features 1 and 2; `comment`: the text after the features)."""
    return "".join(f"{g} qid:{q} 1:0.{i}5 2:{i} {comment.format(doc=d)}".rstrip() + "\n"
                   for i, (q, d, g) in enumerate(rows(text)))


def java_double(value: float) -> str:
    """A score as Java's Double.toString writes it (RankLib's score file): `4.0`, `-0.25`, `1.0E-4`, `-2.0E7`."""
    if value == 0 or 1e-3 <= abs(value) < 1e7:
        return repr(float(value))
    sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    mantissa = f"{digits[0]}." + ("".join(map(str, digits[1:])) or "0")
    return ("-" if sign else "") + f"{mantissa}E{len(digits) - 1 + int(exponent)}"


def score_file(qrels: str, run: str, newline: str = "\n", order: list[str] | None = None) -> str:
    """RankLib's -score output for the judgment file of `qrels` (Evaluator.score: QUERY\\tINDEX\\tSCORE for each line
    of each query's list, in the file's order; `order`: the queries' order, as its cross-validation folds write
    them)."""
    scores = {(q, d): float(s) for q, d, s in rows(run)}
    by_query: dict[str, list[str]] = {}
    for q, d, _ in rows(qrels):
        by_query.setdefault(q, []).append(f"{q}\t{len(by_query[q])}\t{java_double(scores[(q, d)])}")
    return "".join(line + newline for q in (order or list(by_query)) for line in by_query[q])


def test_ranklib_judgments_and_scores_give_the_trec_numbers(tmp_path: Path, trec: list[Any]) -> None:
    (tmp_path / "train.txt").write_text(ranklib(QRELS))
    (tmp_path / "scores.txt").write_text(score_file(QRELS, RUN))
    report = rf.evaluate(tmp_path / "train.txt", tmp_path / "scores.txt", FLAVORS)
    assert values(report) == trec
    assert [i["kind"] for i in report.provenance["inputs"]] == ["ranklib", "ranklib_scores"]
    (tmp_path / "X.run").write_text(RUN)  # (a RankLib judgment file with doc ids is a qrels for any run)
    assert values(rf.evaluate(tmp_path / "train.txt", tmp_path / "X.run", FLAVORS)) == trec


def test_scores_as_java_writes_them_on_windows_and_in_cross_validation_order(tmp_path: Path) -> None:
    run = RUN.replace(" 4 X", " 0.0001 X").replace(" 3 X", " 0.00005 X").replace(" 2 X", " -20000000 X")
    (tmp_path / "train.txt").write_text(ranklib(QRELS))
    (tmp_path / "X.run").write_text(run)
    text = score_file(QRELS, run, "\r\n", order=["q2", "q1"])
    assert "1.0E-4" in text and "5.0E-5" in text and "-2.0E7" in text
    (tmp_path / "scores.txt").write_text(text, newline="")
    got = rf.evaluate(tmp_path / "train.txt", tmp_path / "scores.txt", FLAVORS)
    assert values(got) == values(rf.evaluate(tmp_path / "train.txt", tmp_path / "X.run", FLAVORS))


@pytest.mark.parametrize(("line", "doc"), [
    ("2 qid:10032 1:0.056537 2:0.000000 46:0.076923 #docid = GX029-35-5894638 inc = 0.0119881192468859 prob = 0.139842",
     "GX029-35-5894638"),  # LETOR 4.0 (MQ2007)
    ("3 qid:7 # doc42 red shoes", "doc42"),  # Quepid's LTR export: # DOCID QUERY TEXT
    ("1 qid:1 # sku1", "sku1"),
])
def test_the_doc_id_of_a_comment(line: str, doc: str, tmp_path: Path) -> None:
    (tmp_path / "train.txt").write_text(line + "\n")
    table = load_qrels(tmp_path / "train.txt")
    assert table.doc.to_pylist() == [doc] and table.source.kind == "ranklib"


def test_without_comments_docs_are_positions_and_the_output_says_so(tmp_path: Path) -> None:
    (tmp_path / "train.txt").write_text(ranklib(QRELS, comment=""))
    (tmp_path / "scores.txt").write_text(score_file(QRELS, RUN))
    table = load_qrels(tmp_path / "train.txt")
    assert table.doc.to_pylist() == ["0", "1", "2", "3", "0", "1"]
    code, out, err = run_cli(["eval", str(tmp_path / "train.txt"), str(tmp_path / "scores.txt"), "-m", "ranklib",
                              "--format", "json"])
    assert code == 0, err
    assert "by its position within its query's lines" in err
    assert "position" in json.loads(out)["provenance"]["inputs"][0]["notes"][0]


def test_a_score_file_needs_its_judgment_file(tmp_path: Path) -> None:
    (tmp_path / "scores.txt").write_text(score_file(QRELS, RUN))
    with pytest.raises(InputError, match="no qrels read with it"):
        load_run(tmp_path / "scores.txt")
    (tmp_path / "train.txt").write_text(ranklib(QRELS))
    run = load_run(tmp_path / "scores.txt", qrels=load_qrels(tmp_path / "train.txt"))
    assert run.doc.to_pylist()[:2] == ["A", "B"]
    (tmp_path / "part.txt").write_text("".join(score_file(QRELS, RUN).splitlines(keepends=True)[:3]))
    with pytest.raises(InputError, match="query 'q1' has 4 lines in the judgment file, 3 of them scored here"):
        rf.evaluate(tmp_path / "train.txt", tmp_path / "part.txt", "ndcg@3")


# ---- Elasticsearch / OpenSearch: the reference documentation's documents ------------------------------------------
RANK_EVAL = """GET /my-index-000001/_rank_eval
{
  "requests": [
    {
      "id": "amsterdam_query",
      "request": {
          "query": { "match": { "text": "amsterdam" } }
      },
      "ratings": [
        { "_index": "my-index-000001", "_id": "doc1", "rating": 0 },
        { "_index": "my-index-000001", "_id": "doc2", "rating": 3 },
        { "_index": "my-index-000001", "_id": "doc3", "rating": 1 }
      ]
    },
    {
      "id": "berlin_query",
      "request": {
        "query": { "match": { "text": "berlin" } }
      },
      "ratings": [
        { "_index": "my-index-000001", "_id": "doc1", "rating": 1 }
      ]
    },
    {
      "id": "JFK query",
      "request": { "query": { "match_all": {} } },
      "ratings": []
    }
  ],
  "metric": {
    "dcg": {
      "k": 20,
      "normalize": false
    }
  }
}
"""  # (docs/reference/search/rank-eval.asciidoc: its request example, and its "JFK query" with no ratings)


def search_response(hits: list[tuple[str, float]]) -> dict[str, Any]:
    """A _search response shaped as the Search API reference's example (docs/reference/search/search.asciidoc)."""
    return {"took": 5, "timed_out": False, "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
            "hits": {"total": {"value": len(hits), "relation": "eq"}, "max_score": max((s for _, s in hits),
                                                                                       default=None),
                     "hits": [{"_index": "my-index-000001", "_id": d, "_score": s,
                               "_source": {"date": "2009-11-15T14:12:12", "likes": 0,
                                           "message": "trying out Elasticsearch", "user": "kimchy"}}
                              for d, s in hits]}}


HITS = {"amsterdam_query": [("doc2", 1.3862942), ("doc4", 0.9), ("doc1", 0.5)], "berlin_query": [("doc1", 0.7)],
        "JFK query": []}
# dcg@10 gain=exp2 by hand: amsterdam (2^3-1)/1 + 0 + 0 = 7; berlin (2^1-1)/1 = 1; JFK has no rating: not judged
ELASTIC_DCG = (7 + 1) / 2


def test_the_reference_documents_with_search_responses_one_per_line(tmp_path: Path) -> None:
    (tmp_path / "rank_eval.json").write_text(RANK_EVAL.split("\n", 1)[1])  # (the body, without Kibana's line)
    lines = [json.dumps({**search_response(h), "query_id": q}) for q, h in HITS.items()]
    (tmp_path / "run.jsonl").write_text("\n".join(lines) + "\n")
    report = rf.evaluate(tmp_path / "rank_eval.json", tmp_path / "run.jsonl", ["elastic", "elastic.ndcg"])
    assert report.mean(flavor="elastic") == pytest.approx(ELASTIC_DCG)
    inputs = report.provenance["inputs"]
    assert [i["kind"] for i in inputs] == ["rank_eval", "es_search"]
    assert inputs[0]["queries_without_judgments"] == 1  # (the JFK query: ratings [])
    assert any("(a request with no ratings)" in w for w in report.provenance["input_warnings"])
    (tmp_path / "kibana.json").write_text(RANK_EVAL)
    with pytest.raises(InputError, match="Kibana's request line 'GET /my-index-000001/_rank_eval'"):
        rf.evaluate(tmp_path / "kibana.json", tmp_path / "run.jsonl", "elastic")


def test_an_msearch_response_pairs_with_the_rank_eval_requests(tmp_path: Path) -> None:
    (tmp_path / "rank_eval.json").write_text(RANK_EVAL.split("\n", 1)[1])
    msearch = {"took": 9, "responses": [{**search_response(h), "status": 200} for h in HITS.values()]}
    (tmp_path / "msearch.json").write_text(json.dumps(msearch, indent=2))
    code, out, err = run_cli(["eval", str(tmp_path / "rank_eval.json"), str(tmp_path / "msearch.json"), "-m",
                              "elastic", "--format", "json", "--per-query"])
    assert code == 0, err
    result = json.loads(out)
    assert result["results"][0]["mean"] == pytest.approx(ELASTIC_DCG)
    assert [r["query"] for r in result["results"][0]["per_query"]] == ["amsterdam_query", "berlin_query"]
    assert "each is named by the _rank_eval request of its position" in err
    msearch["responses"][0]["hits"]["hits"].append(dict(msearch["responses"][0]["hits"]["hits"][0]))
    (tmp_path / "msearch.json").write_text(json.dumps(msearch, indent=2))
    with pytest.raises(InputError) as info:  # (a duplicate's line and text in a pretty-printed response)
        rf.evaluate(tmp_path / "rank_eval.json", tmp_path / "msearch.json", "elastic")
    assert info.value.line == 53 and info.value.text.startswith('responses[0].hits.hits[3]: {"_index"')
    assert "_source" not in info.value.text


def test_a_single_pretty_printed_response_and_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rank_eval.json").write_text(RANK_EVAL.split("\n", 1)[1])
    response = json.dumps({**search_response(HITS["berlin_query"]), "query_id": "berlin_query"}, indent=2)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(response.encode())))
    code, out, err = run_cli(["eval", str(tmp_path / "rank_eval.json"), "-", "-m", "elastic", "--format", "json"])
    assert code == 0, err
    assert json.loads(out)["results"][0]["mean"] == 1.0  # (amsterdam is absent from the run: missing=skip)


# ---- any bytes: read, or the documented error ------------------------------------------------------------------------
PREFIXES = {"csv": b"query,docid,rating\n", "tsv": b"query\tdoc\tscore\n", "ranklib": b"3 qid:1 1:0.5 # a\n",
            "scores": b"1\t0\t0.5\n", "json": b'{"requests": [{"id": "q", "ratings": [', "jsonl": b'{"hits": {"hits": ['}
FRAGMENTS = [b"q1", b",", b"\t", b" ", b"\n", b"\r\n", b'"', b"{", b"}", b"[", b"]", b":", b"#", b"qid:", b"_id",
             b'"_id": "a"', b'"_score": 1', b'"rating": 2', b"NaN", b"1e400", b"-3", b"0.5", b"\xef\xbb\xbf", b"\xff",
             b"\x00", b"\xc3\xa9", b'"query_id": "q"', b"null", b"true", b"responses", b"requests"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prefix=st.sampled_from(sorted(PREFIXES)), body=st.lists(st.sampled_from(FRAGMENTS), max_size=40),
       role=st.sampled_from(["qrels", "run"]))
def test_any_file_of_each_format_reads_or_raises_the_input_error(tmp_path: Path, prefix: str, body: list[bytes],
                                                                  role: str) -> None:
    path = tmp_path / f"input.{ {'csv': 'csv', 'tsv': 'tsv', 'json': 'json', 'jsonl': 'jsonl'}.get(prefix, 'txt') }"
    path.write_bytes(PREFIXES[prefix] + b"".join(body))
    (tmp_path / "train.txt").write_text("3 qid:1 1:0.5 # a\n1 qid:1 1:0.1 # b\n")
    try:
        if role == "qrels":
            rf.evaluate(path, {"1": {"a": 1.0}}, "ndcg@3")
        else:
            rf.evaluate(tmp_path / "train.txt", path, "ndcg@3")
    except InputError as error:
        assert error.fix and error.source


@pytest.mark.parametrize("text", ["0", "[]", '"x"', "null", '{"responses": [0]}', '{"responses": 0}', '{"hits": 0}',
                                  '{"hits": {"hits": [0]}, "query_id": "q"}', '{"requests": [0]}',
                                  '{"requests": [{"id": "q", "ratings": [0]}]}', '{"a": 1}\n0\n'])
@pytest.mark.parametrize("role", ["qrels", "run"])
def test_json_of_other_shapes_is_the_input_error(text: str, role: str, tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text(text)
    (tmp_path / "re.json").write_text('{"requests": [{"id": "q", "ratings": [{"_index": "i", "_id": "a", "rating": 1}]}]}')
    with pytest.raises(InputError) as info:
        if role == "qrels":
            load_qrels(tmp_path / "x.json")
        else:
            load_run(tmp_path / "x.json", qrels=load_qrels(tmp_path / "re.json"))
    assert info.value.source == str(tmp_path / "x.json") and info.value.fix
