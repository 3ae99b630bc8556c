"""torchmetrics 1.9.0's retrieval names (`torchmetrics.RetrievalNormalizedDCG@10`, `torchmetrics.RetrievalMAP@5`,
or the functional `torchmetrics.retrieval_hit_rate@5`): `@k` is `top_k`, read with the conventions of its
retrieval module (src/torchmetrics/retrieval/*.py, functional/retrieval/*.py) as users feed it
(dialects/arrays.py: one row per query in both qrels and run, the run's docs, label = the qrels grade, 0 when
unjudged; utilities/checks.py casts the predictions to float32: precision=f32).

- `empty_target_action` (retrieval/base.py RetrievalMetric.compute): a query without a positive target (fall-out:
  without a negative one) scores 0 by default ("neg"); "skip" leaves it out, "pos" scores 1, "error" raises: the
  `empty` axis (zero, skip, one, error), written `torchmetrics.RetrievalMAP(empty_target_action=skip)`. The
  functional forms have no such argument (they return 0: empty=zero).
- `adaptive_k=True` (RetrievalPrecision): `row_precision(adaptive_k=true)`; `ignore_index` drops the rows of one
  label, which arrays.py never writes (labels are 0 or 1), so it is refused; so is AUROC's `max_fpr`.
- A target other than 0/1 is refused by every class but RetrievalNormalizedDCG (allow_non_binary_target): the
  labels are the user's binarised grades, relevant at grade >= rel_level.
- RetrievalNormalizedDCG: the `torchmetrics` preset (dialects/presets.py: ties averaged, float32); its
  `empty_target_action` decides a row whose grades are all 0 (IDCG = 0: the `empty` axis).
- RetrievalHitRate: functional/retrieval/hit_rate.py, 1 when a target is positive among the top_k of
  `argsort(preds, descending=True)`: `success@k` (k required here), ties in row order (torch's CPU sort keeps
  equal predictions in input order: ties=input, checked live). The class form first sorts all rows by `indexes`
  with torch.sort, which is not stable: a query's docs may be reordered before ranking, so its ties fall in that
  order, which no axis expresses (equal to the functional's where no tie straddles the cutoff).
- RetrievalMAP, RetrievalMRR, RetrievalPrecision, RetrievalRecall, RetrievalFallOut, RetrievalRPrecision,
  RetrievalAUROC: the measures over the run's own rows (metrics/row_measures.py, metrics/auroc.py; the names each
  family declares for torchmetrics): R and N are the row's own relevant and nonrelevant docs (`target.sum()`), and
  MAP, MRR, precision and recall count a doc scored at or below 0 as not relevant (`preds > 0`: scored=positive);
  AUROC compares the float32 sigmoids of the top k's scores when one lies outside [0, 1] (scores=sigmoid).
  Ties: recall, fall-out and R-precision rank by argsort (row order: ties=input, checked live); MAP, MRR,
  precision and AUROC take `preds.topk`, whose order of equal predictions is its partial sort's (it changes with
  k and the row's length), which no tie policy expresses: read as ties=input, the same where no tie group
  straddles a relevant and a nonrelevant doc at the cutoff (tested live on distinct scores).
"""

from __future__ import annotations

from rankflavor.dialects.measure import PeerMeasure
from rankflavor.dialects.presets import PRESETS
from rankflavor.errors import SpecError
from rankflavor.registry import peer_names

PEER = "torchmetrics"
PREFIX = "torchmetrics."

_HIT_RATE = {"unjudged": "zero", "ties": "input", "precision": "f32"}  # (no binary measure reads ideal)
_ROWS = {"unjudged": "zero", "ties": "input", "precision": "f32", "empty": "zero"}
# class name -> functional name
CLASSES = {
    "RetrievalMAP": "retrieval_average_precision", "RetrievalMRR": "retrieval_reciprocal_rank",
    "RetrievalPrecision": "retrieval_precision", "RetrievalRecall": "retrieval_recall",
    "RetrievalHitRate": "retrieval_hit_rate", "RetrievalFallOut": "retrieval_fall_out",
    "RetrievalRPrecision": "retrieval_r_precision", "RetrievalAUROC": "retrieval_auroc",
    "RetrievalNormalizedDCG": "retrieval_normalized_dcg",
}
# functional names whose `preds > 0` sets a doc scored at or below 0 not relevant
POSITIVE_ONLY = ("retrieval_average_precision", "retrieval_reciprocal_rank", "retrieval_precision",
                 "retrieval_recall")
EMPTY_TARGET_ACTION = {"neg": "zero", "pos": "one", "skip": "skip", "error": "error"}
_TRUE = {"true": "true", "false": "false"}
NOT_READ = {"ignore_index": "it drops the rows of one label, and the labels fed here are 0 or 1 (dialects/arrays.py)",
            "max_fpr": "rankflavor's auroc is the whole area (max_fpr=None)"}


def names() -> tuple[str, ...]:
    """Every torchmetrics retrieval name this dialect knows."""
    return (*CLASSES, *CLASSES.values())


def _row_metric(functional: str) -> str | None:
    """The family that declares `functional` (or its class name) as torchmetrics' (metrics/row_measures.py)."""
    return next((metric for metric, declared in peer_names(PEER).items() if functional in declared), None)


def _arguments(where: str, functional: str, is_class: bool, params: tuple[tuple[str | None, str], ...],
               ) -> tuple[dict[str, str], dict[str, str]]:
    """(the metric's parameters, axes) the torchmetrics keyword arguments written in the name set."""
    metric_params: dict[str, str] = {}
    axes: dict[str, str] = {}
    for key, value in params:
        word = value.strip().lower()
        if key in NOT_READ:
            raise SpecError(f"{where}: {key} is not read: {NOT_READ[key]}")
        if key == "empty_target_action" and is_class and word in EMPTY_TARGET_ACTION:
            axes["empty"] = EMPTY_TARGET_ACTION[word]
        elif key == "adaptive_k" and functional == "retrieval_precision" and word in _TRUE:
            metric_params["adaptive_k"] = _TRUE[word]
        elif key == "top_k":
            raise SpecError(f"{where}: write top_k as @k (e.g. torchmetrics.RetrievalMAP@10)")
        else:
            known = "empty_target_action (neg, pos, skip, error; the classes)" + (
                ", adaptive_k (true, false)" if functional == "retrieval_precision" else "")
            raise SpecError(f"{where}: cannot read {key or 'a positional argument'}={value}: the arguments read are "
                            f"{known}, and top_k as @k")
    return metric_params, axes


def measure(name: str, params: tuple[tuple[str | None, str], ...], cutoff: int | None) -> PeerMeasure | None:
    """The measure `torchmetrics.NAME[@top_k]` stands for, or None when torchmetrics has no such name."""
    functional = CLASSES.get(name, name)
    if functional not in CLASSES.values():
        return None
    where = f"torchmetrics.{name}" + ("" if cutoff is None else f"@{cutoff}")
    row_metric = _row_metric(functional)
    if row_metric is not None:
        metric_params, axes = _arguments(where, functional, name in CLASSES, params)
        if row_metric == "row_rprec" and cutoff is not None:
            raise SpecError(f"{where}: torchmetrics' R-precision takes no top_k: write torchmetrics.{name}")
        if functional in POSITIVE_ONLY:
            metric_params = {"scored": "positive", **metric_params}
        if functional == "retrieval_auroc":
            metric_params["scores"] = "sigmoid"
        return PeerMeasure(row_metric, cutoff, metric_params, {**_ROWS, **axes})
    if functional == "retrieval_normalized_dcg" and name in CLASSES and params:
        _, axes = _arguments(where, functional, True, params)  # (empty_target_action: a row of grades 0 only)
        return PeerMeasure("ndcg", cutoff, {}, {**PRESETS["torchmetrics"].axes, **axes})
    if params:
        raise SpecError(f"{where}: torchmetrics' top_k is written @k (e.g. torchmetrics.{name}@10); its other "
                        "arguments are not read")
    if functional == "retrieval_normalized_dcg":
        return PeerMeasure("ndcg", cutoff, {}, dict(PRESETS["torchmetrics"].axes))
    if cutoff is None:
        raise SpecError(f"{where}: write top_k as @k (e.g. torchmetrics.{name}@10): rankflavor's success needs a "
                        "cutoff, where torchmetrics without top_k reads the whole row")
    return PeerMeasure("success", cutoff, {}, dict(_HIT_RATE))
