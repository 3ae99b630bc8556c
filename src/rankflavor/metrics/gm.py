"""Geometric means over queries: gm_map and gm_bpref (trec_eval m_gm_map.c, m_gm_bpref.c; Robertson, 'On GMAP',
CIKM 2006).

    gm_map   = exp((1/n) sum over queries of log(max(AP, 1e-5)))        (AP: metrics/ap.py)
    gm_bpref = exp((1/n) sum over queries of log(max(bpref, 1e-5)))     (bpref: metrics/bpref.py)

1e-5 is trec_eval's MIN_GEO_MEAN (trec_eval.h), the summary is meas_avg.c's te_calc_avg_meas_s_gm. The per-query
value rankflavor reports is the topic's AP (bpref), what the geometric mean averages: trec_eval -q prints no
per-query line for them (te_print_single_meas_empty: "reported only in the summary"), and `--format trec` prints
none either. pytrec_eval returns trec_eval's internal per-topic number, log(max(AP, 1e-5)). The axes that score a
query 0 (missing=zero, empty=zero, unjudged_queries=zero) give it AP 0, hence log(1e-5) in the mean, as trec_eval
-c patches in log(MIN_GEO_MEAN) for each missing query. A weighted gm is exp(sum w log(max(v, 1e-5)) / sum w).

gm_map_log and gm_bpref_log are what `pytrec_eval.gm_map` / `pytrec_eval.gm_bpref` read: pytrec_eval's per-query
number log(max(AP, 1e-5)) (R = 0: AP 0, log(1e-5); a query scored 0 by missing=zero: log(1e-5)) and
pytrec_eval's compute_aggregated_measure, exp(the mean of those logs): aggregate "log_gm".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from rankflavor.engine import MIN_GEO_MEAN
from rankflavor.metrics.ap import AveragePrecision
from rankflavor.metrics.bpref import BinaryPreference
from rankflavor.plain_records import replace
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.engine.metric import MetricValues
    from rankflavor.flavor import Flavor


class GeometricMeanAP(AveragePrecision):
    """gm_map = exp(the mean over queries of log(max(AP, 1e-5))); per query: AP"""

    name = "gm_map"
    aggregate = "gm"


class GeometricMeanBpref(BinaryPreference):
    """gm_bpref = exp(the mean over queries of log(max(bpref, 1e-5))); per query: bpref"""

    name = "gm_bpref"
    aggregate = "gm"


def _logged(measure: Callable[..., Any]) -> Callable[..., Any]:
    """The reference formula of a log metric: log(max(value, 1e-5)), a query with R = 0 scoring 0 (trec_eval)."""

    def logged(ranked: Any, flavor: Flavor) -> Any:
        value, parts, undefined = measure(ranked, flavor)
        return math.log(max(0.0 if undefined or value is None else value, MIN_GEO_MEAN)), parts, False

    return logged


class _PerQueryLog:
    """pytrec_eval's per-query number: log(max(value, 1e-5)), R = 0 read as 0 (no `empty`); summary exp(mean)."""

    aggregate = "log_gm"
    zero_value = math.log(MIN_GEO_MEAN)
    value_bounds = (math.log(MIN_GEO_MEAN), 0.0)  # (the log of a value of [0, 1], at least 1e-5)
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        "empty": ("a query with no relevant doc scores log(1e-5), as trec_eval's 0 does", "map")}

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        values = super().compute(lists, flavor, detail)  # type: ignore[misc]
        value = np.log(np.maximum(np.where(values.undefined, 0.0, np.nan_to_num(values.value)), MIN_GEO_MEAN))
        return replace(values, value=value, undefined=np.zeros_like(values.undefined))


class LogAP(_PerQueryLog, GeometricMeanAP):
    """gm_map as pytrec_eval returns it per query: log(max(AP, 1e-5)); the summary exp(the mean)"""

    name = "gm_map_log"
    reads = tuple(a for a in GeometricMeanAP.reads if a != "empty")
    measure = _logged(GeometricMeanAP.measure)


class LogBpref(_PerQueryLog, GeometricMeanBpref):
    """gm_bpref as pytrec_eval returns it per query: log(max(bpref, 1e-5)); the summary exp(the mean)"""

    name = "gm_bpref_log"
    reads = tuple(a for a in GeometricMeanBpref.reads if a != "empty")
    not_read: ClassVar[dict[str, tuple[str, str]]] = {**GeometricMeanBpref.not_read, **_PerQueryLog.not_read}
    measure = _logged(GeometricMeanBpref.measure)


register(GeometricMeanAP(), peers={"trec_eval": ("gm_map",)})
register(GeometricMeanBpref(), peers={"trec_eval": ("gm_bpref",)})
register(LogAP())
register(LogBpref())
