"""rankflavor: NDCG and DCG under a declared flavor, with a reconstructible record behind every score."""

from __future__ import annotations

__version__ = "0.1.0"

from rankflavor.errors import EvaluationError, InputError, RankflavorError, SpecError
from rankflavor.flavor import PRESETS, Flavor, parse_spec, parse_specs
from rankflavor.report import Record, Report, evaluate

__all__ = [
    "PRESETS",
    "EvaluationError",
    "Flavor",
    "InputError",
    "RankflavorError",
    "Record",
    "Report",
    "SpecError",
    "__version__",
    "evaluate",
    "parse_spec",
    "parse_specs",
]
