"""trec_eval's text conventions, shared by the readers of the non-standard rel_info formats: a whole file read as
bytes (ids compare as C's strcmp compares them: byte by byte), C's atof/atol (the longest numeric prefix, 0 when
there is none), and the errors a reader raises, each with trec_eval's exit code (trec_eval.c: 2 for a file it
cannot read or parse, 4 for a query or measure it cannot compute) and the stdout trec_eval had printed before it.
"""

from __future__ import annotations

import math
import sys

from rankflavor.dropin.c_reading import atof, atol
from rankflavor.errors import InputError, RankflavorError, UsageError

EXIT_BAD_FILE = 2  # trec_eval.c: "Quit in file" after a reader fails
EXIT_CANNOT_COMPUTE = 4  # trec_eval.c: "Can't calculate measure", or a rel_info query without results
EXIT_ABORT = 134  # form_prefs_counts.c add_transitives: abort() on inconsistent preferences (SIGABRT)

def c_atof(token: bytes) -> float:
    """C's atof on a file's bytes (c_reading.atof)."""
    return atof(token.decode("latin-1"))


def c_atol(token: bytes) -> int:
    """C's atol on a file's bytes (c_reading.atol)."""
    return atol(token.decode("latin-1"))


def c_div(numerator: float, denominator: float) -> float:
    """IEEE division as C does it: x/0 is +-inf, 0/0 is x86's default NaN (sign bit set: printf's `-nan`)."""
    if denominator == 0:
        if numerator == 0 or math.isnan(numerator):
            return -math.nan
        return math.copysign(math.inf, numerator) * math.copysign(1.0, denominator)
    return numerator / denominator


def read_bytes(path: str, what: str) -> bytes:
    """The whole file (`-` is standard input), refused as trec_eval refuses it when missing or empty
    (get_prefs.c, get_qrels_jg.c, get_trec_results.c: `0 >= size` is "Cannot read")."""
    from rankflavor.inputs.bounded import CapExceeded, read_capped, read_file_capped

    try:
        data = read_capped(sys.stdin.buffer.read, "-") if path == "-" else read_file_capped(path)
    except CapExceeded as exc:
        raise fail(InputError, exc.reason, source=path, fix=exc.fix, exit_code=EXIT_BAD_FILE) from None
    except OSError as exc:
        raise fail(InputError, f"cannot read the {what}: {exc.strerror or exc}", source=path,
                   fix="check the path", exit_code=EXIT_BAD_FILE) from None
    if not data:
        raise fail(InputError, f"the {what} is empty (trec_eval refuses an empty file)", source=path,
                   fix="give a file with at least one line", exit_code=EXIT_BAD_FILE)
    return data


def fail(kind: type[RankflavorError], message: str, *, exit_code: int, partial: str = "", **where) -> RankflavorError:
    """An error to raise, with `trec_eval_exit` (the exit code C trec_eval 10.0 gives for this case) and
    `stdout_before_error` (what trec_eval had printed before it: with -q, the earlier queries' lines)."""
    error = kind(message, **where) if kind is InputError else kind(message)
    error.trec_eval_exit = exit_code  # type: ignore[attr-defined]
    error.stdout_before_error = partial  # type: ignore[attr-defined]
    return error


def usage(message: str, exit_code: int) -> RankflavorError:
    """A command that cannot run as given (a measure of another rel_info format, ...)."""
    return fail(UsageError, message, exit_code=exit_code)


def judgment_lines(data: bytes) -> list[tuple[int, list[bytes]]]:
    """The data lines of a prefs, qrels_prefs or qrels_jg file as trec_eval 10.0 reads them (get_prefs.c,
    get_qrels_prefs.c, get_qrels_jg.c): (1-based file line, its whitespace-separated fields).

    A line starting with `#` is a comment, and so is skipped; the line after it is parsed as data whatever it
    holds (those readers skip one comment line at a time, so a second `#` line in a row is read as data, and a
    blank line is a malformed line, never skipped). A comment on the file's last line ends the file."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out: list[tuple[int, list[bytes]]] = []
    index = 0
    while index < len(lines):
        if lines[index].startswith(b"#"):
            index += 1
            if index >= len(lines):
                break
        out.append((index + 1, lines[index].split()))
        index += 1
    return out
