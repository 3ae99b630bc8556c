"""`rankflavor` command line. Each command lives in its own module of `rankflavor.cli` with
`add_parser(subparsers)` and `run(args) -> exit code`; COMMANDS lists them in help order.

Exit codes: 0 success, 2 bad usage (including a bad flavor spec), 3 bad input data, 1 internal error, 130
interrupted (Ctrl-C: one line on stderr, no traceback; what a command cleans up in its `finally` is cleaned up).
Only argparse and the command modules (which import nothing heavy at module level) load at start-up.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from rankflavor import environment, limits, progress
from rankflavor.cli import signals
from rankflavor.cli.memory_option import apply_max_memory
from rankflavor.cli.threads import malloc_settings, numpy_environment
from rankflavor.errors import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, RankflavorError
from rankflavor.escape import keep_formulas, shortened, visible_streams

COMMANDS = ("eval", "explain", "check", "presets", "metrics", "axes", "demo", "compare", "power", "diff", "report",
            "trec_eval")


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


def _module(name: str):
    return importlib.import_module(f"rankflavor.cli.cmd_{name}")


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
            _module(name).add_parser(sub)
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


def _tell_readings(args: argparse.Namespace) -> None:
    """On stderr, once per name: which tool's name a `-m` written without its prefix was read as (`P_10:
    trec_eval's P_10 (trec_eval.P_10)`); every command that takes -m passes here. eval also tells, for
    rankflavor's own names, the tools that read them otherwise (`ndcg@10: ... ranx.ndcg@10 (...)`)."""
    specs = [*(getattr(args, "specs", None) or []), *([args.spec] if getattr(args, "spec", None) else [])]
    if not specs or getattr(args, "quiet", False) is True:  # (--quiet: only the table)
        return
    from rankflavor.flavor.flavor import reading_note

    others = args.command == "eval"
    for note in dict.fromkeys(note for spec in specs if isinstance(spec, str) and (note := reading_note(spec, others))):
        sys.stderr.write(f"{note}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line; Ctrl-C anywhere in it (start-up imports, reading, evaluating, writing) ends it with
    `rankflavor: interrupted` and exit 130 (`--debug`: the traceback)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        with signals.handled(), visible_streams():  # (SIGTERM, SIGHUP: as Ctrl-C; control characters shown)
            numpy_environment()  # (before parsing: a spec's resolution imports numpy)
            malloc_settings()  # (before any thread)
            return _main(argv)
    except KeyboardInterrupt:
        if "--debug" in argv:
            raise
        return interrupted()
    except signals.Terminated as exc:
        if "--debug" in argv:
            raise
        return signals.terminated(exc)


def interrupted() -> int:
    """After Ctrl-C (the command's `finally` blocks have run): one line on stderr, exit code 130 (128 + SIGINT,
    what a shell reports). A second Ctrl-C while the process winds down (or the one pyarrow sends again when it
    cancels a read) ends it at once with 130, without a traceback (cli/signals.py)."""
    return signals.interrupted()


def _main(argv: list[str]) -> int:
    debug, tokens = "--debug" in argv, []
    try:
        environment.check_all()  # (every RANKFLAVOR_* variable set, in range: rankflavor/environment.py)
        if argv[:1] == ["trec_eval"]:  # (trec_eval's own flags: read by its getopt rules, not argparse)
            return _module("trec_eval").main(argv[1:])
        args = build_parser(named_command(argv)).parse_args(argv)
        debug = args.debug
        progress.start()
        tokens = apply_max_memory(args)
        module = _module(args.command)
        if hasattr(module, "prepare"):  # (eval: trec_eval's flags refused, its family names expanded)
            module.prepare(args)
        _tell_readings(args)
        with keep_formulas(getattr(args, "csv_formulas", False)):
            return module.run(args)
    except RankflavorError as exc:
        if debug:
            raise
        sys.stderr.write(f"rankflavor: {shortened(str(exc))}\n")
        return exc.exit_code
    except BrokenPipeError:
        return EXIT_OK
    except MemoryError:  # (a budget set above what the process can get: say so, not an internal error)
        if debug:
            raise
        sys.stderr.write(f"rankflavor: {limits.out_of_memory()}\n")
        return EXIT_USAGE
    except Exception as exc:  # an internal error: say so, short unless --debug
        if debug:
            raise
        sys.stderr.write(f"rankflavor: internal error: {type(exc).__name__}: {shortened(str(exc))}\n"
                         "(run with --debug for the traceback)\n")
        return EXIT_INTERNAL
    finally:
        limits.reset(*tokens)  # (an in-process caller's budget and input cap as they were)
        if "rankflavor.inputs.prefetch" in sys.modules:  # (no daemon parse left running at exit: prefetch.py)
            sys.modules["rankflavor.inputs.prefetch"].stop_prefetch()


if __name__ == "__main__":
    sys.exit(main())
