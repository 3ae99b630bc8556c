"""One query set per comparison (issue 24 item 1): random runs with random missing queries, every number of
`compare --table` (text and JSON) and of the comparison JSON recomputed plainly over the stated query set:
the means from `rankflavor eval`'s per-query values, the differences, scipy's paired t-test, Holm by hand; and
no cell marks a run significantly better than a run whose mean over that set is higher. And Comparison.verify()
(item 5): it finds nothing wrong in a comparison, and names each number tampered with."""

from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

import rankflavor as rf
import rankflavor.compare as rc
from rankflavor.cli.main import main
from rankflavor.compare.query_set import QuerySetError

SPECS = ["ndcg@3", "p@2", "ndcg@3 gain=exp2 empty=skip"]
ALPHA = 0.5  # (a high alpha, so that some cells are marked on a handful of queries)


@st.composite
def judged_runs(draw):
    """qrels of 3..8 queries, and 2..3 runs each answering a random subset of them (at least one)."""
    n = draw(st.integers(3, 8))
    queries = [f"q{i}" for i in range(n)]
    qrels = {q: {f"d{j}": draw(st.sampled_from([0, 1, 2])) for j in range(draw(st.integers(1, 4)))} for q in queries}
    runs = {}
    for name in ["A", "B", "C"][: draw(st.integers(2, 3))]:
        answered = draw(st.lists(st.sampled_from(queries), min_size=1, max_size=n, unique=True))
        runs[name] = {q: {f"d{j}": float(draw(st.integers(0, 5))) for j in range(draw(st.integers(1, 5)))}
                      for q in answered}
    return qrels, runs


def _write(folder, qrels, runs):
    (folder / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()))
    for name, run in runs.items():
        lines = [f"{q} Q0 {d} {r + 1} {s} {name}\n" for q, docs in run.items()
                 for r, (d, s) in enumerate(sorted(docs.items(), key=lambda x: -x[1]))]
        (folder / name).write_text("".join(lines))
    return [str(folder / "qrels"), *(str(folder / name) for name in runs)]


def _cli(capsys, *args) -> tuple[str, str]:
    assert main(list(args)) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def _holm(p: list[float]) -> list[float]:
    """Holm (1979), step by step: the i-th smallest of m p-values times (m - i), never below the one before."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        out[i] = running
    return out


def _expected(qrels, runs, spec):
    """Plain recomputation over the common set: the judged queries every run answers, less those some run
    leaves undefined under the flavor; per run the mean, per pair the difference and scipy's t-test p."""
    report = rf.evaluate(qrels, runs, spec)
    common = [q for q in qrels if all(q in run for run in runs.values())]
    values = {r: [report.value(q, r, spec) for q in common] for r in runs}
    kept = [i for i in range(len(common)) if all(values[r][i] is not None for r in runs)]
    per_run = {r: np.array([values[r][i] for i in kept], dtype=float) for r in runs}
    means = {r: (float(v.mean()) if len(v) else None) for r, v in per_run.items()}
    pairs = {}
    for a, b in itertools.combinations(runs, 2):
        d = per_run[a] - per_run[b]
        p = float(stats.ttest_rel(per_run[a], per_run[b]).pvalue) if len(d) > 1 and np.ptp(d) > 0 else None
        pairs[(a, b)] = (float(d.mean()) if len(d) else None, p)
    return len(common), len(kept), means, pairs


@settings(max_examples=25, deadline=None,  # (capsys is read after each call: no state carries over)
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(judged_runs())
def test_every_number_of_a_comparison_is_over_its_stated_query_set(tmp_path_factory, capsys, data):
    qrels, runs = data
    files = _write(tmp_path_factory.mktemp("qset"), qrels, runs)
    measures = [x for spec in SPECS for x in ("-m", spec)]
    common = {"size": 0}
    full, err = _cli(capsys, "compare", *files, *measures, "--test", "t", "--alpha", str(ALPHA), "--format", "json")
    full = json.loads(full)
    lacking = {r: len(qrels) - len(run) for r, run in runs.items() if len(run) < len(qrels)}
    assert full["query_set"]["lacking"] == lacking and ("warning: the runs answer different queries" in err) == bool(
        lacking)
    for r, n in lacking.items():
        assert f"{r} lacks {n}" in err
    table_json, _ = _cli(capsys, "compare", *files, *measures, "--test", "t", "--alpha", str(ALPHA), "--table",
                         "--format", "json")
    table_json = json.loads(table_json)
    text, _ = _cli(capsys, "compare", *files, *measures, "--test", "t", "--alpha", str(ALPHA), "--table")
    cells = {(c["run"], c["measure"]): c for c in table_json["cells"]}
    for spec in SPECS:
        size, n, means, pairs = _expected(qrels, runs, spec)
        common["size"] = size
        rows = {(p["run_a"], p["run_b"]): p for p in full["pairs"] if p["label"] == spec}
        for run, mean in means.items():
            for got in (cells[(run, spec)]["mean"], *(m["mean"] for m in full["means"]
                                                      if m["label"] == spec and m["run"] == run)):
                assert got == pytest.approx(mean, abs=1e-12) if mean is not None else got is None
        p_values = []
        for (a, b), (diff, p) in pairs.items():
            row = rows[(a, b)]
            assert (row["n"], row["excluded"]) == (n, size - n)
            assert row["diff"] == pytest.approx(diff, abs=1e-12) if diff is not None else row["diff"] is None
            if p is not None:
                assert row["p"] == pytest.approx(p, rel=1e-9)
            p_values.append(row["p"])
        known = [i for i, p in enumerate(p_values) if p is not None]
        adjusted = _holm([p_values[i] for i in known]) if len(known) > 1 else [p_values[i] for i in known]
        for i, p_holm in zip(known, adjusted, strict=True):
            assert list(rows.values())[i]["p_holm"] == pytest.approx(p_holm, rel=1e-9)
        _check_marks(text, table_json, spec, means)
    assert re.search(f"over the {common['size']} quer(y|ies) every run answers", text)
    assert full["query_set"]["size"] == common["size"] == table_json["query_set"]["size"]


def _check_marks(text: str, table_json: dict, spec: str, means: dict) -> None:
    """No run marked significantly better than a run whose mean over the set is higher; the text table prints
    each mean of the JSON cells at 4 decimals, with the same letters."""
    column = table_json["measures"].index(spec)
    for cell in (c for c in table_json["cells"] if c["measure"] == spec):
        for loser in cell["better_than"]:
            assert means[cell["run"]] >= means[loser]
        line = next(x for x in text.splitlines() if x.startswith(f"({table_json['letters'][cell['run']]}) "))
        printed = re.split(r"\s{2,}", line.strip())[1 + column]
        expected = "null" if cell["mean"] is None else f"{cell['mean']:.4f}"
        interval = "" if cell["ci_low"] is None else f"[{cell['ci_low']:.4f}, {cell['ci_high']:.4f}]"
        assert printed == " ".join(x for x in (expected, cell["marks"], interval) if x)


def test_the_issues_case_a_answering_half_the_queries_is_compared_over_that_half(tmp_path, capsys):
    """Run A answers 10 of 20 queries, B all 20: each run's own mean ordered them one way and the paired test
    the other; over the common set both agree, and the caption and a warning say so."""
    qrels = {f"q{i:02d}": {"r": 1, "n": 0} for i in range(20)}
    good, bad = {"r": 2.0, "n": 1.0}, {"r": 1.0, "n": 2.0}
    a = {f"q{i:02d}": (good if i < 7 else bad) for i in range(10)}  # 7 of its 10 right
    b = {f"q{i:02d}": (good if i < 10 else bad) for i in range(20)}  # A's 10 right, the others wrong
    files = _write(tmp_path, qrels, {"A": a, "B": b})
    out, err = _cli(capsys, "compare", *files, "-m", "p@1", "--table")  # (each run's own mean: A 0.70, B 0.50)
    assert "(a) A  0.7000 [" in out and "\n(b) B  1.0000 [1.0000, 1.0000]" in out
    assert "over the 10 queries every run answers (query set common, of 20 judged: A lacks 10)" in out
    assert "warning: the runs answer different queries (A answers 10, B answers 20 of the 20 judged)" in err
    assert main(["compare", *files, "-m", "p@1", "--query-set", "qrels"]) == 2
    assert "use --query-set common" in capsys.readouterr().err
    out, _ = _cli(capsys, "compare", *files, "-m", "p@1 missing=zero", "--query-set", "qrels", "--table")
    assert "(a) A  0.3500 [" in out and "\n(b) B  0.5000 [" in out
    assert "over all 20 judged queries (query set qrels; A lacks 10" in out


def test_diff_of_two_runs_compares_them_over_one_query_set(tmp_path, capsys):
    """The same case through `diff`: each run's own mean put A ahead (0.70 vs 0.50); the systems part of the walk
    is over the queries both answer (A 0.70, B 1.00), as compare's, with the warning; qrels under missing=zero."""
    qrels = {f"q{i:02d}": {"r": 1, "n": 0} for i in range(20)}
    good, bad = {"r": 2.0, "n": 1.0}, {"r": 1.0, "n": 2.0}
    a = {f"q{i:02d}": (good if i < 7 else bad) for i in range(10)}
    b = {f"q{i:02d}": (good if i < 10 else bad) for i in range(20)}
    files = _write(tmp_path, qrels, {"A": a, "B": b})
    att = rc.diff(files[0], files[1:], "p@1", "p@2")
    first = att.steps[att.steps.step == 0].set_index("run")["mean"]
    assert (first["A"], first["B"]) == pytest.approx((0.7, 1.0))
    assert att.query_set.size == 10 and "over the 10 queries every run answers" in att.summary[-1]
    out, err = _cli(capsys, "diff", *files, "-m", "p@1", "-m", "p@2")
    assert "0     start          0.700000             1.000000             -0.300000" in out, out
    assert "warning: the runs answer different queries (A answers 10, B answers 20 of the 20 judged)" in err
    zero = rc.diff(files[0], files[1:], "p@1 missing=zero", "p@2 missing=zero", query_set="qrels")
    first = zero.steps[zero.steps.step == 0].set_index("run")["mean"]
    assert (first["A"], first["B"]) == pytest.approx((0.35, 0.5)) and zero.query_set.name == "qrels"
    with pytest.raises(QuerySetError, match="use --query-set common"):
        rc.diff(files[0], files[1:], "p@1", "p@2", query_set="qrels")
    one = rc.diff(files[0], files[1], "p@1", "p@2")  # (one run: its own queries, no set)
    assert one.query_set is None and one.steps["mean"].iloc[0] == pytest.approx(0.7)


@settings(max_examples=15, deadline=None)
@given(judged_runs(), st.sampled_from(["randomization", "t"]))
def test_verify_recomputes_every_number_and_finds_none_wrong(data, test):
    qrels, runs = data
    cmp = rc.compare(qrels, runs, [*SPECS, "gm_map", "num_rel_ret", "ndcg@3 round=2 mean_of=rounded"], test=test,
                     n_resamples=300, alpha=ALPHA)
    assert cmp.verify() == []


def test_verify_names_each_number_that_differs(tmp_path, capsys):
    qrels = {f"q{i}": {"r": 1, "n": 0} for i in range(6)}
    runs = {"A": {f"q{i}": {"r": 2.0 - (i % 2), "n": 1.0 + (i % 2)} for i in range(6)},
            "B": {f"q{i}": {"r": 1.0, "n": 2.0} for i in range(5)},
            "C": {f"q{i}": {"r": 2.0, "n": 1.0} for i in range(6)}}
    cmp = rc.compare(qrels, runs, ["p@1", "ndcg@2"], n_resamples=200)
    assert cmp.verify() == []
    cmp.means.loc[0, "mean"] += 0.01
    cmp.pairs.loc[1, "p_holm"] /= 2
    cmp.pairs.loc[2, "winner"] = "A"
    cmp.pairs.loc[3, "ci_high"] += 0.01  # (the bootstrap interval: its seeded resamples run again)
    found = {(d.flavor, d.where, d.what) for d in cmp.verify()}
    row1, row2, row3 = cmp.pairs.iloc[1], cmp.pairs.iloc[2], cmp.pairs.iloc[3]
    assert found == {("p@1", "A", "mean"), (row1.label, f"{row1.run_a} vs {row1.run_b}", "p_holm"),
                     (row2.label, f"{row2.run_a} vs {row2.run_b}", "winner"),
                     (row3.label, f"{row3.run_a} vs {row3.run_b}", "ci_high")}
    files = _write(tmp_path, qrels, runs)
    _, err = _cli(capsys, "compare", *files, "-m", "p@1", "--table", "--verify")
    assert ("verify: every mean, interval, difference, effect size, p-value and correction recomputed from the "
            "per-query values agrees") in err
