"""Elasticsearch / OpenSearch search responses as a run: each response's `hits.hits[]` in their order, `_id` the doc
id and `_score` its score, as the Search API documents a response (Elasticsearch reference, "Search API",
docs/reference/search/search.asciidoc, https://www.elastic.co/guide/en/elasticsearch/reference/current/
search-search.html: `hits.hits[]` with `_index`, `_id`, `_score`, `_source`). Three shapes:

- JSON lines: one `_search` response per line (`curl ... | jq -c`), each with a top-level `"query_id"` (rankflavor's
  field, which Elasticsearch never writes at a response's top level: `jq -c --arg q QUERY '. + {query_id: $q}'`);
  a single response, on one line or pretty-printed, is the same with one response;
- an `_msearch` response, `{"responses": [...]}`, one search response per search "matching its order in the
  original multi search request" (docs/reference/search/multi-search.asciidoc, response body): its responses
  carry a `query_id` each, or none does and they pair by position with the `requests[]` of the `_rank_eval` body
  given as the qrels (responses[i] answers requests[i]: the ids are those requests' `id`; the warnings say so).

A response's hits keep their order (`ties=input` is the engine's order among equal scores). A hit whose `_score`
is null (a search sorted by another field) is an error: rankflavor ranks by score. A failed search (an
`_msearch` item with `error`), a query answered twice, a response with no `hits.hits`, a document found in two
indices for one query (rankflavor matches by `_id` alone) are errors naming the line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

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
from rankflavor.inputs.tables import QrelsTable, RunTable
from rankflavor.inputs.text_file import TextFile, read_text_file
from rankflavor.inputs.trec_lines import split_lines

QUERY_ID = "query_id"
RUN = ("_search responses, one per line, each with its \"query_id\" (e.g. curl ... | jq -c --arg q QUERY "
       "'. + {query_id: $q}' >> run.jsonl), or an _msearch response")
PAIRED_NOTE = ("the _msearch responses carry no query_id: each is named by the _rank_eval request of its position "
               "(responses[i] answers requests[i] of the qrels)")


@dataclass
class _Response:
    """One search response, where it is: its path in the document, or its line (JSON lines)."""

    value: Any
    at: Path_
    text: str | None = None  # (JSON lines: the line's text, its number `first_line`)
    first_line: int = 1


@dataclass
class _Rows:
    query: list[str] = field(default_factory=list)
    doc: list[str] = field(default_factory=list)
    score: list[float] = field(default_factory=list)
    line: list[int] = field(default_factory=list)
    listed: dict[str, _Response] = field(default_factory=dict)


def _responses(file: TextFile) -> tuple[list[_Response], str]:
    """The file's responses and its kind (`es_search`: JSON lines or one response; `es_msearch`)."""
    try:
        whole = json.loads(file.text)
    except json.JSONDecodeError as error:
        if error.msg != "Extra data":
            parse(file, f"the run is {RUN}")  # (raises the syntax error with its line)
        lines = split_lines(file.text)
        fix = f"JSON lines hold each response on one line (jq -c writes them so); the run is {RUN}"
        return [_Response(parse(file, fix, text, number), (), text, number)
                for number, text in enumerate(lines, start=1) if text.strip()], "es_search"
    except RecursionError:
        parse(file, f"the run is {RUN}")
    if isinstance(whole, dict) and isinstance(whole.get("responses"), list):
        return [_Response(r, ("responses", i)) for i, r in enumerate(whole["responses"])], "es_msearch"
    if isinstance(whole, dict) and ("requests" in whole or "metric_score" in whole or "details" in whole):
        what = "_rank_eval request body (the ratings: a qrels)" if "requests" in whole else \
            "_rank_eval response (Elasticsearch's scores)"
        fail(file, 1, f"this is a {what}, not search results", f"are the qrels and run swapped? The run is {RUN}")
    if isinstance(whole, list):
        fail(file, 1, "a JSON array", f"the run is {RUN}")
    return [_Response(whole, ())], "es_search"


def _hits(file: TextFile, response: _Response) -> list[Any]:
    value, at = response.value, response.at
    if not isinstance(value, dict):
        _fail(file, response, at, f"a response is an object, not a JSON {type(value).__name__}", f"the run is {RUN}")
    if "error" in value:
        error = value["error"]
        reason = error.get("reason", error.get("type")) if isinstance(error, dict) else error
        _fail(file, response, at, f"a failed search (status {value.get('status')}: {reason!s:.120})",
              "search again, or leave the query out of the _msearch request and its _rank_eval request: rankflavor "
              "never drops a query silently")
    hits = value.get("hits")
    hits = hits.get("hits") if isinstance(hits, dict) else None
    if not isinstance(hits, list):
        _fail(file, response, at, "no hits.hits list: not a _search response", f"the run is {RUN}")
    return hits


def _fail(file: TextFile, response: _Response, at: Path_, reason: str, fix: str) -> NoReturn:
    fail_at(file, at, reason, fix, response.text, response.first_line)


def _hit(file: TextFile, response: _Response, hit: Any, at: Path_) -> tuple[str, str | None, float]:
    """(doc id, index, score) of one hit."""
    if not isinstance(hit, dict):
        _fail(file, response, at, f"a hit is an object, not a JSON {type(hit).__name__}", f"the run is {RUN}")
    doc = as_id(hit.get("_id"))
    if doc is None:
        _fail(file, response, at, f"no document id: '_id' is {shown(hit, '_id')}", "every hit has its _id (do not "
              "filter it out of the response)")
    score = as_number(hit.get("_score"))
    if score is None:
        sorted_by = " (the search sorted by a field: its hits have no score)" if hit.get("_score") is None else ""
        _fail(file, response, at, f"'_score' is {shown(hit, '_score')}, not a finite number{sorted_by}",
              "rankflavor ranks by score: search with the scores (no sort, or \"track_scores\": true)")
    index = hit.get("_index")
    return doc, index if isinstance(index, str) else None, score


def _named(file: TextFile, responses: list[_Response], kind: str, qrels: QrelsTable | None,
           ) -> tuple[list[str], bool]:
    """(each response's query id: its `query_id`, or (an _msearch response) its _rank_eval request's id; whether
    they were paired so)."""
    given = [r.value.get(QUERY_ID) if isinstance(r.value, dict) else None for r in responses]
    if kind == "es_msearch" and all(g is None for g in given):
        if qrels is None or qrels.source.kind != "rank_eval" or qrels.queries is None:
            fail(file, 1, "the _msearch responses carry no query_id, and the qrels is not a _rank_eval request body "
                 "whose requests they could pair with", "give each response its \"query_id\", or give the "
                 "_rank_eval request body (the same requests, in the same order) as the qrels")
        ids = qrels.queries.to_pylist()
        if len(ids) != len(responses):
            fail(file, 1, f"{len(responses)} _msearch responses, {len(ids)} _rank_eval requests in the qrels: they "
                 "pair by position", "send the _msearch request with the _rank_eval requests' searches, in their "
                 "order, one each")
        return ids, True
    names = []
    for response, value in zip(responses, given, strict=True):
        name = as_id(value)
        if name is None:
            _fail(file, response, response.at, f"no query id: {QUERY_ID!r} is {shown(response.value, QUERY_ID)}",
                  f"give every response its query id, e.g. curl ... | jq -c --arg q QUERY '. + {{{QUERY_ID}: $q}}' "
                  ">> run.jsonl")
        names.append(name)
    return names, False


def _read(file: TextFile, qrels: QrelsTable | None) -> RunTable:
    responses, kind = _responses(file)
    for response in responses:  # (not an object, or a failed search, first: why a response has no hits or name)
        if not isinstance(response.value, dict) or "error" in response.value:
            _hits(file, response)
    names, paired = _named(file, responses, kind, qrels)
    rows = _Rows()
    for response, query in zip(responses, names, strict=True):
        if query in rows.listed:
            _fail(file, response, response.at, f"query {query!r} answered again (a response before has it)",
                  "give each query one response")
        rows.listed[query] = response
        indices: dict[str, str | None] = {}
        for j, hit in enumerate(_hits(file, response)):
            at = (*response.at, "hits", "hits", j)
            doc, index, score = _hit(file, response, hit, at)
            if indices.setdefault(doc, index) != index:
                _fail(file, response, at, f"document {doc!r} found in two indices ({indices[doc]!r}, {index!r})",
                      "rankflavor matches documents by _id alone: search one index at a time, or give the "
                      "documents ids unique across indices")
            rows.query.append(query)
            rows.doc.append(doc)
            rows.score.append(score)
            rows.line.append(response.first_line)
    source = file.source(kind)
    if paired:
        source.notes.append(PAIRED_NOTE)
    json_lines = bool(responses) and responses[0].text is not None
    return RunTable(source=source, query=pa.array(rows.query, pa.string()), doc=pa.array(rows.doc, pa.string()),
                    score=np.asarray(rows.score, dtype=np.float64),
                    line=np.asarray(rows.line, dtype=np.int64) if json_lines else None,
                    queries=pa.array(list(rows.listed), pa.string()), extra={"json_lines": json_lines})


def read_run(path: Path, raw: bytes | None, defer_scan: bool, qrels: QrelsTable | None) -> RunTable:
    """Search responses (inputs/formats.py's table); `qrels`: the _rank_eval body an _msearch response pairs with."""
    return _read(read_text_file(path, raw), qrels)


def _rows(table: RunTable) -> tuple[TextFile, list[tuple[Any, Path_, int]]]:
    """(the file read again, per row: the document holding its hit, the hit's path there, the document's line)."""
    file = read_text_file(Path(table.source.path or table.source.name))
    if table.extra.get("json_lines"):  # (one response per line: their lines kept)
        lines = split_lines(file.text)
        docs = {n: json.loads(lines[n - 1]) for n in dict.fromkeys(np.asarray(table.line).tolist())}
        seen: dict[int, int] = {}
        rows = []
        for n in np.asarray(table.line).tolist():
            seen[n] = seen.get(n, -1) + 1
            rows.append((docs[n], ("hits", "hits", seen[n]), n))
        return file, rows
    whole = json.loads(file.text)
    msearch = table.source.kind == "es_msearch"
    responses = whole["responses"] if msearch else [whole]
    return file, [(whole, (*(("responses", i) if msearch else ()), "hits", "hits", j), 1)
                  for i, r in enumerate(responses) for j in range(len(r["hits"]["hits"]))]


def row_lines(table: RunTable) -> np.ndarray:
    """The line where each hit starts, in a single response or an _msearch response (JSON lines keep theirs)."""
    file, rows = _rows(table)
    return np.asarray(object_lines(file.text, [path for _, path, _ in rows]), dtype=np.int64)


def row_text(table: RunTable, row: int) -> str:
    """A row's hit on one line, without its _source (a duplicate's error shows it)."""
    _, rows = _rows(table)
    document, path, _ = rows[row]
    hit = at(document, path)
    shown = {k: v for k, v in hit.items() if k != "_source"} if isinstance(hit, dict) else hit
    return f"{where(path)}: {compact(shown)}"
