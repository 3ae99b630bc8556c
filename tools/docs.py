#!/usr/bin/env python3
"""Write the generated documentation and check every relative link of the project's pages (`make docs`):

- the axis table, between `<!-- axes:start -->` and `<!-- axes:end -->` (docs/flavors.md), from the axis registry
  (rankflavor.flavor.axes), and the metrics table, between `<!-- metrics:start -->` and `<!-- metrics:end -->`
  (docs/metrics.md), from the metric registry: wherever those markers are, in README.md, ARCHITECTURE.md or
  docs/*.md (each pair must be found at least once);
- src/rankflavor/cli/listings.json: the rows `rankflavor metrics` and `rankflavor presets` print, from the metric
  registry and the presets (rankflavor.cli.listings.render), read by those commands without importing a family;
- src/rankflavor/registry_index.py: what the shipped families declare (rankflavor.registry.render_index), read by
  the registry so that resolving a name imports its own family only;
- docs/axes.md: every value of every axis with its meaning, source and presets: the text `rankflavor axes` prints
  (rankflavor.flavor.axis_docs.axes_reference);
- docs/input-catalogue.md, from the cases of tests/test_bad_input.py (written only where pytest is installed, as
  `python tests/test_bad_input.py` does; its own test checks it);
- then every relative link of README.md, ARCHITECTURE.md and docs/*.md (tools/doc_links.py): a link to a file
  or a `#anchor` that does not exist is printed as `PAGE:LINE: broken link LINK: why` and the exit code is 1.

usage: python tools/docs.py [--check]   (--check: write nothing; exit 1 when a generated part differs from what
it would write, or a link is broken). tests/test_docs.py fails when either happens.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

from doc_links import broken_links, project_pages

from rankflavor import registry
from rankflavor.cli import cmd_presets, listings
from rankflavor.flavor.axes import docs_table
from rankflavor.flavor.axis_docs import axes_reference
from rankflavor.metrics.catalog import common_axes, metric_rows

ROOT = Path(__file__).resolve().parent.parent
AXES_MD_HEAD = """# Flavor axes: every value, its meaning and its source

Generated from `src/rankflavor/flavor/axes.py` by `python tools/docs.py`; do not edit by hand. `rankflavor axes
[AXIS]` prints the same text. A flavor is `metric[@k]` followed by `key=value` for any of these axes; a metric
prints the axes it reads. `presets:` names the presets whose flavor has the value.

"""


PEERS = ("trec_eval", "ir_measures", "ranx")  # (metrics/catalog.py peer_names)


def metrics_table() -> str:
    """Every registered metric: its formula, the axes that set it apart, each peer's names for it."""
    rows = [f"Every metric also reads {', '.join(common_axes())}.", "",
            "| metric | formula | axes | " + " | ".join(PEERS) + " |", "|---|---|---|" + "---|" * len(PEERS)]
    for row in metric_rows():
        names = [", ".join(f"`{n}`" for n in row[p].split(", ")) if row[p] != "none" else "" for p in PEERS]
        rows.append(f"| `{row['metric']}` | {row['formula']} | {row['axes']} | " + " | ".join(names) + " |")
    return "\n".join(rows)


# marker name -> the text between `<!-- NAME:start -->` and `<!-- NAME:end -->`
BLOCKS: dict[str, Callable[[], str]] = {"axes": docs_table, "metrics": metrics_table}


def _between(text: str, start: str, end: str, body: str) -> str:
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def with_blocks(current: str, bodies: dict[str, str]) -> tuple[str, set[str]]:
    """A page's text with every generated block it marks rewritten, and the names of those blocks."""
    found = set()
    for name, body in bodies.items():
        start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
        if start in current and end in current:
            current = _between(current, start, end, body)
            found.add(name)
    return current, found


def catalogue() -> str | None:
    """docs/input-catalogue.md as tests/test_bad_input.py renders it, or None where pytest is not installed."""
    if importlib.util.find_spec("pytest") is None:
        return None
    spec = importlib.util.spec_from_file_location("test_bad_input", ROOT / "tests" / "test_bad_input.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module.render_catalogue()


def generated(with_catalogue: bool) -> tuple[dict[Path, str], list[str]]:
    """Every generated file's text (path -> text), and a message per generated block no page marks."""
    bodies = {name: render() for name, render in BLOCKS.items()}
    targets, marked = {}, set()
    for page in project_pages(ROOT):
        if page.exists():
            text, found = with_blocks(page.read_text(encoding="utf-8"), bodies)
            targets[page] = text
            marked |= found
    targets[ROOT / "docs" / "axes.md"] = AXES_MD_HEAD + axes_reference()
    listings_json = ROOT / "src" / "rankflavor" / "cli" / "listings.json"
    targets[listings_json] = listings.render(metric_rows(), cmd_presets.shipped_rows())
    targets[ROOT / "src" / "rankflavor" / "registry_index.py"] = registry.render_index()
    text = catalogue() if with_catalogue else None
    if text is not None:
        targets[ROOT / "docs" / "input-catalogue.md"] = text
    missing = [f"no page has the markers <!-- {name}:start --> and <!-- {name}:end -->"
               for name in BLOCKS if name not in marked]
    return targets, missing


def main(argv: list[str]) -> int:
    check = "--check" in argv
    targets, problems = generated(with_catalogue=not check)
    stale = [path for path, text in targets.items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    for path in stale:
        if check:
            problems.append(f"{path.relative_to(ROOT)} differs from the registries: run python tools/docs.py")
        else:
            path.write_text(targets[path], encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if not check and importlib.util.find_spec("pytest") is None:
        print("docs/input-catalogue.md left as it is: pytest is not installed (python tests/test_bad_input.py)")
    problems += broken_links([page for page in project_pages(ROOT) if page.exists()], ROOT)
    for message in problems:
        print(message)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
