"""PyTerrier 1.1.2's `pt.Experiment` with rankflavor: as its ir_measures provider, and `compare --table pyterrier`
against Experiment's own table. DataFrames only (results frames as PyTerrier's transformers return them: qid,
docno, score, rank, with its query and docid columns beside): no index, no Java.

pt.Experiment evaluates with `ir_measures.iter_calc` (pyterrier/_evaluation/_execution.py), ir_measures'
DefaultPipeline: `rankflavor.ir_measures.prefer()` puts rankflavor's provider first in it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from peerdata import close, random_case, require

from heavy import need_module

ir_measures = require("ir_measures")
pt = need_module("pyterrier", "pyterrier")
need_module("pyterrier", "statsmodels")
import rankflavor.ir_measures as rim  # noqa: E402
from rankflavor.compare import compare  # noqa: E402

MEASURES = ["nDCG@10", "AP", "P@5", "RR", "R@100", "Judged@10", "RBP(rel=1)", "NumRet"]
SUFFIXES = (" +", " -", " p-value", " reject", " p-value corrected")


def frames(case, runs: int):
    """The case's qrels (qid, docno, label), topics, and `runs` results frames (the case's run, then the same run
    with every score perturbed by a seeded noise, so the runs differ query by query)."""
    qrels = pd.DataFrame([(q, d, g) for q, docs in case.qrels.items() for d, g in docs.items()],
                         columns=["qid", "docno", "label"])
    topics = pd.DataFrame({"qid": sorted(case.qrels), "query": [f"text of {q}" for q in sorted(case.qrels)]})
    rng = np.random.default_rng(case.seed)
    results = []
    for i in range(runs):
        rows = [(q, d, s + (rng.normal(0, 1.5) if i else 0.0)) for q, docs in case.run.items() for d, s in docs.items()]
        frame = pd.DataFrame(rows, columns=["qid", "docno", "score"])
        frame = frame.sort_values(["qid", "score"], ascending=[True, False], kind="stable")
        frame["rank"] = frame.groupby("qid").cumcount()
        frame["query"] = "text of " + frame["qid"]
        frame["docid"] = np.arange(len(frame))
        results.append(frame.reset_index(drop=True))
    return qrels, topics, results


def experiment(results, topics, qrels, **kwargs):
    ms = [ir_measures.parse_measure(m) for m in MEASURES]
    return pt.Experiment(results, topics, qrels, ms, names=[f"run{i}" for i in range(len(results))], **kwargs)


@pytest.mark.parametrize("seed", range(6))
def test_experiment_picks_rankflavor_and_gets_the_same_numbers(seed, monkeypatch):
    qrels, topics, results = frames(random_case(seed, max_docs=20), 2)
    theirs = experiment(results, topics, qrels, perquery=True)
    used = []
    original = rim.RankflavorEvaluator._iter_calc
    monkeypatch.setattr(rim.RankflavorEvaluator, "_iter_calc", lambda self, run: used.append(1) or original(self, run))
    with rim.prefer():
        ours = experiment(results, topics, qrels, perquery=True)
    assert len(used) == 2  # one evaluation per system, by rankflavor
    key = ["name", "qid", "measure"]
    merged = theirs.merge(ours, on=key, suffixes=("_pt", "_rf"), validate="one_to_one")
    assert len(merged) == len(theirs) == len(ours) > 0
    for row in merged.itertuples():
        assert close(row.value_rf, row.value_pt), (seed, row.name, row.qid, row.measure, row.value_rf, row.value_pt)


@pytest.mark.parametrize("seed", range(8))
def test_compare_pyterrier_table_is_experiments_table(seed):
    """compare(test="t", baseline=...).pyterrier_table() against pt.Experiment(baseline=0, correction="holm"):
    the same columns in the same layout, and the same values. Where every paired difference is 0, scipy's t-test
    is 0/0 (NaN) and rankflavor's t_test says p = 1 (compare/pyterrier.py): that case is checked as documented, and
    the measure's reject and corrected columns are left out (statsmodels' Holm rejects a NaN p-value)."""
    case = random_case(seed, max_docs=20)
    qrels, topics, results = frames(case, 3)
    theirs = experiment(results, topics, qrels, baseline=0, correction="holm")
    runs = {f"run{i}": frame for i, frame in enumerate(results)}
    cmp = compare(qrels, runs, [f"ir_measures.{m}" for m in MEASURES], baseline="run0", test="t",
                  query_set="qrels")  # (PyTerrier's: every judged query, a missing one 0; --table pyterrier's default)
    ours = cmp.pyterrier_table().rename(columns=lambda c: c.removeprefix("ir_measures."))
    for frame in (theirs, ours):  # name, the measures (PyTerrier: in the order its provider yields them), groups
        measures = [c for c in frame.columns[1:] if not c.endswith(SUFFIXES)]
        assert list(frame.columns) == ["name", *measures, *(m + s for m in measures for s in SUFFIXES)]
    assert set(theirs.columns) == set(ours.columns) and list(ours.name) == list(theirs.name)
    compared = 0
    for measure in (c for c in theirs.columns[1:] if not c.endswith(SUFFIXES)):
        degenerate = [i for i in range(1, len(theirs)) if math.isnan(theirs[f"{measure} p-value"][i])]
        for i in degenerate:  # every paired difference 0: scipy's NaN, rankflavor's p = 1
            assert theirs[f"{measure} +"][i] == theirs[f"{measure} -"][i] == 0, (seed, measure, i)
            assert ours[f"{measure} p-value"][i] == 1.0 and not ours[f"{measure} reject"][i], (seed, measure, i)
        columns = [measure, f"{measure} +", f"{measure} -"]
        if not degenerate:  # (statsmodels' Holm over a NaN p-value rejects it: left out)
            columns += [f"{measure} p-value", f"{measure} reject", f"{measure} p-value corrected"]
        for column in columns:
            for i, (mine, peer) in enumerate(zip(ours[column], theirs[column], strict=True)):
                label = (seed, column, i, mine, peer)
                if column.endswith(" reject"):
                    assert bool(mine) == bool(peer), label
                elif isinstance(peer, float) and math.isnan(peer):
                    assert math.isnan(mine), label
                else:
                    assert close(float(mine), float(peer)), label
                    compared += 1
    assert compared > 0


def test_without_a_baseline_the_table_is_name_and_measures():
    qrels, topics, results = frames(random_case(1), 2)
    theirs = experiment(results, topics, qrels)
    cmp = compare(qrels, {"run0": results[0], "run1": results[1]}, [f"ir_measures.{m}" for m in MEASURES], test="t",
                  query_set="qrels")
    ours = cmp.pyterrier_table().rename(columns=lambda c: c.removeprefix("ir_measures."))
    assert sorted(ours.columns) == sorted(theirs.columns) and ours.columns[0] == "name"
    for column in theirs.columns[1:]:
        assert all(close(a, b) for a, b in zip(ours[column], theirs[column], strict=True)), column
