"""`rankflavor eval QRELS RUN RUN ... --format trec`: a track of runs evaluated one run at a time.

trec_eval's lines are printed per run, so nothing of a run is needed once its block is written: the qrels is
read once, each run is evaluated against it and printed, and its report dropped before the next. The runs'
files are parsed ahead on Arrow's threads (inputs/prefetch.py, at most WINDOW waiting), so memory holds a few
runs, not the sum of all. The lines are byte for byte those of the whole report (cli/trec_output.py); the
input warnings are printed as each run is read (the qrels' once), the measures' warnings summarised at the end.
A run that fails to read stops the command after the blocks of the runs before it (as a trec_eval loop does).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rankflavor.cli.trec_output import warning_kinds, write_kinds, write_trec

if TYPE_CHECKING:
    from rankflavor.flavor.flavor import Labelled


def streamable(args: Any) -> bool:
    """Whether `eval` can print its runs one at a time: local engine, trec lines, several runs, no --against, every
    run an existing file or `-` (a missing one is reported by the whole report, before any line is printed)."""
    return (args.engine == "local" and args.format == "trec" and len(args.runs) > 1 and args.against is None
            and all(p == "-" or os.path.isfile(p) for p in args.runs))


def run_names_of(typed: list[str], names: list[str] | None) -> list[str]:
    """The runs' names as the whole report gives them: --name's, else the file name (its path on a collision)."""
    if names is not None:
        return names
    from rankflavor.inputs.run_names import default_names
    from rankflavor.inputs.stdin import STDIN_NAME

    return default_names([(STDIN_NAME, None) if p == "-" else (Path(p).name, p) for p in typed])


RunBlock = tuple[list[str], str, dict[str, list[str]]]  # a run's input warnings, trec_eval block, warning kinds


def stream_trec(args: Any, runs: list, names: list[str], specs: Labelled, weights: dict[str, str],
                set_lines: bool, err: IO[str], out: IO[str], shown: set[str] | None = None,
                kinds: dict[str, list[str]] | None = None) -> None:
    """Evaluate and print each run in turn against the qrels read once (see the module's docstring). shown, kinds:
    the warnings printed and the warning kinds met by the runs before these (cli/trec_pool.py)."""
    qrels = qrels_once(args.qrels, specs)
    shown = set() if shown is None else shown
    kinds = {} if kinds is None else kinds
    for run, name in zip(runs, names, strict=True):
        block = run_block(qrels, run, name, specs, args.on_duplicate, weights, args.per_query, set_lines)
        print_block(block, shown, kinds, err, out)
    write_kinds(kinds, err)


def run_block(qrels: Any, run: Any, name: str, specs: Labelled, on_duplicate: str, weights: dict[str, str],
              per_query: bool, set_lines: bool) -> RunBlock:
    """One run evaluated against the qrels read once: what it prints (its report is dropped on return)."""
    import io

    from rankflavor import evaluate

    report = evaluate(qrels, {name: run}, specs, on_duplicate=on_duplicate, weights=weights, warnings=False)
    block = io.StringIO()
    write_trec(report, block, per_query=per_query, set_lines=set_lines, several=True)
    return list(report.provenance["input_warnings"]), block.getvalue(), warning_kinds(report)


def print_block(block: RunBlock, shown: set[str], kinds: dict[str, list[str]], err: IO[str], out: IO[str]) -> None:
    """A run's input warnings (the qrels' only once: `shown`), then its lines; its warning kinds added to `kinds`."""
    warnings, lines, run_kinds = block
    for warning in warnings:
        if warning not in shown:
            shown.add(warning)
            err.write(f"warning: {warning}\n")
    out.write(lines)
    for code, where in run_kinds.items():
        kinds.setdefault(code, []).extend(where)


def qrels_once(path: str, specs: Labelled) -> Any:
    """The qrels read once for every run: a subtopic qrels when a diversity measure is asked for
    (inputs/subtopics.py), else a QrelsTable."""
    from rankflavor.flavor import labelled_specs
    from rankflavor.inputs.load import load_qrels
    from rankflavor.inputs.subtopics import as_subtopic_qrels

    qrels = as_subtopic_qrels(path, [flavor.metric for flavor in labelled_specs(specs)])
    return load_qrels(path) if qrels is path else qrels
