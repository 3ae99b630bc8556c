"""The "Done when" of issue 24 for the HTML page: for random runs with random missing queries (test_query_set.py's
strategy), every number `rankflavor report` embeds for its tables (display/model.py `_comparison_numbers`: the
query set, each mean and n, each pair's difference, p-values, Holm and significance) agrees with a plain
recomputation over the stated query set, written here: the mean of the per-query values over the judged queries
every run answers (less those a run leaves undefined), each pair's mean difference, the exact sign-flip p-value by
enumerating the 2^n sign vectors (n <= 8 queries, fewer than the resamples: the page's test is exact), Holm by hand;
and no pair is marked significant in favour of the run whose mean over that set is lower. (The --table text, its
JSON and the comparison JSON: test_query_set.py.)"""

from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import rankflavor as rf
from heavy import need_group
from rankflavor.cli.main import main
from rankflavor.flavor import parse_spec
from test_query_set import _holm, _write, judged_runs

need_group("report")

SPECS = ["ndcg@3", "p@2"]
ALPHA = 0.5  # (a high alpha, so that some pairs are significant on a handful of queries)


def _exact_p(d: np.ndarray) -> float:
    """Two-sided sign-flip p-value: the share of the 2^n sign vectors whose |sum| reaches the observed one (ties
    within 1e-9 of the total magnitude count as reaching it)."""
    observed = abs(d.sum())
    signs = np.array(list(itertools.product((1.0, -1.0), repeat=len(d))))
    return float(np.mean(np.abs(signs @ d) >= observed - 1e-9 * np.abs(d).sum()))


def _plain(qrels, runs, spec):
    """(the common queries, per run its values over the kept ones) from each run's per-query values."""
    report = rf.evaluate(qrels, runs, spec)
    common = [q for q in sorted(qrels) if all(q in run for run in runs.values())]
    values = {r: [report.value(q, r, spec) for q in common] for r in runs}
    kept = [i for i in range(len(common)) if all(values[r][i] is not None for r in runs)]
    return common, {r: np.array([values[r][i] for i in kept], dtype=float) for r in runs}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(judged_runs())
def test_the_pages_embedded_numbers_are_over_its_stated_query_set(tmp_path_factory, capsys, data):
    qrels, runs = data
    folder = tmp_path_factory.mktemp("page")
    files = _write(folder, qrels, runs)
    page = folder / "page.html"
    measures = [x for spec in SPECS for x in ("-m", spec)]
    assert main(["report", *files, *measures, "--alpha", str(ALPHA), "--resamples", "1000", "-o", str(page)]) == 0
    capsys.readouterr()
    embedded = json.loads(re.search(r'<script type="application/json" id="rf-data">(.*?)</script>',
                                    page.read_text(encoding="utf-8"), re.S).group(1))["comparison"]
    for spec in SPECS:
        flavor = str(parse_spec(spec)[0])
        common, values = _plain(qrels, runs, spec)
        assert embedded["query_set"]["size"] == len(common)
        means = {r: (float(v.mean()) if len(v) else None) for r, v in values.items()}
        for row in (m for m in embedded["means"] if m["flavor"] == flavor):
            assert row["n"] == len(values[row["run"]])
            assert row["mean"] is None if means[row["run"]] is None else row["mean"] == pytest.approx(
                means[row["run"]], abs=1e-12)
        pairs = [p for p in embedded["pairs"] if p["flavor"] == flavor]
        assert pairs
        p_values = []
        for pair in pairs:
            d = values[pair["run_a"]] - values[pair["run_b"]]
            assert pair["n"] == len(d)
            if not len(d):
                assert pair["diff"] is None and not pair["significant"]
                continue
            assert pair["diff"] == pytest.approx(d.mean(), abs=1e-12)
            assert pair["p"] == pytest.approx(_exact_p(d), abs=1e-12)
            p_values.append((pair, pair["p"]))
        for (pair, _), p_holm in zip(p_values, _holm([p for _, p in p_values]), strict=True):
            assert pair["p_holm"] == pytest.approx(p_holm, abs=1e-12)
            assert pair["significant"] == (p_holm < ALPHA)
            if pair["significant"]:
                winner, loser = ((pair["run_a"], pair["run_b"]) if pair["diff"] > 0 else
                                 (pair["run_b"], pair["run_a"]))
                assert pair["winner"] == winner and means[winner] >= means[loser]
