"""`rankflavor explain QRELS RUN -q QID -m SPEC [--format table|json]`: the record behind one score."""

from __future__ import annotations

import argparse

from rankflavor.cli.cmd_check import add_on_duplicate
from rankflavor.cli.help import axes_epilog
from rankflavor.cli.threads import one_blas_thread
from rankflavor.errors import EXIT_OK, InputError


def add_parser(sub) -> None:
    p = sub.add_parser("explain", help="print the record behind one query's score",
                       epilog=axes_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels")
    p.add_argument("run")
    p.add_argument("-q", "--query", required=True, help="query id")
    p.add_argument("-m", "--measure", dest="spec", metavar="SPEC",
                   help="one flavor spec (default: the project's primary flavor, else ndcg@10)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    add_on_duplicate(p)


def run(args: argparse.Namespace) -> int:
    one_blas_thread()
    from rankflavor import Flavor
    from rankflavor.cli import render
    from rankflavor.cli.cmd_eval import default_spec
    from rankflavor.inputs.prefetch import prefetch_runs
    from rankflavor.report import explain

    flavor = Flavor.parse(args.spec or default_spec())
    run = prefetch_runs([args.run])[0]  # parsed on Arrow's threads while the qrels is read
    try:
        record = explain(args.qrels, run, args.query, flavor, on_duplicate=args.on_duplicate)
    except KeyError as exc:
        raise InputError(str(exc.args[0]), source=args.qrels, fix="pick a query id from the qrels") from None
    if args.format == "json":
        render.print_json(record.to_dict())
    else:
        render.print_record(record)
    return EXIT_OK
