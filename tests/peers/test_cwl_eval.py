"""The C/W/L family and `cwl_eval.NAME` (metrics/cwl.py, dialects/cwl_eval.py) against cwl_eval 1.0.12 itself,
per query, on the same files.

cwl_eval is called two ways: its measure classes on the Rankings its own RankingMaker builds from its own
TrecQrelHandler (the loop of cwl/cwl_eval.py main, every number at full precision: EU, ETU, EC, ETC, ED from
get_scores(), the residuals from measure() with residuals=True), and its command line (`cwl-eval -n -r -m FILE`,
and its default measures) whose 4-decimal lines are compared with ours. The cases are random (hypothesis,
bounded): tied scores (the run file is written in score order, ties in the order drawn: cwl_eval ranks by file
order, ties=input), grades 0, 0.5, 1 (or 0..3 with --max_gain 3), unjudged docs, lists longer than a small
--max_depth, judged queries absent from the run (cwl_eval prints nothing for them: missing=skip) and run queries
absent from the qrels (cwl_eval prints them, with every gain 0; rankflavor does not score them:
unjudged_queries=skip).
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from peerdata import require

import rankflavor as rf

cwl = require("cwl")
from cwl.ruler import measures  # noqa: E402  (after the skip)
from cwl.ruler.ranking import RankingMaker  # noqa: E402
from cwl.seeker.trec_qrel_handler import TrecQrelHandler  # noqa: E402

CWL_EVAL = Path(sys.executable).with_name("cwl-eval")
COLUMNS = ("eu", "etu", "ec", "etc", "ed")
UNIT = ["RBPCWLMetric(0.8)", "RBPCWLMetric(0.5)", "PrecisionCWLMetric(3)", "NDCGCWLMetric(4)", "RRCWLMetric()",
        "APCWLMetric()", "INSTCWLMetric(1.0)", "INSTCWLMetric(2)", "INSQCWLMetric(1.5)", "BPMCWLMetric(1.0,4)",
        "BPMCWLMetric(2,10)", "BPMDCWLMetric(1,4,1.0,1.0,0.5)", "BPMDCWLMetric(2,10,0.5,3.0,0.2)",
        "NERReq8CWLMetric(3)", "NERReq9CWLMetric(4)", "NERReq10CWLMetric(0.7)", "NERReq11CWLMetric(1.0)",
        "NPVCWLMetric(0.1)", "SETCWLMetric(0.5,3)", "TBGCWLMetric(5)", "TBGCWLMetric(224)", "UMeasureCWLMetric(4)",
        "UMeasureCWLMetric(1000)"]
# the measures that take gains above 1, as rankflavor names them (max_gain=3: cwl_eval --max_gain 3; D: --max_depth)
GRADED = {"RBPCWLMetric(0.8)": "cwl_rbp(theta=0.8, max_gain=3, depth=D)", "PrecisionCWLMetric(3)":
          "cwl_p(max_gain=3, depth=D)@3", "NDCGCWLMetric(4)": "cwl_sdcg(max_gain=3, depth=D)@4", "RRCWLMetric()":
          "cwl_rr(max_gain=3, depth=D)", "APCWLMetric()": "cwl_ap(max_gain=3, depth=D)", "INSQCWLMetric(1.0)":
          "cwl_insq(T=1, max_gain=3, depth=D)", "BPMCWLMetric(2.0,4)": "cwl_bpm(T=2, K=4, max_gain=3, depth=D)"}
QUERIES = ["q1", "q2", "q3", "q4"]
DOCS = [f"d{i}" for i in range(9)]
SCORES = [3.0, 2.0, 2.0, 1.0, 0.5]


def cwl_metric(line: str):
    """A measure of cwl_eval from a line of its metrics file (cwl_ruler.py populate_list: args read with float()
    when they hold a dot, else int(); the class looked up in every module of cwl/ruler/measures, as
    get_class_list does)."""
    name, _, args = line.partition("(")
    values = [float(a) if "." in a else int(a) for a in args.rstrip(")").split(",") if a]
    for info in pkgutil.iter_modules(measures.__path__):
        found = getattr(importlib.import_module(f"{measures.__name__}.{info.name}"), name, None)
        if found is not None:
            return found(*values)
    raise AssertionError(f"cwl_eval has no measure class {name}")


def cwl_numbers(qrels: Path, run: Path, line: str, max_gain: float = 1.0, depth: int = 1000,
                ) -> dict[str, dict[str, float]]:
    """cwl_eval's numbers per run query, as cwl_eval.py main computes them (one Ranking per topic, in file order)."""
    handler = TrecQrelHandler(str(qrels))
    metric = cwl_metric(line)
    metric.residuals = True
    out: dict[str, dict[str, float]] = {}
    topics: dict[str, list[tuple[str, str]]] = {}
    for text in run.read_text().splitlines():
        topic, element, doc, *_ = text.split()
        topics.setdefault(topic, []).append((doc, element))
    for topic, docs in topics.items():
        maker = RankingMaker(topic, handler, None, max_gain=max_gain, max_cost=1.0, min_cost=1.0, max_n=depth)
        for doc, element in docs:
            maker.add(doc, element)
        metric.measure(maker.get_ranking())
        residuals = (metric.residual_expected_utility, metric.residual_expected_total_utility,
                     metric.residual_expected_cost, metric.residual_expected_total_cost, metric.residual_expected_items)
        out[topic] = {**dict(zip(COLUMNS, metric.get_scores(), strict=True)),
                      **{f"res_{c}": float(v) for c, v in zip(COLUMNS, residuals, strict=True)}}
    return out


def ours(qrels: Path, run: Path, spec: str) -> dict[str, dict]:
    return {row["query"]: row for row in rf.evaluate(str(qrels), str(run), spec).results[0].per_query()
            if row["status"] != "missing"}


@st.composite
def cases(draw, grades):
    qrels = {}
    for q in draw(st.lists(st.sampled_from(QUERIES), min_size=1, max_size=3, unique=True)):
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=6, unique=True))
        qrels[q] = {d: draw(st.sampled_from(grades)) for d in docs}
    run = {}
    for q in draw(st.lists(st.sampled_from([*QUERIES, "q5"]), min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=9, unique=True))
        run[q] = {d: draw(st.sampled_from(SCORES)) for d in docs}
    return qrels, run


def write(directory: Path, qrels, run) -> tuple[Path, Path]:
    """The qrels, and the run in score order, ties in the order drawn (cwl_eval ranks by file order)."""
    qrels_path, run_path = directory / "cwl.qrels", directory / "cwl.run"
    qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()))
    lines = []
    for q, docs in run.items():
        ranked = sorted(docs.items(), key=lambda item: -item[1])
        lines += [f"{q} Q0 {d} {i} {s} rf\n" for i, (d, s) in enumerate(ranked, start=1)]
    run_path.write_text("".join(lines))
    return qrels_path, run_path


def compare(mine: dict[str, dict], theirs: dict[str, dict[str, float]], qrels, label: str) -> None:
    assert set(mine) == {q for q in theirs if q in qrels}, label  # (run queries without judgments: not scored)
    for q, row in mine.items():
        for name, value in theirs[q].items():
            assert math.isclose(row[name], value, rel_tol=1e-9, abs_tol=1e-9), (label, q, name, row[name], value)
        assert row["value"] == row["eu"], label


SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                          HealthCheck.too_slow])


@SETTINGS
@given(cases([0, 0.5, 1, 1]))
def test_cwl_eval_names_match_cwl_eval(tmp_path, data):
    qrels, run = data
    qrels_path, run_path = write(tmp_path, qrels, run)
    for line in UNIT:
        compare(ours(qrels_path, run_path, f"cwl_eval.{line}"), cwl_numbers(qrels_path, run_path, line), qrels, line)


@SETTINGS
@given(cases([0, 1, 2, 3]), st.sampled_from([1000, 3]))
def test_graded_gains_and_a_short_depth_match_cwl_eval(tmp_path, data, depth):
    qrels, run = data
    qrels_path, run_path = write(tmp_path, qrels, run)
    for line, name in GRADED.items():
        spec = name.replace("depth=D", f"depth={depth}") + " ties=input negative=error"
        compare(ours(qrels_path, run_path, spec), cwl_numbers(qrels_path, run_path, line, 3.0, depth), qrels, spec)


@SETTINGS
@given(cases([0, 0.5, 1, 1]))
def test_precision_is_cwl_evals_to_the_last_bit(tmp_path, data):
    """P@k's expected utility, and its expected cost, are np.dot of the weights and the gains (cwl_metrics.py
    CWLMetric._do_score): the same BLAS sums here (metrics/cwl.py dot_rows), so the numbers are equal, not close."""
    qrels, run = data
    qrels_path, run_path = write(tmp_path, qrels, run)
    for k in (3, 5, 7):
        line = f"PrecisionCWLMetric({k})"
        mine, theirs = ours(qrels_path, run_path, f"cwl_eval.{line}"), cwl_numbers(qrels_path, run_path, line)
        for q, row in mine.items():
            assert (row["eu"], row["ec"]) == (theirs[q]["eu"], theirs[q]["ec"]), (line, q)


def printed(lines: list[str]) -> dict[tuple[str, str], list[float]]:
    """cwl-eval's lines (-n: a heading first) by (topic, measure name)."""
    return {(cells[0], cells[1]): [float(c) for c in cells[2:]] for cells in (line.split("\t") for line in lines[1:])}


def as_spec(name: str) -> str:
    """A printed name as a `cwl_eval.` name: INST-T=x (its `=` cannot stand in a head) as INSTCWLMetric(x)."""
    inst = re.fullmatch(r"INST-T=(.+)", name)
    return f"cwl_eval.INSTCWLMetric({inst.group(1)})" if inst else f"cwl_eval.{name}"


def test_the_command_line_prints_our_numbers(tmp_path):
    """`cwl-eval -n` with its default measures, and `-n -r -m FILE`: every printed number of every judged query is
    ours to 4 decimals, under the name cwl_eval prints (or its metrics-file line)."""
    qrels = {"q1": {"d1": 1, "d2": 0.5, "d3": 0}, "q2": {"d4": 1, "d5": 0.5}, "q3": {"d1": 1}}
    run = {"q1": {"d1": 2.0, "d9": 2.0, "d2": 1.0, "d3": 0.5, "d4": 0.1}, "q2": {"d6": 3.0, "d5": 1.0, "d4": 1.0},
           "q4": {"d1": 1.0}}
    qrels_path, run_path = write(tmp_path, qrels, run)
    (tmp_path / "metrics.txt").write_text("".join(f"{line}\n" for line in UNIT))
    for extra, names in (([], None), (["-r", "-m", "metrics.txt"], UNIT)):
        out = subprocess.run([str(CWL_EVAL), "-n", *extra, qrels_path.name, run_path.name], cwd=tmp_path,
                             capture_output=True, text=True, check=True).stdout.splitlines()
        lines = printed(out)
        assert {topic for topic, _ in lines} == {"q1", "q2", "q4"}  # (q3, judged but not run: not printed)
        shown = list(dict.fromkeys(name for _, name in lines))
        for position, name in enumerate(shown):
            spec = f"cwl_eval.{names[position]}" if names else as_spec(name)
            mine = ours(qrels_path, run_path, spec)
            for q in ("q1", "q2"):
                numbers = [mine[q][c] for c in COLUMNS] + ([mine[q][f"res_{c}"] for c in COLUMNS] if names else [])
                for got, shown_value in zip(numbers, lines[q, name], strict=True):
                    assert abs(got - shown_value) <= 0.5e-4 + 1e-12, (spec, q, got, shown_value)
