#!/usr/bin/env python3
"""A Spark standalone cluster on this machine, from pyspark's own distribution: one master and N workers, each
worker a JVM of its own that launches its own executor JVM (and that executor its Python workers) when an
application connects. For trying `rankflavor eval --engine spark --master spark://...` and
`rankflavor.spark.evaluate` on a real cluster without installing Spark, and for the lost-worker test
(tests/test_spark_cluster.py).

    python benchmarks/spark_cluster.py start [--workers 2] [--cores 1] [--memory 1g] [--dir DIR]
        prints the master URL (spark://127.0.0.1:PORT) once every worker has registered
    python benchmarks/spark_cluster.py status [--dir DIR]
    python benchmarks/spark_cluster.py stop [--dir DIR]

The JVMs are started with pyspark's `bin/spark-class` (org.apache.spark.deploy.master.Master and
...worker.Worker: what sbin/start-master.sh and start-worker.sh run, which the pip package does not ship),
bound to 127.0.0.1 on free ports; DIR (default: rankflavor-cluster in the system's temp folder) holds their logs,
the workers' work folders and `cluster.json` (the ports and process ids `stop` reads). Java 17 must be on PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path

DEFAULT_DIR = Path(tempfile.gettempdir()) / "rankflavor-cluster"
EXECUTOR_CLASS = "org.apache.spark.executor.CoarseGrainedExecutorBackend"


def spark_home() -> Path:
    """pyspark's own distribution (its bin/spark-class and jars)."""
    import pyspark

    return Path(pyspark.__file__).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cluster_env() -> dict[str, str]:
    """The environment of every JVM of the cluster: loopback only, this interpreter for the Python workers."""
    env = dict(os.environ, SPARK_HOME=str(spark_home()), SPARK_LOCAL_IP="127.0.0.1",
               PYSPARK_PYTHON=sys.executable, SPARK_NO_DAEMONIZE="1")
    src = Path(__file__).resolve().parents[1] / "src"
    if src.is_dir():  # a source checkout: the executors' Python workers import this rankflavor
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(src), os.environ.get("PYTHONPATH")) if p)
    return env


@dataclass
class LocalCluster:
    """A master and `workers` workers (each `cores` cores and `memory` for its executors) under `folder`."""

    folder: Path = DEFAULT_DIR
    workers: int = 2
    cores: int = 1
    memory: str = "1g"
    master_port: int = 0
    ui_port: int = 0
    pids: dict[str, int] = field(default_factory=dict)  # "master", "worker-1", ...

    @property
    def master_url(self) -> str:
        return f"spark://127.0.0.1:{self.master_port}"

    def start(self, timeout: float = 120.0) -> LocalCluster:
        """Start the master, then the workers; return once every worker is ALIVE in the master's view."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.master_port, self.ui_port = free_port(), free_port()
        self.pids["master"] = self._launch("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                                           "--port", str(self.master_port), "--webui-port", str(self.ui_port))
        for i in range(1, self.workers + 1):
            work = self.folder / f"work-{i}"
            work.mkdir(exist_ok=True)
            self.pids[f"worker-{i}"] = self._launch(
                f"worker-{i}", "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores",
                str(self.cores), "--memory", self.memory, "--work-dir", str(work), "--webui-port",
                str(free_port()), self.master_url)
        self._save()
        try:
            self.wait_for_workers(self.workers, timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _launch(self, name: str, main_class: str, *args: str) -> int:
        with open(self.folder / f"{name}.log", "wb") as log:  # (the child has its own copy of the descriptor)
            process = subprocess.Popen([str(spark_home() / "bin" / "spark-class"), main_class, *args],
                                       env=cluster_env(), stdout=log, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        return process.pid

    def state(self) -> dict:
        """The master's JSON view (its web UI's /json/): workers, their state, the applications."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.ui_port}/json/", timeout=5) as response:
            return json.load(response)

    def alive_workers(self) -> int:
        try:
            return sum(w.get("state") == "ALIVE" for w in self.state().get("workers", []))
        except OSError:
            return 0

    def wait_for_workers(self, count: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.alive_workers() < count:
            for name, pid in self.pids.items():
                if not _running(pid):
                    raise RuntimeError(f"the cluster's {name} exited; its log: {self.folder / (name + '.log')}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.alive_workers()} of {count} workers registered within {timeout:.0f} s; "
                                   f"logs in {self.folder}")
            time.sleep(0.5)

    def executors_of(self, worker: str) -> list[int]:
        """The process ids of the executor JVMs `worker` launched (its child processes running the executor)."""
        return [pid for pid in _descendants(self.pids[worker]) if EXECUTOR_CLASS in _cmdline(pid)]

    def lose_worker(self, worker: str) -> list[int]:
        """Kill `worker` and its executors at once (SIGKILL: a machine lost, nothing shut down cleanly); return
        the executors' process ids."""
        executors = self.executors_of(worker)
        for pid in [self.pids[worker], *executors]:
            _kill(pid, signal.SIGKILL)
        return executors

    def stop(self) -> None:
        """Stop every JVM of the cluster (its process group: the JVM, its executors and their Python workers)."""
        for name in sorted(self.pids, key=lambda n: n == "master"):  # the workers first
            pid = self.pids[name]
            for child in _descendants(pid):
                _kill(child, signal.SIGTERM)
            _kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        while any(_running(p) for p in self.pids.values()) and time.monotonic() < deadline:
            time.sleep(0.2)
        for pid in self.pids.values():
            _kill(pid, signal.SIGKILL)
        (self.folder / "cluster.json").unlink(missing_ok=True)

    def _save(self) -> None:
        data = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(self).items()}
        (self.folder / "cluster.json").write_text(json.dumps(data, indent=1))

    @classmethod
    def load(cls, folder: Path) -> LocalCluster:
        path = folder / "cluster.json"
        if not path.is_file():
            raise SystemExit(f"no cluster started in {folder} (no cluster.json): start one with `start --dir {folder}`")
        data = json.loads(path.read_text())
        return cls(**{**data, "folder": Path(data["folder"])})

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _kill(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _descendants(root: int) -> list[int]:
    """Every process below `root`, from /proc (parent ids)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("action", choices=["start", "status", "stop"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cores", type=int, default=1, help="cores per worker (default 1)")
    parser.add_argument("--memory", default="1g", help="memory per worker for its executors (default 1g)")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=f"logs and state (default {DEFAULT_DIR})")
    args = parser.parse_args(argv)
    if args.action == "start":
        if (args.dir / "cluster.json").is_file():
            print(f"a cluster is already recorded in {args.dir}: stop it first (`stop --dir {args.dir}`)",
                  file=sys.stderr)
            return 2
        cluster = LocalCluster(args.dir, args.workers, args.cores, args.memory).start()
        print(cluster.master_url)
        print(f"# master UI http://127.0.0.1:{cluster.ui_port}; logs in {args.dir}; "
              f"stop with: python {sys.argv[0]} stop --dir {args.dir}", file=sys.stderr)
        return 0
    cluster = LocalCluster.load(args.dir)
    if args.action == "status":
        print(f"{cluster.master_url}: {cluster.alive_workers()} of {cluster.workers} workers alive")
        return 0
    cluster.stop()
    print(f"stopped {cluster.master_url}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
