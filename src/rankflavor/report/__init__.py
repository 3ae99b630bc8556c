"""Reports: per-query values, aggregates, provenance, records (explain) and their verification; a saved report
read back (`load`)."""

from rankflavor.report.records import Record
from rankflavor.report.report import Report, build_report, evaluate, explain
from rankflavor.report.result import Result
from rankflavor.report.saved import SavedReport, load

__all__ = ["Disagreement", "Record", "Report", "Result", "SavedReport", "build_report", "evaluate", "explain", "load"]


def __getattr__(name: str):
    if name == "Disagreement":  # (report/verify.py and the reference it reads: imported when asked for)
        from rankflavor.report.verify import Disagreement

        return Disagreement
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
