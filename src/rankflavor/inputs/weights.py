"""Per-query weights for weighted means (the flavor axis `weights=NAME`): scikit-learn's `sample_weight`,
CatBoost's and XGBoost's group weights, a team's query-traffic weights.

A weights file holds `qid weight` per line (spaces or tabs between; blank lines and lines starting with `#`
skipped); a Python mapping is {qid: weight}. A weight is a finite number >= 0; a query listed twice is an
error. Weights are bound by name (`--weights NAME=FILE`, or `weights={NAME: file or mapping}` in Python) and
recorded in the provenance with their sha256.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rankflavor.errors import InputError
from rankflavor.inputs.tables import Source
from rankflavor.inputs.trec_lines import decompress, numbered_lines, parse_number, read_raw
from rankflavor.plural import counted


@dataclass
class QueryWeights:
    name: str
    source: Source
    query: list[str]
    weight: np.ndarray  # float64

    def __post_init__(self) -> None:
        with np.errstate(over="ignore"):
            total = float(self.weight.sum()) if len(self.weight) else 0.0
        if not np.isfinite(total):
            raise InputError(f"the weights {self.name!r} sum past the largest number (1.8e308): a weighted mean's "
                             "total weight must be finite", source=self.source.path or self.source.name,
                             fix="scale the weights down (only their ratios matter), e.g. divide each by the largest")

    def by_code(self, query_ids: np.ndarray) -> np.ndarray:
        """Per query code of a dataset (its sorted query ids): the weight, nan where none is given."""
        out = np.full(len(query_ids), np.nan)
        if len(query_ids) and self.query:
            at = np.searchsorted(query_ids, np.asarray(self.query, dtype=object))
            found = (at < len(query_ids)) & (query_ids[np.minimum(at, len(query_ids) - 1)] == np.asarray(self.query,
                                                                                                     dtype=object))
            out[at[found]] = self.weight[found]
        return out


def unknown_queries_warning(weights: QueryWeights, outside: int, example: str | None) -> str:
    """The input warning of weights naming `outside` queries that neither the qrels nor a run has (a typo'd or
    stale id: its weight is never read)."""
    path = f" ({weights.source.path})" if weights.source.path else ""
    one = outside == 1
    return (f"weights {weights.name!r}{path}: {counted(outside, 'query', 'queries')} of its {len(weights.query)} "
            f"{'is' if one else 'are'} in neither the qrels nor the runs" + (f" (e.g. {example!r})" if example else "")
            + f": {'its weight is' if one else 'their weights are'} never read; check the query ids")


def load_weights(name: str, data: Any) -> QueryWeights:
    """Weights named `name` from a file path or a {qid: weight} mapping."""
    if isinstance(data, (str, Path)):
        return _read_file(name, Path(data))
    if isinstance(data, Mapping):
        source = Source(name=name, kind="dict")
        query, weight = [], []
        for qid, value in data.items():
            query.append(str(qid))
            weight.append(_check(value, f"query {qid!r}", source.name, None, None))
        return QueryWeights(name, source, query, np.asarray(weight, dtype=np.float64))
    raise InputError(f"cannot read a {type(data).__name__} as weights {name!r}", source=name,
                     fix="give a file of 'qid weight' lines or a mapping {qid: weight}")


def _check(value: Any, what: str, source: str, line: int | None, text: str | None) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not math.isfinite(number) or number < 0:
        raise InputError(f"the weight of {what} is {value!r}, not a finite number >= 0", source=source, line=line,
                         text=text, fix="every weight must be a finite number >= 0")
    return number


def _not_a_number(value: str, qid: str, path: Path, number: int, line: str) -> float:
    raise InputError(f"the weight of query {qid!r} is {value!r}, not a number", source=str(path), line=number,
                     text=line, fix="every weight must be a plain decimal number >= 0, such as 1, 0.5 or 2e3")


def _read_file(name: str, path: Path) -> QueryWeights:
    raw = read_raw(path)
    source = Source(name=name, path=str(path), sha256=hashlib.sha256(raw).hexdigest(), kind="weights")
    try:
        text = decompress(raw, path).decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("not valid UTF-8 text", source=str(path), fix="a weights file holds 'qid weight' lines") from None
    query, weight, seen = [], [], {}
    for number, line in numbered_lines(text):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 2:
            raise InputError(f"expected 2 columns (qid weight), found {len(fields)}", source=str(path), line=number,
                             text=line, fix="every line of a weights file is 'qid weight'")
        qid, value = fields
        if qid in seen:
            raise InputError(f"query {qid!r} is weighted twice (lines {seen[qid]} and {number})", source=str(path),
                             line=number, text=line, fix="give each query one weight")
        seen[qid] = number
        parsed = parse_number(value)
        query.append(qid)
        weight.append(_check(value if parsed is None else parsed, f"query {qid!r}", str(path), number, line)
                      if parsed is not None else _not_a_number(value, qid, path, number, line))
    if not query:
        raise InputError("the weights file holds no weight", source=str(path), fix="give 'qid weight' lines")
    return QueryWeights(name, source, query, np.asarray(weight, dtype=np.float64))
