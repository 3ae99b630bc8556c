"""rankflavor on Apache Spark: the local engine run once per slice of whole queries on the executors.

    from rankflavor.spark import Columns, evaluate, local_session
    out = evaluate(qrels_df, run_df, ["ndcg@10", "map"], columns=Columns(run="system"))
    out.per_query      # Spark DataFrame: run, label, flavor, query, value, <parts>, status
    out.aggregates     # Spark DataFrame: run, label, flavor, mean, n, counts, warnings (exact partials merged on the driver)
    out.means_frame()  # pandas: the shape of Report.means_frame()

pyspark (>= 3.5) is an optional extra (`rankflavor[spark]`); `import rankflavor` never imports it. The executor
side (partitions.py) and the merge of the partials (merge.py) need only pyarrow and rankflavor; driver.py,
session.py, report.py, provenance.py and subtopics.py import pyspark when called.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {"evaluate": "rankflavor.spark.driver", "Columns": "rankflavor.spark.driver",
            "SparkEvaluation": "rankflavor.spark.driver", "local_session": "rankflavor.spark.session"}
__all__ = ["Columns", "SparkEvaluation", "evaluate", "local_session"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'rankflavor.spark' has no attribute {name!r}")


def __dir__() -> list[str]:
    """What the module exports (`__all__`), not its own imports."""
    return sorted(__all__)
