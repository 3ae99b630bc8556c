"""AUROC of the top k: the area under the ROC curve of the ranked list's first k rows, as torchmetrics 1.9.0's
retrieval_auroc computes it (src/torchmetrics/functional/retrieval/auroc.py: the top_k rows by score, then
functional/classification/auroc.py binary_auroc, scikit-learn's roc_auc_score).

    auroc@k = (1 / (P·N)) · sum over the (relevant, nonrelevant) pairs of the top k of
              1 when the relevant doc scores higher, 1/2 when their scores are equal (the trapezoid's tie)
              = 0 when the top k holds no relevant or no nonrelevant row (torchmetrics' 0)

`scores=sigmoid` (torchmetrics, functional/classification/precision_recall_curve.py and utilities/compute.py
normalize_logits_if_needed): when a score of the top k lies outside [0, 1], every score of the top k is first mapped
by the logistic function 1 / (1 + e^-s) in float32, which keeps their order but can merge high (or very negative)
scores into ties; `scores=raw` compares the scores themselves.

A doc is relevant when judged with a grade of at least rel_level (an unjudged doc is not); a list with no relevant
row at all is left to the `empty` axis (torchmetrics' empty_target_action). Its reference is
reference/row_measures.py `auroc`.
"""

from __future__ import annotations

import numpy as np

from rankflavor.flavor.values import Param, word_parser
from rankflavor.metrics.relevance import per_query, within_query_cumsum
from rankflavor.metrics.row_measures import TORCHMETRICS, RowMeasure
from rankflavor.reference import row_measures as reference
from rankflavor.registry import register

SCORES = Param("scores", "raw", word_parser("scores", ("raw", "sigmoid")),
               "the scores compared: raw, or sigmoid (when a top-k score lies outside [0, 1], all of the top k mapped "
               "by 1 / (1 + e^-s) in float32, torchmetrics' binary_auroc: high scores may merge into ties)",
               ("raw", "sigmoid"))


def sigmoid_f32(scores: np.ndarray) -> np.ndarray:
    """The logistic function in float32, as torch's CPU sigmoid gives it."""
    x = scores.astype(np.float32)
    with np.errstate(over="ignore"):
        return (np.float32(1) / (np.float32(1) + np.exp(-x))).astype(np.float32)


def compared_scores(q: np.ndarray, score: np.ndarray, top: np.ndarray, how: str, n_queries: int) -> np.ndarray:
    """The scores AUROC compares: raw, or (how=sigmoid) the logistic of each query's scores whose top k holds one
    outside [0, 1]."""
    if how == "raw":
        return score
    outside = np.bincount(q, weights=(top & ((score < 0) | (score > 1))).astype(np.float64), minlength=n_queries) > 0
    return np.where(outside[q], sigmoid_f32(score).astype(np.float64), score)


class AUROC(RowMeasure):
    """AUROC = the share of the top k's (relevant, nonrelevant) pairs ordered right, ties counted 1/2"""

    name = "auroc"
    parameters = (SCORES,)
    measure = reference.auroc

    def values(self, lists, flavor, relevant, counted, r):
        top = lists.positions.in_top
        pos, neg = relevant & top, ~relevant & top
        q = lists.rows.q
        compared = compared_scores(q, lists.rows.score, top, flavor.param("scores").kind, lists.n_queries)
        # tie groups of the compared scores (rows in rank order: an equal score is a contiguous run)
        group = np.cumsum(np.r_[True, (q[1:] != q[:-1]) | (compared[1:] != compared[:-1])]) if len(q) else q
        n_pos, n_neg = per_query(lists, pos), per_query(lists, neg)
        # the nonrelevant rows above each row's tie group, and in it (rows in rank order: a group is contiguous)
        above = within_query_cumsum(q, neg) - neg
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]) if len(group) else np.zeros(0, dtype=np.int64)
        group_index = np.cumsum(np.r_[False, group[1:] != group[:-1]]) if len(group) else np.zeros(0, dtype=np.int64)
        tied = np.bincount(group_index, weights=neg.astype(np.float64), minlength=len(starts))[group_index]
        above_group = above[starts][group_index]
        below = n_neg[q] - above_group - tied
        wins = np.bincount(q, weights=np.where(pos, below + 0.5 * tied, 0.0), minlength=lists.n_queries)
        pairs = n_pos * n_neg
        return wins / np.maximum(pairs, 1), {"relevant_retrieved": n_pos, "relevant": r}


register(AUROC(), peers={TORCHMETRICS: ("RetrievalAUROC", "retrieval_auroc")})
