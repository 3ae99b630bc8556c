#!/usr/bin/env python3
"""Write the documentation generated from the axis registry (rankflavor.flavor.axes):

- README.md: the axis table between the `<!-- axes:start -->` and `<!-- axes:end -->` markers, and the metrics
  table between `<!-- metrics:start -->` and `<!-- metrics:end -->` (from the metric registry);
- docs/axes.md: every value of every axis with its meaning, source and presets: the text `rankflavor axes` prints
  (rankflavor.flavor.axis_docs.axes_reference).

usage: python tools/docs.py [--check]   (--check: exit 1 when a file differs from what it would write)
tests/test_axes_registry.py fails when the committed files and the registry drift apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rankflavor.flavor.axes import docs_table
from rankflavor.flavor.axis_docs import axes_reference
from rankflavor.metrics.catalog import common_axes, metric_rows

ROOT = Path(__file__).resolve().parent.parent
START, END = "<!-- axes:start -->", "<!-- axes:end -->"
METRICS_START, METRICS_END = "<!-- metrics:start -->", "<!-- metrics:end -->"
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


def _between(text: str, start: str, end: str, body: str) -> str:
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def readme_text(current: str) -> str:
    return _between(_between(current, START, END, docs_table()), METRICS_START, METRICS_END, metrics_table())


def axes_md() -> str:
    return AXES_MD_HEAD + axes_reference()


def main() -> int:
    check = "--check" in sys.argv[1:]
    targets = {ROOT / "README.md": readme_text((ROOT / "README.md").read_text()), ROOT / "docs" / "axes.md": axes_md()}
    stale = [path for path, text in targets.items() if not path.exists() or path.read_text() != text]
    if check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} differs from the axis registry: run python tools/docs.py")
        return 1 if stale else 0
    for path in stale:
        path.write_text(targets[path])
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
