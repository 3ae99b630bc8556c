"""The commands of the command line, in help order, each a module `rankflavor.cli.cmd_NAME` imported when named."""

from __future__ import annotations

import importlib
from types import ModuleType

COMMANDS = ("eval", "explain", "check", "presets", "metrics", "axes", "demo", "compare", "power", "diff", "report",
            "trec_eval")


def command_module(name: str) -> ModuleType:
    """The module of one command (its `add_parser`, its `run`)."""
    return importlib.import_module(f"rankflavor.cli.cmd_{name}")
