"""The CLI commands, each a thin wrapper over the library."""

from __future__ import annotations

import argparse
import json
import sys

from rankflavor.cli import render
from rankflavor.errors import EXIT_OK


def run_eval(args: argparse.Namespace) -> int:
    from rankflavor import evaluate

    report = evaluate(args.qrels, list(args.runs), args.specs or ["ndcg@10"])
    if args.format == "json":
        json.dump(report.to_dict(per_query=args.per_query), sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif args.format == "csv":
        render.write_csv(report, sys.stdout)
    else:
        render.print_report(report, per_query=args.per_query)
    return EXIT_OK


def run_explain(args: argparse.Namespace) -> int:
    from rankflavor import Flavor, evaluate

    flavor = Flavor.parse(args.spec)
    report = evaluate(args.qrels, [args.run], flavor)
    record = report.explain(report.runs[0], args.query, flavor)
    if args.format == "json":
        json.dump(record.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        render.print_record(record)
    return EXIT_OK


def run_presets(args: argparse.Namespace) -> int:
    from rankflavor.flavor import PRESETS, parse_spec

    rows = []
    for preset in PRESETS.values():
        if preset.needs_cutoff:
            flavors = parse_spec(f"{preset.name}@10")
            cutoffs = "required (shown @10)"
        else:
            flavors = parse_spec(preset.name)
            cutoffs = ",".join(str(k) for k in preset.cutoffs if k is not None) or "none"
        rows.append({"preset": preset.name, "peer": preset.peer, "default_cutoffs": cutoffs,
                     "flavor": str(flavors[0]), "source": preset.source, "note": preset.note})
    if args.format == "json":
        json.dump(rows, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        render.print_presets(rows)
    return EXIT_OK


def run_demo(args: argparse.Namespace) -> int:
    from rankflavor.demo import run_demo as demo

    demo()
    return EXIT_OK
