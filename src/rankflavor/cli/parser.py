"""The command line's parser (argparse): the commands of cli/commands.py COMMANDS, each adding its own subparser, with
did-you-mean for a mistyped choice and `--version`. Imported when a command line is parsed by argparse, that is
for every command but `rankflavor trec_eval`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from rankflavor.cli.commands import COMMANDS, command_module
from rankflavor.errors import EXIT_OK, EXIT_USAGE


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        self.print_usage(sys.stderr)
        sys.stderr.write(f"rankflavor: error: {message}\n")
        sys.exit(EXIT_USAGE)

    def _check_value(self, action: argparse.Action, value: object) -> None:
        """argparse's check of a choice (a subcommand, --format), with did-you-mean (flavor/suggest.py)."""
        if action.choices is None or value in action.choices:
            return
        from rankflavor.flavor.suggest import close, did_you_mean

        hint = did_you_mean(close(str(value), [str(choice) for choice in action.choices]))
        if not hint and isinstance(action, argparse._SubParsersAction) and os.path.exists(str(value)):
            hint = "the command comes first: rankflavor eval QRELS RUN"
        choices = ", ".join(map(repr, action.choices))
        raise argparse.ArgumentError(action, f"invalid choice: {value!r}{'; ' + hint if hint else ''} "
                                             f"(choose from {choices})")


class Version(argparse.Action):
    """--version: `rankflavor X.Y.Z` (rankflavor.__version__, the version JSON outputs record), exit 0."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **_: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print rankflavor's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from rankflavor.version import __version__

        sys.stdout.write(f"rankflavor {__version__}\n")
        parser.exit(EXIT_OK)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; `only`: with that command's subparser alone (what a command line that
    names it needs: the others' modules are not imported)."""
    from rankflavor.cli.help import axes_epilog

    parser = Parser(prog="rankflavor", description="NDCG with its whole flavor declared, and the record behind it.",
                    epilog=axes_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=Version)
    parser.add_argument("--debug", action="store_true", help="show the Python traceback on errors")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in COMMANDS:
        if only is None or name == only:
            command_module(name).add_parser(sub)
    return parser


def named_command(argv: Sequence[str]) -> str | None:
    """The command a command line names before any help or version option, or None (then every subparser is
    built: the top-level help lists them all, and a mistyped command gets its did-you-mean)."""
    for arg in argv:
        if arg in ("-h", "--help", "--version"):
            return None
        if not arg.startswith("-"):
            return arg if arg in COMMANDS else None
    return None
