"""trectools 0.0.50's measure names (`trectools.map`, `trectools.precision@10`, `trectools.get_ndcg@10`): its
TrecEval methods (trectools/trec_eval.py, `get_` optional), each with its default `trec_eval=True`, `depth` the
cutoff (`@k`; without it the method's default depth, 1000), read into rankflavor's metrics with trectools'
conventions (files read by TrecRun and TrecQrel, trec_run.py, trec_qrel.py):

- the qrels: read_qrel drops rows with rel < 0 (a negative grade's doc is unjudged: negative=unjudged); a doc is
  relevant when rel > 0 (rel_level=1 on integer grades);
- the order: get_precision, get_recall, get_map and get_reciprocal_rank sort by query, score descending, doc id
  descending (`sort_values(["query", "score", "docid"], ascending=[True, False, False])`: ties=docid_desc);
  get_ndcg keeps read_run's order, score descending then doc id ascending (ties=docid_asc: the `trectools` preset);
- the mean: the per-query sum (NaN left out) over the number of run topics (`len(self.run.topics())`): a run
  topic absent from the qrels counts 0 (unjudged_queries=zero), a qrels topic absent from the run is left out
  (missing=skip), a topic whose value is NaN (AP, recall of a topic without a relevant judgment) counts 0
  (empty=zero);
- per query: get_precision divides the relevant docs of the top depth by depth (p@k); get_recall by the
  topic's relevant judgments (recall@k); get_map sums the precision at each relevant doc of the top depth over
  every relevant judgment (map@k); get_reciprocal_rank is 1 over the first relevant doc's rank within depth
  (mrr@k); get_ndcg the `trectools` preset at depth. Where trectools yields NaN or no row (RR, nDCG of a topic
  with no relevant doc in the top depth, AP of a topic without relevant judgments), rankflavor gives 0.
- all-digit doc ids are read as numbers by pandas (leading zeros lost, and sorted as numbers).

Not read, with the reason (`REFUSED`): get_rprec (KeyError on a run topic absent from the qrels; elsewhere, under
pandas 3.1.1, values that are not R-precision's), get_bpref (NaN
for a topic without nonrelevant judgments), get_rbp (tie weights averaged over runs of equal scores that cross
topics), get_unjudged (per run topic, averaged over the qrels' topics), get_geometric_map, get_ubpref, get_urbp,
get_alpha_urbp (a second qrels). The names are this module's own table: trectools' method names are no family's
declared peer names.
"""

from __future__ import annotations

from rankflavor.dialects.measure import PeerMeasure
from rankflavor.dialects.presets import PRESETS
from rankflavor.errors import SpecError

PEER = "trectools"
PREFIX = "trectools."
DEFAULT_DEPTH = 1000  # trec_eval.py: depth=1000 in every method read here

SORTED_AXES = {"ties": "docid_desc", "unjudged_queries": "zero", "missing": "skip", "empty": "zero"}
# trectools method (without get_) -> rankflavor metric, the axes trectools sets
MEASURES: dict[str, tuple[str, dict[str, str]]] = {
    "precision": ("p", SORTED_AXES),
    "recall": ("recall", SORTED_AXES),
    "map": ("map", SORTED_AXES),
    "reciprocal_rank": ("mrr", SORTED_AXES),
    "ndcg": ("ndcg", {**PRESETS["trectools"].axes, "missing": "skip", "empty": "zero"}),
}
REFUSED = {
    "rprec": "trectools' get_rprec raises KeyError on a run topic absent from the qrels (n_relevant_docs.loc), and "
             "elsewhere gives values that are not R-precision's on the random cases tried (trectools 0.0.50 "
             "with pandas 3.1.1: e.g. 0.25 where no relevant doc is in the top depth)",
    "bpref": "trectools' get_bpref divides by min(R, N) and leaves a topic with N = 0 out as NaN where trec_eval "
             "scores it: not yet read",
    "rbp": "trectools' get_rbp averages the weights of tied docs over runs of equal scores that cross topics",
    "unjudged": "trectools' get_unjudged averages over the qrels' topics the per-topic values of the run's",
    "geometric_map": "trectools' get_geometric_map is not yet read",
    "ubpref": "trectools' get_ubpref reads a second qrels (understandability)",
    "urbp": "trectools' get_urbp reads a second qrels (understandability)",
    "alpha_urbp": "trectools' get_alpha_urbp reads a second qrels and goals",
}


def names() -> tuple[str, ...]:
    """Every trectools name this dialect knows (read or refused)."""
    return (*MEASURES, *REFUSED)


def measure(name: str, params: tuple[tuple[str | None, str], ...], cutoff: int | None) -> PeerMeasure | None:
    """The measure `trectools.NAME[@depth]` stands for, or None when trectools has no such method."""
    base = name.removeprefix("get_")
    where = f"trectools.{name}" + ("" if cutoff is None else f"@{cutoff}")
    if base in REFUSED:
        raise SpecError(f"{where}: {REFUSED[base]}")
    if base not in MEASURES:
        return None
    if params:
        raise SpecError(f"{where}: trectools' methods take depth as @k, e.g. trectools.{base}@10")
    metric, axes = MEASURES[base]
    return PeerMeasure(metric, DEFAULT_DEPTH if cutoff is None else cutoff, {}, dict(axes))
