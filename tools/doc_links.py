"""Relative links in the project's Markdown pages, checked as a code host renders them.

A link `[text](target)` (or `![alt](target)`, or `<a href="target">`) whose target is not a URL must name a
file or folder that exists, relative to the page; its `#anchor`, on a Markdown page (or the page itself),
must be one of that page's anchors. Anchors are made from headings as GitHub makes them (github-slugger):
the heading's text lowercased, every character but letters, digits, marks, `-`, `_` and spaces removed,
each space made a `-`; the second heading of the same anchor gets `-1`, the third `-2`. `<a id=...>` and
`<a name=...>` count too. Links inside code (fenced blocks and inline spans) are text, not links; a code block
never closed is reported too, as it hides the rest of its page.
Used by tools/docs.py (`make docs`) and tests/test_docs.py.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
HREF = re.compile(r"<a\s[^>]*href=\"([^\"]*)\"", re.IGNORECASE)
HTML_ANCHOR = re.compile(r"<a\s[^>]*(?:id|name)=\"([^\"]+)\"", re.IGNORECASE)
HTML_TAG = re.compile(r"<[^>]+>")
URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True)
class Link:
    """One link of a page: the page, its 1-based line, the link as written and its target."""

    page: Path
    line: int
    written: str
    target: str


def fenced_blocks(text: str) -> tuple[set[int], int | None]:
    """The line numbers inside fenced code blocks (fences included), and the line of a fence never closed."""
    inside: set[int] = set()
    fence, opened_at = "", None
    for number, line in enumerate(text.splitlines(), start=1):
        opened = FENCE.match(line)
        if fence:
            inside.add(number)
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence, opened_at = "", None
        elif opened:
            fence, opened_at = opened.group(1), number
            inside.add(number)
    return inside, opened_at


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The (line number, line) pairs outside fenced code blocks, inline code spans blanked."""
    inside, _ = fenced_blocks(text)
    return [(number, INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line))
            for number, line in enumerate(text.splitlines(), start=1) if number not in inside]


def slug(heading: str) -> str:
    """GitHub's anchor of a heading's Markdown text, before de-duplication."""
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = HTML_TAG.sub("", text).strip().lower()
    kept = "".join(c for c in text if unicodedata.category(c)[0] in "LNM" or c in "-_ ")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor of a Markdown page: its headings' (ATX and setext) and its HTML anchors'."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    raw = text.splitlines()
    prose = {number for number, _ in prose_lines(text)}
    for number, line in enumerate(raw, start=1):
        if number not in prose:
            continue
        heading = ATX_HEADING.match(line)
        previous = raw[number - 2] if number > 1 and number - 1 in prose else ""
        if heading:
            title = heading.group(1) or ""
        elif (SETEXT_UNDERLINE.match(line) and previous.strip()
              and not previous.lstrip().startswith(("|", "-", "*", "+", ">", "#"))):
            title = previous.strip()
        else:
            found.update(HTML_ANCHOR.findall(line))
            continue
        base = slug(title)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[Link]:
    """The relative links of a page (URLs and mail addresses left out)."""
    found = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for match in LINK.finditer(line):
            found.append(Link(page, number, match.group(0), match.group(2)))
        for match in HREF.finditer(line):
            found.append(Link(page, number, match.group(0), match.group(1)))
    return [link for link in found if link.target and not URL.match(link.target)]


def problem(link: Link) -> str | None:
    """Why a relative link is broken, or None when its file (and anchor) exist."""
    path_part, _, anchor = link.target.partition("#")
    target = (link.page.parent / path_part).resolve() if path_part else link.page
    if not target.exists():
        return f"no file {path_part}"
    if not anchor or target.is_dir() or target.suffix.lower() != ".md":
        return None
    if anchor not in anchors(target.read_text(encoding="utf-8")):
        return f"no heading or anchor #{anchor} in {target.name}"
    return None


def broken_links(pages: list[Path], root: Path) -> list[str]:
    """One message per broken relative link, `PAGE:LINE: broken link LINK: why` (PAGE relative to root), and one
    per code block left open (it would hide the rest of its page from the check)."""
    messages = []
    for page in pages:
        _, unclosed = fenced_blocks(page.read_text(encoding="utf-8"))
        if unclosed is not None:
            messages.append(f"{page.relative_to(root)}:{unclosed}: code block never closed: the rest of the page is "
                            "code, its links unchecked")
        for link in links(page):
            why = problem(link)
            if why:
                messages.append(f"{page.relative_to(root)}:{link.line}: broken link {link.written}: {why}")
    return messages


def project_pages(root: Path) -> list[Path]:
    """The pages whose links are checked: README.md, ARCHITECTURE.md and every docs/*.md."""
    return [root / "README.md", root / "ARCHITECTURE.md", *sorted((root / "docs").glob("*.md"))]
