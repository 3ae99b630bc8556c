"""Paths of the built-in example files (seed 000: four documents, two lists)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["HERE", "SEED000_QRELS", "SEED000_RUNS"]

HERE = Path(__file__).parent
SEED000_QRELS = HERE / "seed000.qrels"
SEED000_RUNS = (HERE / "X.run", HERE / "Y.run")


def __dir__() -> list[str]:
    """What the module exports (`__all__`), not its own imports."""
    return sorted(__all__)
