"""trec_eval's options, as trec_eval.c's getopt reads them into its EPI struct (trec_eval.h), typed."""

from __future__ import annotations

from typing import NamedTuple


class RequestedMeasure(NamedTuple):
    """One `-m NAME[.PARAMS]`: the measure or set name and its parameter string as typed (`P.5,7,3` -> name `P`,
    params `5,7,3`; `ndcg.1=3,2=9` -> `ndcg`, `1=3,2=9`; `all_trec` -> `all_trec`, None)."""

    name: str
    params: str | None = None


class TrecEvalOptions(NamedTuple):
    """What trec_eval's flags set. Defaults are trec_eval's (MAX_LONG is "no limit": None)."""

    rel_info_file: str
    results_file: str  # `-` is stdin
    measures: tuple[RequestedMeasure, ...] = ()  # empty: trec_eval's `official` set
    query_wanted: bool = False  # -q
    complete_rel_info: bool = False  # -c
    summary_wanted: bool = True  # -n sets it False
    relevance_level: int = 1  # -l N
    num_docs_in_coll: int | None = None  # -N N
    max_docs_per_topic: int | None = None  # -M N
    judged_docs_only: bool = False  # -J
    debug_level: int = 0  # -D N[.QID]
    debug_query: str | None = None
    rel_info_format: str = "qrels"  # -R: qrels, prefs, qrels_prefs, qrels_jg
    results_format: str = "trec_results"  # -T
    zscore_file: str | None = None  # -Z FILE
    old_output: bool = False  # -o
    flavors: bool = False  # --flavors (rankflavor's addition): each printed measure's canonical flavor
