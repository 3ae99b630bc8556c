"""Reports: per-query values, aggregates, provenance, records (explain) and their verification."""

from rankflavor.report.records import Record
from rankflavor.report.report import Report, build_report, evaluate, explain
from rankflavor.report.result import Result
from rankflavor.report.verify import Disagreement

__all__ = ["Disagreement", "Record", "Report", "Result", "build_report", "evaluate", "explain"]
