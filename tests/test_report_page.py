"""`rankflavor report` and the page's parts, without a browser: the file is self-contained, holds every
flavor string and label, the paper table, the reversal, the records picked, the plots; notebook reprs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from heavy import need_group
from rankflavor.cli.main import main
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

need_group("report")

X, Y = (str(r) for r in SEED000_RUNS)


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("page") / "report.html"
    assert main(["report", str(SEED000_QRELS), X, Y, "--grid", "gain", "-k", "3", "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def _data(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="rf-data">(.*?)</script>', page, re.S).group(1))


def test_the_page_is_one_file_with_nothing_to_fetch(page):
    assert page.startswith("<!DOCTYPE html>") and "Plotly" in page
    assert not re.search(r'<(script|link|img)[^>]+(src|href)=', page)  # no external script, style or image
    assert "cdn." not in page.split("<script>", 1)[0]  # (plotly.js itself names hosts it never calls here)
    assert len(page) < 20e6


def test_every_flavor_shows_its_label_and_canonical_string(page):
    data = _data(page)
    from rankflavor import Flavor

    for label, spec in (("ndcg@3", "ndcg@3"), ("ndcg@3 gain=exp2", "ndcg@3 gain=exp2")):
        canonical = str(Flavor.parse(spec))
        assert f"<code>{canonical}</code>" in page and f"<b>{label}</b>" in page
        assert {"label": label, "flavor": canonical} in [{k: f[k] for k in ("label", "flavor")} for f in data["flavors"]]


def test_provenance_command_and_version(page):
    from rankflavor import __version__

    assert f"rankflavor {__version__}" in page
    assert "rankflavor report " in page and "--grid gain -k 3" in page
    for name in ("seed000.qrels", "X.run", "Y.run"):
        assert f"<b>{name}</b>" in page
    import hashlib

    assert hashlib.sha256(Path(X).read_bytes()).hexdigest() in page


def test_the_paper_table_and_the_flip_of_the_means_are_there(page):
    """Seed 000 has one query: the gain flips the order of the means, which no test can make significant, so the
    page names the flip as such and shows no reversal (issue 37)."""
    assert 'class="paper"' in page and 'class="pair-table"' in page and "Δ X.run − Y.run" in page
    assert "only the order of the means changes with the axis <span class=\"axis\">gain</span>" in page
    assert 'class="reversal"' not in page and '<span class="badge muted">no finding</span>' in page
    assert "No reversal: no pair has different significant winners under two flavors." in page


def test_every_query_of_the_set_has_its_two_lists_embedded(page):
    """The side-by-side view's lists: each run's top k (and a few ranks past the cutoff, so it can be drawn) with
    the grade as the qrels wrote it (3, not 3.000), the metric's columns, the ideal list; for every flavor."""
    data = _data(page)
    lists = data["lists"]
    assert lists["complete"] and lists["queries"] == [0]
    for fi, flavor in enumerate(data["flavors"]):
        record = lists["flavors"][str(fi)]["records"]["X.run"]["0"]
        assert record["columns"] == ["gain", "contribution"] and record["lists"]["ideal"]["rows"]
        assert [row[:4] for row in record["rows"]] == [[1, "B", "2", True], [2, "C", "2", True], [3, "A", "3", True],
                                                       [4, "D", "0", True]]
        assert record["value"] == pytest.approx(data["values"][fi][0][0], abs=1e-6)
        assert lists["flavors"][str(fi)]["cutoff"] == flavor["cutoff"] == 3
    assert data["explain"]["qrels"].endswith("seed000.qrels")


def test_the_entry_points_are_the_largest_differences_and_the_flavors_disagreements():
    import numpy as np

    from rankflavor import Flavor
    from rankflavor.display.picks import pick_queries

    f, g = Flavor.parse("ndcg@10"), Flavor.parse("ndcg@10 gain=exp2")
    rng = np.random.default_rng(1)
    values = {(r, fl): rng.random(500) for r in ("a", "b") for fl in (f, g)}
    values[("a", f)][7] = -1.0  # the worst of a
    values[("a", f)][9], values[("b", f)][9] = 2.0, -0.5  # a leads by 2.5 under f ...
    values[("a", g)][9], values[("b", g)][9] = -0.5, 2.0  # ... and trails by 2.5 under g: the flavors disagree most
    keep = np.ones(500, dtype=bool)
    keep[11] = False
    picks = pick_queries(values, ["a", "b"], [f, g], [("a", "b")], keep, per_kind=5, cap=18)
    assert len(picks.why) == 18 and 11 not in picks.why
    assert "among the worst of a" in picks.why[7]
    assert picks.differ["a|b"][0] == 9 and picks.disagree["a|b"][0] == 9
    d = values[("a", f)] - values[("b", f)]
    assert picks.differ["a|b"] == sorted(np.flatnonzero(keep), key=lambda j: (-abs(d[j]), j))[:5]


def test_report_with_one_run_and_usage_errors(tmp_path, capsys):
    out = tmp_path / "one.html"
    assert main(["report", str(SEED000_QRELS), X, "-m", "ndcg@3", "-m", "map", "-o", str(out)]) == 0
    text = out.read_text()
    assert "<b>map</b>" in text and "wrote" in capsys.readouterr().out
    assert main(["report", str(SEED000_QRELS), X, "-m", "map", "--grid", "gain", "-o", str(out)]) == 2


def test_plots_from_python_and_notebook_reprs():
    from rankflavor import evaluate, plots
    from rankflavor.compare import compare

    report = evaluate(SEED000_QRELS, [X, Y], ["ndcg@3", "map"])
    assert len(plots.distribution(report, "map").data) == 2
    assert list(plots.scatter(report, flavor="ndcg@3").data[0].customdata) == ["q1"]
    cmp = compare(SEED000_QRELS, [X, Y], grid="gain", cutoffs=[3])
    heat = plots.flavor_heatmap(cmp)
    assert list(heat.data[0].x) == ["ndcg@3", "ndcg@3 gain=exp2"]
    html = report._repr_html_()
    assert "<table" in html and "ndcg@3" in html and "title=" in html and len(html) < 20_000
    assert "<b>no finding</b>" in cmp._repr_html_() and "ndcg@3 gain=exp2" in cmp._repr_html_()
    assert len(repr(report)) < 300



def _shown(plotly_string: str) -> str:
    """What plotly shows for a string whose user text is escaped (its entities read, the isolates dropped)."""
    from html import unescape

    return unescape(plotly_string).replace("\u2068", "").replace("\u2069", "")


def test_the_figures_take_names_and_ids_as_text_not_plotly_markup():
    from rankflavor import evaluate, plots
    from rankflavor.compare import compare

    link, template = '<a href="https://evil.example/">a</a>', "%{meta}<br>\u202eb"  # (%{meta}: no figure's own)
    qrels = {link: {"d1": 1, "d2": 0}, "%{meta}q": {"d1": 1, "d2": 0}, "q3": {"d1": 0, "d2": 1}}
    runs = {link: {q: {"d1": 2.0, "d2": 1.0} for q in qrels}, template: {q: {"d1": 1.0, "d2": 2.0} for q in qrels}}
    report = evaluate(qrels, runs, ["ndcg@2"])
    strings = []
    for fig in (plots.distribution(report), plots.differences(report), plots.scatter(report),
                plots.flavor_heatmap(compare(qrels, runs, ["ndcg@2", "p@1"], n_resamples=100))):
        strings += [fig.layout.title.text or "", fig.layout.xaxis.title.text or "", fig.layout.yaxis.title.text or ""]
        for trace in fig.data:
            strings += [trace.name or "", trace.hovertemplate or ""]
            for values in (trace.text, trace.x, trace.y):
                strings += [v for v in (() if values is None else values) if isinstance(v, str)]
    assert not [s for s in strings if "<a " in s or "%{meta}" in s or "\u202eb<" in s]
    assert [_shown(t.name) for t in plots.distribution(report).data] == [link, "%{meta}<br>\\u202eb"]  # (escape.py)
    scatter = plots.scatter(report).data[0]
    assert sorted(scatter.customdata) == sorted(qrels) and [_shown(t) for t in scatter.text] == list(scatter.customdata)
    assert _shown(plots.scatter(report).layout.xaxis.title.text) == link

def _line_shapes(fig) -> list:
    return [s for s in fig.layout.shapes if s.type == "line"]


def test_the_scatter_spans_0_1_on_both_axes_with_the_y_equals_x_line():
    from rankflavor import evaluate, plots

    fig = plots.scatter(evaluate(SEED000_QRELS, [X, Y], ["ndcg@3"]), flavor="ndcg@3")
    assert tuple(fig.layout.xaxis.range) == (0, 1) and tuple(fig.layout.yaxis.range) == (0, 1)
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.xaxis.constrain == fig.layout.yaxis.constrain == "domain"
    (line,) = _line_shapes(fig)
    assert (line.x0, line.y0, line.x1, line.y1) == (0, 0, 1, 1) and (line.xref, line.yref) == ("x", "y")
    assert line.line.width > 0  # (the simple_white template draws shapes 0 wide unless told)


def test_an_unbounded_measure_shares_the_runs_min_to_max_on_both_axes():
    """DCG@2, linear gain, log2 discount: a's lists score 3 (grade 3 first) and 1 (grade 1 first), b's 2
    (grade 2 first) and 1/log2(3) (grade 1 second): both axes span [1/log2(3), 3]."""
    import math

    from rankflavor import evaluate, plots

    qrels = {"q1": {"d3": 3, "d2": 2}, "q2": {"d1": 1}}
    runs = {"a": {"q1": {"d3": 2.0, "x": 1.0}, "q2": {"d1": 2.0, "y": 1.0}},
            "b": {"q1": {"d2": 2.0, "x": 1.0}, "q2": {"y": 2.0, "d1": 1.0}}}
    fig = plots.scatter(evaluate(qrels, runs, ["dcg@2"]), "a", "b", "dcg@2")
    low, high = 1 / math.log2(3), 3.0
    assert fig.layout.xaxis.range == pytest.approx((low, high)) and fig.layout.yaxis.range == pytest.approx((low, high))
    (line,) = _line_shapes(fig)
    assert (line.x0, line.y0, line.x1, line.y1) == pytest.approx((low, low, high, high))


def test_the_pages_script_is_in_one_scope_and_draws_every_pair(page):
    """The charts are drawn in the browser from the data (tests/test_report_browser.py reads them back): each pair
    has its two chart boxes, the distributions one; the parts of the script share one function scope."""
    assert page.count('data-chart="diff"') == page.count('data-chart="scatter"') == 1  # (one pair)
    assert 'id="rf-dist"' in page and '(function () {\n"use strict";' in page
    assert "function drawPairScatter" in page and "function sideHtml" in page


def _unjudged_everywhere(folder: Path, n_runs: int) -> list[Path]:
    """A qrels judging d0..d4 of 20 queries (each has a relevant one) and n_runs runs that rank an unjudged
    document first in every query, distinct scores (no tie), every query present: the only warning of every
    run under every flavor is unjudged_in_top."""
    qrels = folder / "u.qrels"
    qrels.write_text("".join(f"q{q:02d} 0 d{d} {(q + d) % 3 + (d == 0)}\n" for q in range(20) for d in range(5)))
    runs = []
    for r in range(n_runs):
        path = folder / f"system-{r}.run"
        docs = [f"new{r}", *(f"d{(d + r) % 5}" for d in range(5))]
        path.write_text("".join(f"q{q:02d} Q0 {doc} {i + 1} {10 - i} s{r}\n" for q in range(20)
                                for i, doc in enumerate(docs)))
        runs.append(path)
    return [qrels, *runs]


def test_warnings_are_one_row_per_kind_with_count_runs_flavors_example_and_the_full_list(tmp_path):
    files = _unjudged_everywhere(tmp_path, 5)
    out = tmp_path / "warnings.html"
    assert main(["report", *map(str, files), "--grid", "default", "-k", "5", "-o", str(out), "--resamples", "100"]) == 0
    html = out.read_text(encoding="utf-8")
    section = html[html.index('<section id="warnings">'):html.index('<section id="inputs">')]
    data = _data(html)
    runs, labels = data["runs"], [f["label"] for f in data["flavors"]]
    assert len(runs) == 5 and len(labels) == 8
    rows = [part.split('">', 1) for part in section.split('<tr data-code="')[1:]]  # (the rows of kinds)
    assert [code for code, _ in rows] == ["unjudged_in_top"]  # 40 warnings, one row
    row = rows[0][1]
    assert '<td class="num" data-label="count">40</td>' in row and "all 5:" in row and "all 8:" in row
    for run in runs:
        assert run in row.split('data-label="flavors"')[0]  # every run named in the runs cell
    example = re.search(r'data-label="example"><b>([^<]+)</b> under .*?</span>: ([^<]+)<details>', row, re.S)
    assert example and example.group(1) == runs[0]
    assert "20 of the 20 queries of the set have unjudged documents in the top@5" in example.group(2)
    listing = re.search(r"<summary>all 40 warnings</summary>(.*?)</details>", row, re.S).group(1)
    listed = re.findall(r"<tr><td>([^<]+)</td><td>(.*?)</td><td>([^<]+)</td></tr>", listing)
    assert len(listed) == 40 and {r for r, _, _ in listed} == set(runs)
    assert {re.sub(r"<[^>]+>", "", f) for _, f, _ in listed} == set(labels)
    assert all("of the 20 queries of the set" in message for _, _, message in listed)


def test_the_pages_tables_are_over_the_comparisons_query_set():
    """A answers 10 of 20 queries (7 right), B all 20 (A's 10 right, the others wrong): by each run's own queries
    A 0.70 leads B 0.50; over the common 10, B 1.00 leads. Every table prints the common set's means, bold B,
    gives Δ as the difference of the means printed, and names the set with its size; a query outside the set is
    said to be outside it, never a null value."""
    from rankflavor.display import sections, tables
    from rankflavor.display.model import build_model
    from rankflavor.display.page_data import page_data

    qrels = {f"q{i:02d}": {"r": 1, "n": 0} for i in range(20)}
    good, bad = {"r": 2.0, "n": 1.0}, {"r": 1.0, "n": 2.0}
    runs = {"A": {f"q{i:02d}": (good if i < 7 else bad) for i in range(10)},
            "B": {f"q{i:02d}": (good if i < 10 else bad) for i in range(20)}}
    model = build_model(qrels, runs, ["p@1"])
    paper, sensitivity, cards = tables.paper_table(model), tables.sensitivity(model), tables.pair_cards(model)
    caption = "over the 10 queries every run answers (query set common, of 20 judged: A lacks 10)"
    assert caption in paper and caption in sensitivity and caption in cards and caption in sections.header(model, "")
    assert re.findall(r'<td class="num( best)?">(\d\.\d{4})', sensitivity) == [("", "0.7000"), (" best", "1.0000")]
    assert re.search(r'<td class="num neg">-0\.3000', sensitivity) and "-0.3000" in cards  # (A − B)
    assert "0.5000" not in paper + sensitivity + cards  # (B's mean over its own 20 queries)
    assert "no finding</span> <b>A</b> vs <b>B</b>: no significant difference" in sections.answer(model)
    data = page_data(model)
    assert data["in_set"] == [[1] * 10 + [0] * 10] and data["set"]["size"] == 10
    assert data["outside"]["15"] == "outside the query set: A lacks it"


def test_the_page_embeds_the_numbers_its_tables_print(tmp_path):
    """Read back from the rendered page: the embedded means are the ones the paper table prints (4 decimals),
    each a plain mean over the stated query set, and each Δ is the difference of two embedded means."""
    qrels = {f"q{i}": {"r": 1, "n": 0, "m": 2} for i in range(8)}
    runs = {"A": {f"q{i}": {"r": 3.0, "n": 2.0 + i % 3, "m": 1.0} for i in range(6)},
            "B": {f"q{i}": {"m": 3.0, "n": 2.0, "r": 1.0 + i % 2} for i in range(8)}}
    files = []
    (tmp_path / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()))
    for name, run in runs.items():
        (tmp_path / name).write_text("".join(f"{q} Q0 {d} 0 {s} {name}\n" for q, docs in run.items()
                                             for d, s in docs.items()))
        files.append(str(tmp_path / name))
    out = tmp_path / "page.html"
    assert main(["report", str(tmp_path / "qrels"), *files, "-m", "ndcg@2", "-m", "p@1", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    numbers = _data(page)["comparison"]
    assert numbers["query_set"]["size"] == 6 and numbers["query_set"]["lacking"] == {"A": 2}
    import rankflavor as rf

    paper = page.split('<table class="paper">', 1)[1].split("</table>", 1)[0]
    printed = re.findall(r'<td class="num(?: best)?">(\d\.\d{4})', paper)
    embedded = {(m["run"], m["flavor"]): m["mean"] for m in numbers["means"]}
    flavors = [f["flavor"] for f in _data(page)["flavors"]]
    assert printed == [f"{embedded[(run, f)]:.4f}" for run in ("A", "B") for f in flavors]
    common = {q: docs for q, docs in runs["B"].items() if q in runs["A"]}
    for spec, flavor in zip(["ndcg@2", "p@1"], flavors, strict=True):
        for run in ("A", "B"):
            plain = rf.evaluate(qrels, {q: runs[run][q] for q in common}, spec).mean()
            assert embedded[(run, flavor)] == pytest.approx(plain, abs=1e-12)
    cards = page.split('<section id="pairs">', 1)[1].split("</section>", 1)[0]
    deltas = re.findall(r'<td class="num (?:pos|neg|)">([+-]\d\.\d{4}) <span class="ci">', cards)
    assert deltas == [f"{embedded[('A', f)] - embedded[('B', f)]:+.4f}" for f in flavors]  # (A − B, as headed)


def test_the_page_heads_with_measures_disagree_not_a_reversal_when_mrr_and_map_disagree():
    """MRR favours A, MAP favours B, each significantly (12 queries): the headline badge says the measures disagree
    with each one's significance; no 'reverses', no flip on the axis metric, no reversal row."""
    from rankflavor.display import sections, tables
    from rankflavor.display.model import build_model

    qrels = {f"q{i:02d}": {"r1": 1, "r2": 1, "r3": 1, "n1": 0} for i in range(12)}
    runs = {"A": {q: {"r1": 2.0, "n1": 1.0} for q in qrels}, "B": {q: {"n1": 4.0, "r1": 3.0, "r2": 2.0, "r3": 1.0}
                                                                   for q in qrels}}
    model = build_model(qrels, runs, ["mrr", "map"], baseline="A")
    head, sensitivity, cards = sections.answer(model), tables.sensitivity(model), tables.pair_cards(model)
    head = head.split('<p class="note">')[0]  # (the sentences, not the note defining the words)
    assert '<span class="badge warn">measures disagree</span>' in head and "reverses" not in head
    assert "mrr: A significantly better under mrr. map: B significantly better under map" in head
    assert "mrr: robust, A significantly better under mrr by 0.5000" in cards
    assert "with the axis" not in sensitivity and 'class="reversal"' not in sensitivity
    assert "No reversal: no pair has different significant winners under two flavors of a measure." in sensitivity


@pytest.mark.parametrize(("options", "settings", "marks"), [
    (["--test", "t", "--correction", "bonferroni"],
     "test=t resamples=10000 seed=0 correction=bonferroni ci=t confidence=0.95 alpha=0.05 intervals=per_comparison "
     "tolerance=1e-09", "after Bonferroni's"),
    (["--settings", "test=wilcoxon resamples=500 seed=7 correction=bh ci=bootstrap confidence=0.9 alpha=0.1"],
     "test=wilcoxon resamples=500 seed=7 correction=bh ci=bootstrap confidence=0.9 alpha=0.1 "
     "intervals=per_comparison tolerance=1e-09", "p &lt; 0.1 after the Benjamini-Hochberg correction"),
])
def test_report_takes_compares_test_settings(tmp_path, options, settings, marks):
    """`report` takes compare's --test, --correction, --ci and --settings: the page's numbers, its captions and the
    command line it prints carry the canonical settings, and the sensitivity note names the declared correction."""
    third = tmp_path / "z.run"
    third.write_text(Path(Y).read_text().replace(" Y", " Z"))
    out = tmp_path / "page.html"
    assert main(["report", str(SEED000_QRELS), X, Y, str(third), "-m", "ndcg@3", "-m", "map", "-o", str(out),
                 *options]) == 0
    page = out.read_text(encoding="utf-8")
    assert _data(page)["comparison"]["settings"] == settings
    page = page.replace("&#x27;", "'")
    assert f"--settings '{settings}'" in page
    assert marks in page and "Holm" not in page


def test_report_with_unjudged_bounds(tmp_path):
    """`report --unjudged-bounds` shows compare's bounds (the same numbers as `compare --unjudged-bounds --format
    json`) in a table under the paper table, embeds them in the page's data, and the command line carries the
    option; without it the page has no bounds."""
    from power_data import write_collection

    qrels, runs = write_collection(tmp_path, 15, 3, seed=4)
    out = tmp_path / "page.html"
    common = [qrels, *runs, "-m", "ndcg@10", "-m", "p@5", "--resamples", "200"]
    assert main(["report", *common, "--unjudged-bounds", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    data = _data(page)["comparison"]
    assert "Bounds for unjudged documents" in page and "--unjudged-bounds top" in page
    import contextlib
    import io

    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert main(["compare", *common, "--unjudged-bounds", "--format", "json", "--queries", "0"]) == 0
    expected = json.loads(text.getvalue())
    low_high = {(m["run"], m["flavor"]): (m["mean_low"], m["mean_high"]) for m in expected["means"]}
    assert {(m["run"], m["flavor"]): (m["mean_low"], m["mean_high"]) for m in data["means"]} == low_high
    for m in data["means"]:
        assert f"{m['mean_low']:.4f}" in page and f"{m['mean_high']:.4f}" in page
    verdicts = {(p["run_a"], p["run_b"], p["flavor"]): p["unjudged_verdict"] for p in expected["pairs"]}
    assert data["pairs"] and all(verdicts[(p["run_a"], p["run_b"], p["flavor"])] == p["unjudged_verdict"]
                                 for p in data["pairs"])  # (the page compares with the baseline: some of compare's)
    assert main(["report", *common, "-o", str(out)]) == 0
    plain = out.read_text(encoding="utf-8")
    assert "Bounds for unjudged" not in plain and "mean_low" not in json.dumps(_data(plain)["comparison"])
