"""`rankflavor demo`: the built-in example of seed 000 (what `make demo` runs)."""

from __future__ import annotations

import argparse

from rankflavor.errors import EXIT_OK


def add_parser(sub) -> None:
    from rankflavor.cli.help import command_epilog

    sub.add_parser("demo", help="the built-in example (seed 000): a change of gain reverses X vs Y",
                   epilog=command_epilog("demo"), formatter_class=argparse.RawDescriptionHelpFormatter)


def run(args: argparse.Namespace) -> int:
    from rankflavor.demo import run_demo

    run_demo()
    return EXIT_OK
