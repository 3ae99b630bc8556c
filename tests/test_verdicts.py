"""A reversal is a change of flavor (issue 24 item 2): measures that disagree (MRR vs MAP) are reported as
`measures disagree`, each measure's difference with its significance; `reverses` is kept for flavors of one
measure (a cutoff, a gain), and the CLI, the JSON and the notebook give the same verdict."""

from __future__ import annotations

import json

import rankflavor.compare as rc
from rankflavor.cli.main import main

QRELS_ROW = {"r1": 1, "r2": 1, "r3": 1, "n1": 0, "n2": 0, "n3": 0}
# A: r1 first, the others not retrieved (RR 1, AP 1/3, ndcg@1 1, ndcg@4 0.47);
# B: r1..r3 from rank 2 (RR 1/2, AP 0.64, ndcg@1 0, ndcg@4 0.73)
A_ROW = {"r1": 4.0, "n1": 3.0, "n2": 2.0, "n3": 1.0}
B_ROW = {"n1": 4.0, "r1": 3.0, "r2": 2.0, "r3": 1.0}


def data(n: int) -> tuple[dict, dict]:
    qrels = {f"q{i:02d}": dict(QRELS_ROW) for i in range(n)}
    return qrels, {"A": {q: dict(A_ROW) for q in qrels}, "B": {q: dict(B_ROW) for q in qrels}}


def test_mrr_and_map_disagreeing_is_not_a_reversal_and_significance_is_stated():
    qrels, runs = data(12)  # 12 queries, every one the same way: exact p = 2/4096 for each measure
    cmp = rc.compare(qrels, runs, ["mrr", "map"])
    v = cmp.verdicts.iloc[0]
    assert v.verdict == "measures disagree" and cmp.flips.empty
    assert "reverses" not in v.summary
    assert "mrr favours A by 0.5000 (significant" in v.summary and "map favours B by 0.3056 (significant" in v.summary
    assert "the disagreement is significant" in v.summary
    by_measure = cmp.measures.set_index("measure")
    assert by_measure.loc["mrr", "winner"] == "A" and by_measure.loc["map", "winner"] == "B"
    assert set(by_measure.verdict) == {"robust"}
    assert "measures disagree" in cmp._repr_html_() and "reverses" not in cmp._repr_html_()


def test_a_measure_disagreement_on_few_queries_is_said_not_significant():
    qrels, runs = data(3)  # 3 queries: the smallest exact p-value is 2^(1-3) = 0.25
    v = rc.compare(qrels, runs, ["mrr", "map"]).verdicts.iloc[0]
    assert v.verdict == "measures disagree"
    assert "mrr favours A by 0.5000 (not significant, p_holm 0.25)" in v.summary
    assert "the disagreement is not significant" in v.summary


def test_a_cutoff_change_of_one_measure_that_flips_the_winner_is_a_reversal_beside_other_measures():
    qrels, runs = data(12)
    cmp = rc.compare(qrels, runs, ["ndcg@1", "ndcg@4", "map"])
    v = cmp.verdicts.iloc[0]
    assert v.verdict == "reverses" and v.summary.startswith("reverses: within ndcg, A wins under 1 of 2 flavors")
    assert set(cmp.flips.measure) == {"ndcg"} and set(cmp.flips.axis) == {"cutoff"}
    assert "metric" not in set(cmp.flips.axis)
    assert cmp.measures.set_index("measure").loc["ndcg", "verdict"] == "reverses"


def test_a_gain_change_that_flips_the_winner_is_a_reversal():
    qrels = {f"q{i}": {"a": 2, "b": 1, "c": 1} for i in range(6)}
    runs = {"A": {q: {"x": 2.0, "a": 1.0} for q in qrels},  # the grade-2 doc at rank 2: 2/log2(3) or 3/log2(3)
            "B": {q: {"b": 3.0, "c": 2.0, "a": 1.0} for q in qrels}}  # two grade-1 docs: 1 + 1/log2(3)
    cmp = rc.compare(qrels, runs, ["ndcg@2", "ndcg@2 gain=exp2", "mrr"])
    winners = dict(zip(cmp.pairs.label, cmp.pairs.winner, strict=True))
    assert winners["ndcg@2"] == "B" and winners["ndcg@2 gain=exp2"] == "A"
    assert cmp.verdicts.iloc[0].verdict == "reverses"
    assert set(cmp.flips.axis) == {"gain"} and set(cmp.flips.measure) == {"ndcg"}


def _files(tmp_path, n: int) -> list[str]:
    qrels, runs = data(n)
    (tmp_path / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, row in qrels.items() for d, g in row.items()))
    paths = [str(tmp_path / "qrels")]
    for name, run in runs.items():
        path = tmp_path / name
        path.write_text("".join(f"{q} Q0 {d} {r} {s} {name}\n" for q, row in run.items()
                                for r, (d, s) in enumerate(row.items(), 1)))
        paths.append(str(path))
    return paths


def test_the_cli_verdict_line_and_the_json_say_the_measures_disagree(tmp_path, capsys):
    files = _files(tmp_path, 3)
    assert main(["compare", *files, "-m", "mrr", "-m", "map", "--queries", "0"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("verdict A vs B: measures disagree: mrr favours A by 0.5000 (not significant")
    assert main(["compare", *files, "-m", "mrr", "-m", "map", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdicts"][0]["verdict"] == "measures disagree" and out["flips"] == []
    assert [(m["measure"], m["winner"]) for m in out["measures"]] == [("mrr", "A"), ("map", "B")]
    assert out["verdicts"][0]["summary"].endswith("the disagreement is not significant: neither side's difference is")
