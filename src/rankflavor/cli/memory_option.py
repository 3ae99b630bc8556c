"""`--max-memory SIZE` (eval, compare, report): the memory budget of the evaluation (engine/budget.py)."""

from __future__ import annotations

import argparse


def add_max_memory(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-memory", metavar="SIZE", default=None, dest="max_memory",
                   help="memory budget: flavors are evaluated in groups that fit it, or refused up front with "
                        "the estimate (e.g. 8G, 512M; default: half of the available memory)")


def apply_max_memory(args: argparse.Namespace) -> None:
    """Set the process's budget from --max-memory (a UsageError for a size that is not one)."""
    size = getattr(args, "max_memory", None)
    if size is not None:
        from rankflavor.engine.budget import set_max_memory

        set_max_memory(size)
