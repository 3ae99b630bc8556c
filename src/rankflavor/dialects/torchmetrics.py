"""torchmetrics 1.9.0's retrieval names (`torchmetrics.RetrievalNormalizedDCG@10`, `torchmetrics.RetrievalHitRate@5`,
or the functional `torchmetrics.retrieval_hit_rate@5`): `@k` is `top_k`, read with the conventions of its
retrieval module (src/torchmetrics/retrieval/*.py, functional/retrieval/*.py) as users feed it
(dialects/arrays.py: one row per query in both qrels and run, the run's docs, label = the qrels grade, 0 when
unjudged; utilities/checks.py casts the predictions to float32: precision=f32).

- `empty_target_action` (retrieval/base.py RetrievalMetric.compute): a query without a positive target scores 0
  by default ("neg"); "skip" leaves it out, "pos" scores 1, "error" raises. Of the names read here, hit rate is 0
  there anyway and NDCG's preset scores it 0 (empty=zero); the other actions are not read yet.
- A target other than 0/1 is refused by every class but RetrievalNormalizedDCG (allow_non_binary_target): the
  labels are the user's binarised grades, relevant at grade >= rel_level.
- RetrievalNormalizedDCG: the `torchmetrics` preset (dialects/presets.py: ties averaged, float32).
- RetrievalHitRate: functional/retrieval/hit_rate.py, 1 when a target is positive among the top_k of
  `argsort(preds, descending=True)`: `success@k` (k required here), ties in row order (torch's CPU sort keeps
  equal predictions in input order: ties=input, checked live). The class form first sorts all rows by `indexes`
  with torch.sort, which is not stable: a query's docs may be reordered before ranking, so its ties fall in that
  order, which no axis expresses (equal to the functional's where no tie straddles the cutoff).

Not read yet (`NOT_YET`), each with what no axis expresses: MAP, MRR, precision and recall set a document scored at
or below 0 not relevant (`torch.where(preds > 0, target, 0)`) while it keeps its rank; AP, recall, R-precision
and fall-out divide by the row's own relevant (or nonrelevant) documents (`target.sum()`: the retrieved ones, not
the qrels' R); AUROC is scikit-learn's binary AUROC of the top_k; `adaptive_k` divides precision by min(k, n).
"""

from __future__ import annotations

from rankflavor.dialects.measure import PeerMeasure
from rankflavor.dialects.presets import PRESETS
from rankflavor.errors import SpecError

PEER = "torchmetrics"
PREFIX = "torchmetrics."

_HIT_RATE = {"unjudged": "zero", "ties": "input", "precision": "f32"}  # (no binary measure reads ideal)
# class name -> functional name
CLASSES = {
    "RetrievalMAP": "retrieval_average_precision", "RetrievalMRR": "retrieval_reciprocal_rank",
    "RetrievalPrecision": "retrieval_precision", "RetrievalRecall": "retrieval_recall",
    "RetrievalHitRate": "retrieval_hit_rate", "RetrievalFallOut": "retrieval_fall_out",
    "RetrievalRPrecision": "retrieval_r_precision", "RetrievalAUROC": "retrieval_auroc",
    "RetrievalNormalizedDCG": "retrieval_normalized_dcg",
}
_FILTER = "a document scored at or below 0 counts as not relevant while keeping its rank (preds > 0)"
_LOCAL_R = "it divides by the row's own relevant documents (target.sum(): the retrieved ones, not the qrels' R)"
NOT_YET = {
    "retrieval_average_precision": f"{_FILTER}, and {_LOCAL_R[3:]} in the top k",
    "retrieval_reciprocal_rank": _FILTER,
    "retrieval_precision": f"{_FILTER}; with adaptive_k it divides by min(k, n)",
    "retrieval_recall": f"{_FILTER}, and {_LOCAL_R[3:]}",
    "retrieval_fall_out": "it divides by the row's own nonrelevant documents ((1 - target).sum())",
    "retrieval_r_precision": _LOCAL_R,
    "retrieval_auroc": "it is scikit-learn's binary AUROC over the top_k (0 when one class is missing)",
}


def names() -> tuple[str, ...]:
    """Every torchmetrics retrieval name this dialect knows (read or not yet)."""
    return (*CLASSES, *CLASSES.values())


def measure(name: str, params: tuple[tuple[str | None, str], ...], cutoff: int | None) -> PeerMeasure | None:
    """The measure `torchmetrics.NAME[@top_k]` stands for, or None when torchmetrics has no such name."""
    functional = CLASSES.get(name, name)
    if functional not in CLASSES.values():
        return None
    where = f"torchmetrics.{name}" + ("" if cutoff is None else f"@{cutoff}")
    if functional in NOT_YET:
        raise SpecError(f"{where}: not yet supported: {NOT_YET[functional]}, which no axis expresses yet")
    if params:
        raise SpecError(f"{where}: torchmetrics' top_k is written @k (e.g. torchmetrics.{name}@10); its other "
                        "arguments are not read")
    if functional == "retrieval_normalized_dcg":
        return PeerMeasure("ndcg", cutoff, {}, dict(PRESETS["torchmetrics"].axes))
    if cutoff is None:
        raise SpecError(f"{where}: write top_k as @k (e.g. torchmetrics.{name}@10): rankflavor's success needs a "
                        "cutoff, where torchmetrics without top_k reads the whole row")
    return PeerMeasure("success", cutoff, {}, dict(_HIT_RATE))
