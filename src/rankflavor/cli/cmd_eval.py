"""`rankflavor eval QRELS RUN [RUN ...] -m SPEC [-m SPEC ...] [--per-query] [--format table|json|csv]`."""

from __future__ import annotations

import argparse
import sys

from rankflavor.cli.cmd_check import add_on_duplicate
from rankflavor.cli.help import axes_epilog
from rankflavor.cli.threads import one_blas_thread
from rankflavor.errors import EXIT_OK


def add_parser(sub) -> None:
    p = sub.add_parser("eval", help="evaluate runs against qrels under one or more flavors",
                       epilog=axes_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels", help="TREC qrels file (qid iter docid grade), plain or .gz")
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files (qid Q0 docid rank score tag)")
    p.add_argument("-m", "--measure", action="append", dest="specs", metavar="SPEC",
                   help="flavor spec, e.g. 'ndcg@10', 'ndcg@10 gain=exp2', 'trec_eval', 'lightgbm@5' "
                        "(repeatable; default ndcg@10)")
    p.add_argument("--per-query", action="store_true", help="also print every query's value")
    p.add_argument("--format", choices=("table", "json", "csv", "trec"), default="table",
                   help="trec: trec_eval's lines (name, query, value to 4 decimals)")
    p.add_argument("--weights", action="append", metavar="NAME=FILE", default=[],
                   help="per-query weights for flavors with weights=NAME: a file of 'qid weight' lines (repeatable)")
    add_on_duplicate(p)


def weight_files(items: list[str]) -> dict[str, str]:
    """{NAME: FILE} from --weights NAME=FILE options."""
    from rankflavor.errors import SpecError

    out: dict[str, str] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise SpecError(f"--weights {item!r}: write NAME=FILE, e.g. --weights traffic=weights.txt")
        if name in out:
            raise SpecError(f"--weights {name}=... given twice")
        out[name] = path
    return out


def run(args: argparse.Namespace) -> int:
    one_blas_thread()
    from rankflavor.inputs.prefetch import prefetch_runs

    runs = prefetch_runs(list(args.runs))  # parsed on Arrow's threads while the specs are parsed and the qrels read
    from rankflavor import evaluate, parse_specs
    from rankflavor.cli import render

    flavors = parse_specs(args.specs or ["ndcg@10"])  # a bad spec is reported before anything about the inputs
    report = evaluate(args.qrels, runs, flavors, on_duplicate=args.on_duplicate, weights=weight_files(args.weights))
    for warning in report.provenance["input_warnings"]:  # (on stderr: the output's format stays parseable)
        sys.stderr.write(f"warning: {warning}\n")
    if args.format == "json":
        render.print_json(report.to_dict(per_query=args.per_query))
    elif args.format == "csv":
        render.write_csv(report, sys.stdout)
    elif args.format == "trec":
        from rankflavor.cli.trec_output import write_trec

        write_trec(report, sys.stdout, per_query=args.per_query)
    else:
        render.print_report(report, per_query=args.per_query)
    return EXIT_OK
