"""bench.py's track, small-run and large-run rows (issue 28): the commands, the peers run in one process, and the
lines that print each ratio against its target.

A track is RUNS runs x QUERIES queries x DEPTH docs against one qrels (make_synthetic.py track, in
bench-data/track/). Timed side by side: `rankflavor eval QRELS runs/* -m trec_eval.official --format trec` (one
process), `rankflavor trec_eval -c QRELS RUN` and C trec_eval -c looped over the files (one `sh` loop each: its
peak RSS is the largest child's; -c as trec_eval 10.0 stops at a judged query a run misses), pytrec_eval and
ranx in one process each (the qrels read once, every run evaluated).
C trec_eval is `--trec-eval PATH`, else $TREC_EVAL, else the `trec_eval` on PATH: bench.py does not build it.

Issue 40's five rows (`issue40_rows`), each from the medians of the interleaved runs: `rankflavor trec_eval` on
trec_eval's own test files (qrels.test, results.test, from the test/ folder beside the C binary or
`--trec-eval-tests DIR`), on one run of the track (50 queries x 1,000 docs: 50,000 rows, -c) and on the TREC-sized
run, each beside C trec_eval on the same files; the track's loops and `eval runs/*`; NDCG@10 on the large run
beside pytrec_eval and C trec_eval, with the peak memory.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RANX_MEASURES = ["map", "mrr", "ndcg", "ndcg@10", "precision@5", "precision@10", "precision@30", "r-precision",
                 "recall@100", "recall@1000", "bpref"]


def ensure_track(data: Path, runs: int, queries: int, depth: int) -> tuple[Path, list[Path]]:
    """bench-data/track/RUNSxQUERIESxDEPTH/: its qrels and runs, written when absent."""
    where = data / "track" / f"{runs}x{queries}x{depth}"
    if not (where / "qrels.txt").exists() or len(list((where / "runs").glob("run_*.txt"))) != runs:
        print(f"generating the track in {where} ...", flush=True)
        subprocess.run([sys.executable, str(HERE / "make_synthetic.py"), "track", str(runs), str(queries), str(depth),
                        str(where)], check=True)
    return where / "qrels.txt", sorted((where / "runs").glob("run_*.txt"))


def c_trec_eval(given: str | None) -> str | None:
    """C trec_eval: `--trec-eval PATH`, else $TREC_EVAL, else `trec_eval` on PATH (not built here), else None."""
    found = given or os.environ.get("TREC_EVAL") or shutil.which("trec_eval")
    return found if found and Path(found).is_file() else None


PER_CALL = ("te tests", "c te tests", "te 50k", "c te 50k", "te sized", "c te sized")  # rows 1-3 (--repeat-calls)


def add_issue40_commands(commands: dict[str, list[str]], names: dict[str, str], rf: list[str], te: str | None,
                         tests: Path | None, track: tuple[Path, list[Path]], trec_sized: tuple[Path, Path]) -> None:
    """`rankflavor trec_eval` on trec_eval's test files, one track run and the TREC-sized run, and C trec_eval on the
    same files (when found): the per-call rows of issue 40."""
    pairs = {"te tests": (tests / "qrels.test", tests / "results.test") if tests else None,
             "te 50k": (track[0], track[1][0], "-c") if track[1] else None, "te sized": trec_sized}
    rows = sum(1 for _ in track[1][0].open("rb")) if track[1] else 0
    labels = {"te tests": "trec_eval's test files", "te 50k": f"one track run ({rows:,} rows)",
              "te sized": "TREC-sized (200 x 1,000)"}
    for key, files in pairs.items():
        if files is None or not Path(files[0]).exists():
            continue
        flags, paths = list(files[2:]), [str(f) for f in files[:2]]
        names[key] = f"rankflavor trec_eval {labels[key]}"
        commands[names[key]] = [*rf, "trec_eval", *flags, *paths]
        if te:
            names[f"c {key}"] = f"C trec_eval {labels[key]}"
            commands[names[f"c {key}"]] = [te, *flags, *paths]


def loop(command: list[str], qrels: Path, runs: list[Path]) -> list[str]:
    """One `sh` process running `command QRELS RUN` for each run, as people loop trec_eval over a track."""
    body = " ".join(shlex.quote(c) for c in command)
    return ["sh", "-c", f'q=$1; shift; for f in "$@"; do {body} "$q" "$f" || exit 1; done', "loop", str(qrels),
            *map(str, runs)]


def peer_pytrec_eval_track(qrels: str, runs: str) -> dict[str, float]:
    """pytrec_eval: the qrels parsed once, every run of the folder parsed and evaluated under `official`."""
    import pytrec_eval

    with open(qrels) as f:
        evaluator = pytrec_eval.RelevanceEvaluator(pytrec_eval.parse_qrel(f), {"official"})
    out = {}
    for path in sorted(Path(runs).glob("run_*.txt")):
        with path.open() as f:
            result = evaluator.evaluate(pytrec_eval.parse_run(f))
        out[path.name] = sum(v["map"] for v in result.values()) / max(len(result), 1)
    return out


def peer_ranx_track(qrels: str, runs: str) -> dict[str, float]:
    """ranx: the qrels read once, every run read and evaluated under RANX_MEASURES (ranx has no `official`)."""
    from ranx import Qrels, Run, evaluate

    judged = Qrels.from_file(qrels, kind="trec")
    out = {}
    for path in sorted(Path(runs).glob("run_*.txt")):
        means = evaluate(judged, Run.from_file(str(path), kind="trec"), RANX_MEASURES, make_comparable=True)
        out[path.name] = float(means["map"])
    return out


def peer_pyarrow_read(qrels: str, run: str) -> dict[str, float]:
    """The floor: pyarrow's CSV reader on the run's six columns, nothing else (ids as strings, score as float)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    names = ["query", "q0", "doc", "rank", "score", "tag"]
    table = pacsv.read_csv(run, read_options=pacsv.ReadOptions(column_names=names),
                           parse_options=pacsv.ParseOptions(delimiter=" "),
                           convert_options=pacsv.ConvertOptions(include_columns=["query", "doc", "score"],
                                                                column_types={"query": pa.string(),
                                                                              "doc": pa.string(),
                                                                              "score": pa.float64()}))
    return {"rows": float(table.num_rows)}


EXTRA_PEERS = {"pytrec_eval track": ("pytrec_eval", peer_pytrec_eval_track),
               "ranx track": ("ranx", peer_ranx_track),
               "pyarrow read (floor)": ("pyarrow", peer_pyarrow_read)}


def ratio(slow: float, fast: float, target: float, what: str) -> str:
    """`what: 5.3x (target 5x: reached)`, the ratio of the slower command's time to the faster's."""
    r = slow / fast
    return f"{what}: {r:.2f}x (target {target:g}x: {'reached' if r >= target else 'NOT reached'})"


def target_lines(best: dict[str, float], memory: dict[str, float], names: dict[str, str]) -> list[str]:
    """The issue's targets, each from this run's figures (a row absent from the run is said so)."""
    lines = []

    def have(*keys: str) -> bool:
        return all(names.get(k) in best for k in keys)

    def b(key: str) -> float:
        return best[names[key]]

    def m(key: str) -> float:
        return memory[names[key]]

    if have("track", "c loop"):
        lines.append(ratio(b("c loop"), b("track"), 5, "track: rankflavor eval vs C trec_eval's loop"))
    if have("track", "pytrec track"):
        lines.append(ratio(b("pytrec track"), b("track"), 5, "track: rankflavor eval vs pytrec_eval"))
    if have("track", "rf loop"):
        lines.append(f"track: rankflavor eval vs rankflavor trec_eval's loop: {b('rf loop') / b('track'):.2f}x")
    if have("track", "track 10"):
        lines.append(f"track: peak RSS {m('track'):.0f} MB with all runs vs {m('track 10'):.0f} MB with 10 "
                     f"(x{m('track') / m('track 10'):.2f})")
    if have("small", "c small"):
        r = b("c small") / b("small")
        lines.append(f"small run (200 x 1,000): {b('small'):.3f} s vs C trec_eval {b('c small'):.3f} s: {r:.2f}x "
                     f"(target >= 1x: {'reached' if r >= 1 else 'NOT reached'}); peak {m('small'):.0f} MB "
                     f"(target < 80 MB: {'reached' if m('small') < 80 else 'NOT reached'}; C trec_eval "
                     f"{m('c small'):.0f} MB)")
    for key in ("help", "presets", "metrics"):
        if have(key):
            lines.append(f"rankflavor {key}: {b(key):.3f} s (target < 0.1 s: "
                         f"{'reached' if b(key) < 0.1 else 'NOT reached'})")
    if have("ndcg", "pytrec"):
        lines.append(ratio(b("pytrec"), b("ndcg"), 10, "large run: NDCG@10 vs pytrec_eval"))
    if have("all_trec", "pytrec all_trec"):
        lines.append(ratio(b("pytrec all_trec"), b("all_trec"), 4, "large run: pytrec_eval.all_trec vs pytrec_eval"))
    if have("ndcg", "c ndcg"):
        ok = m("ndcg") <= m("c ndcg")
        lines.append(f"large run: peak RSS {m('ndcg'):.0f} MB vs C trec_eval's {m('c ndcg'):.0f} MB "
                     f"(target at most: {'reached' if ok else 'NOT reached'}); time {b('ndcg'):.2f} s vs "
                     f"{b('c ndcg'):.2f} s")
    if have("ndcg", "floor"):
        lines.append(f"large run: NDCG@10 {b('ndcg'):.2f} s is {b('ndcg') / b('floor'):.2f}x the bare pyarrow read "
                     f"({b('floor'):.2f} s, {m('floor'):.0f} MB)")
    return lines


def issue40_rows(median: dict[str, float], memory: dict[str, float], names: dict[str, str]) -> list[str]:
    """Issue 40's five rows from this run's medians: rankflavor, C trec_eval and pytrec_eval side by side, the
    ratio and the target (a row whose commands did not run says so)."""
    rows = [f"{'row':44s} {'rankflavor':>11s} {'C trec_eval':>12s} {'pytrec_eval':>12s}  ratio, target"]

    def t(key: str) -> float | None:
        return median.get(names.get(key, ""))

    def mb(key: str) -> float:
        return memory.get(names.get(key, ""), float("nan"))

    def row(label: str, mine: float | None, c: float | None, py: float | None, verdict: str) -> None:
        cells = [f"{x:10.3f}s" if x is not None else f"{'-':>10s} " for x in (mine, c, py)]
        rows.append(f"{label:44s} {cells[0]:>11s} {cells[1]:>12s} {cells[2]:>12s}  {verdict}")

    def met(ok: bool) -> str:
        return "met" if ok else "NOT met"

    mine, c = t("te tests"), t("c te tests")
    if mine is not None:
        row("1 trec_eval qrels.test results.test", mine, c, None, f"{mine:.3f} s (target <= 0.12 s: {met(mine <= 0.12)})")
    mine, c = t("te 50k"), t("c te 50k")
    if mine is not None and c is not None:
        row("2 trec_eval -c, one track run, official", mine, c, None,
            f"{mine / c:.2f}x C (target <= 3x: {met(mine <= 3 * c)})")
    mine, c, py = t("te sized"), t("c te sized"), t("pytrec official")
    if mine is not None and c is not None:
        row("3 trec_eval, 200 x 1,000, official", mine, c, py,
            f"{mine / c:.2f}x C (target <= 1x: {met(mine <= c)}); {mb('te sized'):.0f} MB (target < 80 MB: "
            f"{met(mb('te sized') < 80)}; C {mb('c te sized'):.0f} MB)")
    loop, c, track = t("rf loop"), t("c loop"), t("track")
    if loop is not None and c is not None:
        row("4a shell loop of trec_eval -c, 100 runs", loop, c, None, f"{loop / c:.2f}x C's loop (target <= 3x: "
            f"{met(loop <= 3 * c)})")
    if track is not None and c is not None:
        row("4b eval runs/* --format trec vs C's loop", track, c, t("pytrec track"),
            f"{c / track:.2f}x faster than C's loop (target >= 3x: {met(c >= 3 * track)})")
    mine, c, py = t("ndcg"), t("c ndcg"), t("pytrec")
    if mine is not None and c is not None and py is not None:
        fast = py >= 10 * mine and c >= 10 * mine
        row("5 7M rows, NDCG@10", mine, c, py,
            f"{py / mine:.1f}x pytrec_eval, {c / mine:.1f}x C (target >= 10x both: {met(fast)});"
            f" {mb('ndcg'):.0f} MB vs C {mb('c ndcg'):.0f} MB (target at most C's: {met(mb('ndcg') <= mb('c ndcg'))})")
    return rows
