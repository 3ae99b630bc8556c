"""gdeval.pl (the copy shipped in ir_measures/bin, run with perl) against the `gdeval` preset.

gdeval prints `runid,topic,ndcg@k,err@k` with %.5f, only for topics with a judgment > 0 that the run
retrieved: the preset's empty=skip and missing=skip leave exactly those out, and round=5 matches the
printed digits. Topic ids must be numeric and judgments at most 4 (the script dies otherwise).
"""

from __future__ import annotations

import importlib.resources
import shutil
import subprocess

import pytest
from peerdata import random_case, require, rf_mean, rf_values

ir_measures = require("ir_measures")
GDEVAL = importlib.resources.files("ir_measures") / "bin" / "gdeval.pl"
pytestmark = pytest.mark.skipif(shutil.which("perl") is None, reason="gdeval.pl needs perl")

SEEDS = range(20)
CUTOFFS = (1, 5, 20)


def gdeval(qrels_path, run_path, k: int, column: str = "ndcg") -> dict[str, str]:
    out = subprocess.run(["perl", str(GDEVAL), str(qrels_path), str(run_path), str(k)], check=True,
                         capture_output=True, text=True).stdout
    rows = [line.split(",") for line in out.splitlines()[1:] if line]
    return {topic: (ndcg if column == "ndcg" else err) for _run, topic, ndcg, err in rows}


@pytest.mark.parametrize("seed", SEEDS)
def test_gdeval_matches_printed_digits(seed, tmp_path):
    case = random_case(seed, numeric_ids=True)
    qrels_path, run_path = case.write(tmp_path)
    for k in CUTOFFS:
        theirs = gdeval(qrels_path, run_path, k)
        ours = rf_values(f"gdeval@{k}", case.qrels, case.run)
        raw = rf_values(f"gdeval@{k}", case.qrels, case.run, raw=True)
        assert {q for q, v in ours.items() if v is not None} == set(theirs), f"seed {seed} @{k}"
        for topic, printed in theirs.items():
            # the same digits as perl's printf %.5f, and the rounded value equal to the printed one
            assert f"{raw[topic]:.5f}" == printed, f"seed {seed} @{k} topic {topic}: {raw[topic]!r} vs {printed}"
            assert abs(ours[topic] - float(printed)) < 1e-12


def test_gdeval_requires_k_and_numeric_topics():
    from rankflavor import Flavor, SpecError

    with pytest.raises(SpecError, match="needs a cutoff"):
        Flavor.parse("gdeval")
    assert str(Flavor.parse("gdeval@20")).startswith("ndcg@20 gain=exp2 discount=log(e)")


@pytest.mark.parametrize("seed", range(8))
def test_ir_measures_exp_log2_fills_unprinted_topics_with_zero(seed):
    """ir_measures' nDCG(dcg='exp-log2')@k runs gdeval and gives every unprinted qrels topic 0."""
    case = random_case(seed, numeric_ids=True)
    measure = ir_measures.nDCG(dcg="exp-log2") @ 10
    theirs = {m.query_id: m.value for m in ir_measures.iter_calc([measure], case.qrels, case.run)}
    ours = rf_values("gdeval@10 empty=zero missing=zero", case.qrels, case.run)
    assert set(theirs) == set(ours)
    for q, value in theirs.items():
        assert ours[q] == pytest.approx(value, abs=1e-12), (seed, q)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("k", [5, 20])
def test_ir_measures_over_gdeval_averages_the_printed_values(seed, k):
    """ir_measures' mean of nDCG(dcg='exp-log2')@k is the mean of gdeval's %.5f values: ir_measures.gdeval
    (mean_of=rounded); gdeval@k's own mean is of the unrounded values, rounded."""
    case = random_case(seed, numeric_ids=True)
    measure = ir_measures.nDCG(dcg="exp-log2") @ k
    theirs = ir_measures.calc_aggregate([measure], case.qrels, case.run)[measure]
    assert rf_mean(f"ir_measures.gdeval@{k}", case.qrels, case.run) == pytest.approx(theirs, abs=1e-12)
    per_query = {m.query_id: m.value for m in ir_measures.iter_calc([measure], case.qrels, case.run)}
    ours = rf_values(f"ir_measures.gdeval@{k}", case.qrels, case.run)
    assert all(ours[q] == pytest.approx(v, abs=1e-12) for q, v in per_query.items())


@pytest.mark.parametrize("seed", SEEDS)
def test_gdeval_err_matches_printed_digits(seed, tmp_path):
    """gdeval's err@k column: `err@k` with gdeval's printing (round=5) and its topics (empty=skip: a topic with
    no judgment above 0 is not printed)."""
    case = random_case(seed, numeric_ids=True)
    qrels_path, run_path = case.write(tmp_path)
    for k in CUTOFFS:
        theirs = gdeval(qrels_path, run_path, k, column="err")
        raw = rf_values(f"err@{k} empty=skip", case.qrels, case.run)
        ours = rf_values(f"err@{k} empty=skip round=5", case.qrels, case.run)
        assert {q for q, v in ours.items() if v is not None} == set(theirs), f"seed {seed} @{k}"
        for topic, printed in theirs.items():
            assert f"{raw[topic]:.5f}" == printed, f"seed {seed} @{k} topic {topic}: {raw[topic]!r} vs {printed}"
            assert ours[topic] == float(printed)
