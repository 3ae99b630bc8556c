"""A rankflavor flavor as a torchmetrics Metric with the retrieval metrics' interface:

    import rankflavor.torchmetrics as rft
    metric = rft.RetrievalFlavor(top_k=10)        # torchmetrics' RetrievalNormalizedDCG by default
    metric.update(preds, target, indexes=query_ids)   # batch by batch
    metric.compute(), metric.last.per_query, metric.reset()

The states are declared with dist_reduce_fx="cat" (gathered across processes before compute). The body is
rankflavor/adapters/torchmetrics_metric.py, which imports torch and torchmetrics (docs/gbdt.md).
"""

from rankflavor.adapters.torchmetrics_metric import DEFAULT, EMPTY, RetrievalFlavor

__all__ = ["DEFAULT", "EMPTY", "RetrievalFlavor"]
