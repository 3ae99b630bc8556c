"""`rankflavor explain QRELS RUN -q QID [-q QID ...] -m SPEC [-m SPEC ...] [--all] [--format table|json]`: the record
behind one score, per query and flavor (a measure set's members each), the inputs read once.

The table shows the ranked list and the metric's lists (ndcg: the ideal) first, down to the flavor's cutoff (and
the documents tied with one above it; without a cutoff, every rank). It counts what it leaves out and ends with
how many lines `--all` adds: every ranked row, every row of the lists, and the judged universe (the qrels'
documents of the query). JSON always holds every row.
"""

from __future__ import annotations

import argparse
import sys

from rankflavor.cli.cmd_check import add_on_duplicate
from rankflavor.cli.help import command_epilog
from rankflavor.errors import EXIT_OK, EXIT_USAGE

KNOWN_SHOWN = 5  # query ids listed when the asked one is unknown


def add_parser(sub) -> None:
    p = sub.add_parser("explain", help="print the record behind one query's score",
                       epilog=command_epilog("explain", axes=True), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels")
    p.add_argument("run")
    p.add_argument("-q", "--query", required=True, action="append", dest="queries", metavar="QUERY",
                   help="query id (repeatable: the records of each query, in order)")
    p.add_argument("-m", "--measure", dest="specs", metavar="SPEC", action="append",
                   help="a flavor spec (repeatable: one record per flavor, a measure set's members each; default: "
                        "the project's primary flavor, else ndcg@10)")
    p.add_argument("--all", action="store_true", dest="show_all",
                   help="print every ranked document, every row of the ideal list and the judged universe; without "
                        "it the ranked and ideal lists stop at the cutoff (plus documents tied across it), the judged "
                        "universe is left out, and a last line says how many lines --all adds. --format json always "
                        "holds every row")
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
    from rankflavor.cli import render
    from rankflavor.cli.cmd_eval import default_spec
    from rankflavor.inputs.prefetch import prefetch_runs
    from rankflavor.report.report import explain_each

    flavors = [f for spec in args.specs or [default_spec()] for f in _flavors_of(spec)]
    run = prefetch_runs([args.run])[0]  # parsed on Arrow's threads while the qrels is read
    try:
        records = explain_each(args.qrels, run, args.queries, flavors, on_duplicate=args.on_duplicate)
    except KeyError as exc:  # a query id the qrels does not judge: a usage error
        message = getattr(exc, "base", str(exc.args[0]))  # (the CLI lists the ids in the qrels' own order)
        query = next((q for q in args.queries if repr(q) in message), args.queries[0])
        sys.stderr.write(f"rankflavor: {unknown_query(message, query, args.qrels)}\n")
        return EXIT_USAGE
    if args.format == "json":  # (one record; several: the list of them, query by query, in the flavors' order)
        render.print_json(records[0].to_dict() if len(records) == 1 else [r.to_dict() for r in records])
        return EXIT_OK
    for i, (flavor, record) in enumerate(zip(flavors * len(args.queries), records, strict=True)):
        if i:
            print()
        if args.show_all:
            print_all(record)
        else:
            print_short(record, flavor.cutoff)
    return EXIT_OK


def _flavors_of(spec: str) -> list:
    """A measure set's members (`trec_eval.official`: one record each), else the one flavor of the spec (a preset
    without @k, which stands for several cutoffs, is refused by Flavor.parse: the user picks one)."""
    from rankflavor import Flavor
    from rankflavor.dialects.trec_sets import set_members
    from rankflavor.flavor import labelled_specs

    words = spec.split()
    return list(labelled_specs([spec])) if words and set_members(words[0]) is not None else [Flavor.parse(spec)]


def print_all(record) -> None:
    """The record with --all: every row it holds, and what a record of a huge query leaves out."""
    from rankflavor.cli import render

    render.print_record(record)
    if record.ranked_omitted:
        from rankflavor.report.records import RANKED_ROWS_SHOWN

        print(f"... {_count(record.ranked_omitted, 'more ranked document')} not listed: below rank "
              f"{RANKED_ROWS_SHOWN:,}, unjudged, and tied with no document the metric reads")


def print_short(record, cutoff: int | None) -> None:
    """The record without --all: the ranked list down to `cutoff` and the rows tied with one above it (without a
    cutoff, every row: each rank counts), each list down to `cutoff`, no judged universe; each omission counted
    where it happens, and the lines --all would add counted at the end."""
    from dataclasses import replace

    from rankflavor.cli.render import record_lines

    kept_groups = {row["tie_group"] for row in record.ranked if cutoff is None or row["rank"] <= cutoff}
    ranked = [row for row in record.ranked if row["tie_group"] in kept_groups]
    left = [row for row in record.ranked if row["tie_group"] not in kept_groups]
    judged = sum(row["judged"] for row in left)
    more = len(left) + record.ranked_omitted  # (omitted: rows a record of a huge query does not list)
    hidden = (f"... {_count(more, 'more ranked document')} below rank {cutoff}"
              f"{f' ({judged} judged)' if judged else ''}" if more else "")
    lists, list_hidden = dict(record.lists), {}
    for name, rows in record.lists.items():
        if cutoff is not None and len(rows) > cutoff:
            lists[name] = rows[:cutoff]
            list_hidden[name] = f"... {_count(len(rows) - cutoff, 'more row')} of the {name} list below rank {cutoff}"
    short = record_lines(replace(record, ranked=ranked, lists=lists), hidden, universe=False, list_hidden=list_hidden)
    print("\n".join(short))
    added = len(record_lines(record)) - len(short) - 2  # (--all prints neither of the two lines below)
    print(f"\n--all adds {_count(added, 'line')}: the judged universe ({_count(len(record.universe), 'document')})"
          + (f", {_count(len(left), 'ranked document')}" if left else "")
          + "".join(f", {_count(len(record.lists[n]) - cutoff, f'{n}-list row')}" for n in list_hidden))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
