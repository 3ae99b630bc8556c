"""`rankflavor` command line: eval, explain, presets, demo.

Exit codes: 0 success, 2 bad usage (including a bad flavor spec), 3 bad input data, 1 internal error.
Only argparse is imported at start-up; everything else is imported by the command that needs it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rankflavor.errors import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, RankflavorError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 on usage errors, as we want
        self.print_usage(sys.stderr)
        sys.stderr.write(f"rankflavor: error: {message}\n")
        sys.exit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rankflavor", description="NDCG with its whole flavor declared, and the record behind it.")
    parser.add_argument("--debug", action="store_true", help="show the Python traceback on errors")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    ev = sub.add_parser("eval", help="evaluate runs against qrels under one or more flavors")
    ev.add_argument("qrels", help="TREC qrels file (qid iter docid grade), plain or .gz")
    ev.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files (qid Q0 docid rank score tag)")
    ev.add_argument("-m", "--measure", action="append", dest="specs", metavar="SPEC",
                    help="flavor spec, e.g. 'ndcg@10', 'ndcg@10 gain=exp2', 'trec_eval', 'lightgbm@5' (repeatable; "
                         "default ndcg@10)")
    ev.add_argument("--per-query", action="store_true", help="also print every query's value")
    ev.add_argument("--format", choices=("table", "json", "csv"), default="table")

    ex = sub.add_parser("explain", help="print the record behind one query's score")
    ex.add_argument("qrels")
    ex.add_argument("run")
    ex.add_argument("-q", "--query", required=True, help="query id")
    ex.add_argument("-m", "--measure", dest="spec", default="ndcg@10", metavar="SPEC", help="one flavor spec")
    ex.add_argument("--format", choices=("table", "json"), default="table")

    pr = sub.add_parser("presets", help="list the presets with their canonical flavors and sources")
    pr.add_argument("--format", choices=("table", "json"), default="table")

    sub.add_parser("demo", help="the built-in example (seed 000): a gain change reverses X vs Y")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        from rankflavor.cli import commands

        return getattr(commands, f"run_{args.command}")(args)
    except RankflavorError as exc:
        if args.debug:
            raise
        sys.stderr.write(f"rankflavor: {exc}\n")
        return exc.exit_code
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # an internal error: say so, short unless --debug
        if args.debug:
            raise
        sys.stderr.write(f"rankflavor: internal error: {type(exc).__name__}: {exc}\n(run with --debug for the traceback)\n")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
