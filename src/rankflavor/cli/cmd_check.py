"""`rankflavor check QRELS RUN [RUN ...] [--on-duplicate error|first|max] [--format table|json]`.

Reads and validates the inputs exactly as `eval` does, then prints what no metric will see (lines skipped,
duplicates removed, queries on one side only, ...) and the warnings, without computing a metric.
Exit 0 when every input is readable, 3 when one is not: a message naming file, line, text and fix for each
unreadable file (every file is read on its own then: inputs/every_error.py), not only the first.
"""

from __future__ import annotations

import argparse
from typing import Any

from rankflavor.cli import render
from rankflavor.cli.help import command_epilog
from rankflavor.errors import EXIT_OK

ON_DUPLICATE = ("error", "first", "max")


def add_on_duplicate(p: argparse.ArgumentParser) -> None:
    """The input options shared by every command that reads a qrels and runs: --on-duplicate, --max-input."""
    from rankflavor.cli.memory_option import add_max_input

    p.add_argument("--on-duplicate", choices=ON_DUPLICATE, default="error", dest="on_duplicate",
                   help="a (query, doc) listed twice in the qrels or a run: error (default), keep the first, "
                        "or keep the highest grade/score; recorded in the provenance")
    add_max_input(p)


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="read and validate the inputs, print what is skipped and why (no metric)",
                       epilog=command_epilog("check"), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels", help="TREC qrels file (qid iter docid grade), plain or .gz")
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files (qid Q0 docid rank score tag)")
    add_on_duplicate(p)
    p.add_argument("--format", choices=("table", "json"), default="table")


def check(qrels: Any, runs: Any, on_duplicate: str = "error") -> dict[str, Any]:
    """The provenance of the inputs with their counts and warnings (raises InputError when unreadable, InputErrors
    naming each file when several are)."""
    from rankflavor.errors import InputError
    from rankflavor.inputs.every_error import raise_every_error
    from rankflavor.inputs.pipeline import prepare

    try:
        _, provenance = prepare(qrels, runs, on_duplicate)
    except InputError as first:
        raise_every_error(first, qrels, runs, on_duplicate)
    return provenance


_SHOWN = ("rows", "comment_lines", "blank_lines", "extra_column_lines", "judged_queries", "negative_grades",
          "non_integer_grades", "max_grade", "queries", "queries_in_common", "queries_not_in_qrels",
          "rows_of_queries_not_in_qrels", "qrels_queries_not_in_run", "docs_judged_only_loosely")


def _print(provenance: dict[str, Any]) -> None:
    for item in provenance["inputs"]:
        print(f"{item['role']} {item['name']}" + (f"  ({item['path']})" if item["path"] else ""))
        if item.get("sha256"):
            print(f"  sha256 {item['sha256']}")
        for key in _SHOWN:
            if key in item:
                print(f"  {key:<30} {item[key]}")
        for column, holds in item.get("columns_set_aside", {}).items():  # (a PyTerrier pair: inputs/columns.py)
            print(f"  {'set aside: ' + column:<30} {holds}")
        removed = item["duplicates_removed"]
        print(f"  {'duplicates_removed':<30} {removed['identical']} identical, {removed['conflicting']} conflicting")
    policies = provenance["policies"]
    print(f"on_duplicate={policies['on_duplicate']}")
    for warning in provenance["input_warnings"]:
        print(f"warning: {warning}")
    if not provenance["input_warnings"]:
        print("no warnings")


def run(args: argparse.Namespace) -> int:
    provenance = check(args.qrels, list(args.runs), args.on_duplicate)
    if args.format == "json":
        render.print_json(provenance)
    else:
        _print(provenance)
    return EXIT_OK
