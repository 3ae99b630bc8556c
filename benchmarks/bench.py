#!/usr/bin/env python3
"""Side-by-side benchmark: rankflavor against every installed peer on an MS MARCO-sized synthetic run.

usage: python benchmarks/bench.py [--data DIR] [--queries 7000] [--depth 1000] [--judged 40] [--repeat 3]
                                  [--repeat-calls 9]
                                  [--skip-peers] [--cores N] [--track-runs 100] [--trec-eval PATH]

Each measurement is a whole process (start-up, parse, evaluate, print), timed by wall clock, with its
peak resident memory from os.wait4 (the child's own ru_maxrss). Every tool is run `--repeat` times
in turn (the order rotated each time), the per-call commands of issue 40's rows 1-3 (0.003-0.3 s each, where
a machine's passing load moves a median of three) `--repeat-calls` times (default 9); the table shows the
fastest run and the median. Peers use their fastest documented reader: pytrec_eval's parse_qrel/parse_run,
ranx's Qrels/Run.from_file (after a warm-up run on a tiny file that fills numba's cache), ir_measures'
read_trec_qrels/read_trec_run.
Per-query values of rankflavor's `pytrec_eval@10` and `trec_eval@10` are compared with pytrec_eval's
`ndcg_cut_10` (they must agree to 1e-9).
Measure sets: `rankflavor eval -m pytrec_eval.all_trec --format trec` against pytrec_eval computing its
`all_trec` set on the same workload, and `rankflavor eval -m trec_eval.official` against pytrec_eval's
`official` on a TREC-sized run (200 queries x 1,000 docs), each ratio printed beside the peer.
Memory per row is the slope of rankflavor's peak RSS over runs of 1/4, 1/2 and all of the queries.
A track (bench_track.py: 100 runs x 50 queries x 1,000 docs, `--track-runs 0` skips it), C trec_eval where it
is installed, the bare pyarrow read of the large run (the floor), and each ratio against the issue's target.

Every measured command starts from the same memory state: on a virtual machine, memory that a large
process has just freed is slow to touch again (a process run right after a large peer was seen to take
measurably longer), so before each measurement a helper process touches `--warm-gb` (default: a little more than
the largest peak RSS seen so far, at least 2.5 GB) and exits. The helper is not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_track import (
    EXTRA_PEERS,
    PER_CALL,
    add_issue40_commands,
    c_trec_eval,
    ensure_track,
    issue40_rows,
    loop,
    target_lines,
)

HERE = Path(__file__).resolve().parent
SPEC = "trec_eval@10"
MULTI = [f"ndcg@{k} gain={g} ideal={i} ties={t}" for k in (10, 100) for g in ("linear", "exp2")
         for i in ("global", "local") for t in ("docid_desc", "average", "input")]


# ---- peers, run in a child process: `bench.py peer NAME QRELS RUN OUT` ---------------------------------
def peer_pytrec_eval(qrels: str, run: str) -> dict[str, float]:
    import pytrec_eval

    with open(qrels) as f:
        judged = pytrec_eval.parse_qrel(f)
    with open(run) as f:
        ranked = pytrec_eval.parse_run(f)
    result = pytrec_eval.RelevanceEvaluator(judged, {"ndcg_cut.10"}).evaluate(ranked)
    return {q: v["ndcg_cut_10"] for q, v in result.items()}


def peer_ranx(qrels: str, run: str) -> dict[str, float]:
    from ranx import Qrels, Run, evaluate

    judged = Qrels.from_file(qrels, kind="trec")
    ranked = Run.from_file(run, kind="trec")
    evaluate(judged, ranked, "ndcg@10", return_mean=False)
    return {q: float(v) for q, v in ranked.scores["ndcg@10"].items()}  # per query, as ranx keeps them


def peer_ir_measures(qrels: str, run: str) -> dict[str, float]:
    import ir_measures
    from ir_measures import nDCG

    results = ir_measures.iter_calc([nDCG @ 10], ir_measures.read_trec_qrels(qrels), ir_measures.read_trec_run(run))
    return {m.query_id: float(m.value) for m in results}


def peer_pytrec_eval_set(qrels: str, run: str, measures: str) -> dict[str, float]:
    """pytrec_eval computing a trec_eval measure set (`official`, `all_trec`): the mean of each measure."""
    import pytrec_eval

    with open(qrels) as f:
        judged = pytrec_eval.parse_qrel(f)
    with open(run) as f:
        ranked = pytrec_eval.parse_run(f)
    result = pytrec_eval.RelevanceEvaluator(judged, {measures}).evaluate(ranked)
    names = {name for values in result.values() for name in values}
    return {name: sum(v[name] for v in result.values()) / max(len(result), 1) for name in sorted(names)}


PEERS = {"pytrec_eval": ("pytrec_eval", peer_pytrec_eval), "ranx": ("ranx", peer_ranx),
         "ir_measures": ("ir_measures", peer_ir_measures),
         "pytrec_eval all_trec": ("pytrec_eval", lambda q, r: peer_pytrec_eval_set(q, r, "all_trec")),
         "pytrec_eval official": ("pytrec_eval", lambda q, r: peer_pytrec_eval_set(q, r, "official")),
         **EXTRA_PEERS}
SETS = {"pytrec_eval all_trec": "rankflavor pytrec_eval.all_trec",  # peer -> the rankflavor command it is timed with
        "pytrec_eval official": "rankflavor trec_eval.official (TREC-sized)"}


def run_peer(name: str, qrels: str, run: str, out: str) -> None:
    values = PEERS[name][1](qrels, run)
    Path(out).write_text(json.dumps(values))
    print(f"{name}: {len(values)} queries, mean {sum(values.values()) / max(len(values), 1):.6f}")


# ---- measuring ---------------------------------------------------------------------------------------
TOUCH = """
import sys
n = int(float(sys.argv[1]) * (1 << 30))
pages = bytearray(n)
pages[::4096] = b"\\x01" * len(range(0, n, 4096))  # one write per page
"""


def warm_memory(gb: float) -> None:
    """Touch `gb` GB in a short-lived process, so that the next command finds the guest's memory warm."""
    subprocess.run([sys.executable, "-c", TOUCH, str(gb)], check=True)


def _tree_rss_kb(pid: int) -> int:
    """The summed resident memory (KB) of a process and its descendants, read from /proc (0 once it is gone)."""
    total = 0
    try:
        with open(f"/proc/{pid}/status") as status:
            total += next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            total += sum(_tree_rss_kb(int(child)) for child in children.read().split())
    except OSError:
        pass
    return total


def _sample_tree(pid: int, peak: list[int], done: threading.Event) -> None:
    while not done.wait(0.02):
        peak[0] = max(peak[0], _tree_rss_kb(pid))


def measure(cmd: list[str], cpus: set[int] | None = None) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one child process, pinned to `cpus` when given; raises when it fails.
    The peak is the larger of the child's own (wait4: its largest process's) and its process tree's summed RSS
    sampled every 20 ms (a command that runs worker processes, eval's track: cli/trec_pool.py)."""
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=pin)
    peak, done = [0], threading.Event()
    sampler = threading.Thread(target=_sample_tree, args=(proc.pid, peak, done), daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    done.set()
    sampler.join()
    wall = time.perf_counter() - start
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {stderr[-2000:]}")
    return wall, max(usage.ru_maxrss, peak[0]) / 1024.0


def installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def rankflavor_cmd() -> list[str]:
    script = Path(sys.executable).with_name("rankflavor")
    return [str(script)] if script.exists() else [sys.executable, "-m", "rankflavor"]


def ensure_data(data: Path, queries: int, depth: int, judged: int) -> tuple[Path, Path]:
    run, qrels = data / f"run_{queries}_{depth}.txt", data / f"qrels_{queries}_{depth}.txt"
    if not (run.exists() and qrels.exists()):
        print(f"generating the workload in {data} ...", flush=True)
        subprocess.run([sys.executable, str(HERE / "make_synthetic.py"), str(queries), str(depth), str(judged),
                        str(data)], check=True)
    return qrels, run


def head(run: Path, rows: int, out: Path) -> Path:
    if not out.exists():
        with run.open("rb") as src, out.open("wb") as dst:
            for i, line in enumerate(src):
                if i >= rows:
                    break
                dst.write(line)
    return out


def per_query(cmd: list[str], qrels: Path, run: Path, spec: str) -> dict[str, float]:
    out = subprocess.run([*cmd, "eval", str(qrels), str(run), "-m", spec, "--per-query", "--format", "json"],
                         check=True, capture_output=True, text=True).stdout
    rows = json.loads(out)["results"][0]["per_query"]
    return {r["query"]: r["value"] for r in rows}


def max_diff(a: dict[str, float], b: dict[str, float]) -> tuple[float, int]:
    common = set(a) & set(b)
    diff = max((abs(a[q] - b[q]) for q in common), default=float("nan"))
    return diff, len(set(a) ^ set(b))


def add_issue28_commands(commands: dict[str, list[str]], args: argparse.Namespace, rf: list[str],
                         large: tuple[Path, Path], small: tuple[Path, Path]) -> tuple[dict[str, str], Path, list[Path]]:
    """The track's commands and C trec_eval's (when found) added to `commands`; ({key: row name}, the track's
    qrels and runs) for bench_track.target_lines."""
    (qrels, run), (trec_qrels, trec_run) = large, small
    main_name = f"rankflavor {SPEC}"
    track_qrels, track_runs = Path(), []
    te = c_trec_eval(args.trec_eval)
    names = {"ndcg": main_name, "pytrec": "pytrec_eval", "all_trec": "rankflavor pytrec_eval.all_trec",
             "pytrec all_trec": "pytrec_eval all_trec", "small": "rankflavor trec_eval.official (TREC-sized)",
             "help": "rankflavor --help", "presets": "rankflavor presets", "metrics": "rankflavor metrics",
             "floor": "pyarrow read (floor)", "pytrec official": "pytrec_eval official"}
    if args.track_runs:
        track_qrels, track_runs = ensure_track(args.data, args.track_runs, args.track_queries, args.track_depth)
        names |= {"track": f"rankflavor eval track ({len(track_runs)} runs)",
                  "track 10": "rankflavor eval track (10 runs)", "rf loop": "rankflavor trec_eval loop",
                  "c loop": "C trec_eval loop", "pytrec track": "pytrec_eval track"}
        for key, some in (("track", track_runs), ("track 10", track_runs[:10])):
            commands[names[key]] = [*rf, "eval", str(track_qrels), *map(str, some), "-m", "trec_eval.official",
                                    "--format", "trec"]
        commands[names["rf loop"]] = loop([*rf, "trec_eval", "-c"], track_qrels, track_runs)
    if te and not args.skip_peers:
        names |= {"c small": "C trec_eval official (TREC-sized)", "c ndcg": "C trec_eval ndcg_cut.10"}
        commands[names["c small"]] = [te, str(trec_qrels), str(trec_run)]
        commands[names["c ndcg"]] = [te, "-m", "ndcg_cut.10", str(qrels), str(run)]
        if args.track_runs:
            commands[names["c loop"]] = loop([te, "-c"], track_qrels, track_runs)
    elif not args.skip_peers:
        print("C trec_eval: not found (give --trec-eval PATH; bench.py does not build it): its rows are left out")
    tests = args.trec_eval_tests or (Path(te).parent / "test" if te else None)
    add_issue40_commands(commands, names, rf, None if args.skip_peers else te, tests, (track_qrels, track_runs),
                         small)
    return names, track_qrels, track_runs


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "peer":
        run_peer(*sys.argv[2:6])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=HERE.parent / "bench-data")
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--judged", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--repeat-calls", type=int, default=9,
                        help="runs of rows 1-3's per-call commands (0.003-0.3 s each: their median needs more runs)")
    parser.add_argument("--skip-peers", action="store_true", help="time rankflavor only")
    parser.add_argument("--cores", type=int, default=None,
                        help="pin every measured command to the first N cores (how the ratios depend on cores)")
    parser.add_argument("--warm-gb", type=float, default=None,
                        help="GB touched before each measurement (default: 1.1 x the largest peak so far, >= 2.5)")
    parser.add_argument("--track-runs", type=int, default=100, help="runs of the track (0: no track rows)")
    parser.add_argument("--track-queries", type=int, default=50)
    parser.add_argument("--track-depth", type=int, default=1000)
    parser.add_argument("--trec-eval", metavar="PATH",
                        help="C trec_eval (default: $TREC_EVAL, else trec_eval on PATH; not built here)")
    parser.add_argument("--trec-eval-tests", metavar="DIR", type=Path,
                        help="trec_eval's test folder (qrels.test, results.test; default: test/ beside the binary)")
    args = parser.parse_args()

    qrels, run = ensure_data(args.data, args.queries, args.depth, args.judged)
    trec_qrels, trec_run = ensure_data(args.data, 200, 1000, args.judged)  # a TREC-sized run: 200 x 1,000
    rows = sum(1 for _ in run.open("rb"))
    rf = rankflavor_cmd()
    main_name = f"rankflavor {SPEC}"
    me = Path(__file__).resolve()
    tmp = Path(tempfile.mkdtemp(prefix="rankflavor-bench-"))
    cpus = set(sorted(os.sched_getaffinity(0))[:args.cores]) if args.cores else None
    cores = f"pinned to {len(cpus)} of {os.cpu_count()} cores" if cpus else f"{os.cpu_count()} cores"
    print(f"workload: {run} ({run.stat().st_size / 1e6:.0f} MB, {rows:,} rows), {qrels.name}; "
          f"{cores}; best and median of {args.repeat}")

    commands: dict[str, list[str]] = {
        f"rankflavor {SPEC}": [*rf, "eval", str(qrels), str(run), "-m", SPEC],
        "rankflavor 24 flavors": [*rf, "eval", str(qrels), str(run), *(x for s in MULTI for x in ("-m", s))],
        "rankflavor 3 runs": [*rf, "eval", str(qrels), str(run), str(run), str(run), "-m", SPEC],
        "rankflavor --per-query json": [*rf, "eval", str(qrels), str(run), "-m", SPEC, "--per-query", "--format",
                                        "json"],
        "rankflavor explain": [*rf, "explain", str(qrels), str(run), "-q", "q17", "-m", SPEC],
        "rankflavor --help": [*rf, "--help"],
        "rankflavor presets": [*rf, "presets"],
        "rankflavor metrics": [*rf, "metrics"],
        "rankflavor pytrec_eval.all_trec": [*rf, "eval", str(qrels), str(run), "-m", "pytrec_eval.all_trec", "--format",
                                            "trec"],
        "rankflavor trec_eval.official (TREC-sized)": [*rf, "eval", str(trec_qrels), str(trec_run), "-m",
                                                       "trec_eval.official", "--format", "trec"],
    }
    names, track_qrels, track_runs = add_issue28_commands(commands, args, rf, (qrels, run), (trec_qrels, trec_run))
    peers = [] if args.skip_peers else [name for name, (module, _) in PEERS.items() if installed(module)
                                        and (args.track_runs or "track" not in name)]
    if "ranx" in peers:  # fill numba's cache once, as a user who ran ranx before has it
        tiny = tmp / "tiny"
        tiny.mkdir()
        (tiny / "qrels").write_text("q1 0 d1 1\nq1 0 d2 0\n")
        (tiny / "run").write_text("q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\n")
        measure([sys.executable, str(me), "peer", "ranx", str(tiny / "qrels"), str(tiny / "run"), str(tiny / "o")])
    for name in peers:
        q, r = (trec_qrels, trec_run) if "official" in name else (qrels, run)
        if "track" in name:
            q, r = track_qrels, track_runs[0].parent
        commands[name] = [sys.executable, str(me), "peer", name, str(q), str(r), str(tmp / f"{name}.json")]

    times: dict[str, list[float]] = {name: [] for name in commands}
    memory: dict[str, float] = dict.fromkeys(commands, 0.0)
    order = list(commands)
    per_call = {names[key] for key in PER_CALL if key in names and names[key] in commands}
    runs = {name: max(args.repeat, args.repeat_calls) if name in per_call else args.repeat for name in commands}
    for repeat in range(max(runs.values())):
        # rotated each time: the command that follows a big peer's exit runs slower, whichever it is
        for name in order[repeat % len(order):] + order[:repeat % len(order)]:
            if repeat >= runs[name]:
                continue
            warm_memory(args.warm_gb or max(2.5, 1.1 * max(memory.values()) / 1024))
            wall, rss = measure(commands[name], cpus)
            times[name].append(wall)
            memory[name] = max(memory[name], rss)

    best = {name: min(t) for name, t in times.items()}
    print()
    print(f"{'command':44s} {'best s':>8s} {'median s':>9s} {'peak MB':>8s}  ratio")
    for name in commands:
        ratio = ""
        if name in SETS:
            r = best[name] / best[SETS[name]]
            ratio = f"{SETS[name]} is {r:.2f}x faster" if r >= 1 else f"{SETS[name]} is {1 / r:.2f}x slower"
        elif name in peers and name not in EXTRA_PEERS:
            ratio = f"rankflavor is {best[name] / best[main_name]:.1f}x faster"
        elif name == "rankflavor 24 flavors":
            ratio = f"{best[name] / best[main_name]:.2f}x one flavor"
        elif name == "rankflavor 3 runs":
            ratio = f"{best[name] / best[main_name]:.2f}x one run"
        print(f"{name:44s} {best[name]:8.2f} {statistics.median(times[name]):9.2f} {memory[name]:8.0f}  {ratio}")
    print()
    calls = f" ({max(args.repeat, args.repeat_calls)} for rows 1-3's commands)" if per_call else ""
    print(f"issue 40's targets, medians of {args.repeat} interleaved runs{calls}:")
    for line in issue40_rows({name: statistics.median(t) for name, t in times.items()}, memory, names):
        print(f"  {line}")
    print()
    print("against the targets (issue 28), best times:")
    for line in target_lines(best, memory, names):
        print(f"  {line}")

    # memory per row: peak RSS over runs of 1/4, 1/2 and all of the queries
    points = []
    for share in (4, 2, 1):
        n = rows // share
        part = run if share == 1 else head(run, n, args.data / f"run_{args.queries}_{args.depth}_first{n}.txt")
        rss = min(measure([*rf, "eval", str(qrels), str(part), "-m", SPEC], cpus)[1] for _ in range(2))
        points.append((n, rss))
    (n0, m0), (n1, m1) = points[0], points[-1]
    slope = (m1 - m0) * 1024 * 1024 / (n1 - n0)
    print()
    print("peak RSS by rows: " + ", ".join(f"{n:,} rows {m:.0f} MB" for n, m in points)
          + f"; slope {slope:.0f} bytes per row, intercept {m0 - slope * n0 / 1024 / 1024:.0f} MB")

    if "pytrec_eval" in peers:
        reference = json.loads((tmp / "pytrec_eval.json").read_text())
        for spec in ("pytrec_eval@10", SPEC):
            diff, mismatched = max_diff(per_query(rf, qrels, run, spec), reference)
            print(f"per-query {spec} vs pytrec_eval ndcg_cut_10: max |diff| {diff:.2e}, "
                  f"{mismatched} queries in one only")
    for name in ("ranx", "ir_measures"):
        if name in peers and "pytrec_eval" in peers:
            diff, mismatched = max_diff(json.loads((tmp / f"{name}.json").read_text()),
                                        json.loads((tmp / "pytrec_eval.json").read_text()))
            print(f"per-query {name} vs pytrec_eval: max |diff| {diff:.2e}, {mismatched} queries in one only")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
