"""Ctrl-C in the first milliseconds of `rankflavor ...` (the imports before `main` runs): one line and exit 130, not
a traceback. `install` wraps `sys.excepthook` for KeyboardInterrupt only (any other exception goes to the hook before
it); `rankflavor/__init__.py` calls it first thing when the process is the command line (`rankflavor ...` or
`python -m rankflavor`), `rankflavor.cli` whenever it is imported. Before Python has loaded this module (its own
start-up), Ctrl-C is Python's. Nothing but `os` and `sys` is imported here: it must cost nothing."""

import os
import sys


def _hook(previous):
    def hook(kind, value, traceback) -> None:
        if issubclass(kind, KeyboardInterrupt) and "--debug" not in sys.argv:
            try:
                sys.stderr.write("rankflavor: interrupted\n")
                sys.stderr.flush()
            finally:
                os._exit(130)
        previous(kind, value, traceback)

    hook.rankflavor = True  # type: ignore[attr-defined]
    return hook


def install() -> None:
    if not getattr(sys.excepthook, "rankflavor", False):
        sys.excepthook = _hook(sys.excepthook)


def command_line() -> bool:
    """This process is `rankflavor ...` (the console script) or `python -m rankflavor` (argv[0] is `-m` while the
    package is imported)."""
    first = sys.argv[0] if sys.argv else ""
    return first == "-m" or os.path.basename(first) in ("rankflavor", "rankflavor.exe")
