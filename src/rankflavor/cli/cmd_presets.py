"""`rankflavor presets`: every preset with its canonical flavor, default cutoffs, source, note and how it is
checked; `rankflavor presets --diff A B`: the axes on which two flavors or presets differ (Flavor.differences).
"""

from __future__ import annotations

import argparse
from typing import Any

from rankflavor.errors import EXIT_OK


def add_parser(sub) -> None:
    from rankflavor.cli.help import command_epilog

    p = sub.add_parser("presets", help="list the presets, or show the axes on which two flavors differ (--diff)",
                       epilog=command_epilog("presets"), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--diff", nargs=2, metavar=("A", "B"),
                   help="two flavor specs or presets, e.g. --diff sklearn@10 trec_eval@10; a preset without @k "
                        "that stands for several cutoffs is compared at its first one")


def rows() -> list[dict[str, str]]:
    from rankflavor.flavor import PRESETS, parse_spec

    out = []
    for preset in PRESETS.values():
        if preset.needs_cutoff:
            flavors = parse_spec(f"{preset.name}@10")
            cutoffs = "required (shown @10)"
        else:
            flavors = parse_spec(preset.name)
            cutoffs = ",".join(str(k) for k in preset.cutoffs if k is not None) or "none"
        out.append({"preset": preset.name, "peer": preset.peer, "default_cutoffs": cutoffs,
                    "flavor": str(flavors[0]), "source": preset.source, "note": preset.note,
                    "checked": preset.checked})
    return out + project_rows()


def project_rows() -> list[dict[str, str]]:
    """The flavors the project pins here (flavor/project.py), as `project.NAME` rows."""
    from rankflavor.flavor import parse_spec
    from rankflavor.flavor.project import PREFIX, find_project

    project = find_project()
    if project is None:
        return []
    out = []
    for name, spec in project.flavors.items():
        flavors = parse_spec(PREFIX + name)
        out.append({"preset": PREFIX + name, "peer": "this project", "default_cutoffs": ",".join(
                    str(f.cutoff) for f in flavors if f.cutoff is not None) or "none", "flavor": str(flavors[0]),
                    "source": f"{project.path}: {name} = {spec!r}", "note": "", "checked": "pinned by the project"})
    return out


def diff(a: str, b: str) -> dict[str, Any]:
    """Both resolved flavors, the axes on which they differ, and notes on presets that stand for several."""
    from rankflavor.flavor import parse_spec

    resolved, notes = [], []
    for spec in (a, b):
        flavors = parse_spec(spec)
        if len(flavors) > 1:
            cutoffs = ",".join(str(f.cutoff) for f in flavors)
            notes.append(f"{spec!r} stands for {len(flavors)} flavors (cutoffs {cutoffs}); compared at "
                         f"@{flavors[0].cutoff}")
        resolved.append(flavors[0])
    fa, fb = resolved
    return {"a": {"spec": a, "flavor": str(fa)}, "b": {"spec": b, "flavor": str(fb)},
            "differences": [{"axis": axis, "a": x, "b": y} for axis, x, y in fa.differences(fb)], "notes": notes}


def print_diff(result: dict[str, Any]) -> None:
    print(f"A  {result['a']['spec']}: {result['a']['flavor']}")
    print(f"B  {result['b']['spec']}: {result['b']['flavor']}")
    for note in result["notes"]:
        print(f"note: {note}")
    if not result["differences"]:
        print("no difference: A and B are the same flavor")
        return
    table = [["axis", "A", "B"]] + [[d["axis"], d["a"], d["b"]] for d in result["differences"]]
    widths = [max(len(r[i]) for r in table) for i in range(3)]
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())


def run(args: argparse.Namespace) -> int:
    from rankflavor.cli import render

    if args.diff:
        result = diff(*args.diff)
        if args.format == "json":
            render.print_json(result)
        else:
            print_diff(result)
        return EXIT_OK
    if args.format == "json":
        render.print_json(rows())
    else:
        render.print_presets(rows())
    return EXIT_OK
