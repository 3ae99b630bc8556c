"""trec_eval's measure sets (`trec_eval.official`, `trec_eval.all_trec`, and pytrec_eval's): the names in
trec_eval's print order, the `runid` and `num_q` lines of `--format trec`, the overrides each member reads, and
every value against pytrec_eval evaluating the same set (`RelevanceEvaluator(qrels, {'official'})`), per query.

pytrec_eval gives per-query values only: the summary is checked through the Python API, against the mean of
pytrec_eval's per-query values (the sum for the counts; for gm_map and gm_bpref, trec_eval's geometric mean:
exp of the mean of the per-query logs, meas_acc.c / m_gm_map.c).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from peerdata import close, random_case, require

import rankflavor as rf
from rankflavor import SpecError
from rankflavor.cli.main import main
from rankflavor.flavor import labelled_specs

pytrec_eval = require("pytrec_eval")

# what `trec_eval qrels run` prints, in order (trec_eval 10.0 measures.c: off_names in te_trec_measures order)
OFFICIAL = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
            *(f"iprec_at_recall_{i / 10:.2f}" for i in range(11)),
            *(f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000))]
COUNTS = {"num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "num_q"}
GEOMETRIC = {"gm_map", "gm_bpref"}
NOT_NUMBERS = {"runid", "relstring"}


def usable(case):
    """Without the queries whose every judgment is negative (see test_pytrec_binary.py)."""
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    return case


def write_files(case, tmp_path: Path, tag: str = "myrun") -> tuple[str, str]:
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in case.qrels.items() for d, g in docs.items()))
    lines = []
    for q, docs in case.run.items():
        for rank, (d, s) in enumerate(docs.items(), 1):
            lines.append(f"{q} Q0 {d} {rank} {s!r} {tag}\n")
    run.write_text("".join(lines))
    return str(qrels), str(run)


def trec_lines(capsys, *args: str) -> list[tuple[str, str, str]]:
    assert main(["eval", *args, "--format", "trec"]) == 0
    return [tuple(line.split("\t")) for line in capsys.readouterr().out.splitlines()]  # type: ignore[misc]


def pytrec(case, measures: set[str], **options) -> dict[str, dict[str, float]]:
    return pytrec_eval.RelevanceEvaluator(case.qrels, measures, **options).evaluate(case.run)


def test_official_prints_trec_eval_names_in_order(tmp_path, capsys):
    qrels, run = write_files(usable(random_case(3, max_docs=40)), tmp_path, tag="sysX")
    lines = trec_lines(capsys, qrels, run, "-m", "trec_eval.official")
    assert [name.strip() for name, _, _ in lines] == OFFICIAL
    assert all(query == "all" for _, query, _ in lines)
    assert lines[0][2] == "sysX"
    assert lines[0][0] == f"{'runid':<22s}"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name", ["official", "all_trec"])
def test_pytrec_eval_sets_per_query(seed, name, tmp_path, capsys):
    """Every per-query line of `-m pytrec_eval.SET --format trec --per-query` is pytrec_eval's value of that
    measure printed as trec_eval prints it; the summary lines name the same measures."""
    case = usable(random_case(seed, max_docs=40 if seed % 2 else 300))
    qrels, run = write_files(case, tmp_path)
    theirs = pytrec(case, {name})
    lines = trec_lines(capsys, qrels, run, "-m", f"pytrec_eval.{name}", "--per-query")
    per_query = [(n.strip(), q, v) for n, q, v in lines if q != "all"]
    summary = [n.strip() for n, q, _ in lines if q == "all"]
    expected = {m for values in theirs.values() for m in values} - NOT_NUMBERS
    assert set(summary) == expected | {"runid"}
    assert summary[:2] == ["runid", "num_q"]
    assert {q for _, q, _ in per_query} == set(theirs)
    assert not any(measure in GEOMETRIC for measure, _, _ in per_query)  # (trec_eval -q prints them in the summary)
    for measure, query, shown in per_query:
        value = theirs[query][measure]
        want = f"{int(value)}" if measure in COUNTS else f"{value:6.4f}"
        assert shown == want, (seed, name, measure, query, shown, value)
    assert len(per_query) == sum(len(set(v) - NOT_NUMBERS - GEOMETRIC - {"num_q"}) for v in theirs.values())


@pytest.mark.parametrize("seed", range(6))
def test_pytrec_eval_all_trec_summary(seed):
    """The Python API's means of `pytrec_eval.all_trec` are trec_eval's averages of pytrec_eval's values."""
    case = usable(random_case(seed, max_docs=60))
    theirs = pytrec(case, {"all_trec"})
    report = rf.evaluate(case.qrels, case.run, "pytrec_eval.all_trec")
    for result in report.results:
        measure = result.label.split()[0].removeprefix("pytrec_eval.")
        values = [v[measure] for v in theirs.values()]
        if measure in COUNTS:
            want = sum(values)
        elif measure in GEOMETRIC:
            want = math.exp(sum(values) / len(values))
        else:
            want = sum(values) / len(values)
        assert close(result.mean, want), (seed, measure, result.mean, want)


@pytest.mark.parametrize("seed", range(4))
def test_overrides_reach_the_members_that_read_them(seed):
    """`pytrec_eval.official rel_level=2 unjudged=skip` is pytrec_eval's official set at relevance level 2,
    judged docs only (trec_eval -l 2 -J), for every member that reads those axes."""
    case = usable(random_case(seed, max_docs=60))
    theirs = pytrec(case, {"official"}, relevance_level=2, judged_docs_only_flag=True)
    report = rf.evaluate(case.qrels, case.run, "pytrec_eval.official rel_level=2 unjudged=skip")
    for result in report.results:
        measure = result.label.split()[0].removeprefix("pytrec_eval.")
        for row in result.per_query():
            if row["status"] == "missing":  # (pytrec_eval scores the run's queries only)
                assert row["query"] not in theirs
                continue
            value, ours = theirs[row["query"]][measure], row["value"]
            if math.isnan(value):  # (-J empties a list: see test_pytrec_binary.py)
                continue
            # (gm_map, gm_bpref: pytrec_eval's per-query log(max(v, 1e-5)), which pytrec_eval.gm_map gives too)
            assert ours is not None and close(ours, value), (seed, measure, row, value)


def test_set_labels_and_refusals():
    labels = [label for names in labelled_specs("trec_eval.official missing=zero").values() for label in names]
    assert labels[:3] == ["trec_eval.num_ret missing=zero", "trec_eval.num_rel missing=zero",
                          "trec_eval.num_rel_ret missing=zero"]
    assert "trec_eval.P_10 missing=zero" in labels
    with pytest.raises(SpecError, match="no measure of the set reads gain"):
        labelled_specs("trec_eval.official gain=exp2")
    with pytest.raises(SpecError, match="no parameters and no @k"):
        labelled_specs("trec_eval.all_trec@10")
    pytrec_names = [label for names in labelled_specs("pytrec_eval.all_trec").values() for label in names]
    assert not any(name.split(".")[1].startswith(("unj", "rbp")) for name in pytrec_names)  # (trec_eval 10 only)
    assert any(name.startswith("trec_eval.unj_") for names in labelled_specs("trec_eval.all_trec").values()
               for name in names)
