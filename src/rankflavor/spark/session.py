"""A Spark session for rankflavor: a local one (tests, the CLI without --master) or one on a cluster URL.

Pitfalls handled here: Spark binds to the machine's external address unless SPARK_LOCAL_IP is set (local
mode: 127.0.0.1); workers run the wrong Python unless PYSPARK_PYTHON is the running interpreter; the
default 200 shuffle partitions are far too many on a small machine.
"""

from __future__ import annotations

import os
import sys
from typing import Any


def local_session(master: str | None = None, partitions: int = 4, connect: bool = False, app: str = "rankflavor",
                  conf: dict[str, str] | None = None) -> Any:
    """A SparkSession on `master` (default local[2]). connect: a Spark Connect session (`master` is then a
    `sc://host:port` URL, or `local[N]` to start pyspark's local Connect server)."""
    import warnings

    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
    from pyspark.sql import SparkSession

    master = master or "local[2]"
    if master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = SparkSession.builder.appName(app)
    builder = builder.remote(master) if connect or master.startswith("sc://") else builder.master(master)
    settings = {"spark.sql.shuffle.partitions": str(partitions), "spark.default.parallelism": str(partitions),
                "spark.sql.execution.arrow.pyspark.enabled": "true", "spark.ui.showConsoleProgress": "false",
                "spark.executorEnv.PYSPARK_PYTHON": os.environ["PYSPARK_PYTHON"], **(conf or {})}
    if not (connect or master.startswith("sc://")):
        settings["spark.ui.enabled"] = "false"
        settings["spark.driver.host"] = os.environ.get("SPARK_LOCAL_IP", "127.0.0.1") if master.startswith(
            "local") else settings.get("spark.driver.host", "")
        if not settings["spark.driver.host"]:
            del settings["spark.driver.host"]
    for key, value in settings.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    if not (connect or master.startswith("sc://")):
        session.sparkContext.setLogLevel("ERROR")
    return session


def spark_frame(spark: Any, table: Any) -> Any:
    """A pyarrow Table as a DataFrame of `spark`: handed over as Arrow on pyspark 4 (classic and Connect), as
    pandas on pyspark 3.5 (whose createDataFrame takes no Arrow table)."""
    import pyspark

    if int(pyspark.__version__.split(".")[0]) >= 4:
        return spark.createDataFrame(table)
    return spark.createDataFrame(table.to_pandas())
