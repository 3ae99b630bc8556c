"""ndeval (TREC Web track's ndeval.c 4.5, built from pyndeval's copy) against the diversity metrics, per query and
mean, on the goldens in ndeval_goldens/ (their README says how ndeval was built and run; tools/ndeval_goldens.py
recorded them). ndeval itself is never run here.

ndeval prints every run topic (0 for one absent from the qrels) with %.6f; its amean divides by the topics of both
the qrels and the run (-c: by the qrels' topics). nNRBP of a query with no relevant subtopic is 0/0 (`-nan`):
rankflavor gives it 0 (empty=zero), so those are left out of the comparison of nNRBP.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

import rankflavor as rf

GOLDENS = Path(__file__).parent / "ndeval_goldens"
CASES = sorted(p.name for p in GOLDENS.iterdir() if p.is_dir())
# variant -> (alpha, beta, the axes its ndeval options stand for)
VARIANTS = {
    "default": ("0.5", "0.5", ""),
    "alpha0.25_beta0.8": ("0.25", "0.8", ""),
    "alpha1": ("1", "0.5", ""),
    "complete": ("0.5", "0.5", " missing=zero"),
    "depth7": ("0.5", "0.5", " run_depth=7"),
}
PRINTED = 5e-7 + 1e-12  # %.6f


def spec(column: str, alpha: str, beta: str) -> str | None:
    """rankflavor's spelling of an ndeval column (None: a column it has no metric for)."""
    name, _, k = column.partition("@")
    at = f"@{k}" if k else ""
    return {
        "ERR-IA": f"err_ia(alpha={alpha}){at}", "nERR-IA": f"err_ia(alpha={alpha},norm=greedy){at}",
        "alpha-DCG": f"alpha_ndcg(alpha={alpha},norm=ideal_ideal){at}", "alpha-nDCG": f"alpha_ndcg(alpha={alpha}){at}",
        "NRBP": f"nrbp(alpha={alpha},beta={beta})", "nNRBP": f"nrbp(alpha={alpha},beta={beta},norm=greedy)",
        "MAP-IA": "ap_ia", "P-IA": f"p_ia{at}", "strec": f"s_recall{at}",
    }.get(name)


def printed(folder: Path, variant: str) -> tuple[list[str], dict[str, dict[str, str]]]:
    with (folder / f"{variant}.csv").open() as stream:
        rows = list(csv.DictReader(stream))
    return [c for c in rows[0] if c not in ("runid", "topic")], {row["topic"]: row for row in rows}


def qrels_topics(folder: Path) -> set[str]:
    return {line.split()[0] for line in (folder / "qrels.txt").read_text().splitlines() if line.strip()}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("case", CASES)
def test_diversity_metrics_match_ndeval(case, variant):
    folder = GOLDENS / case
    alpha, beta, axes = VARIANTS[variant]
    columns, theirs = printed(folder, variant)
    wanted = {c: spec(c, alpha, beta) + axes for c in columns if spec(c, alpha, beta)}
    assert set(wanted) == set(columns)  # (every column ndeval printed, MAP-IA too)
    report = rf.evaluate(str(folder / "qrels.txt"), str(folder / "run.txt"), list(wanted.values()))
    both = qrels_topics(folder) & {t for t in theirs if t != "amean"}
    checked = 0
    for column, written in wanted.items():
        result = report.result(report.runs[0], written)
        ours = {row["query"]: row["value"] for row in result.per_query()}
        for topic in both:
            if theirs[topic][column] in ("-nan", "nan"):
                continue  # (nNRBP of a query with no relevant subtopic: 0/0)
            assert abs(ours[topic] - float(theirs[topic][column])) <= PRINTED, (case, variant, column, topic)
            checked += 1
        mean = theirs["amean"][column]
        if mean not in ("-nan", "nan"):
            assert abs(result.mean - float(mean)) <= PRINTED, (case, variant, column, "amean")
    assert checked > 0


def test_ndeval_names_are_the_metrics():
    """`ndeval.COLUMN` stands for the metric spec the goldens test (ndeval's defaults: alpha = beta = 0.5)."""
    for column in ("ERR-IA@5", "nERR-IA@10", "alpha-DCG@20", "alpha-nDCG@20", "NRBP", "nNRBP", "MAP-IA", "P-IA@5",
                   "strec@10"):
        assert rf.Flavor.parse(f"ndeval.{column}") == rf.Flavor.parse(spec(column, "0.5", "0.5")), column


def test_ndeval_names_evaluate_as_ndeval_printed():
    folder = GOLDENS / CASES[0]
    _, theirs = printed(folder, "default")
    names = ["ndeval.alpha-nDCG@20", "ndeval.strec@5", "ndeval.MAP-IA"]
    report = rf.evaluate(str(folder / "qrels.txt"), str(folder / "run.txt"), names)
    for column, result in zip(("alpha-nDCG@20", "strec@5", "MAP-IA"), report.results, strict=True):
        assert math.isclose(result.mean, float(theirs["amean"][column]), abs_tol=PRINTED)


@pytest.mark.parametrize("name", ["ndeval.MAP-IA@5", "ndeval.alpha-nDCG", "ndeval.NRBP@5"])
def test_ndeval_names_refused(name):
    with pytest.raises(rf.SpecError):
        rf.Flavor.parse(name)


IR_MEASURES = {"ERR-IA@10": "ERR_IA@10", "nERR-IA@5": "nERR_IA@5", "alpha-DCG@10": "alpha_DCG@10",
               "alpha-nDCG@20": "alpha_nDCG(alpha=0.5)@20", "NRBP": "NRBP", "nNRBP": "nNRBP(beta=0.5)",
               "P-IA@10": "P_IA@10", "strec@20": "StRecall@20", "MAP-IA": "AP_IA"}


@pytest.mark.parametrize("case", CASES)
def test_ir_measures_names_match_ndeval_in_pyndevals_order(case):
    """`ir_measures.NAME` as its pyndeval provider computes it: the run ranked by (-score, doc id) (recorded as
    ndeval's rank column, run_pyndeval_ranks.txt) and every qrels query averaged, 0 when the run lacks it (-c)."""
    folder = GOLDENS / case
    _, theirs = printed(folder, "pyndeval_order")
    names = [f"ir_measures.{name}" for name in IR_MEASURES.values()]
    report = rf.evaluate(str(folder / "qrels.txt"), str(folder / "run.txt"), names)
    for (column, name), result in zip(IR_MEASURES.items(), report.results, strict=True):
        ours = {row["query"]: row["value"] for row in result.per_query()}
        for topic in qrels_topics(folder) & set(theirs):
            if theirs[topic][column] not in ("-nan", "nan"):
                assert abs(ours[topic] - float(theirs[topic][column])) <= PRINTED, (case, name, topic)
        if theirs["amean"][column] not in ("-nan", "nan"):
            assert abs(result.mean - float(theirs["amean"][column])) <= PRINTED, (case, name, "amean")


@pytest.mark.parametrize(("name", "message"), [("ir_measures.alpha_nDCG", "at a cutoff"),
                                               ("ir_measures.P_IA@21", "above 20"),
                                               ("ir_measures.AP_IA@5", "no parameter 'cutoff'")])
def test_ir_measures_diversity_names_refused(name, message):
    with pytest.raises(rf.SpecError, match=message):
        rf.Flavor.parse(name)


@pytest.mark.parametrize("case", CASES)
def test_ir_measures_map_ia_alias_and_judged_only(case):
    """ir_measures' MAP_IA is AP_IA (measures/diversity.py registers the alias); AP_IA(judged_only=True) drops the
    docs absent from the qrels: as pyndeval_provider.py filters the run, which no golden recorded, so it is only
    checked to be AP_IA with unjudged=skip."""
    folder = GOLDENS / case
    _, theirs = printed(folder, "pyndeval_order")
    report = rf.evaluate(str(folder / "qrels.txt"), str(folder / "run.txt"), ["ir_measures.MAP_IA"])
    assert abs(report.results[0].mean - float(theirs["amean"]["MAP-IA"])) <= PRINTED
    assert rf.Flavor.parse("ir_measures.AP_IA(judged_only=True)") == rf.Flavor.parse(
        "ap_ia ties=docid_asc missing=zero negative=keep unjudged=skip")
