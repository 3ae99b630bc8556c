"""`--max-memory SIZE` (eval, compare, report): the memory budget of the evaluation (engine/budget.py); `--max-input
SIZE` (every command that reads inputs): the input cap (rankflavor/limits.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def add_max_memory(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-memory", metavar="SIZE", default=None, dest="max_memory",
                   help="memory budget: flavors are evaluated in groups that fit it, or refused up front with "
                        "the estimate (e.g. 8G, 512M; default: half of the memory this process can still get, "
                        "RANKFLAVOR_MAX_MEMORY)")


def add_max_input(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-input", metavar="SIZE", default=None, dest="max_input",
                   help="the most bytes one input may hold, as read and once decompressed or decoded (e.g. 2G; "
                        "default: a quarter of the memory budget, RANKFLAVOR_MAX_INPUT)")


def apply_max_memory(args: argparse.Namespace) -> list:
    """Set the process's budget from --max-memory and its input cap from --max-input (a UsageError for a size that
    is not one); the tokens that put them back (limits.reset) once the command is done."""
    from rankflavor import limits

    tokens = []
    size = getattr(args, "max_memory", None)
    if size is not None:
        tokens.append(limits.set_max_memory(size))
        left = limits.room()
        if left is not None and limits.budget() > left:
            import sys

            sys.stderr.write(f"warning: --max-memory {size} is more than this process can get now (about "
                             f"{limits.size_text(left)}: the machine, its cgroup and its rlimits); a job planned "
                             "against it may still run out of memory\n")
    cap = getattr(args, "max_input", None)
    if cap is not None:
        tokens.append(limits.set_max_input(cap))
    return tokens
