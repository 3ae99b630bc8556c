"""`rankflavor report QRELS RUN [RUN ...] [-m SPEC ... | --grid NAME|FILE] [--baseline RUN] -o report.html`: one
self-contained HTML page (rankflavor/display; needs the `rankflavor[report]` extra, plotly)."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time

from rankflavor.cli import bounds_table
from rankflavor.cli.cmd_check import add_on_duplicate
from rankflavor.cli.cmd_eval import add_cutoff_and_base_options, add_name_option, named, run_names
from rankflavor.cli.memory_option import add_max_memory
from rankflavor.cli.test_options import add_test_options, chosen_settings
from rankflavor.errors import EXIT_OK, EXIT_USAGE
from rankflavor.plural import counted


def add_parser(sub) -> None:
    from rankflavor.cli.help import command_epilog

    p = sub.add_parser("report", help="write one self-contained HTML page: the paper table, flavor sensitivity, "
                                      "per-query plots and table, records, warnings",
                       epilog=command_epilog("report"), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels", help="TREC qrels file")
    p.add_argument("runs", nargs="+", metavar="RUN", help="one or more run files")
    p.add_argument("-m", "--measure", action="append", dest="specs", metavar="SPEC",
                   help="a flavor to report (repeatable); replaces the grid")
    p.add_argument("--grid", metavar="NAME|FILE", help="a named grid (rankflavor compare --grids) or a grid file; "
                                                       "default: the 'default' grid")
    add_cutoff_and_base_options(p)
    p.add_argument("--baseline", metavar="RUN", action="append",
                   help="test each run against this one instead of every pair (the default); repeatable: each run "
                        "against each baseline. Its name, its path as typed, or its file name")
    add_name_option(p)
    add_test_options(p)
    bounds_table.add_option(p, "compare")
    p.add_argument("--query-set", choices=("common", "qrels"), default="common",
                   help="the queries every mean, difference and test is over: common (the default) the judged queries "
                        "every run answers; qrels every judged query, one a run lacks counted as missing= says")
    p.add_argument("-o", "--output", default="report.html", metavar="FILE", help="the page to write (report.html)")
    add_on_duplicate(p)
    add_max_memory(p)


def run(args: argparse.Namespace) -> int:
    if args.specs and args.grid:
        sys.stderr.write("rankflavor: error: give -m SPEC ... or --grid, not both\n")
        return EXIT_USAGE
    try:
        from rankflavor.display.page import write_report
    except ImportError as exc:
        sys.stderr.write(f"rankflavor: report needs plotly ({exc.name or exc}): pip install 'rankflavor[report]'\n")
        return EXIT_USAGE
    from rankflavor.compare.stats import TestSettings

    start = time.perf_counter()
    model_args = [x for spec in args.specs or [] for x in ("-m", spec)] + (["--grid", args.grid] if args.grid else [])
    model_args += [x for k in args.cutoffs or [] for x in ("-k", str(k))]
    model_args += (["--base", args.base] if args.base != "ndcg" else [])
    model_args += [x for b in args.baseline or [] for x in ("--baseline", b)]
    model_args += [x for item in args.names for x in ("--name", item)]
    model_args += ["--query-set", args.query_set] if args.query_set != "common" else []
    model_args += ["--unjudged-bounds", args.unjudged_bounds] if args.unjudged_bounds is not None else []
    settings = TestSettings(**chosen_settings(args))
    model_args += ["--settings", str(settings)]  # (the canonical string: the page's command line reproduces it)
    command = shlex.join(["rankflavor", "report", args.qrels, *args.runs, *model_args, "-o", args.output])
    runs = named(list(args.runs), run_names(list(args.runs), args.names))
    model = write_report(args.qrels, runs, args.output, args.specs, grid=args.grid, cutoffs=args.cutoffs,
                         base=args.base, baseline=args.baseline, command=command, on_duplicate=args.on_duplicate,
                         settings=settings, query_set=args.query_set, unjudged_bounds=args.unjudged_bounds)
    if model.comparison is not None and model.comparison.query_set is not None and model.comparison.query_set.warning():
        sys.stderr.write(f"warning: {model.comparison.query_set.warning()}\n")
    size = os.path.getsize(args.output)
    print(f"wrote {args.output} ({size / 1e6:.1f} MB, {counted(len(model.runs), 'run', 'runs')} x "
          f"{counted(len(model.flavors), 'flavor', 'flavors')}, the lists of "
          f"{counted(len(model.lists['queries']), 'query', 'queries')} embedded) in {time.perf_counter() - start:.1f} s")
    return EXIT_OK
