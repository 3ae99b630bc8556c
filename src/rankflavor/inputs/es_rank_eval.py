"""An Elasticsearch / OpenSearch `_rank_eval` request body as a qrels: its `requests[]`, each with an `id` (the query
id) and `ratings[]` of `{"_index", "_id", "rating"}` (the doc id and its grade), as the Ranking evaluation API
documents it (Elasticsearch reference, "Ranking evaluation API": docs/reference/search/rank-eval.asciidoc,
https://www.elastic.co/guide/en/elasticsearch/reference/current/search-rank-eval.html: `id`, `ratings` with `_index`,
`_id` and `rating` required; OpenSearch's "Ranking evaluation" page shows the same body). The rest of the body
(`request`, `template_id`, `params`, `metric`, `templates`) is what Elasticsearch runs and computes, not judgments:
not read.

Documents are matched by `_id` (an integer is read as its decimal text); a request rating one `_id` in two indices is
an error (Elasticsearch tells them apart by `_index`; rankflavor cannot). A request with no ratings lists a query
with no judgment (counted, never scored). Request ids are unique. A rating is a number (Elasticsearch documents
integers; any finite number is read). Errors name the JSON path (`requests[2].ratings[0]`) and its line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from rankflavor.inputs.json_text import (
    Path_,
    as_id,
    as_number,
    at,
    compact,
    fail,
    fail_at,
    object_lines,
    parse,
    shown,
    where,
)
from rankflavor.inputs.tables import QrelsTable
from rankflavor.inputs.text_file import TextFile, read_text_file
from rankflavor.inputs.trec_lines import split_lines

BODY = ('a _rank_eval request body: {"requests": [{"id": QUERY, "ratings": [{"_index": INDEX, "_id": DOC, "rating": '
        'GRADE}, ...]}, ...]} (Elasticsearch\'s Ranking evaluation API)')
NO_RATINGS = "a request with no ratings"


def _requests(file: TextFile, body: Any) -> list[Any]:
    """The body's requests, or the error saying what the file is instead."""
    if isinstance(body, dict) and isinstance(body.get("requests"), list):
        return body["requests"]
    keys = sorted(body) if isinstance(body, dict) else []
    if isinstance(body, dict) and ("hits" in body or "responses" in body):
        fail(file, 1, "this is a _search or _msearch response (search results, a run), not a _rank_eval request",
             f"are the qrels and run swapped? The qrels is {BODY}")
    if isinstance(body, dict) and ("metric_score" in body or "details" in body):
        fail(file, 1, "this is a _rank_eval response (Elasticsearch's scores), not the request that holds the "
             "ratings", f"give the request body you sent: {BODY}")
    found = f"an object with keys {keys[:8]}" if isinstance(body, dict) else f"a JSON {type(body).__name__}"
    fail(file, 1, f"not a _rank_eval request body: {found}, no 'requests' list", f"the qrels is {BODY}")


def _rating(file: TextFile, rating: Any, at: Path_) -> tuple[str, str, float]:
    """(doc id, index, grade) of one rating."""
    if not isinstance(rating, dict):
        fail_at(file, at, f"a rating is an object, not a JSON {type(rating).__name__}", f"the qrels is {BODY}")
    doc = as_id(rating.get("_id"))
    if doc is None:
        fail_at(file, at, f"no document id: '_id' is {shown(rating, '_id')}", "every rating names its document: "
                '{"_index": INDEX, "_id": DOC, "rating": GRADE}')
    index = rating.get("_index")
    if not isinstance(index, str):
        fail_at(file, at, f"'_index' is {shown(rating, '_index')}, not an index name", "every rating names its "
                'document\'s index (Elasticsearch requires it): {"_index": INDEX, "_id": DOC, "rating": GRADE}')
    grade = as_number(rating.get("rating"))
    if grade is None:
        fail_at(file, at, f"'rating' is {shown(rating, 'rating')}, not a finite number",
                "every rating is a number (Elasticsearch documents integers, e.g. 0 to 3)")
    return doc, index, grade


def _query(file: TextFile, request: Any, at: Path_, seen: dict[str, int]) -> tuple[str, list[Any]]:
    """(the request's id, its ratings)."""
    if not isinstance(request, dict):
        fail_at(file, at, f"a request is an object, not a JSON {type(request).__name__}", f"the qrels is {BODY}")
    query = as_id(request.get("id"))
    if query is None:
        fail_at(file, at, f"no request id: 'id' is {shown(request, 'id')}", "every request has an 'id', the query id "
                "the runs name")
    if query in seen:
        fail_at(file, at, f"request id {query!r} again (requests[{seen[query]}] has it)",
                "give each request its own id; put all the ratings of one query in one request")
    seen[query] = int(at[-1])
    ratings = request.get("ratings")
    if not isinstance(ratings, list):
        fail_at(file, at, f"'ratings' is {shown(request, 'ratings')}, not a list", 'every request has "ratings": [...] '
                "(Elasticsearch requires it; it may be empty)")
    return query, ratings


def _body(file: TextFile) -> Any:
    """The parsed body; search responses one per line (a run) said as such."""
    try:
        return json.loads(file.text)
    except json.JSONDecodeError as error:
        first = split_lines(file.text)[0] if error.msg == "Extra data" else ""
        try:
            response = json.loads(first) if first else None
        except json.JSONDecodeError:
            response = None
        if isinstance(response, dict):
            _requests(file, response)  # (raises: what the first line is instead)
    except RecursionError:
        pass
    return parse(file, f"the qrels is {BODY}")  # (raises the syntax error with its line)


def _read(file: TextFile) -> QrelsTable:
    requests = _requests(file, _body(file))
    queries, docs, grades, seen, listed = [], [], [], {}, []
    for i, request in enumerate(requests):
        query, ratings = _query(file, request, ("requests", i), seen)
        listed.append(query)
        indices: dict[str, str] = {}
        for j, rating in enumerate(ratings):
            at = ("requests", i, "ratings", j)
            doc, index, grade = _rating(file, rating, at)
            if indices.setdefault(doc, index) != index:
                fail_at(file, at, f"document {doc!r} is rated in two indices ({indices[doc]!r}, {index!r})",
                        "rankflavor matches documents by _id alone: evaluate one index at a time, or give the "
                        "documents ids unique across indices")
            queries.append(query)
            docs.append(doc)
            grades.append(grade)
    source = file.source("rank_eval")
    source.unjudged_form = NO_RATINGS
    return QrelsTable(source=source, query=pa.array(queries, pa.string()), doc=pa.array(docs, pa.string()),
                      grade=np.asarray(grades, dtype=np.float64), queries=pa.array(listed, pa.string()))


def read_qrels(path: Path, raw: bytes | None, defer_scan: bool) -> QrelsTable:
    """A _rank_eval request body (inputs/formats.py's table)."""
    return _read(read_text_file(path, raw))


def _rows(table: QrelsTable) -> tuple[TextFile, Any, list[Path_]]:
    """(the file read again, its body, the path of each row's rating)."""
    file = read_text_file(Path(table.source.path or table.source.name))
    body = parse(file, "")
    return file, body, [("requests", i, "ratings", j) for i, request in enumerate(body["requests"])
                        for j in range(len(request["ratings"]))]


def row_lines(table: QrelsTable) -> np.ndarray:
    """The line where each rating starts (a duplicate's error names it), the file parsed again."""
    file, _, paths = _rows(table)
    return np.asarray(object_lines(file.text, paths), dtype=np.int64)


def row_text(table: QrelsTable, row: int) -> str:
    """A row's rating on one line (a duplicate's error shows it)."""
    _, body, paths = _rows(table)
    return f"{where(paths[row])}: {compact(at(body, paths[row]))}"
