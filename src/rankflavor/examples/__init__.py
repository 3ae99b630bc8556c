"""Paths of the built-in example files (seed 000: four documents, two lists)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent
SEED000_QRELS = HERE / "seed000.qrels"
SEED000_RUNS = (HERE / "X.run", HERE / "Y.run")
