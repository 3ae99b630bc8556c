"""The fields of a saved result beyond its run, flavor and mean (report/saved.py `_result`), each declared once
with its type and range, checked when the file is read: a count that is a string, a negative or a number beyond
any collection, a per-query value that is not a number, a warning that is not text is an InputError naming the
field and the value (a tampered or foreign file), never a crash later (a repr, a table, a comparison).
"""

from __future__ import annotations

from typing import Any

from rankflavor.errors import InputError

MOST = 1 << 53  # a count beyond any collection (and beyond the integers a JSON reader keeps exactly)
FIX = "load a report saved by rankflavor eval --format json > FILE, or report.to_json(FILE)"


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MOST


def _number_or_null(value: Any) -> bool:
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))


def _refuse(where: str, what: str, value: Any, source: str) -> InputError:
    return InputError(f"{where} is not {what} (got {value!r:.80})", source=source, fix=FIX)


def check_fields(item: dict[str, Any], where: str, source: str) -> None:
    """Counts, denominator, warnings, warning details and per-query rows of one saved result (module docstring)."""
    for key, count in item["counts"].items():
        if not _whole(count):
            raise _refuse(f"{where}.counts.{key}", f"a count (a whole number from 0 to {MOST:,})", count, source)
    denominator = item.get("denominator", {})
    if not isinstance(denominator, dict):
        raise _refuse(f"{where}.denominator", "an object", denominator, source)
    for key, value in denominator.items():
        if key == "total_weight":  # (a weighted mean's total weight: a finite number >= 0)
            if not (_number_or_null(value) and (value is None or value >= 0)):
                raise _refuse(f"{where}.denominator.{key}", "a number >= 0", value, source)
        elif not (_whole(value) or isinstance(value, str)):
            raise _refuse(f"{where}.denominator.{key}", "a count or a text", value, source)
    for key in ("warnings", "warning_details"):
        value = item.get(key, [])
        if not isinstance(value, list):
            raise _refuse(f"{where}.{key}", "a list", value, source)
    for i, text in enumerate(item.get("warnings", [])):
        if not isinstance(text, str):
            raise _refuse(f"{where}.warnings[{i}]", "a text", text, source)
    for i, detail in enumerate(item.get("warning_details", [])):
        if not isinstance(detail, dict) or not isinstance(detail.get("code", ""), str):
            raise _refuse(f"{where}.warning_details[{i}]", "an object with a text 'code'", detail, source)
    _check_rows(item, where, source)


def _check_rows(item: dict[str, Any], where: str, source: str) -> None:
    rows = item.get("per_query", [])
    if not isinstance(rows, list):
        raise _refuse(f"{where}.per_query", "a list", rows, source)
    for i, row in enumerate(rows):
        place = f"{where}.per_query[{i}]"
        if not isinstance(row, dict) or not isinstance(row.get("query"), str):
            raise _refuse(place, "an object with a text 'query'", row, source)
        if not isinstance(row.get("status", ""), str):
            raise _refuse(f"{place}.status", "a text", row.get("status"), source)
        for key, value in row.items():
            if key not in ("query", "status") and not _number_or_null(value):
                raise _refuse(f"{place}.{key}", "a number or null", value, source)
