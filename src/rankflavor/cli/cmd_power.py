"""`rankflavor power QRELS RUN RUN [RUN ...] [-m SPEC ... | --grid NAME|FILE] [--delta D]`: is the test collection
enough? Per measure and flavor: the run pairs its paired test separates at alpha (Sakai's discriminative power),
the ASL curve's quantiles, and the topics a paired t-test needs to detect a difference of D (compare/power.py)."""

from __future__ import annotations

import argparse
import sys

from rankflavor.cli import render
from rankflavor.cli.cmd_check import add_on_duplicate
from rankflavor.cli.cmd_eval import add_cutoff_and_base_options, add_name_option, resamples, seed, significance_level
from rankflavor.cli.render import fmt, text_columns
from rankflavor.errors import EXIT_OK, EXIT_USAGE


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    from rankflavor.compare.topic_size import MAX_DELTA, MIN_DELTA

    if not MIN_DELTA <= value <= MAX_DELTA:  # (NaN fails both)
        raise argparse.ArgumentTypeError(f"{text!r} is not a difference worth detecting: give a number from "
                                         f"{MIN_DELTA:g} to {MAX_DELTA:g}, e.g. --delta 0.02")
    return value


def _power(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a power: give a number between 0 and 1 (exclusive), "
                                         "e.g. --power 0.8")
    return value


def add_parser(sub) -> None:
    from rankflavor.cli.help import command_epilog

    p = sub.add_parser("power", help="discriminative power, ASL curve and topic-set size of each measure and flavor",
                       epilog=command_epilog("power"), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels", help="TREC qrels file")
    p.add_argument("runs", nargs="+", metavar="RUN", help="two or more TREC run files (every pair is tested)")
    p.add_argument("-m", "--measure", action="append", dest="specs", metavar="SPEC",
                   help="a measure or flavor (repeatable); replaces the grid")
    p.add_argument("--grid", metavar="NAME|FILE",
                   help="a grid of flavors, as compare's (rankflavor compare --grids; default 'default')")
    add_cutoff_and_base_options(p)
    add_name_option(p)
    p.add_argument("--test", choices=("randomization", "t"), default="randomization",
                   help="the paired test of every pair: randomization (sign-flip, the default) or scipy's paired t")
    p.add_argument("--resamples", type=resamples, default=1000, help="resamples of the randomization test (1000)")
    p.add_argument("--seed", type=seed, default=0, help="seed of the resampling (default 0)")
    p.add_argument("--alpha", type=significance_level, default=0.05,
                   help="a pair is separated when its p-value is below alpha (no correction, as Sakai's)")
    p.add_argument("--delta", type=_positive, default=0.02,
                   help="the topic-set size: the smallest mean difference worth detecting (default 0.02)")
    p.add_argument("--power", type=_power, default=0.8, dest="target_power",
                   help="the topic-set size: the power the paired t-test must reach (default 0.8)")
    p.add_argument("--query-set", choices=("common", "qrels"), default="common",
                   help="the queries tested: common (the default) the judged queries every run answers; qrels "
                        "every judged query (a missing one as the flavor's missing= says)")
    p.add_argument("--format", choices=("table", "json", "csv"), default="table")
    from rankflavor.cli.render import add_csv_option

    add_csv_option(p)
    add_on_duplicate(p)


def run(args: argparse.Namespace) -> int:
    from rankflavor.compare.power import power
    from rankflavor.inputs.run_names import parse_name_options

    if len(args.runs) < 2:
        sys.stderr.write("rankflavor: error: power needs QRELS and at least two runs\n")
        return EXIT_USAGE
    if args.specs and args.grid:
        sys.stderr.write("rankflavor: error: give -m SPEC ... or --grid, not both\n")
        return EXIT_USAGE
    report = power(args.qrels, list(args.runs), args.specs, grid=args.grid, cutoffs=args.cutoffs, base=args.base,
                   test=args.test, n_resamples=args.resamples, seed=args.seed, alpha=args.alpha, delta=args.delta,
                   power=args.target_power, query_set=args.query_set, on_duplicate=args.on_duplicate,
                   names=parse_name_options(args.names) or None)
    warning = report.query_set.warning()
    if warning:
        sys.stderr.write(f"warning: {warning}\n")
    for combination, reason in report.skipped:
        sys.stderr.write(f"skipped: {combination}: {reason}\n")
    if args.format == "json":
        render.print_json(report.to_dict())
    elif args.format == "csv":
        from rankflavor.escape import formula_safe_frame

        formula_safe_frame(report.to_frame()).to_csv(sys.stdout, index=False)
    else:
        print_power(report)
    return EXIT_OK


def print_power(report) -> None:
    """The table (one row per flavor), each measure's most discriminative flavor, and how it was tested."""
    s = report.settings
    rows = [["separated", "share", "ASL min", "q25", "median", "q75", "max", "n", "var(d)",
             f"topics for {s['delta']:g}", "(Sakai 2016)", "flavor"]]
    for fp in report.flavors:
        q = fp.asl_quantiles()
        rows.append([f"{fp.separated}/{len(fp.pairs)}", fmt(fp.share, 3), *(_p(x) for x in q), str(fp.queries),
                     fmt(fp.variance, 6), _n(fp.topics_needed), _n(fp.topics_needed_within), fp.label])
    print("\n".join(text_columns(rows)))
    print()
    for metric, fp in report.most_discriminative().items():
        among = [other for other in report.flavors if other.metric == metric]
        if len(among) < 2:
            continue
        if fp.separated == 0:
            print(f"no flavor of {metric} separates a pair at alpha {s['alpha']:g} ({len(among)} flavors)")
            continue
        tied = sum(1 for other in among if other.separated == fp.separated) - 1
        print(f"most discriminative flavor of {metric}: {fp.label} ({fp.separated} of {len(fp.pairs)} pairs at alpha "
              f"{s['alpha']:g}, among {len(among)} flavors" + (f"; {tied} more separate as many)" if tied else ")"))
    test = ("the paired randomization (sign-flip) test, "
            f"{s['n_resamples']} resamples, seed {s['seed']}") if s["test"] == "randomization" else "the paired t-test"
    pairs = len(report.runs) * (len(report.runs) - 1) // 2
    print(f"{len(report.runs)} runs, {pairs} pairs, {s['paired_queries']}.\n"
          f"separated: p < {s['alpha']:g} by {test}, no correction across pairs (Sakai 2006); ASL: the pairs' "
          "p-values, sorted (quantiles).\n"
          "var(d): the variance of the per-query differences, mean over pairs; topics: the fewest topics whose paired "
          f"t-test at {s['alpha']:g} detects\na difference of {s['delta']:g} with power {s['power']:g} (Sakai 2016; "
          "the last column from his within-system variance, 2 V_E).")
    for fp in report.flavors:
        if fp.label != fp.flavor:
            print(f"  {fp.label} = {fp.flavor}")


def _p(x: float) -> str:
    if x != x:
        return "null"
    return f"{x:.4f}" if x >= 1e-4 else f"{x:.1e}"


def _n(n: int | None) -> str:
    return "null" if n is None else str(n)
