"""ndeval's column names (`ndeval.alpha-nDCG@20`, `ndeval.ERR-IA@10`, `ndeval.NRBP`, ...), read into the diversity
metrics (metrics/diversity.py) with ndeval's conventions (TREC Web track ndeval.c 4.5; docs/diversity.md):

- the columns: ERR-IA@k (err_ia), nERR-IA@k (err_ia(norm=greedy)), alpha-DCG@k (alpha_ndcg(norm=ideal_ideal)),
  alpha-nDCG@k (alpha_ndcg), NRBP (nrbp), nNRBP (nrbp(norm=greedy)), MAP-IA (ap_ia), P-IA@k (p_ia), strec@k
  (s_recall); ndeval prints k = 5, 10, 20 (DEPTH 20), rankflavor reads any k (MAP-IA and NRBP read the whole
  list);
- alpha = beta = 0.5 (ndeval -alpha, -beta: write the metric, e.g. alpha_ndcg(alpha=0.25)@20); a judgment of grade
  >= 1 is relevant (rel_level=1); a query with no relevant subtopic scores 0 (empty=zero); the mean is over the
  queries of both the qrels and the run (missing=skip; ndeval -c is missing=zero);
- the order: ndeval -traditional (score descending, then doc id descending: ties=docid_desc, the default).
  Without -traditional ndeval ranks by the run's rank column, which rankflavor never reads.

The same measures under ir_measures' names (`ir_measures.alpha_nDCG(alpha=0.5)@20`, computed by its pyndeval
provider: providers/pyndeval_provider.py) are `ir_measures_measure`'s: pyndeval ranks by (-score, doc id)
(pyndeval/__init__.py _coerce_run_iter: ties=docid_asc), rel= is rel_level, judged_only=True drops the docs absent
from the qrels (unjudged=skip; a negative grade is judged, as pyndeval_provider.py's qid_did_filter holds every
qrels pair: negative=keep), alpha and beta as given (ERR_IA, nERR_IA and P_IA take ndeval's 0.5), and ir_measures scores a
qrels query absent from the run 0 (missing=zero); pyndeval refuses a cutoff above 20.
"""

from __future__ import annotations

import re
from typing import Any

from rankflavor.dialects.measure import PeerMeasure
from rankflavor.errors import SpecError

PEER = "ndeval"
PREFIX = "ndeval."

# ndeval column (without @k) -> (metric, params, takes @k)
COLUMNS: dict[str, tuple[str, dict[str, str], bool]] = {
    "ERR-IA": ("err_ia", {}, True),
    "nERR-IA": ("err_ia", {"norm": "greedy"}, True),
    "alpha-DCG": ("alpha_ndcg", {"norm": "ideal_ideal"}, True),
    "alpha-nDCG": ("alpha_ndcg", {}, True),
    "NRBP": ("nrbp", {}, False),
    "nNRBP": ("nrbp", {"norm": "greedy"}, False),
    "MAP-IA": ("ap_ia", {}, False),
    "P-IA": ("p_ia", {}, True),
    "strec": ("s_recall", {}, True),
}
# ir_measures measure -> (metric, params, ndeval's own defaults of the parameters it does not take)
IR_MEASURES: dict[str, tuple[str, dict[str, str]]] = {
    "ERR_IA": ("err_ia", {}), "nERR_IA": ("err_ia", {"norm": "greedy"}),
    "alpha_DCG": ("alpha_ndcg", {"norm": "ideal_ideal"}), "alpha_nDCG": ("alpha_ndcg", {}),
    "NRBP": ("nrbp", {}), "nNRBP": ("nrbp", {"norm": "greedy"}), "P_IA": ("p_ia", {}), "StRecall": ("s_recall", {}),
    "AP_IA": ("ap_ia", {}),
}
PYNDEVAL_AXES = {"ties": "docid_asc", "missing": "zero", "negative": "keep"}  # (a negative grade: judged, not relevant)
PYNDEVAL_DEPTH = 20  # pyndeval/__init__.py: "ndeval only supports cutoffs up to 20"
_COLUMN = re.compile(r"(?P<name>[A-Za-z-]+)(?:@(?P<k>[0-9]+))?")


def measure(name: str, params: tuple[tuple[str | None, str], ...], cutoff: int | None) -> PeerMeasure | None:
    """The metric an ndeval column stands for (`name` as written after the prefix), None for no column of ndeval's."""
    match = _COLUMN.fullmatch(name)
    if match is None:
        return None
    column = match.group("name")
    if column not in COLUMNS:
        return None
    if params or cutoff is not None:
        raise SpecError(f"ndeval.{name}: write ndeval's column as it prints it, e.g. ndeval.alpha-nDCG@20")
    metric, fixed, takes_k = COLUMNS[column]
    k = match.group("k")
    if takes_k and k is None:
        raise SpecError(f"ndeval.{name}: ndeval's {column} has a cutoff: write ndeval.{column}@k, e.g. @20")
    if not takes_k and k is not None:
        raise SpecError(f"ndeval.{name}: ndeval's {column} reads the whole list: write ndeval.{column}")
    if k is not None and int(k) < 1:
        raise SpecError(f"ndeval.{name}: a cutoff must be at least 1")
    return PeerMeasure(metric, None if k is None else int(k), dict(fixed), {})


def ir_measures_measure(base: str, values: dict[str, Any], cut: int | None, where: str) -> PeerMeasure:
    """What ir_measures' pyndeval provider computes for a diversity measure (values: every parameter, defaults in)."""
    metric, params = IR_MEASURES[base]
    params = dict(params)
    if metric not in ("nrbp", "ap_ia") and cut is None:
        raise SpecError(f"{where}: pyndeval computes {base} at a cutoff only (pyndeval/__init__.py asserts one): "
                        f"write ir_measures.{base}@k")
    if cut is not None and cut > PYNDEVAL_DEPTH:
        raise SpecError(f"{where}: pyndeval refuses cutoffs above {PYNDEVAL_DEPTH} (\"ndeval only supports cutoffs "
                        "up to 20\")")
    if values.get("rel", 1) < 1:
        raise SpecError(f"{where}: rankflavor reads rel >= 1 for the diversity measures (rel=0 would make every "
                        "judged subtopic relevant)")
    for key in ("alpha", "beta"):
        if key in values:
            params[key] = repr(float(values[key]))
    axes = {**PYNDEVAL_AXES, "rel_level": str(values.get("rel", 1))}
    if values.get("judged_only"):
        axes["unjudged"] = "skip"
    return PeerMeasure(metric, cut, params, axes)
