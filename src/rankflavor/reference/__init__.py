"""The slow reference: every metric per query, written straight from its formulas in plain Python.

The engine is tested against it and against the real peer tools, never against itself.
`reference_evaluate(flavor, qrels, run)` scores nested dicts; each metric family has its module here.
"""

from rankflavor.reference.evaluate import RefResult, reference_evaluate, reference_mean, reference_query
from rankflavor.reference.lists import RefError

__all__ = ["RefError", "RefResult", "reference_evaluate", "reference_mean", "reference_query"]
