"""The documentation: README.md is a short user's guide, every page of docs/ is one click from it, the generated
tables and pages are up to date, and no relative link of README.md, ARCHITECTURE.md or docs/*.md is broken
(tools/docs.py, `make docs`; anchors as GitHub makes them from headings, tools/doc_links.py)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
sys.path.insert(0, str(TOOLS))

from doc_links import anchors, broken_links, links, project_pages, slug  # noqa: E402


def load_docs_tool():
    spec = importlib.util.spec_from_file_location("docs_tool", TOOLS / "docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_is_at_most_300_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 300, f"README.md has {lines} lines: move detail to docs/"


def test_every_docs_page_is_one_click_from_the_readme():
    linked = {(ROOT / link.target.partition("#")[0]).resolve() for link in links(ROOT / "README.md")}
    pages = sorted((ROOT / "docs").glob("*.md"))
    assert pages
    assert [page.name for page in pages if page.resolve() not in linked] == []


def test_generated_parts_are_current_and_no_link_is_broken():
    result = subprocess.run([sys.executable, str(TOOLS / "docs.py"), "--check"], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_relative_link_is_broken():
    assert broken_links(project_pages(ROOT), ROOT) == []


@pytest.mark.parametrize(("heading", "anchor"), [
    ("A report to look at: HTML, plots, notebooks", "a-report-to-look-at-html-plots-notebooks"),
    ("gain: grade -> gain (default linear)", "gain-grade---gain-default-linear"),
    ("A saved result and `--against`", "a-saved-result-and---against"),
    ("Records and `verify()`", "records-and-verify"),
    ("The latest `make bench` (2026-12-01)", "the-latest-make-bench-2026-12-01"),
    ("See [the spec](spec.md) of trec_eval", "see-the-spec-of-trec_eval"),
    ("Järvelin & Kekäläinen", "järvelin--kekäläinen"),
])
def test_anchors_are_githubs(heading, anchor):
    assert slug(heading) == anchor


def test_anchors_of_a_page(tmp_path):
    page = ("# Title\n\n## Usage\n\ntext\n\n## Usage\n\n```\n# not a heading\n```\n\nSetext\n------\n\n"
            "<a id=\"here\"></a>\n")
    assert anchors(page) == {"title", "usage", "usage-1", "setext", "here"}


def write_pages(root: Path, readme: str, page: str) -> None:
    (root / "docs").mkdir()
    (root / "README.md").write_text(readme, encoding="utf-8")
    (root / "ARCHITECTURE.md").write_text("# Architecture\n", encoding="utf-8")
    (root / "docs" / "guide.md").write_text(page, encoding="utf-8")


def test_broken_links_name_the_page_the_line_and_the_link(tmp_path):
    readme = ("# Read me\n\nSee [the guide](docs/guide.md), [its part](docs/guide.md#the-part), [top](#read-me),\n"
              "[the web](https://example.org/x.md) and `[code](nowhere.md)`.\n\n```\n[fenced](nowhere.md)\n```\n"
              "A [lost page](docs/lost.md) and a [lost part](docs/guide.md#no-such-part).\n")
    write_pages(tmp_path, readme, "# Guide\n\n## The part\n\nBack to the [README](../README.md#read-me).\n"
                                  "![a picture](missing.png)\n")
    assert broken_links(project_pages(tmp_path), tmp_path) == [
        "README.md:9: broken link [lost page](docs/lost.md): no file docs/lost.md",
        "README.md:9: broken link [lost part](docs/guide.md#no-such-part): no heading or anchor #no-such-part in "
        "guide.md",
        "docs/guide.md:6: broken link ![a picture](missing.png): no file missing.png",
    ]


def test_a_code_block_left_open_is_reported(tmp_path):
    write_pages(tmp_path, "# Read me\n\n```\ncode\n```\n\n````\n```\n[hidden](nowhere.md)\n", "# Guide\n")
    assert broken_links(project_pages(tmp_path), tmp_path) == [
        "README.md:7: code block never closed: the rest of the page is code, its links unchecked"]


def test_make_docs_fails_on_a_broken_link_and_a_stale_table(tmp_path, monkeypatch, capsys):
    for name in ("README.md", "ARCHITECTURE.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    listings = Path("src", "rankflavor", "cli", "listings.json")  # (the table of `metrics` and `presets`)
    (tmp_path / listings).parent.mkdir(parents=True)
    shutil.copy(ROOT / listings, tmp_path / listings)
    index = Path("src", "rankflavor", "registry_index.py")  # (the families' declarations)
    shutil.copy(ROOT / index, tmp_path / index)
    tool = load_docs_tool()
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "catalogue", lambda: None)  # (tests/test_bad_input.py checks its own page)
    assert tool.main(["--check"]) == 0
    flavors = tmp_path / "docs" / "flavors.md"
    text = flavors.read_text(encoding="utf-8")
    flavors.write_text(text.replace("| gain |", "| gains |") + "\nSee [nothing](nothing.md).\n", encoding="utf-8")
    capsys.readouterr()
    assert tool.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "docs/flavors.md differs from the registries" in out
    line = len(flavors.read_text(encoding="utf-8").splitlines())
    assert f"docs/flavors.md:{line}: broken link [nothing](nothing.md): no file nothing.md" in out
    assert tool.main([]) == 1  # the table is written again; the link stays broken
    assert "| gain |" in flavors.read_text(encoding="utf-8")
