"""The fast engine: vectorised kernels over all queries at once (inputs in, columnar results out)."""

from rankflavor.engine.kernel import MISSING, OK, STATUS_NAMES, ZERO_IDEAL, QueryResults, RankedRows, evaluate_run

__all__ = ["MISSING", "OK", "STATUS_NAMES", "ZERO_IDEAL", "QueryResults", "RankedRows", "evaluate_run"]
