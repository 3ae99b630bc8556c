"""The exceptions rankflavor raises on purpose, with what the CLI exits with for each."""

__all__ = ["EXIT_INPUT", "EXIT_INTERNAL", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "EvaluationError", "InputError",
           "InputErrors", "RankflavorError", "SpecError", "UsageError"]

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_INTERRUPTED = 130  # Ctrl-C (SIGINT): 128 + 2, as a shell reports a process it interrupted


class RankflavorError(Exception):
    """Base of every error rankflavor raises on purpose."""

    exit_code = EXIT_INTERNAL


class SpecError(RankflavorError, ValueError):
    """A flavor spec (`ndcg@10 gain=exp2`, a preset name, ...) that cannot be parsed or is inconsistent."""

    exit_code = EXIT_USAGE


class UsageError(RankflavorError, ValueError):
    """A command or call that cannot work as given (two inputs read from standard input, ...)."""

    exit_code = EXIT_USAGE


class InputError(RankflavorError, ValueError):
    """Bad input data: the one exception the readers raise (docs/input-catalogue.md lists every case).

    Attributes: `source` the file path (or the Python input's name: `qrels`, `run`, a run's key), `line` the
    1-based line (None when the problem is not on one line), `text` the offending line, `fix` what to do,
    `reason` the message alone. `str()` gives `SOURCE:LINE: reason`, then the offending text and the fix.
    The CLI prints it as one message and exits with 3.
    """

    exit_code = EXIT_INPUT

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        text: str | None = None,
        fix: str | None = None,
    ) -> None:
        self.source = source
        self.line = line
        self.text = text
        self.fix = fix
        self.reason = message
        super().__init__(self._render())

    def _render(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source + (f":{self.line}" if self.line is not None else "") + ": "
        parts = [where + self.reason]
        if self.text is not None:
            shown = self.text if len(self.text) <= 200 else self.text[:200] + "..."
            parts.append(f"  offending text: {shown!r}")
        if self.fix:
            parts.append(f"  fix: {self.fix}")
        return "\n".join(parts)


class InputErrors(InputError):
    """Several inputs unreadable at once (`rankflavor check`): `errors` holds each one's InputError, in the order
    the inputs were given; `str()` says how many of how many, then each error as InputError renders it."""

    def __init__(self, errors: list[InputError], *, inputs: int) -> None:
        self.errors = errors
        listed = "\n".join("  " + str(error).replace("\n", "\n  ") for error in errors)
        super().__init__(f"{len(errors)} of the {inputs} inputs cannot be read:\n{listed}",
                         fix="fix each one as its line says, then check again")


class EvaluationError(RankflavorError, ValueError):
    """The data is valid but the flavor refuses it (a grade missing from a gain table, `empty=error`, ...)."""

    exit_code = EXIT_INPUT
