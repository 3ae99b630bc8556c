"""The report page in a real headless browser (Debian's chromium driven by Playwright; never `playwright
install`): it loads with no console error and no network request, shows the flavor strings and labels, sorts,
filters, and opens a record. The screenshot is kept in tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from heavy import need_group, need_module
from rankflavor.cli.main import main

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
def browser_page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser")
    qrels, a, b = _runs(folder)
    out = folder / "report.html"
    assert main(["report", str(qrels), str(a), str(b), "--grid", "gain", "-k", "3", "-o", str(out),
                 "--resamples", "1000"]) == 0
    messages, requests = [], []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        page.on("console", lambda m: messages.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: messages.append(f"pageerror: {e}"))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(out.as_uri())
        page.wait_for_selector(".chart .main-svg", timeout=60_000)
        yield page, messages, requests
        browser.close()


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


def test_sort_filter_and_drill_down(browser_page):
    page, messages, _ = browser_page
    ids = lambda: page.locator("#rf-queries tbody tr td:first-child").all_inner_texts()  # noqa: E731
    page.click("#rf-queries th[data-key=query]")
    first = ids()
    assert first == sorted(first) and len(first) == 25
    page.click("#rf-queries th[data-key=query]")
    assert ids() == sorted(first + ids(), reverse=True)[:25]
    page.fill("#rf-filter", "q1")
    assert set(ids()) == {f"q{n}" for n in range(10, 20)}
    assert "10 of 10 queries" in page.inner_text("#rf-count")
    page.fill("#rf-filter", "")
    page.select_option("#rf-only", "record")
    page.locator("#rf-queries tbody tr").first.click()
    panel = page.locator("#rf-panel.open")
    panel.wait_for()
    text = panel.inner_text()
    assert "Ranked list" in text and "contribution" in text and "ideal list" in text and "rankflavor explain" in text
    ARTIFACTS.mkdir(exist_ok=True)  # (each test on its own: xdist may run them on two workers, in any order)
    page.screenshot(path=str(ARTIFACTS / "report-record.png"))
    page.keyboard.press("Escape")
    page.select_option("#rf-only", "all")
    page.fill("#rf-filter", "q59")
    page.select_option("#rf-flavor", "1")
    page.locator("#rf-queries tbody tr").first.click()
    assert "q59" in page.inner_text("#rf-panel") and messages == []
