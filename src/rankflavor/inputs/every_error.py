"""Every unreadable input at once (`rankflavor check`): each file read and validated on its own, its first error kept.

`prepare` stops at the first bad input, as `eval` must; a user fixing a directory of runs wants the whole list
in one pass. Each input is read as `prepare` reads it (`load_qrels`/`load_run`, the layout checks, `intern` for
duplicates and conflicting ids); a run is interned against the qrels only when the qrels itself is readable, so
a bad qrels is named once, not once per run.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rankflavor.errors import InputError, InputErrors, RankflavorError
from rankflavor.inputs.column_order import check_qrels_layout, check_query_doc_swap, check_run_layout
from rankflavor.inputs.intern import intern
from rankflavor.inputs.load import load_qrels, load_run
from rankflavor.inputs.tables import QrelsTable


def rereadable(qrels: object, runs: Sequence[object]) -> bool:
    """Whether every input can be read a second time: files named by path, none the standard input."""
    return all(isinstance(item, (str, Path)) and str(item) != "-" for item in (qrels, *runs))


def every_input_error(qrels: str | Path, runs: Sequence[str | Path], on_duplicate: str) -> list[InputError]:
    """The first error of each input that cannot be read, in the order given (empty when each reads alone)."""
    from rankflavor.inputs.pipeline import require_judgments

    errors: list[InputError] = []
    qrels_table: QrelsTable | None = None
    try:
        qrels_table = load_qrels(qrels)
        require_judgments(qrels_table)
        check_qrels_layout(qrels_table)
        intern(qrels_table, [], [], on_duplicate)
    except InputError as exc:
        errors.append(exc)
        qrels_table = None
    for run in runs:
        try:
            table = load_run(run, qrels=qrels_table)
            check_run_layout(table)
            if qrels_table is not None:
                check_query_doc_swap(qrels_table, table)
                intern(qrels_table, [table], [table.source.name], on_duplicate)
        except InputError as exc:
            errors.append(exc)
    return errors


def raise_every_error(first: InputError, qrels: object, runs: Sequence[object], on_duplicate: str) -> None:
    """Raise InputErrors naming every unreadable input when more than one is, else `first` (the error `prepare`
    met); inputs that cannot be read twice (the standard input, Python objects) give `first` alone."""
    if not rereadable(qrels, runs):
        raise first
    try:
        errors = every_input_error(qrels, runs, on_duplicate)  # type: ignore[arg-type]
    except RankflavorError:  # (an input refused for another reason on its own: the error met first stands)
        raise first from None
    if len(errors) < 2:
        raise first
    raise InputErrors(errors, inputs=1 + len(runs))
