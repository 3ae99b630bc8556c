"""One Python id or value, checked: the rules of every Python input (dicts, object columns, namedtuples)."""

from __future__ import annotations

import math
import numbers
from decimal import Decimal
from typing import Any

import numpy as np

from rankflavor.errors import InputError


def check_id(value: Any, what: str, name: str) -> str:
    """A Python id as its string (an int as its decimal text); InputError for anything else or an empty one."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return str(value)
    if not isinstance(value, str):
        raise InputError(f"{what} id {value!r} is a {type(value).__name__}, not a string", source=name,
                         fix="use string ids (integers are accepted and turned into their decimal text)")
    if not value:
        raise InputError(f"an empty {what} id", source=name, fix=f"every row needs a non-empty {what} id")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{what} id {value!r} is not valid Unicode text (a lone surrogate)", source=name,
                         fix="decode the ids properly (e.g. bytes.decode('utf-8'))") from None
    return value


def check_value(value: Any, what: str, name: str, query: str, doc: str) -> float:
    """A Python grade or score as a float; InputError naming the query and doc when it is not a finite number."""
    if isinstance(value, (bool, np.bool_, str, bytes, np.complexfloating)) or not isinstance(
            value, (numbers.Real, np.number, Decimal)):
        raise InputError(f"{what} {value!r} of query {query!r} doc {doc!r} is a {type(value).__name__}, not a number",
                         source=name, fix=f"every {what} must be a number (int or float)")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        number = math.inf
    if not math.isfinite(number):
        raise InputError(f"{what} {value!r} of query {query!r} doc {doc!r} is not a finite number", source=name,
                         fix=f"every {what} must be a finite number")
    return number
