"""`rankflavor presets`: every preset with its canonical flavor, default cutoffs and the source it reproduces."""

from __future__ import annotations

import argparse
import json
import sys

from rankflavor.errors import EXIT_OK


def add_parser(sub) -> None:
    p = sub.add_parser("presets", help="list the presets with their canonical flavors and sources")
    p.add_argument("--format", choices=("table", "json"), default="table")


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
                    "flavor": str(flavors[0]), "source": preset.source, "note": preset.note})
    return out


def run(args: argparse.Namespace) -> int:
    from rankflavor.cli import render

    if args.format == "json":
        json.dump(rows(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        render.print_presets(rows())
    return EXIT_OK
