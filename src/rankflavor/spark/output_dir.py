"""`eval --engine spark --output DIR`: the per-query results as a folder of Parquet files, written so that nothing
is lost (no pyspark import here; the frame's own writer is called).

Checked before a session starts (`plan_output`): a DIR that is or holds an input, or holds the current folder, is
refused; so is an existing file, and a non-empty DIR unless `--overwrite` is given. A local DIR (a local master and
a path without a scheme) is written by Spark into a temporary sibling `.DIR.rankflavor-XXXXXXXX`, renamed into place
when the job has succeeded (an old DIR, with `--overwrite`, is moved aside first and removed last); a failed job
removes the sibling and leaves DIR as it was. A DIR on a cluster's file system (`hdfs://...`, a remote master) is
written by Spark in place, `errorifexists` unless `--overwrite` (then Spark's `overwrite`).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rankflavor.errors import UsageError

__all__ = ["OutputPlan", "plan_output", "write_output"]

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


@dataclass(frozen=True)
class OutputPlan:
    """Where and how `--output` is written: `local` (a path on this machine, renamed into place) or by Spark."""

    path: str  # as typed
    local: Path | None  # the resolved folder, when written through a temporary sibling
    overwrite: bool


def plan_output(output: str, inputs: list[str], overwrite: bool, master: str | None) -> OutputPlan:
    """Refuse an --output DIR that would destroy anything (module docstring), before any Spark job."""
    if not output:
        raise UsageError("--output: an empty path; give a folder path")
    local = (master is None or master.startswith("local")) and (not _SCHEME.match(output)
                                                                or output.startswith("file://"))
    if not local:
        if any(output == path for path in inputs):
            raise UsageError(f"--output {output!r} is an input; give another folder")
        return OutputPlan(output, None, overwrite)
    target = Path(os.path.realpath(output.removeprefix("file://")))
    for path in inputs:
        source = Path(os.path.realpath(path))
        if source == target or target in source.parents:
            raise UsageError(f"--output {output!r} {'is' if source == target else 'holds'} the input {path!r}: "
                             "writing it would destroy the input; give another folder")
    here = Path.cwd().resolve()
    if target == here or target in here.parents:
        raise UsageError(f"--output {output!r} holds the current folder {str(here)!r}; give a new folder's path")
    if target.exists() and not target.is_dir():
        raise UsageError(f"--output {output!r} is a file; Spark writes a folder of Parquet files: give a new "
                         "folder's path")
    if target.is_dir() and not overwrite and (held := sorted(p.name for p in target.iterdir())):
        entries = f"{len(held)} {'entry' if len(held) == 1 else 'entries'}"
        raise UsageError(f"--output {output!r} is not empty ({entries}, e.g. {held[0]!r}); give a new or empty "
                         "folder, or --overwrite to replace the folder and everything in it")
    if not target.parent.is_dir():
        raise UsageError(f"--output {output!r}: the folder {str(target.parent)!r} does not exist; create it first")
    if not os.access(target.parent, os.W_OK):
        raise UsageError(f"--output {output!r}: cannot write in the folder {str(target.parent)!r}")
    return OutputPlan(output, target, overwrite)


def write_output(frame: Any, plan: OutputPlan) -> None:
    """Write the DataFrame `frame` as Parquet where `plan` says (module docstring)."""
    if plan.local is None:
        frame.write.mode("overwrite" if plan.overwrite else "errorifexists").parquet(plan.path)
        return
    target = plan.local
    token = secrets.token_hex(4)
    staged = target.with_name(f".{target.name}.rankflavor-{token}")
    try:
        frame.write.mode("errorifexists").parquet(str(staged))
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    old = target.with_name(f".{target.name}.rankflavor-old-{token}")
    replacing = target.is_dir() and any(target.iterdir())
    if replacing:
        os.rename(target, old)
    try:
        os.replace(staged, target)  # (an empty folder is replaced by rename(2) itself)
    except OSError:
        if replacing:
            os.rename(old, target)
        shutil.rmtree(staged, ignore_errors=True)
        raise
    if replacing:
        shutil.rmtree(old, ignore_errors=True)
