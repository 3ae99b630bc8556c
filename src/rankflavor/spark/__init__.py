"""rankflavor on Apache Spark: the local engine run once per slice of whole queries on the executors.

    from rankflavor.spark import evaluate, local_session
    out = evaluate(qrels_df, run_df, ["ndcg@10", "map"], run_col="system")
    out.per_query      # Spark DataFrame: run, label, flavor, query, value, <parts>, status
    out.aggregates     # Spark DataFrame: run, label, flavor, mean, n, counts, warnings (exact partials merged)
    out.means_frame()  # pandas: the shape of Report.means_frame()

pyspark is an optional extra (`rankflavor[spark]`); `import rankflavor` never imports it. The executor side
(partitions.py, merge.py) needs only pyarrow and rankflavor; the driver side (driver.py, session.py) pyspark.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {"evaluate": "rankflavor.spark.driver", "SparkEvaluation": "rankflavor.spark.driver",
            "local_session": "rankflavor.spark.session"}
__all__ = ["SparkEvaluation", "evaluate", "local_session"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'rankflavor.spark' has no attribute {name!r}")
