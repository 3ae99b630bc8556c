"""`rankflavor trec_eval [flags] REL_INFO_FILE RESULTS_FILE`: trec_eval 10.0, flag for flag and byte for byte
(rankflavor/dropin/). Its words after `trec_eval` are read by trec_eval's own getopt rules
(dropin/getopt.py), not by argparse: cli/main.py hands them over untouched."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def add_parser(sub) -> None:
    """Listed in `rankflavor -h`; its arguments are never parsed by argparse (main.py dispatches first)."""
    import argparse

    p = sub.add_parser("trec_eval", help="trec_eval 10.0's command line, flag for flag, byte for byte",
                       description="rankflavor trec_eval -h lists its flags", add_help=False)
    p.add_argument("words", nargs=argparse.REMAINDER)


def run(args: argparse.Namespace) -> int:
    return main(args.words)


def main(argv: Sequence[str]) -> int:
    """trec_eval's run: its stdout, its exit code, one stderr line on failure."""
    from rankflavor.dropin.c_reading import TrecEvalExit
    from rankflavor.dropin.getopt import parse_command_line

    try:
        command = parse_command_line(list(argv))
    except TrecEvalExit as stop:
        sys.stderr.write(f"{stop.message}\n")
        return stop.code
    if command.version_wanted:
        from rankflavor.version import __version__

        sys.stderr.write(f"trec_eval version 10.0 (rankflavor {__version__} trec_eval)\n")
        return 0
    if command.help_wanted:
        from rankflavor.cli.help import examples_epilog
        from rankflavor.dropin.help import help_text

        sys.stdout.write(f"{help_text(command.help_measures)}\n{examples_epilog('trec_eval')}\n")
        return 0
    options = command.options
    assert options is not None
    if options.debug_level > 0:
        sys.stderr.write(f"trec_eval: -D {options.debug_level}: trec_eval's debug prints are not reproduced"
                         f"{'' if options.debug_query is None else f'; evaluating query {options.debug_query} only'}\n")
    from rankflavor.dropin.te_files import EarlyRead

    early = EarlyRead.start(options)  # (the files read on a thread while the engine imports)
    from rankflavor.dropin.trec_eval import run_trec_eval

    output = run_trec_eval(options, early)
    sys.stdout.flush()
    sys.stdout.buffer.write(output.stdout)  # (trec_eval's bytes: the ids as the files hold them)
    sys.stdout.buffer.flush()
    if options.flavors and output.code == 0:
        sys.stdout.write(flavor_lines(output.slots))
    sys.stdout.flush()
    if output.error:
        sys.stderr.write(f"{output.error}\n")
    return output.code


def flavor_lines(slots) -> str:
    """`# NAME = FLAVOR` per printed value that is a flavor (--flavors); dcg and ideal_dcg are parts of ndcg's."""
    out = []
    for slot in slots:
        if slot.flavor is not None:
            out.append(f"# {slot.name} = {slot.flavor}{' (its ' + slot.part + ')' if slot.part else ''}\n")
        elif slot.kind == "double":
            out.append(f"# {slot.name}: 0 under -J (trec_eval drops every unjudged doc before measuring)\n")
    return "".join(out)
