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


def test_the_paper_table_and_the_reversal_are_there(page):
    assert 'class="paper"' in page and "(baseline)" in page and "Δ " in page
    assert "reverses" in page and 'class="reversal"' in page and '<span class="axis">gain</span>' in page


def test_the_records_picked_are_embedded_with_their_lists(page):
    data = _data(page)
    record = data["records"][f"0|{data['runs'][0]}|0"]
    assert record["ranked"]["columns"][:3] == ["rank", "doc", "score"]
    assert {"gain", "discount", "contribution"} <= set(record["ranked"]["columns"])
    assert "ideal" in record["lists"] and record["value"] is not None
    assert data["explain"]["qrels"].endswith("seed000.qrels")


def test_records_are_capped_and_chosen_for_a_reason():
    import numpy as np

    from rankflavor import Flavor
    from rankflavor.display.picks import pick_queries

    f, g = Flavor.parse("ndcg@10"), Flavor.parse("ndcg@10 gain=exp2")
    rng = np.random.default_rng(1)
    values = {(r, fl): rng.random(500) for r in ("a", "b") for fl in (f, g)}
    values[("a", f)][7] = -1.0  # the worst of a
    picks = pick_queries(values, ["a", "b"], f, "a", [("a", "b", f, g, "gain linear -> exp2")], per_kind=5, cap=18)
    assert len(picks.why) == 18
    assert "among the worst of a" in picks.why[7]
    assert any("winner changes" in r for rs in picks.why.values() for r in rs)


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
    assert "reverses" in cmp._repr_html_() and "ndcg@3 gain=exp2" in cmp._repr_html_()
    assert len(repr(report)) < 300
