"""`rankflavor` command line. Each command lives in its own module of `rankflavor.cli` with
`add_parser(subparsers)` and `run(args) -> exit code`; cli/commands.py COMMANDS lists them in help order.

Exit codes: 0 success, 2 bad usage (including a bad flavor spec), 3 bad input data, 1 internal error, 130
interrupted (Ctrl-C: one line on stderr, no traceback; what a command cleans up in its `finally` is cleaned up).
Only the command modules (which import nothing heavy at module level) and argparse (cli/parser.py: not for
`rankflavor trec_eval`, whose words trec_eval's getopt rules read) load at start-up.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rankflavor import environment, limits, progress
from rankflavor.cli import signals
from rankflavor.cli.commands import command_module
from rankflavor.cli.memory_option import apply_max_memory
from rankflavor.cli.threads import malloc_settings, numpy_environment
from rankflavor.errors import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, RankflavorError
from rankflavor.escape import keep_formulas, shortened, visible_streams

if TYPE_CHECKING:
    import argparse



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


def entry() -> None:
    """The process's entry (`python -m rankflavor`, the `rankflavor` script): `main`, its streams flushed, then the
    process ends without tearing the interpreter down (its modules, arrays and Arrow's pools: the kernel frees the
    memory at once; 0.03-0.05 s of the 7M-row run's NDCG@10). A stream that cannot be flushed (a closed pipe) leaves
    the usual exit to report it, as before. In-process callers call `main`, which returns."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # (the interpreter's exit reports it)
        sys.exit(code)
    os._exit(code)


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
            return command_module("trec_eval").main(argv[1:])
        from rankflavor.cli.parser import build_parser, named_command  # (argparse: not for trec_eval's words)

        args = build_parser(named_command(argv)).parse_args(argv)
        debug = args.debug
        progress.start()
        tokens = apply_max_memory(args)
        module = command_module(args.command)
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
        if "rankflavor.inputs.trec_compiled" in sys.modules:  # (an in-process caller's files hashed again)
            sys.modules["rankflavor.inputs.trec_compiled"].with_hashes()


if __name__ == "__main__":
    sys.exit(main())
