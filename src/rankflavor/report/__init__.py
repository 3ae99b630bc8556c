"""Reports: per-query values, aggregates, provenance, records (explain) and their verification."""

from rankflavor.report.records import Record
from rankflavor.report.report import Report, build_report, evaluate, explain
from rankflavor.report.result import Result

__all__ = ["Disagreement", "Record", "Report", "Result", "build_report", "evaluate", "explain"]


def __getattr__(name: str):
    if name == "Disagreement":  # (report/verify.py and the reference it reads: imported when asked for)
        from rankflavor.report.verify import Disagreement

        return Disagreement
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
