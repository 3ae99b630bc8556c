"""A Spark session for rankflavor: a local one (tests, the CLI without --master) or one on a cluster URL.

Pitfalls handled here: Spark binds to the machine's external address unless SPARK_LOCAL_IP is set (local
mode: 127.0.0.1); workers run the wrong Python unless PYSPARK_PYTHON is the running interpreter; the
default 200 shuffle partitions are far too many on a small machine.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any


def local_session(master: str | None = None, partitions: int = 4, connect: bool = False, app: str = "rankflavor",
                  conf: dict[str, str] | None = None) -> Any:
    """A SparkSession on `master` (default local[2]). connect: a Spark Connect session (`master` is then a
    `sc://host:port` URL, or `local[N]` to start pyspark's local Connect server)."""
    import warnings

    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
    from pyspark.sql import SparkSession

    master = master or "local[2]"
    check_master(master)
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
    try:
        session = builder.getOrCreate()
    except Exception as exc:  # (py4j's and the JVM's errors: the reason is in Spark's log above, not in a trace)
        from rankflavor.errors import UsageError

        raise UsageError(f"--master {master}: Spark could not start a session ({type(exc).__name__}); Spark's "
                         "log above says why") from None
    if not (connect or master.startswith("sc://")):
        session.sparkContext.setLogLevel("ERROR")
    return session


MASTER_TIMEOUT = 5.0  # seconds to wait for a master's port to accept a connection (Spark itself gives up after 60)


def check_master(master: str) -> None:
    """A standalone (`spark://HOST:PORT[,HOST:PORT]`) or Connect (`sc://HOST[:PORT]`) master whose port accepts a
    connection, else a UsageError saying so at once (Spark retries for a minute, then prints a trace); other
    masters (local[N], yarn, k8s://...) are Spark's to check."""
    import socket
    from urllib.parse import urlsplit

    from rankflavor.errors import UsageError

    scheme, _, rest = master.partition("://")
    if scheme not in ("spark", "sc") or not rest:
        return
    addresses = []
    for item in rest.split("/")[0].split(","):
        host, port = None, None
        try:
            parsed = urlsplit(f"//{item}")
            host, port = parsed.hostname, parsed.port or (15002 if scheme == "sc" else None)
        except ValueError:
            pass
        if not host or port is None:
            raise UsageError(f"--master {master}: write {scheme}://HOST:PORT (a standalone master listens on 7077 "
                             "by default)")
        addresses.append((host, port))
    errors = []
    for host, port in addresses:
        try:
            socket.create_connection((host, port), timeout=MASTER_TIMEOUT).close()
            return
        except OSError as exc:
            errors.append(f"{host}:{port}: {exc.strerror or exc}")
    raise UsageError(f"--master {master}: no Spark master answers ({'; '.join(errors)}); check the URL and that the "
                     "master runs (on one machine: python benchmarks/spark_cluster.py start)")


def spark_frame(spark: Any, table: Any) -> Any:
    """A pyarrow Table as a DataFrame of `spark`: handed over as Arrow on pyspark 4 (classic and Connect), as
    pandas on pyspark 3.5 (whose createDataFrame takes no Arrow table)."""
    import pyspark

    if int(pyspark.__version__.split(".")[0]) >= 4:
        return spark.createDataFrame(table)
    return spark.createDataFrame(table.to_pandas())




def _py4j_interrupt_noise(record: Any) -> bool:
    """A py4j log record of Ctrl-C while the driver waits on the JVM (py4j/java_gateway.py `send_command` logs
    both on the root logger, with a traceback): the KeyboardInterrupt itself, or the `reentrant call` of
    pyspark's SIGINT handler (core/context.py `signal_handler`: cancelAllJobs on the connection in use)."""
    message = record.getMessage()
    if message == "KeyboardInterrupt while sending command.":
        return True
    error = record.exc_info[1] if message == "Exception while sending command." and record.exc_info else None
    while error is not None:
        if isinstance(error, RuntimeError) and "reentrant call" in str(error):
            return True
        error = error.__context__
    return False


def quiet_py4j_on_interrupt() -> None:
    """Drop py4j's tracebacks of a Ctrl-C (`_py4j_interrupt_noise`): the CLI says `interrupted` alone."""
    import logging

    logging.getLogger().addFilter(lambda record: not _py4j_interrupt_noise(record))


def _launched_jvms() -> list[int]:
    """This process's child JVMs that run Spark (Linux: /proc), found when pyspark holds no handle on them:
    Ctrl-C during `launch_gateway` leaves the JVM it started unknown to pyspark, and never ending."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == os.getpid() and b"org.apache.spark" in command:
            found.append(int(entry.name))
    return found


def spark_running() -> bool:
    """Whether this process has a Spark gateway already (a session a caller started, e.g. a test's or a
    notebook's): a command then leaves it running, as it did not start it."""
    if "pyspark" not in sys.modules:
        return False
    from pyspark import SparkContext

    return SparkContext._gateway is not None or SparkContext._active_spark_context is not None


def end_spark() -> None:
    """Stop the Spark session this process started and end the JVM it launched: what `eval --engine spark` does
    in a `finally`, so that no JVM outlives rankflavor, finished, failed or interrupted. The session's stop()
    ends its jobs; pyspark's gateway JVM (java_gateway.py: `gateway.proc`) would live on until it reads the end
    of its standard input, after this process has gone: it is terminated here and waited for (killed after
    10 s), as is a JVM whose launch was interrupted (`_launched_jvms`). Nothing to do when pyspark was never
    imported."""
    if "pyspark" not in sys.modules:
        return
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    session = SparkSession.getActiveSession()
    if session is not None:
        try:
            session.stop()
        except Exception:  # (a JVM already gone: nothing left to stop but the process)
            pass
    proc = getattr(SparkContext._gateway, "proc", None)
    pids = [proc.pid] if proc is not None and proc.poll() is None else []
    for pid in dict.fromkeys([*pids, *_launched_jvms()]):
        _end_process(pid)
    SparkContext._gateway = None  # (a later session in this process launches a new JVM, not the ended one's)
    SparkContext._jvm = None


def _end_process(pid: int) -> None:
    """SIGTERM a child process and reap it; SIGKILL when it is still there after 10 s."""
    import signal
    import time

    try:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while os.waitpid(pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return
            time.sleep(0.05)
    except (ProcessLookupError, ChildProcessError):  # (already ended and reaped)
        return
