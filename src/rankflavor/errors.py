"""The exceptions rankflavor raises on purpose, with what the CLI exits with for each."""

from __future__ import annotations

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_INPUT = 3


class RankflavorError(Exception):
    """Base of every error rankflavor raises on purpose."""

    exit_code = EXIT_INTERNAL


class SpecError(RankflavorError, ValueError):
    """A flavor spec (`ndcg@10 gain=exp2`, a preset name, ...) that cannot be parsed or is inconsistent."""

    exit_code = EXIT_USAGE


class InputError(RankflavorError, ValueError):
    """Bad input data. Carries the file (or input name), the 1-based line, the offending text and the fix."""

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


class EvaluationError(RankflavorError, ValueError):
    """The data is valid but the flavor refuses it (a grade missing from a gain table, `empty=error`, ...)."""

    exit_code = EXIT_INPUT
