"""ranx 0.3.21's bpref as ranx computes it over a batch of queries (`ranx.bpref`): bpref (metrics/bpref.py) per
query, except that one query without a relevant judgment stops ranx's loop.

ranx/metrics/bpref.py `_bpref` ends with a scalar division by R, the query's judgments graded >= rel_lvl; numba
raises ZeroDivisionError when R = 0 inside `_bpref_parallel`'s prange loop over the qrels' queries (sorted ids),
the error is swallowed, and that query and every query after it keep the 0.0 their array was initialised with:

    ranx_bpref(q) = 0.0                     when a judged query q' <= q (by id) has R = 0
                  = bpref(q)                otherwise

A query q' with R = 0 is bpref's undefined query itself (`empty` decides it, ranx: 0). The part `degenerate` is 1
for each query whose value ranx zeroed so (R > 0): report/warnings.py says ranx's own number is degenerate, with
their count. The ids are compared as the engine sorts them (bytewise, as Python sorts str), which is the order of
ranx's loop (dialects/ranx.py `bpref_departures`). The queries of the batch are the qrels' (ranx's make_comparable
gives a qrels query the run lacks an empty list; its bpref is 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.metrics.bpref import BinaryPreference
from rankflavor.metrics.relevance import relevant_judgments
from rankflavor.reference.binary import relevant_judgments as reference_r
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor

DEGENERATE = "degenerate"
REASON = ("ranx 0.3.21's bpref divides by R = 0 at a query without a relevant judgment and leaves that query and "
          "every later one (by id) at 0.0 (ranx/metrics/bpref.py)")


class RanxBpref(BinaryPreference):
    """bpref, 0.0 from the first query (by id) with no relevant judgment on, as ranx 0.3.21 gives it"""

    name = "ranx_bpref"
    parts = (*BinaryPreference.parts, DEGENERATE)
    degenerate_reason = REASON  # (report/warnings.py: the `peer_degenerate` warning)
    across_queries = True  # (a value reads other queries' qrels: its reference extends bpref's formula's)

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        values = super().compute(lists, flavor, detail)
        ds = lists.scope.dataset
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        stopped = np.zeros(len(r), dtype=bool)
        without = np.flatnonzero(ds.judged & (r == 0))
        if len(without):
            stopped[without[0] + 1:] = ds.judged[without[0] + 1:] & (r[without[0] + 1:] > 0)
        value = np.where(stopped, 0.0, values.value)
        return MetricValues(value, values.undefined, {**values.parts, DEGENERATE: stopped.astype(np.float64)},
                            values.rows)

    def reference(self, flavor: Flavor, judgments: Any, ranked: Any, qrels: Any) -> tuple:
        """bpref's reference, 0.0 when a query sorted at or before this one (found in `qrels` by identity: the
        reference passes each query's own judgments) has no relevant judgment."""
        value, parts, undefined = super().reference(flavor, judgments, ranked, qrels)
        query = next((q for q, docs in qrels.items() if docs is judgments), None)
        stopped = not undefined and query is not None and any(
            q < query and docs and not reference_r(docs, flavor) for q, docs in qrels.items())
        return (0.0 if stopped else value), {**parts, DEGENERATE: float(stopped)}, undefined

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        """bpref's check of the record; a query ranx's loop zeroed (its part `degenerate`) must be 0.0."""
        if record.status != "missing" and getattr(record, "parts", {}).get(DEGENERATE):
            return [] if record.value == 0.0 else [f"degenerate query has value {record.value}, ranx gives 0.0"]
        return super().check_record(record, flavor)

    def check_rows(self, rows: Any, res: Any, ds: Any, flavor: Flavor) -> dict[int, list[str]] | None:
        return None  # (records one by one: the zeroed queries are decided by other queries' qrels)


register(RanxBpref(), peers={"ranx": ("bpref",)})
