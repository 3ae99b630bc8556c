"""The report page in a real headless browser (Debian's chromium driven by Playwright; never `playwright
install`): it loads with no console error and no network request, shows the flavor strings and labels, sorts,
filters, and opens a record. The screenshot is kept in tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from heavy import need_group, need_module
from rankflavor.cli.main import main
from rankflavor.escape import visible

need_group("report")
need_group("browser")
sync_api = need_module("browser", "playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"


def _runs(folder: Path) -> tuple[Path, Path, Path]:
    """A qrels of 60 queries and two runs whose winner flips with the gain (as seed 000's X and Y)."""
    qrels, a, b = folder / "q.qrels", folder / "A.run", folder / "B.run"
    qrels.write_text("".join(f"q{q:02d} 0 {d} {g}\n" for q in range(60) for d, g in zip("ABCD", (3, 2, 2, 0),
                                                                                            strict=True)))
    a.write_text("".join(f"q{q:02d} Q0 {d} {i + 1} {4 - i} A\n" for q in range(60)
                         for i, d in enumerate("BCAD" if q % 10 else "ABDC")))
    b.write_text("".join(f"q{q:02d} Q0 {d} {i + 1} {4 - i} B\n" for q in range(60)
                         for i, d in enumerate("ADBC" if q % 10 else "CBAD")))
    return qrels, a, b


@pytest.fixture(scope="module")
def browser():
    """One chromium for the module's pages (Playwright's sync API runs one at a time)."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def browser_page(tmp_path_factory, browser):
    folder = tmp_path_factory.mktemp("browser")
    qrels, a, b = _runs(folder)
    out = folder / "report.html"
    assert main(["report", str(qrels), str(a), str(b), "--grid", "gain", "-k", "3", "-o", str(out),
                 "--resamples", "1000"]) == 0
    messages, requests = [], []
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.on("console", lambda m: messages.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: messages.append(f"pageerror: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(out.as_uri())
    page.wait_for_selector(".chart .main-svg", timeout=60_000)
    yield page, messages, requests
    page.close()


def test_loads_without_errors_or_network_and_shows_flavors(browser_page):
    page, messages, requests = browser_page
    assert messages == []
    assert [u for u in requests if not u.startswith("file://")] == []
    text = page.inner_text("body")
    assert "ndcg@3 gain=exp2" in text and "ndcg@3 gain=linear discount=log2" in text  # label and canonical string
    assert page.locator("tr.reversal").count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=False)
    shutil.copy(ARTIFACTS / "report.png", ARTIFACTS / "report-latest.png")


def test_sort_filter_and_the_two_lists(browser_page):
    page, messages, _ = browser_page
    ids = lambda: page.locator("#rf-queries tbody tr td:first-child").all_inner_texts()  # noqa: E731
    page.click("#rf-queries th[data-key=query]")
    first = ids()
    assert first == sorted(first) and len(first) == 25
    page.click("#rf-queries th[data-key=query]")
    assert ids() == sorted(first + ids(), reverse=True)[:25]
    page.fill("#rf-filter", "q1")
    assert set(ids()) == {f"q{n}" for n in range(10, 20)}
    assert "showing 10 of 10 queries" in page.inner_text("#rf-count")
    page.fill("#rf-filter", "q07")
    page.locator("#rf-queries tbody tr").first.click()
    side = page.locator("#rf-side")
    text = side.inner_text()
    assert "query q07" in text and "contribution" in text and "rankflavor explain" in text
    assert side.locator(".side-col").count() == 2 and side.locator("tr.at-cut").count() == 2
    ARTIFACTS.mkdir(exist_ok=True)  # (each test on its own: xdist may run them on two workers, in any order)
    page.screenshot(path=str(ARTIFACTS / "report-record.png"))
    page.select_option("nav select.rf-flavor", "1")  # (one flavor for every chart, table and list)
    assert "ndcg@3 gain=exp2" in side.inner_text() and "query q07" in side.inner_text()
    page.fill("#rf-filter", "q59")
    page.locator("#rf-queries tbody tr").first.click()
    assert "query q59" in page.inner_text("#rf-side") and messages == []


def _wide_runs(folder: Path) -> list[Path]:
    """Three runs with long names over 40 queries, unjudged documents in every top k and tied scores across
    every cutoff: the default grid makes wide tables and warnings of two kinds for every run and flavor."""
    qrels = folder / "wide.qrels"
    qrels.write_text("".join(f"topic-{q:03d} 0 d{d:02d} {(q * 7 + d * 3) % 4}\n" for q in range(40) for d in range(20)
                             if (q + d) % 3))
    runs = []
    for r, name in enumerate(("bm25-baseline-with-rm3", "dense-retriever-v2", "hybrid-cross-encoder-rerank")):
        path = folder / f"{name}.run"
        path.write_text("".join(f"topic-{q:03d} Q0 d{(d * (3, 7, 13)[r] + q) % 20:02d} {d + 1} {15 - d // 2} {name}\n"
                                for q in range(40) for d in range(15)))
        runs.append(path)
    return [qrels, *runs]


# Where the page's layout fails on a narrow screen: the page wider than the viewport, an element out of the
# viewport that is not inside a box that scrolls, a cell whose text overflows it, a numeric cell whose text is
# not a whole number as written, text below 11 px, a scatter's y = x line not drawn.
LAYOUT_PROBLEMS = """() => {
  const vw = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className ? "." + el.className.trim().replace(/ +/g, ".") : "");
  const inScrollBox = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === "auto" || o === "scroll") return true;
    }
    return false;
  };
  const out = { width: document.scrollingElement.scrollWidth, viewport: vw, layout: window.innerWidth, outside: [],
                cut: [], numbers: [], small: [], lines: [] };
  for (const el of document.querySelectorAll("main *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if ((r.right > vw + 0.5 || r.left < -0.5) && !inScrollBox(el)) out.outside.push(name(el) + " " + Math.round(r.right));
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (own && parseFloat(getComputedStyle(el).fontSize) < 11) out.small.push(name(el) + " " + el.textContent.slice(0, 30));
  }
  for (const cell of document.querySelectorAll("main td, main th")) {
    if (cell.getClientRects().length && cell.scrollWidth > cell.clientWidth) out.cut.push(cell.textContent.slice(0, 40));
  }
  for (const cell of document.querySelectorAll("main td.num")) {
    const text = (cell.firstChild && cell.firstChild.nodeType === 3 ? cell.firstChild.textContent : "").trim();
    if (!/^([+-]?[0-9][0-9,]*(\\.[0-9]+)?(e[+-]?[0-9]+)?\\*?|null|—|unjudged)$/.test(text))
      out.numbers.push(JSON.stringify(cell.textContent));
  }
  document.querySelectorAll(".chart[data-chart=scatter] .shapelayer path").forEach((p) => {
    const s = getComputedStyle(p);
    out.lines.push(parseFloat(s.strokeWidth) > 0 && parseFloat(s.strokeOpacity) > 0);
  });
  return out;
}"""


FARTHEST_INSIDE_POINT = """() => {
  const chart = document.querySelector(".chart[data-chart=scatter]");
  const area = chart.querySelector(".nsewdrag").getBoundingClientRect();
  let best = null, margin = -1;
  for (const point of chart.querySelectorAll(".scatterlayer .point")) {
    const r = point.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    const m = Math.min(x - area.left, area.right - x, y - area.top, area.bottom - y);
    if (m > margin) { margin = m; best = [x, y]; }
  }
  return best;
}"""


@pytest.fixture(scope="module")
def wide_report(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("wide")
    out = folder / "report.html"
    assert main(["report", *map(str, _wide_runs(folder)), "--grid", "default", "-k", "5", "-o", str(out),
                 "--resamples", "200"]) == 0
    return out


def _layout(browser, report: Path, viewport: dict[str, int], mobile: bool, shot: str) -> dict:
    """The page's layout problems (LAYOUT_PROBLEMS) at a viewport, and the left edge of each chart."""
    context = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
    page = context.new_page()
    page.goto(report.as_uri())
    page.wait_for_selector(".chart .main-svg", timeout=60_000)
    problems = page.evaluate(LAYOUT_PROBLEMS)
    problems["charts"] = page.evaluate("Array.from(document.querySelectorAll('.chart-box'))"
                                       ".map((b) => Math.round(b.getBoundingClientRect().left))")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / shot), full_page=True)
    if mobile:  # a tap on a scatter's point (the one farthest inside the plot area) shows its query's two lists
        page.locator(".chart[data-chart=scatter]").first.scroll_into_view_if_needed()
        before = page.inner_text("#rf-side")
        x, y = page.evaluate(FARTHEST_INSIDE_POINT)
        page.touchscreen.tap(x, y)
        page.wait_for_function("(before) => document.getElementById('rf-side').innerText !== before", arg=before,
                               timeout=5_000)
        problems["record"] = page.inner_text("#rf-side")
    context.close()
    return problems


def _assert_laid_out(problems: dict, width: int) -> None:
    assert problems["viewport"] == problems["layout"] == width  # (a phone widens its layout to fit a wide page)
    assert problems["width"] <= width, problems["outside"]
    assert problems["outside"] == [] and problems["cut"] == [] and problems["numbers"] == []
    assert problems["small"] == []
    assert problems["lines"] and all(problems["lines"])  # every scatter draws its y = x line


def test_a_phone_390_px_wide_scrolls_no_page_sideways_and_cuts_no_number(browser, wide_report):
    problems = _layout(browser, wide_report, {"width": 390, "height": 844}, mobile=True, shot="report-390.png")
    _assert_laid_out(problems, 390)
    assert len(set(problems["charts"])) == 1  # one column of charts
    assert "contribution" in problems["record"] and "query " in problems["record"]


def test_a_desktop_width_keeps_two_columns_of_charts(browser, wide_report):
    problems = _layout(browser, wide_report, {"width": 1300, "height": 900}, mobile=False, shot="report-1300.png")
    _assert_laid_out(problems, 1300)
    assert len(set(problems["charts"])) == 2


# ---- user text is text: ids, run names and file names that are markup, scripts, links or bidi controls ------
# Each sets window.__pwned if it ever runs; none may become a link, a tag, a plotly placeholder or a request.
PLANTED = ["<script>window.__pwned=1</script>", "</script><script>window.__pwned=2</script>",
           '"onmouseover="window.__pwned=3"', "'onmouseover='window.__pwned=4'", "<img/src=x/onerror=window.__pwned=5>",
           "<b>bold</b><br><i>it</i>", "%{y}%{x}", "\u202eevil.gpj"]  # (no whitespace: TREC ids)
SPACED = ['<a href="https://evil.example/x">https</a>', '<a href="javascript:window.__pwned=6">js</a>',
          '" onmouseover="window.__pwned=7" x="', "<a href='http:evil.example'>bm25<"]
LONG = "x" * 100_000
RUN_FILES = ['<a href="http:evil.example">bm25<', "%{y}<b>B<br>\u2069\u202eX.run"]  # (a file name has no '/'; the
# U+2069 closed the page's isolate early: issue 41)
NAMED = "<i>C</i> %{x} <br>"  # (--name FILE=NAME: a name without '=')


def _planted_runs(folder: Path) -> list[str]:
    """The report command's arguments: a qrels and three runs over 30 plain queries and one query per planted
    id (and the 100 KB id), whose documents are planted ids too; two run files named with markup and a bidi
    override, the third named by --name with markup."""
    queries = [f"q{i:02d}" for i in range(30)] + PLANTED + [LONG]
    docs = [*PLANTED, LONG, "d1", "d2"]
    qrels = folder / "planted.qrels"
    qrels.write_text("".join(f"{q} 0 {d} {(i + n) % 3}\n" for n, q in enumerate(queries) for i, d in enumerate(docs)),
                     encoding="utf-8")
    paths = []
    for r, name in enumerate([*RUN_FILES, "c.run"]):
        path = folder / name
        path.write_text("".join(f"{q} Q0 {d} {i + 1} {20 - i} t\n" for n, q in enumerate(queries)
                                for i, d in enumerate(docs[(n + r) % 3:] + docs[:(n + r) % 3])), encoding="utf-8")
        paths.append(str(path))
    return [str(qrels), *paths, "--name", f"c.run={NAMED}"]


PLANTED_PROBLEMS = """(planted) => {
  const links = Array.from(document.querySelectorAll("a")).map((a) => a.getAttribute("href") ||
    a.getAttributeNS("http://www.w3.org/1999/xlink", "href")).filter((h) => h && !h.startsWith("#"));
  // a U+202E must reverse the rest of its own name only: the text after it, up to the end of the nearest
  // isolate (<bdi>, unicode-bidi: isolate, a block) or a PDI, is the end of a planted name (or of its quoted path)
  const unisolated = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.includes("\\u202e") || node.parentElement.closest("script")) continue;
    let unit = node.parentElement;
    while (unit.parentElement && getComputedStyle(unit).display === "inline" &&
           !getComputedStyle(unit).unicodeBidi.startsWith("isolate")) unit = unit.parentElement;
    const parts = unit.textContent.split("\\u202e").slice(1);
    for (const part of parts) {
      const after = part.split("\\u2069")[0].replace(/'$/, "");
      if (!planted.some((name) => name.endsWith(after))) unisolated.push(unit.tagName + ": " + after.slice(0, 60));
    }
  }
  return { pwned: window.__pwned === undefined ? null : window.__pwned, links, unisolated,
           width: document.scrollingElement.scrollWidth, viewport: document.documentElement.clientWidth,
           legend: Array.from(document.querySelectorAll(".legendtext")).map((t) => t.textContent),
           svg: Array.from(document.querySelectorAll(".main-svg")).map((s) => s.textContent).join("\\n"),
           captions: Array.from(document.querySelectorAll("figcaption")).map((c) => c.textContent) };
}"""


def _open_planted(browser, report: Path, planted: list[str]) -> tuple[dict, list[str], str, list[str]]:
    """The page's problems after hovering every chart and opening every planted query's record: (problems,
    requests made, the text shown, the titles' text)."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    requests: list[str] = []
    context.route("**/*", lambda route: (requests.append(route.request.url), route.abort())
                  if not route.request.url.startswith("file:") else route.continue_())
    page = context.new_page()
    page.goto(report.as_uri())
    page.wait_for_selector(".chart .main-svg", timeout=60_000)
    for chart in page.locator(".chart").all():  # hover labels: plotly's markup runs there
        chart.scroll_into_view_if_needed()
        box = chart.bounding_box()
        for fx in (0.2, 0.35, 0.5, 0.65, 0.8):
            for fy in (0.3, 0.5, 0.7):
                page.mouse.move(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
    shown = [page.inner_text("body")]
    queries = page.evaluate("window.rankflavorReport.data.queries")
    for text in planted:
        page.evaluate("(j) => window.rankflavorReport.openSide(j, 0, false)", queries.index(text))
        for cell in page.locator("#rf-side td").all()[:40]:
            cell.hover()
        shown.append(page.inner_text("#rf-side"))
    page.fill("#rf-filter", "xxxxxxxx")
    titles = page.locator("#rf-queries .cut").evaluate_all("(cells) => cells.map((c) => c.title)")
    problems = page.evaluate(PLANTED_PROBLEMS, [*PLANTED, *SPACED, *RUN_FILES, NAMED])
    problems["table"] = page.evaluate("document.getElementById('rf-queries').scrollWidth")
    context.close()
    return problems, requests, "\n".join(shown), titles


def _assert_text_only(problems: dict, requests: list[str], shown: str, expected: list[str]) -> None:
    assert problems["pwned"] is None and problems["links"] == [] and requests == []
    assert problems["unisolated"] == []
    assert problems["width"] <= problems["viewport"] and problems["table"] < 3000  # (a 100 KB id is cut)
    plain = shown.replace("\u2068", "").replace("\u2069", "")  # (the page's own isolates)
    assert not re.search("[\u202a-\u202e\u2066\u2067]", shown)  # (a name's bidi controls shown as \\uXXXX: escape.py)
    assert [text for text in expected if visible(text) not in plain] == []


def test_planted_ids_and_file_names_are_text_in_the_page(browser, tmp_path):
    out = tmp_path / "planted.html"
    assert main(["report", *_planted_runs(tmp_path), "-m", "ndcg@5", "-o", str(out), "--resamples", "200"]) == 0
    problems, requests, shown, titles = _open_planted(browser, out, PLANTED)
    runs = [*RUN_FILES, NAMED]
    svg = problems["svg"].replace("\u2068", "").replace("\u2069", "")
    _assert_text_only(problems, requests, shown + "\n" + svg, [*PLANTED, *runs])
    assert [run for run in runs if visible(run) not in svg] == []  # (each run's panel and the legends name it)
    assert any(visible(RUN_FILES[1]) in caption for caption in problems["captions"])
    assert titles == [LONG]


def test_planted_text_through_the_python_api(browser, tmp_path):
    from rankflavor.display.page import write_report

    queries = [f"q{i:02d}" for i in range(20)] + SPACED
    qrels = {q: {d: (i + n) % 3 for i, d in enumerate([*SPACED, "d1"])} for n, q in enumerate(queries)}
    runs = {name: {q: {d: float((i * (r + 2) + n) % 5) for i, d in enumerate([*SPACED, "d1"])}
                   for n, q in enumerate(queries)} for r, name in enumerate(SPACED)}
    out = tmp_path / "api.html"
    write_report(qrels, runs, out, ["ndcg@3"], settings=None)
    problems, requests, shown, _ = _open_planted(browser, out, SPACED)
    _assert_text_only(problems, requests, shown + "\n" + problems["svg"], SPACED)


# ---- a page a team can act on (issue 38): the answer first, every pair, two lists side by side, one query set ----
TEAM_FLAVORS = ["ndcg@10", "ndcg@10 gain=exp2", "map"]

WIDER_THAN_BOX = """() => {
  // a table or a chart wider than its box must sit in a box that says it scrolls (page.js: .scroll.overflows and
  // its ::before hint shown)
  const out = [];
  for (const el of document.querySelectorAll("main table, main .main-svg")) {
    if (!el.getClientRects().length) continue;
    const box = el.closest(".scroll") || el.parentElement;
    if (el.getBoundingClientRect().width <= box.clientWidth + 1) continue;
    const hint = box.classList.contains("overflows") && getComputedStyle(box, "::before").content.includes("scroll");
    if (!hint) out.push(el.tagName + " " + (el.className.baseVal ?? el.className) + " in " + box.className);
  }
  return out;
}"""

READ_BACK = """() => {
  const D = window.rankflavorReport.data, fi = window.rankflavorReport.state.flavor;
  const inSet = D.in_set[fi].reduce((a, b) => a + b, 0);
  const charts = Array.from(document.querySelectorAll(".chart[data-chart]")).map((div) => ({
    kind: div.dataset.chart, points: div.data.reduce((n, t) => n + (t.x ? t.x.length : 0), 0) }));
  const dist = document.getElementById("rf-dist").data.map((t) => t.x.length);
  const paper = Array.from(document.querySelectorAll("table.paper tbody tr")).map((tr) =>
    Array.from(tr.querySelectorAll("td")).map((td) => td.firstChild.textContent.trim()));
  return { inSet, charts, dist, paper, answer: Array.from(document.querySelectorAll("#rf-answer > li")).map((li) => {
    const r = li.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, text: li.innerText }; }),
    pairs: Array.from(document.querySelectorAll(".pair h3")).map((h) => h.innerText) };
}"""


@pytest.fixture(scope="module")
def team_report(tmp_path_factory) -> tuple[Path, Path, list[Path]]:
    from page_case import write_case

    folder = tmp_path_factory.mktemp("team")
    qrels, runs = write_case(folder)
    out = folder / "report.html"
    specs = [x for spec in TEAM_FLAVORS for x in ("-m", spec)]
    assert main(["report", str(qrels), *map(str, runs), *specs, "-o", str(out), "--resamples", "2000"]) == 0
    return out, qrels, runs


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
def test_the_answer_every_pair_and_two_lists_over_one_query_set(browser, team_report, width, height, tmp_path):
    import rankflavor as rf

    out, qrels, runs = team_report
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 600,
                                  has_touch=width < 600)
    requests, messages = [], []
    context.route("**/*", lambda route: (requests.append(route.request.url), route.abort())
                  if not route.request.url.startswith("file:") else route.continue_())
    page = context.new_page()
    page.on("console", lambda m: messages.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.goto(out.as_uri())
    page.wait_for_selector(".chart .main-svg", timeout=60_000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"report-{width}.png"))  # (the first screen, as docs/report.md shows it)
    seen = page.evaluate(READ_BACK)
    names = [r.name for r in runs]
    assert len(seen["answer"]) == 3 and all(a["top"] < height for a in seen["answer"])  # the answer first
    assert width < 600 or all(a["bottom"] <= height for a in seen["answer"])
    assert [p.split(" ", 1)[1] if p.split(" ", 1)[0] in ("flavor-dependent", "robust") else p for p in seen["pairs"]]
    assert {tuple(n for n in names if n in p) for p in seen["pairs"]} == {(a, b) for i, a in enumerate(names)
                                                                          for b in names[i + 1:]}  # every pair
    assert seen["inSet"] == 114 and set(seen["dist"]) == {114}  # one panel per run, over the set
    assert {c["points"] for c in seen["charts"]} == {114}  # each pair's histogram counts and scatter points
    keep = {line.split()[0] for line in Path(runs[0]).read_text().splitlines()}  # (bm25's 114: the common set)
    for path, row in zip(runs, seen["paper"], strict=True):
        common = tmp_path / path.name
        common.write_text("".join(line + "\n" for line in path.read_text().splitlines() if line.split()[0] in keep))
        for spec, printed in zip(TEAM_FLAVORS, row, strict=True):
            assert printed == f"{rf.evaluate(str(qrels), str(common), spec).mean():.4f}"  # (over the common 114)
    assert page.evaluate(WIDER_THAN_BOX) == []
    page.select_option("nav select.rf-flavor", "1")  # a non-first flavor, then a query's two lists
    page.locator("#rf-entries button.entry").first.click()
    side = page.locator("#rf-side")
    assert "ndcg@10 gain=exp2" in side.inner_text()
    assert side.locator(".side-col").count() == 2 and side.locator("tr.at-cut").count() == 2
    assert side.locator("tr.unjudged").count() > 0 and side.locator("details summary").count() == 1  # (ideal once)
    page.screenshot(path=str(ARTIFACTS / f"report-{width}-side.png"))
    assert page.evaluate(WIDER_THAN_BOX) == []
    assert requests == [] and messages == []
    context.close()


def test_the_per_query_values_and_the_comparison_download_from_the_page(browser, team_report):
    import csv
    import io
    import json

    out, _, runs = team_report
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    page.goto(out.as_uri())
    page.wait_for_selector(".chart .main-svg", timeout=60_000)
    with page.expect_download() as got:
        page.click("button[data-download=csv]")
    rows = list(csv.DictReader(io.StringIO(Path(got.value.path()).read_text())))
    assert len(rows) == 3 * 3 * 120 and {r["run"] for r in rows} == {r.name for r in runs}
    outside = {r["query"] for r in rows if r["in_set"] == "0"}
    assert outside == {f"q{i:03d}" for i in range(114, 120)}
    with page.expect_download() as got:
        page.click("button[data-download=json]")
    comparison = json.loads(Path(got.value.path()).read_text())
    assert comparison["query_set"]["size"] == 114 and len(comparison["verdicts"]) == 3
    context.close()
