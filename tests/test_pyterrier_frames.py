"""PyTerrier's frames (issue 23, item 3): a results frame with `qid`, `query` (the query text), `docno`, `docid`
(Terrier's internal integer), `score`, `rank`, and a qrels frame with `qid`, `docno`, `label`, `iteration`, read as
PyTerrier means them: the same numbers as the equivalent TREC files, the columns set aside named in the provenance.
Two candidate columns that are not PyTerrier's pair are still refused."""

from __future__ import annotations

import pathlib
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import rankflavor as rf
from rankflavor.cli.main import main

QRELS = "301 0 d7 2\n301 0 d3 1\n301 0 d9 0\n301 0 d1 3\n302 0 d2 1\n302 0 d4 2\n303 0 d5 1\n"
RUN = ("301 Q0 d3 1 9.5 pt\n301 Q0 d1 2 8.25 pt\n301 Q0 d8 3 8.25 pt\n301 Q0 d7 4 7 pt\n301 Q0 d9 5 1.5 pt\n"
       "302 Q0 d4 1 3 pt\n302 Q0 d6 2 2 pt\n302 Q0 d2 3 1 pt\n304 Q0 d5 1 1 pt\n")
TEXTS = {"301": "hubble telescope achievements", "302": "polio vaccine", "304": "radio waves and brain cancer"}
FLAVORS = ["ndcg@3", "ndcg@10 gain=exp2 ties=average", "map", "p@2", "ndcg missing=zero"]
SET_ASIDE = {"query": "PyTerrier's query text; the query id is read from qid",
             "docid": "Terrier's internal document number; the doc id is read from docno"}


def _rows(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines()]


def results_frame() -> pd.DataFrame:
    """The run as PyTerrier's results: query text beside qid, Terrier's docid (an int unlike docno), rank from 0."""
    rows = _rows(RUN)
    return pd.DataFrame({"qid": [r[0] for r in rows], "docid": [100 + i for i in range(len(rows))],
                         "docno": [r[2] for r in rows], "rank": [int(r[3]) - 1 for r in rows],
                         "score": [float(r[4]) for r in rows], "query": [TEXTS[r[0]] for r in rows]})


def qrels_frame() -> pd.DataFrame:
    rows = _rows(QRELS)
    return pd.DataFrame({"qid": [r[0] for r in rows], "docno": [r[2] for r in rows],
                         "label": [int(r[3]) for r in rows], "iteration": [r[1] for r in rows]})


@pytest.fixture
def trec_report(tmp_path: pathlib.Path) -> rf.Report:
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "pt.run").write_text(RUN)
    return rf.evaluate(tmp_path / "qrels.txt", tmp_path / "pt.run", FLAVORS)


def _values(report: rf.Report) -> list[tuple[str, dict[str, Any], float | None]]:
    return [(str(r.flavor), r.per_query(), r.mean) for r in report.results]


def _assert_pyterrier_read(report: rf.Report, trec_report: rf.Report) -> None:
    assert _values(report) == _values(trec_report)
    qrels_item, run_item = report.provenance["inputs"]
    assert "columns_set_aside" not in qrels_item
    assert run_item["columns_set_aside"] == SET_ASIDE


def test_pandas_frames_give_the_trec_files_numbers(trec_report: rf.Report) -> None:
    report = rf.evaluate(qrels_frame(), results_frame(), FLAVORS)
    _assert_pyterrier_read(report, trec_report)
    assert report.results[0].counts["missing"] == 1  # 303 is judged, absent from the run (304 is not judged)


def test_polars_frames_give_the_trec_files_numbers(trec_report: rf.Report) -> None:
    pl = pytest.importorskip("polars")
    report = rf.evaluate(pl.from_pandas(qrels_frame()), pl.from_pandas(results_frame()), FLAVORS)
    _assert_pyterrier_read(report, trec_report)
    lazy = rf.evaluate(pl.from_pandas(qrels_frame()).lazy(), pl.from_pandas(results_frame()).lazy(), FLAVORS)
    _assert_pyterrier_read(lazy, trec_report)


def test_arrow_table_and_parquet_file_give_the_trec_files_numbers(tmp_path: pathlib.Path,
                                                                  trec_report: rf.Report) -> None:
    table = pa.Table.from_pandas(results_frame(), preserve_index=False)
    _assert_pyterrier_read(rf.evaluate(qrels_frame(), table, FLAVORS), trec_report)
    pq.write_table(table, tmp_path / "results.parquet")
    report = rf.evaluate(qrels_frame(), tmp_path / "results.parquet", FLAVORS)
    _assert_pyterrier_read(report, trec_report)


def test_column_order_does_not_matter(trec_report: rf.Report) -> None:
    frame = results_frame()
    reordered = frame[["query", "docid", "score", "docno", "qid", "rank"]]
    _assert_pyterrier_read(rf.evaluate(qrels_frame(), reordered, FLAVORS), trec_report)


def test_one_pair_alone_is_set_aside_alone(trec_report: rf.Report) -> None:
    frame = results_frame().drop(columns=["docid"])
    report = rf.evaluate(qrels_frame(), frame, FLAVORS)
    assert _values(report) == _values(trec_report)
    assert report.provenance["inputs"][1]["columns_set_aside"] == {"query": SET_ASIDE["query"]}


@pytest.mark.parametrize(("drop", "extra", "what", "found"), [
    (["query"], {"query_id": "301"}, "query", "qid, query_id"),  # two query ids, no PyTerrier pair
    ([], {"query_id": "301"}, "query", "query, qid, query_id"),  # PyTerrier's pair and a third candidate
    ([], {"topic": "301"}, "query", "query, qid, topic"),
    (["docno"], {"doc_id": "d1"}, "doc", "docid, doc_id"),
    ([], {"doc": "d1"}, "doc", "doc, docid, docno"),
])
def test_other_ambiguous_frames_are_still_refused(drop: list[str], extra: dict[str, str], what: str,
                                                  found: str) -> None:
    frame = results_frame().drop(columns=drop).assign(**extra)
    with pytest.raises(rf.InputError) as info:
        rf.evaluate(qrels_frame(), frame, "ndcg@3")
    assert f"several {what} columns: {found}" in str(info.value)
    assert "only PyTerrier's pairs are read" in info.value.fix


def test_a_non_pyterrier_pair_is_refused() -> None:
    frame = pd.DataFrame({"query": ["301"], "query_id": ["301"], "docno": ["d1"], "score": [1.0]})
    with pytest.raises(rf.InputError, match="several query columns: query, query_id"):
        rf.evaluate(qrels_frame(), frame, "ndcg@3")


def test_check_prints_the_columns_set_aside(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "qrels.txt").write_text(QRELS)
    pq.write_table(pa.Table.from_pandas(results_frame(), preserve_index=False), tmp_path / "results.parquet")
    assert main(["check", str(tmp_path / "qrels.txt"), str(tmp_path / "results.parquet")]) == 0
    out = capsys.readouterr().out
    assert f"  {'set aside: query':<30} {SET_ASIDE['query']}\n" in out
    assert f"  {'set aside: docid':<30} {SET_ASIDE['docid']}\n" in out
