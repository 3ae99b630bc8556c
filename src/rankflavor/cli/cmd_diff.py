"""`rankflavor diff QRELS RUN [RUN_B] -m FLAVOR_A -m FLAVOR_B [--order AXIS,...]`: split the gap between two
flavors (and, with two runs, between two systems) into the part due to each axis, one change at a time."""

from __future__ import annotations

import argparse
import sys

from rankflavor.cli import render
from rankflavor.cli.cmd_check import add_on_duplicate
from rankflavor.errors import EXIT_OK, EXIT_USAGE
from rankflavor.plural import counted


def add_parser(sub) -> None:
    from rankflavor.cli.help import command_epilog

    p = sub.add_parser("diff", help="walk from one flavor to another one axis at a time: what each axis changes",
                       epilog=command_epilog("diff"), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels", help="TREC qrels file")
    p.add_argument("runs", nargs="+", metavar="RUN", help="one run, or two (RUN_A under FLAVOR_A vs RUN_B under FLAVOR_B)")
    p.add_argument("-m", "--measure", action="append", dest="specs", metavar="SPEC", required=True,
                   help="give exactly two: the flavor to start from and the flavor to reach")
    p.add_argument("--order", metavar="AXIS,...", help="the order in which the axes change (default: canonical order)")
    from rankflavor.cli.cmd_eval import count_of

    p.add_argument("--top", type=count_of("a number of queries", "--top 5"), default=5, metavar="N",
                   help="queries that move most, per step and run")
    p.add_argument("--shapley", action="store_true",
                   help="also the order-free split: each axis's part averaged over every order (2^m flavors)")
    p.add_argument("--query-set", choices=("common", "qrels"), default="common",
                   help="with two runs, the queries every mean is over: common (the default) the judged queries both "
                        "runs answer; qrels every judged query, one a run lacks counted as the flavor's missing= says "
                        "(refused under missing=skip)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    add_on_duplicate(p)


def print_attribution(att, start, end) -> None:
    from rankflavor.cli.render import aligned, flavor_key, fmt

    runs = att.runs
    print(f"A: {start}")
    print(f"B: {end}")
    print(f"walk from A to B, one axis at a time ({counted(len(att.path), 'step', 'steps')})\n")
    head = ["step", "change"]
    for r in runs:
        head += [f"{r} mean", "delta"]
    if len(runs) == 2:
        head += [f"{runs[0]} - {runs[1]}"]
    rows = [head]
    flavors = []
    for step, block in att.steps.groupby("step", sort=True):
        first = block.iloc[0]
        row = [str(step), first.change]
        means = {}
        for r in runs:
            rr = block[block.run == r].iloc[0]
            means[r] = rr["mean"]
            row += [fmt(rr["mean"]), "" if step == 0 else f"{rr.delta:+.6f}"]
        if len(runs) == 2:
            a, b = means[runs[0]], means[runs[1]]
            row.append("null" if a is None or b is None else f"{a - b:+.6f}")
        rows.append(row)
        if str(first.flavor) not in (str(start), str(end)):  # (A and B are printed above the table)
            flavors.append((f"step {step}", first.flavor))
    print("\n".join(aligned(rows)))
    print("\n".join(flavor_key(flavors, "flavor of each step between A and B")))
    for note in att.notes:
        print(f"note: {note}")
    print()
    for line in att.summary:
        print(line)
    if att.shapley is not None and len(att.shapley):
        print("\nShapley split (each axis's part averaged over every order of the changes):")
        for r in runs:
            parts = att.shapley[att.shapley.run == r]
            print(f"  {r}: " + ", ".join(f"{c}: {v:+.6f}" for c, v in zip(parts.change, parts.shapley, strict=True)))
    if len(att.movers):
        print("\nqueries that move most at each step:")
        for m in att.movers.itertuples():
            print(f"  step {m.step} ({m.change}) {m.run} {m.query}: {fmt(m.before)} -> {fmt(m.after)}  {m.explain}")


def run(args: argparse.Namespace) -> int:
    from rankflavor.compare.attribution import attribute
    from rankflavor.compare.scores import Scores
    from rankflavor.flavor import Flavor

    if len(args.specs) != 2:
        sys.stderr.write("rankflavor: error: diff needs exactly two flavors: -m FLAVOR_A -m FLAVOR_B\n")
        return EXIT_USAGE
    if len(args.runs) > 2:
        sys.stderr.write("rankflavor: error: diff takes one run or two (RUN_A RUN_B)\n")
        return EXIT_USAGE
    start, end = Flavor.parse(args.specs[0]), Flavor.parse(args.specs[1])
    scores = Scores.load(args.qrels, list(args.runs), args.on_duplicate)
    order = [a.strip() for a in args.order.split(",") if a.strip()] if args.order else None
    att = attribute(scores, start, end, order=order, top=args.top, with_shapley=args.shapley,
                    query_set_name=args.query_set)
    if att.query_set is not None and att.query_set.warning():
        sys.stderr.write(f"warning: {att.query_set.warning()}\n")
    if args.format == "json":
        render.print_json({"flavor_a": str(start), "flavor_b": str(end), **att.to_dict()})
    else:
        print_attribution(att, start, end)
    return EXIT_OK
