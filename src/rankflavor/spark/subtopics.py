"""The diversity measures on Spark (driver side): the subtopic qrels as the DataFrame `evaluate` reads, its
checks and their messages on the driver.

When a diversity measure is asked for, the qrels is a subtopic qrels (inputs/subtopics.py), as in the local
engine. A Spark DataFrame is taken as it is, with a subtopic column (`Columns.subtopic`, default `subtopic`):
its column is checked from the schema, and the whole DataFrame is refused as the local reader refuses a plain
qrels (every subtopic `0` or `Q0`: one probe for a row that is not); a (query, subtopic, doc) judged twice is
found on the executors, in the slice holding the query. Anything else (a path, `{qid: {subtopic: {docid:
grade}}}`, rows `(qid, subtopic, docid, grade)`, a read SubtopicQrels) is read on the driver by the local
engine's own reader (`as_subtopic_qrels`: its checks and messages, file and line) and handed to Spark as a
DataFrame of its judgments. The executors make each slice's judgments a SubtopicQrels (partitions.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.subtopics import PLAIN_MARKS, SubtopicQrels, as_subtopic_qrels, refuse_plain

FRAME_FIX = ("give a DataFrame of a subtopic qrels (query, subtopic, doc, grade: columns=Columns(subtopic=...) names "
             "its subtopic column), or the path of a subtopic qrels file (qid subtopic docid grade)")


def is_spark_frame(data: Any) -> bool:
    return hasattr(data, "columns") and hasattr(data, "sparkSession")


def subtopic_qrels(qrels: Any, metrics: Iterable[str], spark: Any, columns: Any, id_types: tuple[str, ...]) -> Any:
    """The subtopic qrels as a Spark DataFrame (columns: `columns`' query, subtopic, doc, grade, and order when
    named): a Spark DataFrame checked (`check_frame`), anything else read on the driver by the local reader."""
    if is_spark_frame(qrels):
        check_frame(qrels, columns.subtopic, id_types)
        return qrels
    return subtopic_frame(spark, as_subtopic_qrels(qrels, metrics), columns)


def subtopic_frame(spark: Any, qrels: SubtopicQrels, columns: Any) -> Any:
    """A read subtopic qrels' judgments as a DataFrame (each row's position as the order column, when named)."""
    from rankflavor.spark.session import spark_frame

    judgments = qrels.judgments
    assert judgments is not None  # (as_subtopic_qrels makes a SubtopicQrels with its judgments)
    data = {columns.query: pa.array(judgments.query, pa.string()),
            columns.subtopic: pa.array(judgments.subtopic, pa.string()),
            columns.doc: pa.array(judgments.doc, pa.string()), columns.grade: pa.array(judgments.grade, pa.float64())}
    if columns.order is not None:
        data[columns.order] = pa.array(np.arange(len(judgments.query), dtype=np.int64))
    return spark_frame(spark, pa.table(data))


def check_frame(qrels: Any, column: str, id_types: tuple[str, ...]) -> None:
    """The DataFrame has a subtopic column of ids (strings or integers)."""
    types = dict(qrels.dtypes)
    if column not in types:
        raise InputError(f"a diversity measure needs a subtopic qrels, not a DataFrame of (query, doc) judgments: no "
                         f"subtopic column {column!r} among {list(types)}", source="qrels", fix=FRAME_FIX)
    if re.sub(r"\(.*", "", types[column]).lower() not in id_types:
        raise InputError(f"the subtopic id column {column!r} holds {types[column]} values", source="qrels",
                         fix="ids must be strings or integers")


def refuse_plain_frame(qrels: Any, column: str) -> None:
    """A DataFrame whose every subtopic is `0` or `Q0` is a plain qrels: the local reader's InputError (a probe
    for one row that is not; the distinct marks collected only when there is none)."""
    from pyspark.sql import functions as F

    subtopic = F.col(column).cast("string")
    if qrels.where(subtopic.isNull() | ~subtopic.isin(*sorted(PLAIN_MARKS))).limit(1).collect():
        return
    marks = {row[0] for row in qrels.select(subtopic).distinct().collect()}
    refuse_plain(marks, "qrels")
