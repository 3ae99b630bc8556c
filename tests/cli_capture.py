"""One command line run in this process: (exit code, stdout, stderr), argparse's exits included."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

from rankflavor.cli.main import main


def cli(*argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `rankflavor ARGV...`, run by cli.main in this process."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    return code, out.getvalue(), err.getvalue()
