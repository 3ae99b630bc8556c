"""`rankflavor explain QRELS RUN -q QID -m SPEC [--all] [--format table|json]`: the record behind one score.

The table shows the ranked list down to the flavor's cutoff, then only the documents below it that can still
matter (judged ones: the ideal, recall, bpref; ones tied with a document above the cutoff), and counts the rest;
`--all` prints every row. JSON always holds every row.
"""

from __future__ import annotations

import argparse
import sys

from rankflavor.cli.cmd_check import add_on_duplicate
from rankflavor.cli.help import command_epilog
from rankflavor.cli.threads import one_blas_thread
from rankflavor.errors import EXIT_OK, EXIT_USAGE

KNOWN_SHOWN = 5  # query ids listed when the asked one is unknown


def add_parser(sub) -> None:
    p = sub.add_parser("explain", help="print the record behind one query's score",
                       epilog=command_epilog("explain", axes=True), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels")
    p.add_argument("run")
    p.add_argument("-q", "--query", required=True, help="query id")
    p.add_argument("-m", "--measure", dest="spec", metavar="SPEC",
                   help="one flavor spec (default: the project's primary flavor, else ndcg@10)")
    p.add_argument("--all", action="store_true", dest="show_all",
                   help="print every ranked document; without it the table shows the ranks down to the cutoff, then "
                        "only the judged documents below it (and any tied with one above it), counting the hidden "
                        "unjudged ones. --format json always holds every row")
    p.add_argument("--format", choices=("table", "json"), default="table")
    add_on_duplicate(p)


def unknown_query(message: str, query: str, qrels: str) -> str:
    """The usage error of a query id the qrels does not judge: the first query ids of the qrels, in its order,
    and the close ones (flavor/suggest.py)."""
    from rankflavor.flavor.suggest import close, did_you_mean

    lines = [f"{qrels}: {message}"]
    try:
        from rankflavor.inputs.load import load_qrels

        table = load_qrels(qrels)
        ids = [str(q) for q in dict.fromkeys(table.query.to_pylist())]
    except Exception:  # the qrels cannot be read again (a stream): no list
        ids = []
    if ids:
        hint = did_you_mean(close(query.lower(), {q.lower(): q for q in reversed(ids)}))
        lines[0] += f"; {hint}" if hint else ""
        shown = ", ".join(ids[:KNOWN_SHOWN])
        lines.append(f"  the qrels' query ids: {shown}" + (f", ... ({len(ids)} in all)" if len(ids) > KNOWN_SHOWN
                                                          else ""))
    lines.append("  fix: pick a query id from the qrels")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    one_blas_thread()
    from rankflavor import Flavor
    from rankflavor.cli import render
    from rankflavor.cli.cmd_eval import default_spec
    from rankflavor.inputs.prefetch import prefetch_runs
    from rankflavor.report import explain
    from rankflavor.report.records import trimmed

    flavor = Flavor.parse(args.spec or default_spec())
    run = prefetch_runs([args.run])[0]  # parsed on Arrow's threads while the qrels is read
    try:
        record = explain(args.qrels, run, args.query, flavor, on_duplicate=args.on_duplicate)
    except KeyError as exc:  # a query id the qrels does not judge: a usage error
        message = getattr(exc, "base", str(exc.args[0]))  # (the CLI lists the ids in the qrels' own order)
        sys.stderr.write(f"rankflavor: {unknown_query(message, args.query, args.qrels)}\n")
        return EXIT_USAGE
    if args.format == "json":
        render.print_json(record.to_dict())
    elif args.show_all:
        render.print_record(record)
    else:
        render.print_record(*trimmed(record, flavor.cutoff))
    return EXIT_OK
