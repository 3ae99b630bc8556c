"""verify(): recompute every value from its record alone, with the reference's scalar formulas."""

from __future__ import annotations

import math
from dataclasses import dataclass

from rankflavor.flavor import Flavor
from rankflavor.reference import discount, gain
from rankflavor.report.records import Record

TOLERANCE = 1e-9


@dataclass
class Disagreement:
    run: str
    query: str
    flavor: str
    what: str

    def __str__(self) -> str:
        return f"{self.run} / {self.query} / {self.flavor}: {self.what}"


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def check_record(record: Record, flavor: Flavor) -> list[str]:
    """What in the record does not add up (an empty list when it all does)."""
    problems: list[str] = []
    k = math.inf if flavor.cutoff is None else flavor.cutoff
    judged_gain = {}
    for u in record.universe:
        if u["judged"]:
            judged_gain[u["doc"]] = u["gain"]
            raw = 0.0 if (u["grade"] < 0 and flavor.negative == "zero") else gain(u["grade"], flavor)
            if flavor.min_grade != "none" and u["grade"] < float(flavor.min_grade):
                raw = 0.0
            if not _close(raw, u["gain"]):
                problems.append(f"universe doc {u['doc']}: gain {u['gain']} is not g({u['grade']}) = {raw}")
    if record.status == "missing":
        expected = 0.0 if flavor.missing == "zero" else None
        if not _close(record.value, expected):
            problems.append(f"missing query has value {record.value}, expected {expected}")
        return problems
    groups: dict[int, list[dict]] = {}
    for row in record.ranked:
        expected_gain = judged_gain.get(row["doc"], 0.0) if row["judged"] else 0.0
        if not _close(row["gain"], expected_gain):
            problems.append(f"rank {row['rank']}: gain {row['gain']} but the universe gives {expected_gain}")
        if not _close(row["contribution"], row["gain"] * row["discount"]):
            problems.append(f"rank {row['rank']}: contribution is not gain x discount")
        groups.setdefault(row["tie_group"], []).append(row)
    for members in groups.values():
        positional = [discount(r["rank"], flavor) if r["rank"] <= k else 0.0 for r in members]
        if flavor.ties == "average":
            mean = sum(positional) / len(positional)
            positional = [mean] * len(members)
        for row, expected_disc in zip(members, positional, strict=True):
            if not _close(row["discount"], expected_disc):
                problems.append(f"rank {row['rank']}: discount {row['discount']} but d(i) gives {expected_disc}")
    dcg = sum(r["contribution"] for r in record.ranked)
    if not _close(dcg, record.dcg):
        problems.append(f"DCG {record.dcg} is not the sum of contributions {dcg}")
    if flavor.metric == "dcg":
        if not _close(record.value, record.dcg):
            problems.append("value is not DCG")
        return problems
    ideal_gains = [r["gain"] for r in record.ideal]
    if ideal_gains != sorted(ideal_gains, reverse=True):
        problems.append("the ideal list is not sorted by gain, descending")
    for row in record.ideal:
        if not _close(row["contribution"], row["gain"] * row["discount"]):
            problems.append(f"ideal rank {row['rank']}: contribution is not gain x discount")
    idcg = sum(r["contribution"] for r in record.ideal)
    if not _close(idcg, record.idcg):
        problems.append(f"IDCG {record.idcg} is not the sum of ideal contributions {idcg}")
    if idcg > 0:
        expected = dcg / idcg
        if flavor.round != "none":
            expected = round(expected, int(flavor.round))
    else:
        expected = {"skip": None, "zero": 0.0, "one": 1.0, "error": None}[flavor.empty]
    if not _close(record.value, expected):
        problems.append(f"value {record.value} but the record gives {expected}")
    return problems
