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
"""

from __future__ import annotations

from rankflavor.metrics.ap import AveragePrecision
from rankflavor.metrics.bpref import BinaryPreference
from rankflavor.registry import register


class GeometricMeanAP(AveragePrecision):
    """gm_map = exp(the mean over queries of log(max(AP, 1e-5))); per query: AP"""

    name = "gm_map"
    aggregate = "gm"


class GeometricMeanBpref(BinaryPreference):
    """gm_bpref = exp(the mean over queries of log(max(bpref, 1e-5))); per query: bpref"""

    name = "gm_bpref"
    aggregate = "gm"


register(GeometricMeanAP(), peers={"trec_eval": ("gm_map",)})
register(GeometricMeanBpref(), peers={"trec_eval": ("gm_bpref",)})
