"""verify(): recompute every value from its record alone, with the metric's own check (its reference
formulas, rankflavor.reference), and compare it with the value reported."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rankflavor.flavor import Flavor
from rankflavor.metrics import registry
from rankflavor.report.numbers import plain
from rankflavor.report.records import Record
from rankflavor.report.result import Result

TOLERANCE = 1e-12  # the reported value and the record's agree this closely


@dataclass
class Disagreement:
    run: str
    query: str
    flavor: str
    what: str

    def __str__(self) -> str:
        return f"{self.run} / {self.query} / {self.flavor}: {self.what}"


def check_record(record: Record, flavor: Flavor) -> list[str]:
    """What in the record does not add up (an empty list when it all does)."""
    return registry.get(flavor.metric).check_record(record, flavor)


def verify_results(results: Sequence[Result], records: Callable[[str, Flavor], list[Record]]) -> list[Disagreement]:
    """For every result, each query's record checked, and its value compared with the one reported."""
    problems: list[Disagreement] = []
    for result in results:
        for record, reported in zip(records(result.run, result.flavor), result.queries.value, strict=True):
            issues = check_record(record, result.flavor)
            value = plain(reported)
            if not (value == record.value or (record.value is not None and value is not None
                                              and abs(record.value - value) <= TOLERANCE)):
                issues.append(f"reported value {value} differs from the record's {record.value}")
            problems += [Disagreement(result.run, record.query, str(result.flavor), i) for i in issues]
    return problems
