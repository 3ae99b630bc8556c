"""Ctrl-C in the first milliseconds of `rankflavor ...` (the imports before `main` runs): one line and exit 130, not
a traceback. `install` wraps `sys.excepthook` for KeyboardInterrupt only (any other exception goes to the hook before
it); `rankflavor/__init__.py` calls it first thing when the process is the command line (`rankflavor ...` or
`python -m rankflavor`), `rankflavor.cli` whenever it is imported. Before Python has loaded this module (its own
start-up), Ctrl-C is Python's. It also sets the command line's garbage collector (`young_collections`). Nothing but
`gc`, `os` and `sys` is imported here: it must cost nothing."""

import gc
import os
import sys

YOUNG_OBJECTS = 100_000  # the command line's collector threshold of new container objects (Python's default: 700)


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


def young_collections() -> None:
    """The command line collects its young objects every `YOUNG_OBJECTS` allocations, not Python's 700 (older
    generations' thresholds kept): a command's start-up (numpy's and rankflavor's modules, a spec's flavors) makes
    tens of thousands of objects that all live to its end, which the default collector scans about 50 times for
    nothing: 5-6 ms of `rankflavor trec_eval qrels.test results.test` (gc.callbacks), 0.113 -> 0.106 s median of
    25 interleaved runs. Cyclic garbage then waits at most that many allocations. The library's threshold is the
    caller's: only `rankflavor/__init__.py` on the command line calls this."""
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
