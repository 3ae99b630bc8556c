"""`rankflavor metrics`: every metric with its parameters, formula, axes and each peer's names for it
(metrics/catalog.py; the metrics table of docs/metrics.md is the same rows), read from the generated table
(cli/listings.py), so that listing them imports no metric family."""

from __future__ import annotations

import argparse

from rankflavor.errors import EXIT_OK


def add_parser(sub) -> None:
    from rankflavor.cli.help import command_epilog

    p = sub.add_parser("metrics", help="list the metrics: parameters, formula, axes, each peer's names",
                       epilog=command_epilog("metrics"), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--format", choices=("table", "json"), default="table")


def run(args: argparse.Namespace) -> int:
    from rankflavor.cli import render
    from rankflavor.cli.listings import metric_rows

    rows = metric_rows()
    if args.format == "json":
        render.print_json(rows)
        return EXIT_OK
    columns = ("metric", "formula", "trec_eval", "ir_measures", "ranx")
    table = [list(columns)] + [[row[c] for c in columns] for row in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(columns))]
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    print("\nparameters (in the head: iprec(level=0.5)):")
    for row in rows:
        if row["parameters"]:
            print(f"  {row['metric']}: {row['parameters']}")
    return EXIT_OK
